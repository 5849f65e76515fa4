// Reading libdevice and answering its __nvvm_reflect queries (see the header).
#include "codegen/libdevice_bitcode.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <mutex>
#include <regex>
#include <string>

#include "support/diagnostics.h"
#include "support/install_layout.h"

namespace cuhost::codegen {

const llvm::MemoryBuffer& libdevice_bitcode() {
  static std::unique_ptr<llvm::MemoryBuffer> buffer;
  static std::once_flag once;
  std::call_once(once, [] {
    auto b = llvm::MemoryBuffer::getFile(support::libdevice_path());
    if (b) buffer = std::move(*b);
  });
  if (!buffer)
    throw UserError(ErrorKind::CompileError, concat("cannot read libdevice at ", support::libdevice_path(),
                                                    " (set CUHOST_LIBDEVICE or CUDA_HOME)"));
  return *buffer;
}

namespace {

// The query string of a call's argument: a (possibly address-space cast)
// pointer to a constant C string.
std::string reflect_query(llvm::Value* arg) {
  arg = arg->stripPointerCasts();
  if (auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(arg)) arg = ce->getOperand(0)->stripPointerCasts();
  auto* g = llvm::dyn_cast<llvm::GlobalVariable>(arg);
  if (!g || !g->hasInitializer()) return "";
  auto* data = llvm::dyn_cast<llvm::ConstantDataSequential>(g->getInitializer());
  if (!data || !data->isString()) return "";
  return data->getAsCString().str();
}

}  // namespace

void resolve_nvvm_reflect(llvm::Module& m, bool fastmath, bool all, int arch) {
  llvm::Function* reflect = m.getFunction("__nvvm_reflect");
  if (!reflect) return;
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* u : reflect->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    std::string q = reflect_query(call->getArgOperand(0));
    int value;
    if (q == "__CUDA_PREC_SQRT") {
      value = fastmath ? 0 : 1;
    } else if (!all) {
      continue;
    } else if (q == "__CUDA_FTZ") {
      value = fastmath ? 1 : 0;
    } else if (q == "__CUDA_ARCH") {
      value = arch;
    } else {
      value = 0;
    }
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), value));
    call->eraseFromParent();
  }
  if (reflect->use_empty()) reflect->eraseFromParent();
}

namespace {

// The PTX type and inline-asm constraint of an NVVM conversion operand name.
bool cvt_operand(const std::string& n, std::string* ptx, std::string* constraint) {
  if (n == "i")
    *ptx = "s32", *constraint = "r";
  else if (n == "ui")
    *ptx = "u32", *constraint = "r";
  else if (n == "ll")
    *ptx = "s64", *constraint = "l";
  else if (n == "ull")
    *ptx = "u64", *constraint = "l";
  else if (n == "f")
    *ptx = "f32", *constraint = "f";
  else if (n == "d")
    *ptx = "f64", *constraint = "d";
  else
    return false;
  return true;
}

void replace_calls(llvm::Function* f, llvm::InlineAsm* with) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* u : f->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    std::vector<llvm::Value*> args(call->arg_begin(), call->arg_end());
    auto* repl = llvm::CallInst::Create(with->getFunctionType(), with, args, "", call);
    call->replaceAllUsesWith(repl);
    call->eraseFromParent();
  }
  if (f->use_empty()) f->eraseFromParent();
}

// LLVM 19's InstCombine rewrites some NVVM conversions into generic casts
// with other meanings: int-to-float `.rz` becomes sitofp/uitofp (which
// round to nearest), float-to-int `.rz` becomes fptosi/fptoui (poison for
// NaN and out-of-range inputs, where PTX saturates). Every rounding-mode
// conversion libdevice uses is therefore pinned to its PTX instruction.
void pin_nvvm_conversions(llvm::Module& m) {
  static const std::regex name(R"(llvm\.nvvm\.(i|ui|ll|ull|f|d)2(i|ui|ll|ull|f|d)\.(rn|rz|rm|rp)(\.ftz)?)");
  std::vector<llvm::Function*> conversions;
  for (llvm::Function& f : m)
    if (f.isDeclaration() && std::regex_match(f.getName().str(), name)) conversions.push_back(&f);
  for (llvm::Function* f : conversions) {
    std::smatch mt;
    std::string n = f->getName().str();
    std::regex_match(n, mt, name);
    std::string src, dst, src_c, dst_c;
    if (!cvt_operand(mt[1], &src, &src_c) || !cvt_operand(mt[2], &dst, &dst_c)) continue;
    bool to_int = dst[0] != 'f';
    bool from_float = src[0] == 'f';
    std::string mode = std::string(".") + mt[3].str() + (to_int && from_float ? "i" : "");
    std::string asm_text = "cvt" + mode + (mt[4].matched ? ".ftz" : "") + "." + dst + "." + src + " $0, $1;";
    auto* as = llvm::InlineAsm::get(f->getFunctionType(), asm_text, "=" + dst_c + "," + src_c, false);
    replace_calls(f, as);
  }
}

}  // namespace

void lower_nvvm_intrinsics_unknown_to_llvm(llvm::Module& m) {
  pin_nvvm_conversions(m);
  llvm::Function* f = m.getFunction("llvm.nvvm.tanh.approx.f32");
  if (!f) return;
  auto* fty =
      llvm::FunctionType::get(llvm::Type::getFloatTy(m.getContext()), {llvm::Type::getFloatTy(m.getContext())}, false);
  auto* tanh = llvm::InlineAsm::get(fty, "tanh.approx.f32 $0, $1;", "=f,f", false);
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* u : f->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    auto* repl = llvm::CallInst::Create(fty, tanh, {call->getArgOperand(0)}, "", call);
    call->replaceAllUsesWith(repl);
    call->eraseFromParent();
  }
  if (f->use_empty()) f->eraseFromParent();
}

}  // namespace cuhost::codegen
