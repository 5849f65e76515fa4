// Compiles and links an exported kernel's GPU images (see gpu_images.h).
#include "aot_export/gpu_images.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "cuda/linker.h"
#include "cuda/module.h"
#include "cuda/nvrtc.h"
#include "runtime/compile_lookup.h"
#include "runtime/compiler.h"
#include "support/diagnostics.h"

namespace cuhost::aot_export {
namespace {

// LLVM 19's NVPTX backend emits PTX up to sm_90; nvJitLink makes a newer
// chip's SASS from that PTX (as the session does for such a GPU).
model::TargetOptions nvptx_target(const GpuArch& a) {
  model::TargetOptions t;
  t.target = model::Target::NVPTX;
  if (a.major > 9) {
    t.cc_major = 9;
    t.cc_minor = 0;
  } else {
    t.cc_major = a.major;
    t.cc_minor = a.minor;
    t.arch_suffix = a.suffix;
  }
  return t;
}

// The kernel's PTX and every item it links, as one cubin for `a`.
std::string link_cubin(const model::CompiledKernel& k, const GpuArch& a) {
  std::vector<cuda::LinkInput> inputs;
  inputs.push_back(cuda::LinkInput{ir::LinkKind::PTXSource, k.name + ".ptx", k.ptx});
  bool lto = false, has_cuda_c = false;
  for (const ir::LinkItem& item : k.link) {
    ir::LinkKind kind = item.from_path() ? cuda::link_kind_from_path(item.path) : item.kind;
    lto = lto || kind == ir::LinkKind::LTOIR;
    has_cuda_c = has_cuda_c || kind == ir::LinkKind::CUSource;
  }
  for (cuda::LinkInput& in : cuda::read_link_items(k.link, a.major, a.minor, lto)) {
    lto = lto || in.kind == ir::LinkKind::LTOIR;
    inputs.push_back(std::move(in));
  }
  // NVRTC compiled CUDA C for the architecture-specific target; the link must match it.
  std::vector<std::string> extra;
  if (!a.suffix.empty())
    extra.push_back("-arch=" + a.name());
  else if (has_cuda_c)
    extra.push_back("-arch=" + cuda::arch_for(a.major, a.minor));
  return cuda::link(inputs, a.major, a.minor, lto, extra).cubin;
}

}  // namespace

std::string GpuArch::name() const { return concat("sm_", major, minor, suffix); }

std::vector<GpuArch> parse_arch_list(const std::string& text) {
  std::vector<GpuArch> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    GpuArch a;
    std::string digits = item.rfind("sm_", 0) == 0 ? item.substr(3) : std::string();
    if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) {
      a.suffix = digits.substr(digits.size() - 1);
      digits.pop_back();
    }
    bool ok = digits.size() >= 2 && digits.size() <= 3 &&
              std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (ok) {
      a.major = std::atoi(digits.substr(0, digits.size() - 1).c_str());
      a.minor = digits.back() - '0';
      ok = a.major >= 5;
    }
    if (!ok)
      throw UserError(ErrorKind::ValueError,
                      concat("invalid GPU architecture '", item, "' in --arch (expected e.g. sm_80,sm_90)"));
    out.push_back(a);
  }
  std::sort(out.begin(), out.end(), [](const GpuArch& x, const GpuArch& y) {
    return x.major != y.major ? x.major < y.major : x.minor != y.minor ? x.minor < y.minor : x.suffix < y.suffix;
  });
  return out;
}

GpuExport export_gpu(const SelectedKernel& kernel, const std::vector<GpuArch>& archs) {
  GpuExport out;
  for (const GpuArch& a : archs) {
    auto compiled = runtime::compile_kernel(kernel.fn, kernel.arg_types, nvptx_target(a));
    try {
      out.cubins.push_back(GpuImage{a, link_cubin(*compiled, a)});
    } catch (UserError& e) {
      e.add_note(concat("while linking kernel '", kernel.name, "' for ", a.name()));
      throw;
    }
    // The manifest records one entry symbol and one shared-memory padding for all architectures.
    if (out.newest && (compiled->symbol != out.newest->symbol ||
                       compiled->dynamic_shared_padding != out.newest->dynamic_shared_padding))
      throw UserError(ErrorKind::CompileError,
                      concat("kernel '", kernel.name, "' compiles to another entry symbol or shared-memory layout for ",
                             a.name(), " than for the older architectures; export the architectures separately"));
    out.newest = compiled;
  }
  if (out.newest && out.newest->link.empty() && archs.back().suffix.empty()) {
    out.ptx = out.newest->ptx;
    GpuArch ptx_arch = archs.back();
    if (ptx_arch.major > 9) ptx_arch = GpuArch{9, 0, ""};
    out.ptx_arch = ptx_arch.name();
  }
  return out;
}

}  // namespace cuhost::aot_export
