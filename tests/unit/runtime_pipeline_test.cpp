// The compile pipeline (runtime/pipeline.h): the stage lists each entry point
// composes, what each stage leaves in the job, one timing line per stage
// under `cuhost -v`, and CUHOST_DUMP's output of the stages it names.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "codegen/module.h"
#include "codegen_support.h"
#include "runtime/pipeline.h"
#include "sema/typed_function.h"
#include "support/log.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

const char* kAxpy = R"(
from numba import cuda

def axpy(a, x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + out[i]
)";

std::vector<std::string> names(const std::vector<runtime::Stage>& stages) {
  std::vector<std::string> out;
  for (runtime::Stage s : stages) out.push_back(runtime::stage_name(s));
  return out;
}

// What `body` writes to stderr (file descriptor 2).
template <class Body>
std::string stderr_of(Body&& body) {
  std::string path = "/tmp/cuhost_pipeline_test_" + std::to_string(getpid()) + ".txt";
  std::fflush(stderr);
  int saved = dup(2);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
  try {
    body();
  } catch (...) {
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    throw;
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

// Lines of `text` starting with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("pipeline: the stage list of each composition", "[runtime][pipeline]") {
  using V = std::vector<std::string>;
  CHECK(names(runtime::kernel_stages(runtime::Target::NVPTX)) ==
        V{"capture", "typing", "lowering", "link", "optimization", "codegen"});
  CHECK(names(runtime::kernel_stages(runtime::Target::CPU)) ==
        V{"capture", "typing", "lowering", "link", "optimization", "load"});
  CHECK(names(runtime::device_function_stages()) == V{"capture", "typing", "lowering", "optimization", "codegen"});
  CHECK(names(runtime::host_function_stages()) == V{"capture", "typing", "lowering", "link", "optimization", "load"});
}

TEST_CASE("pipeline: each stage leaves its product in the job", "[runtime][pipeline]") {
  runtime::CompileJob job;
  job.fn = jit_from_source(kAxpy, "axpy");
  job.arg_types = types_of({"float64", "float64[::1]", "float64[::1]"});
  job.target.target = runtime::Target::NVPTX;
  runtime::run_pipeline(job, {runtime::Stage::Capture, runtime::Stage::Typing});
  REQUIRE(job.typed);
  CHECK(job.typed->locals.at("i")->str() == "int64");
  CHECK_FALSE(job.lowered);
  runtime::run_pipeline(job, {runtime::Stage::Lowering, runtime::Stage::Link});
  REQUIRE(job.lowered);
  CHECK(job.lowered->module);
  CHECK(job.llvm_ir.empty());
  runtime::run_pipeline(job, {runtime::Stage::Optimization});
  CHECK(job.llvm_ir_unoptimized.find("define") != std::string::npos);
  CHECK(job.llvm_ir != job.llvm_ir_unoptimized);
  CHECK(job.ptx.empty());
  runtime::run_pipeline(job, {runtime::Stage::CodeGeneration});
  CHECK(job.ptx.find(".entry") != std::string::npos);
  CHECK(job.ptx.find(".target sm_90") != std::string::npos);
  CHECK(job.ptx.find("fma.rn.f64") != std::string::npos);  // a * x[i] + out[i], contracted as numba's NVVM does
}

TEST_CASE("pipeline: a CPU kernel is loaded into the JIT, no PTX made", "[runtime][pipeline]") {
  runtime::CompileJob job;
  job.fn = jit_from_source(kAxpy, "axpy");
  job.arg_types = types_of({"float32", "float32[::1]", "float32[::1]"});
  job.target.target = runtime::Target::CPU;
  runtime::run_pipeline(job, runtime::kernel_stages(runtime::Target::CPU));
  CHECK(job.ptx.empty());
  REQUIRE(job.symbols.size() == 2);  // barrier-free: the thread function and the block loop
  REQUIRE(job.addresses.size() >= 2);
  CHECK(job.addresses[0] != nullptr);
  CHECK(job.addresses[1] != nullptr);
  CHECK(job.llvm_ir.find(job.symbols[0]) != std::string::npos);
  // Load consumed the module: the JIT owns it now.
  CHECK_FALSE(job.lowered->module);
}

TEST_CASE("pipeline: one timing line per stage under -v", "[runtime][pipeline]") {
  runtime::CompileJob job;
  job.fn = jit_from_source(kAxpy, "axpy");
  job.arg_types = types_of({"float64", "float64[::1]", "float64[::1]"});
  job.target.target = runtime::Target::NVPTX;
  log::set_verbose(true);
  std::string err = stderr_of([&] { runtime::run_pipeline(job, runtime::kernel_stages(runtime::Target::NVPTX)); });
  log::set_verbose(false);
  std::vector<std::string> lines = lines_starting(err, "cuhost: [axpy] ");
  // Capture is timed where the Python function is captured (it needs the
  // interpreter); the others here, in order.
  REQUIRE(lines.size() == 5);
  const char* expected[] = {"typing", "lowering", "link", "optimization", "codegen"};
  for (size_t i = 0; i < 5; ++i) {
    INFO(lines[i]);
    CHECK(lines[i].rfind(std::string("cuhost: [axpy] ") + expected[i] + " ", 0) == 0);
    CHECK(lines[i].size() > 3);
    CHECK(lines[i].compare(lines[i].size() - 3, 3, " ms") == 0);
  }
}

TEST_CASE("pipeline: CUHOST_DUMP prints the stages it names", "[runtime][pipeline]") {
  runtime::CompileJob job;
  job.fn = jit_from_source(kAxpy, "axpy");
  job.arg_types = types_of({"float64", "float64[::1]", "float64[::1]"});
  job.target.target = runtime::Target::NVPTX;
  setenv("CUHOST_DUMP", "typing,codegen", 1);
  std::string err = stderr_of([&] { runtime::run_pipeline(job, runtime::kernel_stages(runtime::Target::NVPTX)); });
  unsetenv("CUHOST_DUMP");
  CHECK(err.find(" cuhost dump: typing of axpy ") != std::string::npos);
  CHECK(err.find("signature: (float64, array(float64, 1d, C), array(float64, 1d, C)) -> none") != std::string::npos);
  CHECK(err.find("  i: int64\n") != std::string::npos);
  CHECK(err.find(" cuhost dump: codegen of axpy ") != std::string::npos);
  CHECK(err.find(job.ptx) != std::string::npos);
  // Stages not named are not dumped.
  CHECK(err.find(" cuhost dump: lowering") == std::string::npos);
  CHECK(err.find(" cuhost dump: optimization") == std::string::npos);
}
