// nvJitLink behind one RAII owner (see linker.h). Besides assembling our own
// PTX, this is where foreign link problems become readable errors: the
// error log is parsed so an unresolved symbol is named in the message, and a
// symbol defined twice is an error even in non-LTO mode, where nvJitLink only
// mentions it in the info log.
#include "cuda/linker.h"

#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <regex>
#include <set>

#include "cuda/nvrtc.h"
#include "cuda/toolkit_libraries.h"
#include "support/diagnostics.h"

namespace cuhost::cuda {
namespace {

const char* result_name(nvJitLinkResult r) {
  switch (r) {
    case NVJITLINK_SUCCESS: return "NVJITLINK_SUCCESS";
    case NVJITLINK_ERROR_UNRECOGNIZED_OPTION: return "NVJITLINK_ERROR_UNRECOGNIZED_OPTION";
    case NVJITLINK_ERROR_MISSING_ARCH: return "NVJITLINK_ERROR_MISSING_ARCH";
    case NVJITLINK_ERROR_INVALID_INPUT: return "NVJITLINK_ERROR_INVALID_INPUT";
    case NVJITLINK_ERROR_PTX_COMPILE: return "NVJITLINK_ERROR_PTX_COMPILE";
    case NVJITLINK_ERROR_NVVM_COMPILE: return "NVJITLINK_ERROR_NVVM_COMPILE";
    case NVJITLINK_ERROR_INTERNAL: return "NVJITLINK_ERROR_INTERNAL";
    case NVJITLINK_ERROR_THREADPOOL: return "NVJITLINK_ERROR_THREADPOOL";
    case NVJITLINK_ERROR_UNRECOGNIZED_INPUT: return "NVJITLINK_ERROR_UNRECOGNIZED_INPUT";
    case NVJITLINK_ERROR_FINALIZE: return "NVJITLINK_ERROR_FINALIZE";
    case NVJITLINK_ERROR_NULL_INPUT: return "NVJITLINK_ERROR_NULL_INPUT";
    case NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS: return "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS";
    case NVJITLINK_ERROR_INCORRECT_INPUT_TYPE: return "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE";
    case NVJITLINK_ERROR_ARCH_MISMATCH: return "NVJITLINK_ERROR_ARCH_MISMATCH";
    case NVJITLINK_ERROR_OUTDATED_LIBRARY: return "NVJITLINK_ERROR_OUTDATED_LIBRARY";
    case NVJITLINK_ERROR_MISSING_FATBIN: return "NVJITLINK_ERROR_MISSING_FATBIN";
    case NVJITLINK_ERROR_UNRECOGNIZED_ARCH: return "NVJITLINK_ERROR_UNRECOGNIZED_ARCH";
    case NVJITLINK_ERROR_UNSUPPORTED_ARCH: return "NVJITLINK_ERROR_UNSUPPORTED_ARCH";
    case NVJITLINK_ERROR_LTO_NOT_ENABLED: return "NVJITLINK_ERROR_LTO_NOT_ENABLED";
  }
  return "NVJITLINK_ERROR_UNKNOWN";
}

nvJitLinkInputType input_type(ir::LinkKind kind, const std::string& name) {
  switch (kind) {
    case ir::LinkKind::PTXSource: return NVJITLINK_INPUT_PTX;
    case ir::LinkKind::Cubin: return NVJITLINK_INPUT_CUBIN;
    case ir::LinkKind::Fatbin: return NVJITLINK_INPUT_FATBIN;
    case ir::LinkKind::Archive: return NVJITLINK_INPUT_LIBRARY;
    case ir::LinkKind::Object: return NVJITLINK_INPUT_OBJECT;
    case ir::LinkKind::LTOIR: return NVJITLINK_INPUT_LTOIR;
    case ir::LinkKind::CUSource: break;
  }
  throw UserError(ErrorKind::LinkerError,
                  concat("cannot link CUDA source '", name, "' directly: it must be compiled with NVRTC first"));
}

// Owns one nvJitLinkHandle; destroys it on every path.
class LinkHandle {
 public:
  LinkHandle(const std::vector<std::string>& options) {
    std::vector<const char*> argv;
    for (const std::string& o : options) argv.push_back(o.c_str());
    nvJitLinkResult r = nvjitlink_api().nvJitLinkCreate(&handle_, static_cast<uint32_t>(argv.size()), argv.data());
    if (r != NVJITLINK_SUCCESS) {
      handle_ = nullptr;
      std::string opts;
      for (const std::string& o : options) opts += " " + o;
      throw UserError(ErrorKind::LinkerError,
                      concat("nvJitLinkCreate failed (", result_name(r), ") with options:", opts));
    }
  }
  ~LinkHandle() {
    if (handle_) nvjitlink_api().nvJitLinkDestroy(&handle_);
  }
  LinkHandle(const LinkHandle&) = delete;
  LinkHandle& operator=(const LinkHandle&) = delete;
  nvJitLinkHandle get() const { return handle_; }

  std::string error_log() const {
    size_t size = 0;
    if (nvjitlink_api().nvJitLinkGetErrorLogSize(handle_, &size) != NVJITLINK_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (nvjitlink_api().nvJitLinkGetErrorLog(handle_, log.data()) != NVJITLINK_SUCCESS) return {};
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
  }
  std::string info_log() const {
    size_t size = 0;
    if (nvjitlink_api().nvJitLinkGetInfoLogSize(handle_, &size) != NVJITLINK_SUCCESS || size == 0) return {};
    std::string log(size, '\0');
    if (nvjitlink_api().nvJitLinkGetInfoLog(handle_, log.data()) != NVJITLINK_SUCCESS) return {};
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
  }

 private:
  nvJitLinkHandle handle_ = nullptr;
};

// Symbol names quoted in log lines that match `pattern` (case-insensitive).
std::vector<std::string> quoted_symbols(const std::string& log, const std::regex& line_pattern) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t start = 0;
  static const std::regex quoted("'([^']+)'|\"([^\"]+)\"");
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string line = log.substr(start, end - start);
    start = end + 1;
    if (!std::regex_search(line, line_pattern)) continue;
    std::smatch m;
    if (std::regex_search(line, m, quoted)) {
      std::string sym = m[1].matched ? m[1].str() : m[2].str();
      if (seen.insert(sym).second) out.push_back(sym);
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

[[noreturn]] void fail(const std::string& what, nvJitLinkResult r, const LinkHandle& h,
                       const std::string& side_log = {}) {
  std::string log = h.error_log();
  for (const std::string& extra : {side_log, h.info_log()})
    if (!extra.empty()) log += (log.empty() ? "" : "\n") + extra;
  static const std::regex undefined("undefined|unresolved", std::regex::icase);
  static const std::regex duplicate("multiple definition|duplicate|multiply defined|already defined",
                                    std::regex::icase);
  std::string headline = concat(what, " failed (", result_name(r), ")");
  std::vector<std::string> missing = quoted_symbols(log, undefined);
  std::vector<std::string> dups = quoted_symbols(log, duplicate);
  if (!missing.empty())
    headline += concat(": unresolved symbol ", join(missing));
  else if (!dups.empty())
    headline += concat(": symbol defined more than once: ", join(dups));
  throw UserError(ErrorKind::LinkerError, concat(headline, "\nnvJitLink log:\n", log));
}

// In non-LTO mode nvJitLink reports some diagnostics (a symbol defined twice
// among them) only by writing "@E@..." / "@W@..." lines to the process's
// stderr while still returning success. fd 2 is redirected into a temporary
// file around the call (serialized: fd 2 is process-wide); those lines are
// returned and anything else written meanwhile is passed through.
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    tmp_ = std::tmpfile();
    if (!tmp_) return;
    saved_ = dup(2);
    if (saved_ < 0 || dup2(fileno(tmp_), 2) < 0) {
      if (saved_ >= 0) close(saved_);
      saved_ = -1;
    }
  }
  ~StderrCapture() { finish(); }
  // Restores stderr and returns the diagnostic lines that were written.
  std::string finish() {
    std::string diagnostics;
    if (saved_ < 0) {
      if (tmp_) std::fclose(tmp_);
      tmp_ = nullptr;
      return diagnostics;
    }
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
    std::string text;
    std::rewind(tmp_);
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, tmp_)) > 0) text.append(buf, n);
    std::fclose(tmp_);
    tmp_ = nullptr;
    // The device linker's own lines ("error   : Multiple definition of
    // 'f' in 'b.cu', first defined in 'a.cu'"), which some links write
    // instead of "@E@" lines: read as diagnostics and still shown.
    static const std::regex linker_line("^(error|warning|info)\\s*: ");
    std::string passthrough;
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(start, end - start);
      start = end + 1;
      if (line.rfind("@E@", 0) == 0 || line.rfind("@W@", 0) == 0 || line.rfind("@I@", 0) == 0) {
        diagnostics += line.substr(3) + "\n";
        continue;
      }
      if (std::regex_search(line, linker_line)) diagnostics += line + "\n";
      passthrough += line + "\n";
    }
    if (!passthrough.empty()) std::fwrite(passthrough.data(), 1, passthrough.size(), stderr);
    return diagnostics;
  }

 private:
  std::FILE* tmp_ = nullptr;
  int saved_ = -1;
};

std::mutex& stderr_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

LinkResult link(const std::vector<LinkInput>& inputs, int cc_major, int cc_minor, bool lto,
                const std::vector<std::string>& extra_options) {
  bool any_ltoir = false;
  for (const LinkInput& in : inputs) any_ltoir |= in.kind == ir::LinkKind::LTOIR;
  // The same architecture NVRTC compiles foreign code for (sm_90a on 9.0):
  // ptxas refuses to lower sm_90a PTX for plain sm_90, and accepts sm_90
  // PTX (ours) for sm_90a.
  bool arch_given = false;
  for (const std::string& o : extra_options) arch_given |= o.rfind("-arch=", 0) == 0;
  std::vector<std::string> options;
  if (!arch_given) options.push_back("-arch=" + arch_for(cc_major, cc_minor));
  // -lto only when an LTO-IR input is present: nvJitLink fails a -lto link
  // that has no LTO-IR module (NVVM_ERROR_NO_MODULE_IN_PROGRAM), which is
  // what lto=True with only PTX/cubin inputs would otherwise give.
  (void)lto;
  if (any_ltoir) options.push_back("-lto");
  for (const std::string& o : extra_options) options.push_back(o);

  LinkHandle handle(options);
  nvJitLinkResult r = NVJITLINK_SUCCESS;
  std::string side_log;
  std::string failed_step;
  {
    // Non-LTO PTX is assembled as it is added, so the capture spans the adds too.
    std::lock_guard<std::mutex> lock(stderr_mutex());
    StderrCapture capture;
    for (const LinkInput& in : inputs) {
      nvJitLinkInputType type = input_type(in.kind, in.name);
      std::string data = in.data;
      // PTX must be NUL-terminated text for the assembler.
      if (in.kind == ir::LinkKind::PTXSource && (data.empty() || data.back() != '\0')) data.push_back('\0');
      r = nvjitlink_api().nvJitLinkAddData(handle.get(), type, data.data(), data.size(), in.name.c_str());
      if (r != NVJITLINK_SUCCESS) {
        failed_step = concat("adding '", in.name, "' to the link");
        break;
      }
    }
    if (r == NVJITLINK_SUCCESS) {
      r = nvjitlink_api().nvJitLinkComplete(handle.get());
      if (r != NVJITLINK_SUCCESS) failed_step = "nvJitLink link";
    }
    side_log = capture.finish();
  }
  if (r != NVJITLINK_SUCCESS) fail(failed_step, r, handle, side_log);

  LinkResult result;
  result.info_log = handle.info_log();
  if (!side_log.empty()) result.info_log += (result.info_log.empty() ? "" : "\n") + side_log;
  // Non-LTO links accept a symbol defined twice with only a note in a log:
  // that is a silent wrong-function hazard, so it is an error here.
  static const std::regex duplicate("multiple definition|duplicate|multiply defined|already defined",
                                    std::regex::icase);
  std::string all_logs = handle.error_log() + "\n" + result.info_log;
  while (!all_logs.empty() && all_logs.front() == '\n') all_logs.erase(0, 1);
  std::vector<std::string> dups = quoted_symbols(all_logs, duplicate);
  if (!dups.empty())
    throw UserError(ErrorKind::LinkerError,
                    concat("symbol defined more than once: ", join(dups), "\nnvJitLink log:\n", all_logs));

  size_t size = 0;
  bool want_ptx = false;
  for (const std::string& o : options) want_ptx |= o == "-ptx";
  if (want_ptx) {
    r = nvjitlink_api().nvJitLinkGetLinkedPtxSize(handle.get(), &size);
    if (r != NVJITLINK_SUCCESS) fail("nvJitLinkGetLinkedPtxSize", r, handle);
    result.ptx.resize(size);
    r = nvjitlink_api().nvJitLinkGetLinkedPtx(handle.get(), result.ptx.data());
    if (r != NVJITLINK_SUCCESS) fail("nvJitLinkGetLinkedPtx", r, handle);
    while (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
    return result;
  }
  r = nvjitlink_api().nvJitLinkGetLinkedCubinSize(handle.get(), &size);
  if (r != NVJITLINK_SUCCESS) fail("nvJitLinkGetLinkedCubinSize", r, handle);
  result.cubin.resize(size);
  r = nvjitlink_api().nvJitLinkGetLinkedCubin(handle.get(), result.cubin.data());
  if (r != NVJITLINK_SUCCESS) fail("nvJitLinkGetLinkedCubin", r, handle);
  return result;
}

void warm_up_linker(int cc_major, int cc_minor) noexcept {
  const std::string target = concat("sm_", cc_major * 10 + cc_minor);
  const std::string ptx = concat(".version 8.7\n.target ", target,
                                 "\n.address_size 64\n\n.visible .entry cuhost_warm_up()\n{\n  ret;\n}\n");
  try {
    link({LinkInput{ir::LinkKind::PTXSource, "cuhost_warm_up.ptx", ptx}}, cc_major, cc_minor, false);
  } catch (...) {
    // a target this nvJitLink does not know: the first real link reports it
  }
}

}  // namespace cuhost::cuda
