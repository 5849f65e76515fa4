// Kernel resource figures (see kernel_resources.h).
#include "runtime/kernel_resources.h"

#include <algorithm>
#include <regex>

#include "cuda/launch.h"
#include "cuda/linker.h"
#include "cuda/module.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

bool parse_link_report(const std::string& log, const std::string& symbol, KernelResources* out) {
  std::string header = "Function properties for '" + symbol + "':";
  std::size_t at = log.find(header);
  if (at == std::string::npos) return false;
  std::size_t line_start = log.find('\n', at);
  if (line_start == std::string::npos) return false;
  std::size_t line_end = log.find('\n', line_start + 1);
  std::string line =
      log.substr(line_start + 1, line_end == std::string::npos ? std::string::npos : line_end - line_start - 1);
  auto number_before = [&](const std::string& what) -> int {
    std::smatch m;
    if (std::regex_search(line, m, std::regex("(\\d+) " + what))) return std::stoi(m[1]);
    return 0;
  };
  *out = KernelResources{};
  out->registers = number_before("registers");
  out->local_bytes = number_before("stack") + number_before("bytes lmem");
  out->shared_bytes = number_before("bytes smem");
  std::regex cmem("(\\d+) bytes cmem\\[(\\d+)\\]");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), cmem); it != std::sregex_iterator(); ++it)
    if ((*it)[2] != "0") out->const_bytes += std::stoi((*it)[1]);
  // The module's user constants (`__constant__` data, print formats) are
  // reported once for the module, on its "N bytes gmem, M bytes cmem[3]"
  // line: the module holds this kernel alone, so they are the kernel's.
  std::regex module_line(R"((?:^|\n)info\s*:\s*\d+ bytes gmem([^\n]*))");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), module_line); it != std::sregex_iterator(); ++it) {
    std::string rest = (*it)[1];
    for (auto c = std::sregex_iterator(rest.begin(), rest.end(), cmem); c != std::sregex_iterator(); ++c)
      if ((*c)[2] != "0") out->const_bytes += std::stoi((*c)[1]);
  }
  return true;
}

int max_threads_for_registers(int registers, int launch_bound) {
  int threads = 1024;
  if (registers > 0) {
    int per_warp = (registers * 32 + 255) / 256 * 256;
    threads = std::min(threads, 65536 / per_warp * 32);
  }
  if (launch_bound > 0) threads = std::min(threads, launch_bound);
  return threads;
}

KernelResources kernel_resources(const std::shared_ptr<const CompiledKernel>& kernel, bool on_gpu, int device) {
  CUHOST_CHECK(kernel && kernel->target == Target::NVPTX) << "kernel resources need an NVPTX compilation";
  KernelResources r;
  if (on_gpu) {
    CUfunction f = cuda::kernel_function(kernel, device);
    const std::string& n = kernel->name;
    r.registers = cuda::function_attribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, n);
    r.local_bytes = cuda::function_attribute(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, n);
    r.shared_bytes = cuda::function_attribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, n);
    r.const_bytes = cuda::function_attribute(f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, n);
    r.max_threads = cuda::function_attribute(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, n);
    return r;
  }
  if (!kernel->link.empty())
    throw UserError(ErrorKind::NotImplementedError,
                    concat("the resource usage of kernel '", kernel->name,
                           "' cannot be measured on the CPU backend: it links foreign code, which only the GPU "
                           "module loader assembles; run on a GPU"));
  cuda::LinkResult linked = cuda::link({cuda::LinkInput{ir::LinkKind::PTXSource, kernel->name + ".ptx", kernel->ptx}},
                                       9, 0, false, {"-verbose"});
  if (!parse_link_report(linked.info_log, kernel->symbol, &r))
    throw UserError(ErrorKind::RuntimeError, concat("nvJitLink reported no function properties for kernel '",
                                                    kernel->name, "' (", kernel->symbol, "):\n", linked.info_log));
  // ptxas counts the 1 KiB sm_90 reserves for the system in "smem"; the
  // driver's SHARED_SIZE_BYTES is the kernel's own static shared memory.
  r.shared_bytes = static_cast<int>(kernel->static_shared_bytes);
  r.max_threads = max_threads_for_registers(r.registers, kernel->launch_bound_threads);
  return r;
}

}  // namespace cuhost::runtime
