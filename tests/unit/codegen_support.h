// Helpers for the codegen tests: compile a Python kernel from source for a
// target, run FileCheck (an LLVM tool, as a subprocess) on produced text
// against a golden check file under tests/data/codegen, and assemble PTX for
// sm_90 through nvJitLink.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "cuda/linker.h"
#include "runtime/compile_lookup.h"
#include "runtime/compiler.h"
#include "sema_support.h"

namespace cuhost::testing {

// Whether `pattern` (an ECMAScript regular expression) matches somewhere in `text`.
inline bool matches(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

inline std::shared_ptr<model::JitFunction> jit_from_source(const std::string& source, const std::string& fname,
                                                             model::JitOptions options = {}) {
  Gil gil;
  PyObject* globals = load_module(source);
  auto fn = jit_of(globals, fname);
  auto copy = std::make_shared<model::JitFunction>(*fn);
  copy->options = options;
  copy->name = fname;
  return copy;
}

inline std::shared_ptr<const runtime::CompiledKernel> compile_source(const std::string& source,
                                                                     const std::string& fname,
                                                                     const std::vector<std::string>& args,
                                                                     runtime::Target target,
                                                                     model::JitOptions options = {},
                                                                     bool bounds_check = false) {
  auto fn = jit_from_source(source, fname, options);
  runtime::TargetOptions t;
  t.target = target;
  t.bounds_check = bounds_check;
  return runtime::compile_kernel(fn, types_of(args), t);
}

// Runs FileCheck with tests/data/codegen/<check_file> (prefix CHECK or
// `prefix`) on `text`; returns FileCheck's output when it fails, "" when it passes.
inline std::string file_check(const std::string& text, const std::string& check_file,
                              const std::string& prefix = "CHECK") {
  static int counter = 0;
  std::string input = "/tmp/cuhost_codegen_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".txt";
  {
    std::ofstream out(input);
    out << text;
  }
  std::string cmd = std::string(CUHOST_FILECHECK) + " --check-prefix=" + prefix + " " + CUHOST_TEST_DATA_DIR +
                    "/codegen/" + check_file + " --input-file=" + input + " 2>&1";
  std::string output;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "cannot run FileCheck";
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
  int status = pclose(p);
  std::remove(input.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  return output.empty() ? "FileCheck failed" : output;
}

// Assembles PTX for sm_90 (throws UserError on failure).
inline cuda::LinkResult assemble(const std::string& ptx, const std::string& name) {
  return cuda::link({{ir::LinkKind::PTXSource, name + ".ptx", ptx}}, 9, 0, false);
}

}  // namespace cuhost::testing
