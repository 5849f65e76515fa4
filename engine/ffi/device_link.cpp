// Foreign device code inlined into NVPTX kernels (see device_link.h).
#include "ffi/device_link.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include "ffi/device_compile.h"
#include "ffi/link_diagnostics.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::ffi {
namespace {

// Intrinsics the NVPTX backend lowers to instructions (no library calls).
bool lowerable_intrinsic(const llvm::Function& f) {
  if (f.getName().starts_with("llvm.nvvm.")) return true;
  switch (f.getIntrinsicID()) {
    case llvm::Intrinsic::lifetime_start:
    case llvm::Intrinsic::lifetime_end:
    case llvm::Intrinsic::memcpy:
    case llvm::Intrinsic::memcpy_inline:
    case llvm::Intrinsic::memmove:
    case llvm::Intrinsic::memset:
    case llvm::Intrinsic::fmuladd:
    case llvm::Intrinsic::fma:
    case llvm::Intrinsic::fabs:
    case llvm::Intrinsic::sqrt:
    case llvm::Intrinsic::minnum:
    case llvm::Intrinsic::maxnum:
    case llvm::Intrinsic::minimum:
    case llvm::Intrinsic::maximum:
    case llvm::Intrinsic::copysign:
    case llvm::Intrinsic::floor:
    case llvm::Intrinsic::ceil:
    case llvm::Intrinsic::trunc:
    case llvm::Intrinsic::rint:
    case llvm::Intrinsic::nearbyint:
    case llvm::Intrinsic::roundeven:
    case llvm::Intrinsic::smax:
    case llvm::Intrinsic::smin:
    case llvm::Intrinsic::umax:
    case llvm::Intrinsic::umin:
    case llvm::Intrinsic::abs:
    case llvm::Intrinsic::ctpop:
    case llvm::Intrinsic::ctlz:
    case llvm::Intrinsic::cttz:
    case llvm::Intrinsic::bswap:
    case llvm::Intrinsic::bitreverse:
    case llvm::Intrinsic::fshl:
    case llvm::Intrinsic::fshr:
    case llvm::Intrinsic::assume:
    case llvm::Intrinsic::expect:
    case llvm::Intrinsic::sadd_with_overflow:
    case llvm::Intrinsic::uadd_with_overflow:
    case llvm::Intrinsic::ssub_with_overflow:
    case llvm::Intrinsic::usub_with_overflow:
    case llvm::Intrinsic::smul_with_overflow:
    case llvm::Intrinsic::umul_with_overflow:
    case llvm::Intrinsic::sadd_sat:
    case llvm::Intrinsic::uadd_sat:
    case llvm::Intrinsic::ssub_sat:
    case llvm::Intrinsic::usub_sat:
    case llvm::Intrinsic::experimental_noalias_scope_decl:
    case llvm::Intrinsic::dbg_declare:
    case llvm::Intrinsic::dbg_value:
    case llvm::Intrinsic::dbg_assign: return true;
    default: return false;
  }
}

// Why a compiled source cannot be inlined ("" when it can).
std::string not_inlinable(const llvm::Module& m) {
  for (const llvm::GlobalVariable& g : m.globals()) {
    if (g.isDeclaration()) return concat("it refers to the outside variable '", g.getName().str(), "'");
    if (!g.isConstant() || !g.hasLocalLinkage())
      return concat("it defines the variable '", g.getName().str(), "' (NVRTC keeps its name and place)");
  }
  for (const llvm::Function& f : m) {
    if (!f.isDeclaration()) continue;
    if (f.isIntrinsic() ? !lowerable_intrinsic(f) : true)
      return concat("it calls '", f.getName().str(), "', which it does not define");
  }
  return "";
}

// The attributes clang sets for its own target options; without them the
// functions are inline-compatible with the kernel's, whose target options
// come from the target machine. Denormals: a fastmath kernel never gets here,
// so both sides use IEEE.
void make_inline_compatible(llvm::Module& m) {
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("frame-pointer");
  }
}

}  // namespace

std::vector<ir::LinkItem> link_device_foreign(llvm::Module& m, const std::vector<ir::LinkItem>& items, int cc_major,
                                              int cc_minor, bool fastmath, std::vector<std::string>* keep) {
  if (fastmath || items.empty() || !device_inlining_enabled()) return items;
  LinkDiagnostics diagnostics(m.getContext());  // a clash is a fallback, not an exit
  // Every source that can be inlined is linked into one module first; if the
  // sources clash (one symbol defined twice), none is inlined and nvJitLink
  // reports the clash as before.
  auto foreign = std::make_unique<llvm::Module>("cuhost.foreign", m.getContext());
  foreign->setTargetTriple(m.getTargetTriple());
  foreign->setDataLayout(m.getDataLayout());
  std::vector<ir::LinkItem> rest;
  std::vector<ir::LinkItem> taken;
  for (const ir::LinkItem& item : items) {
    std::string bitcode = device_bitcode(item, cc_major, cc_minor);
    if (bitcode.empty()) {
      rest.push_back(item);
      continue;
    }
    const std::string shown = item.from_path() ? item.path : item.name;
    auto buffer = llvm::MemoryBuffer::getMemBuffer(bitcode, shown, false);
    auto lib = llvm::parseBitcodeFile(buffer->getMemBufferRef(), m.getContext());
    if (!lib) {
      llvm::consumeError(lib.takeError());
      rest.push_back(item);
      continue;
    }
    if (std::string why = not_inlinable(**lib); !why.empty()) {
      log::info(concat("[", shown, "] not inlined: ", why, "; NVRTC links it"));
      rest.push_back(item);
      continue;
    }
    make_inline_compatible(**lib);
    (*lib)->setTargetTriple(m.getTargetTriple());
    (*lib)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(*foreign, std::move(*lib))) return items;
    taken.push_back(item);
  }
  if (taken.empty()) return items;
  // A kernel-module symbol of the same name as a foreign definition (other
  // than the declarations the calls made) would clash: keep NVRTC then.
  // So would a declaration whose type differs from the definition (a wrong
  // declare_device signature): the NVRTC path reports what it always did.
  for (const llvm::Function& f : *foreign) {
    if (f.isDeclaration()) continue;
    const llvm::Function* mine = m.getFunction(f.getName());
    if (mine && (!mine->isDeclaration() || mine->getFunctionType() != f.getFunctionType())) return items;
  }
  std::vector<std::string> defined;
  for (const llvm::Function& f : *foreign)
    if (!f.isDeclaration() && !f.hasLocalLinkage()) defined.push_back(f.getName().str());
  if (llvm::Linker::linkModules(m, std::move(foreign))) return items;
  if (!rest.empty()) keep->insert(keep->end(), defined.begin(), defined.end());
  for (const ir::LinkItem& item : taken)
    log::info(concat("[", item.from_path() ? item.path : item.name, "] inlined into the kernel (clang, NVPTX)"));
  return rest;
}

}  // namespace cuhost::ffi
