// The GPU images of an exported kernel: for each architecture asked for
// (sm_80, sm_90, ...) the kernel compiled by the NVPTX backend and linked by
// nvJitLink with everything it links (plugin .cu/.ltoir/.a items, cudadevrt
// for grid sync) into a cubin; and the newest architecture's PTX, which the
// driver compiles for GPUs newer than every cubin. Needs NVRTC and nvJitLink
// at export time only; no GPU.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aot_export/kernel_selection.h"
#include "model/compiled_kernel.h"

namespace cuhost::aot_export {

struct GpuArch {
  int major = 0, minor = 0;
  std::string suffix;  // "a" for sm_90a
  std::string name() const;
};

// "sm_80,sm_90a" -> the architectures, sorted oldest first. Throws
// UserError(ValueError) naming a malformed entry.
std::vector<GpuArch> parse_arch_list(const std::string& text);

struct GpuImage {
  GpuArch arch;
  std::string cubin;
};

struct GpuExport {
  std::shared_ptr<const model::CompiledKernel> newest;  // compiled for the newest arch: facts and PTX
  std::string ptx;       // the PTX that loads alone on newer GPUs (empty: the kernel links foreign code
                         // given only as machine code, so only the cubins exist)
  std::string ptx_arch;  // its target, e.g. sm_90
  std::vector<GpuImage> cubins;
};

// Throws the compiler's and nvJitLink's UserErrors, naming the kernel.
GpuExport export_gpu(const SelectedKernel& kernel, const std::vector<GpuArch>& archs);

}  // namespace cuhost::aot_export
