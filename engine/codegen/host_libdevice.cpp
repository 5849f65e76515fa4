// libdevice on the CPU backend: NVIDIA's own libdevice.10.bc, linked into
// the host module like on the GPU, with each PTX primitive it uses (NVVM
// intrinsics, a few inline-assembly snippets, __nvvm_reflect) replaced by
// host IR of the same meaning. libdevice's algorithms are thus the GPU's,
// operation for operation: results match the GPU's bit for bit wherever
// the PTX instruction is exactly specified (IEEE operations in every
// rounding mode, conversions, integer helpers). The .approx instructions
// (fast_* functions, fastmath) become the correctly rounded operation,
// which lies within PTX's documented error of them; docs/LIBDEVICE.md
// lists where that makes the CPU differ from the GPU.
#include "codegen/host_libdevice.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cfloat>
#include <map>
#include <set>
#include <vector>

#include "codegen/libdevice_bitcode.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

// PTX rounding modifiers, numbered as cpu/rounding_runtime.h's modes.
enum Mode { RN = 0, RZ = 1, RM = 2, RP = 3 };
enum Op { Add = 0, Sub = 1, Mul = 2, Div = 3, Fma = 4, Sqrt = 5, Rcp = 6 };

int parse_mode(const std::string& s) {
  if (s == "rn") return RN;
  if (s == "rz") return RZ;
  if (s == "rm") return RM;
  if (s == "rp") return RP;
  return -1;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

class Shim {
 public:
  Shim(llvm::Module& m, llvm::CallInst* call) : m_(m), b_(call), call_(call) {}

  // The replacement of the call, or nullptr when the primitive is unknown.
  llvm::Value* intrinsic(const std::string& full) {
    std::string name = full.substr(std::string("llvm.nvvm.").size());
    std::vector<std::string> parts = split(name, '.');
    bool ftz = false;
    std::vector<std::string> p;
    for (const std::string& s : parts)
      if (s == "ftz")
        ftz = true;
      else
        p.push_back(s);
    const std::string& op = p[0];
    auto a = [&](unsigned i) { return call_->getArgOperand(i); };
    auto flush = [&](llvm::Value* v) { return ftz ? flush_subnormal(v) : v; };

    // IEEE operations with a rounding modifier: add.rm.f, fma.rn.d, ...
    static const std::map<std::string, Op> ieee = {{"add", Add}, {"mul", Mul},   {"div", Div},
                                                   {"fma", Fma}, {"sqrt", Sqrt}, {"rcp", Rcp}};
    if (ieee.count(op) && p.size() == 3 && parse_mode(p[1]) >= 0) {
      std::vector<llvm::Value*> args;
      for (unsigned i = 0; i < call_->arg_size(); ++i) args.push_back(flush(a(i)));
      return flush(rounded(ieee.at(op), parse_mode(p[1]), args));
    }
    // Approximations: the correctly rounded operation.
    if (p.size() >= 2 && p[1] == "approx") {
      llvm::Value* x = flush(a(0));
      llvm::Value* r = nullptr;
      if (op == "ex2") r = unary(llvm::Intrinsic::exp2, x);
      if (op == "lg2") r = unary(llvm::Intrinsic::log2, x);
      if (op == "sin") r = unary(llvm::Intrinsic::sin, x);
      if (op == "cos") r = unary(llvm::Intrinsic::cos, x);
      if (op == "sqrt") r = unary(llvm::Intrinsic::sqrt, x);
      if (op == "rsqrt") r = b_.CreateFDiv(one(x), unary(llvm::Intrinsic::sqrt, x));
      if (op == "rcp") r = b_.CreateFDiv(one(x), x);
      if (op == "div") r = b_.CreateFDiv(x, flush(a(1)));
      if (op == "tanh") r = libm("tanhf", x);
      if (!r) return nullptr;
      // rcp.approx.ftz.d and rsqrt.approx.d flush doubles too.
      if (ftz && x->getType()->isDoubleTy()) return flush_subnormal(r);
      return flush(r);
    }
    // Float -> integer conversions: f2i.rn, d2ull.rz, ... (saturating; NaN -> the
    // most negative signed value, or 0 unsigned).
    static const std::set<std::string> to_int = {"f2i", "f2ui", "f2ll", "f2ull", "d2i", "d2ui", "d2ll", "d2ull"};
    if (p.size() == 2 && to_int.count(op) && parse_mode(p[1]) >= 0) {
      std::string to = op.substr(2);
      unsigned bits = (to == "i" || to == "ui") ? 32 : 64;
      bool is_signed = to == "i" || to == "ll";
      llvm::Value* x = round_integral(parse_mode(p[1]), flush(a(0)));
      auto id = is_signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
      llvm::Value* r = b_.CreateIntrinsic(id, {b_.getIntNTy(bits), x->getType()}, {x});
      // A NaN becomes the most negative value of a signed result, as the
      // H100 gives for cvt.rzi.s32.f64 (an unsigned result gets 0).
      if (is_signed)
        r = b_.CreateSelect(b_.CreateFCmpUNO(x, x),
                            llvm::ConstantInt::get(b_.getIntNTy(bits), llvm::APInt::getSignedMinValue(bits)), r);
      return r;
    }
    if (op == "d2f" && p.size() == 2 && parse_mode(p[1]) >= 0) {
      int mode = parse_mode(p[1]);
      llvm::Value* r =
          mode == RN ? b_.CreateFPTrunc(a(0), b_.getFloatTy())
                     : b_.CreateCall(runtime("cuhost_cpu_d2f", b_.getFloatTy(), {b_.getInt32Ty(), b_.getDoubleTy()}),
                                     {b_.getInt32(mode), a(0)});
      return flush(r);
    }
    // Integer -> float conversions: i2f.rz, ull2d.rm, ...
    if (p.size() == 2 && parse_mode(p[1]) >= 0 && op.size() >= 3 && op[op.size() - 2] == '2' &&
        (op.back() == 'f' || op.back() == 'd')) {
      std::string from = op.substr(0, op.size() - 2);
      bool is_unsigned = from == "ui" || from == "ull";
      bool to_double = op.back() == 'd';
      int mode = parse_mode(p[1]);
      llvm::Type* ft = to_double ? b_.getDoubleTy() : b_.getFloatTy();
      if (mode == RN) return is_unsigned ? b_.CreateUIToFP(a(0), ft) : b_.CreateSIToFP(a(0), ft);
      llvm::Value* wide = is_unsigned ? b_.CreateZExt(a(0), b_.getInt64Ty()) : b_.CreateSExt(a(0), b_.getInt64Ty());
      auto fn = runtime(to_double ? "cuhost_cpu_i2d" : "cuhost_cpu_i2f", ft,
                        {b_.getInt32Ty(), b_.getInt64Ty(), b_.getInt32Ty()});
      return b_.CreateCall(fn, {b_.getInt32(mode), wide, b_.getInt32(is_unsigned)});
    }
    if (op == "f2h" && p.size() == 2 && p[1] == "rn")
      return b_.CreateBitCast(b_.CreateFPTrunc(flush(a(0)), b_.getHalfTy()), b_.getInt16Ty());
    if (op == "fabs") return unary(llvm::Intrinsic::fabs, flush(a(0)));
    if (op == "floor") return unary(llvm::Intrinsic::floor, flush(a(0)));
    if (op == "ceil") return unary(llvm::Intrinsic::ceil, flush(a(0)));
    if (op == "trunc") return unary(llvm::Intrinsic::trunc, flush(a(0)));
    if (op == "round") return unary(llvm::Intrinsic::roundeven, flush(a(0)));  // cvt.rni
    if (op == "fmin" || op == "fmax") return min_max(op == "fmin", flush(a(0)), flush(a(1)));
    if (op == "saturate") {
      llvm::Value* x = flush(a(0));
      llvm::Value* zero = llvm::ConstantFP::get(x->getType(), 0.0);
      llvm::Value* lo = b_.CreateSelect(b_.CreateFCmpOGT(x, zero), x, zero);  // NaN -> 0
      return b_.CreateSelect(b_.CreateFCmpOLT(lo, one(x)), lo, one(x));
    }
    if (op == "d2i" && p.size() == 2) {
      llvm::Value* bits = b_.CreateBitCast(a(0), b_.getInt64Ty());
      if (p[1] == "hi") bits = b_.CreateLShr(bits, 32);
      return b_.CreateTrunc(bits, b_.getInt32Ty());
    }
    if (op == "lohi" && p.size() == 2 && p[1] == "i2d") {
      llvm::Value* lo = b_.CreateZExt(a(0), b_.getInt64Ty());
      llvm::Value* hi = b_.CreateShl(b_.CreateZExt(a(1), b_.getInt64Ty()), 32);
      return b_.CreateBitCast(b_.CreateOr(lo, hi), b_.getDoubleTy());
    }
    if (op == "mulhi" && p.size() == 2) {
      bool is_signed = p[1] == "i" || p[1] == "ll";
      llvm::Type* t = a(0)->getType();
      unsigned bits = t->getIntegerBitWidth();
      llvm::Type* wide = b_.getIntNTy(2 * bits);
      auto ext = [&](llvm::Value* v) { return is_signed ? b_.CreateSExt(v, wide) : b_.CreateZExt(v, wide); };
      llvm::Value* prod = b_.CreateMul(ext(a(0)), ext(a(1)));
      return b_.CreateTrunc(b_.CreateLShr(prod, bits), t);
    }
    if (op == "sad" && p.size() == 2) {
      bool is_signed = p[1] == "i";
      llvm::Value* gt = is_signed ? b_.CreateICmpSGT(a(0), a(1)) : b_.CreateICmpUGT(a(0), a(1));
      llvm::Value* diff = b_.CreateSelect(gt, b_.CreateSub(a(0), a(1)), b_.CreateSub(a(1), a(0)));
      return b_.CreateAdd(diff, a(2));
    }
    if (op == "prmt" && p.size() == 1) return permute(a(0), a(1), a(2));
    return nullptr;
  }

  // The replacement of a call of PTX inline assembly, or nullptr.
  llvm::Value* inline_asm(const std::string& text) {
    auto a = [&](unsigned i) { return call_->getArgOperand(i); };
    // sub.<mode>[.ftz].f32/.f64 $0, $1, $2;
    if (text.rfind("sub.r", 0) == 0 && text.find('\n') == std::string::npos) {
      std::vector<std::string> p = split(text.substr(0, text.find(' ')), '.');
      bool ftz = p.size() == 4 && p[2] == "ftz";
      int mode = parse_mode(p[1]);
      if (mode < 0) return nullptr;
      auto flush = [&](llvm::Value* v) { return ftz ? flush_subnormal(v) : v; };
      return flush(rounded(Sub, mode, {flush(a(0)), flush(a(1))}));
    }
    if (text == "rcp.approx.ftz.f32 $0,$1;") {
      llvm::Value* x = flush_subnormal(a(0));
      return flush_subnormal(b_.CreateFDiv(one(x), x));
    }
    if (text == "rsqrt.approx.ftz.f64 $0, $1;") {
      llvm::Value* x = flush_subnormal(a(0));
      return flush_subnormal(b_.CreateFDiv(one(x), unary(llvm::Intrinsic::sqrt, x)));
    }
    if (text == "bfind.shiftamt.u32 $0, $1;") {
      llvm::Value* clz = b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a(0), b_.getFalse());
      return b_.CreateSelect(b_.CreateICmpEQ(a(0), b_.getInt32(0)), b_.getInt32(-1), clz);
    }
    if (text.find("setp.equ.f64") != std::string::npos && text.find("selp.f64 $0, $3, $4") != std::string::npos)
      return b_.CreateSelect(b_.CreateFCmpUEQ(a(0), a(1)), a(2), a(3));
    // {lo, hi} = a * b + c on 32-bit halves: mad.lo.cc / madc.hi.
    if (text.find("mad.lo.cc.u32   $0, $2, $3, $4;") != std::string::npos &&
        text.find("madc.hi.u32     $1, $2, $3,  0;") != std::string::npos && call_->arg_size() == 3) {
      llvm::Type* i64 = b_.getInt64Ty();
      llvm::Value* r =
          b_.CreateAdd(b_.CreateMul(b_.CreateZExt(a(0), i64), b_.CreateZExt(a(1), i64)), b_.CreateZExt(a(2), i64));
      return pair(b_.CreateTrunc(r, b_.getInt32Ty()), b_.CreateTrunc(b_.CreateLShr(r, 32), b_.getInt32Ty()));
    }
    // 128-bit arithmetic on {lo, hi} pairs of 64-bit words.
    llvm::Type* i128 = b_.getInt128Ty();
    auto wide = [&](llvm::Value* lo, llvm::Value* hi) {
      return b_.CreateOr(b_.CreateZExt(lo, i128), b_.CreateShl(b_.CreateZExt(hi, i128), 64));
    };
    auto halves = [&](llvm::Value* v) {
      return pair(b_.CreateTrunc(v, b_.getInt64Ty()), b_.CreateTrunc(b_.CreateLShr(v, 64), b_.getInt64Ty()));
    };
    bool four_words = text.find("mov.b64         {b2,b3}, $5;") != std::string::npos && call_->arg_size() == 4;
    if (four_words && text.find("add.cc.u32      r0, a0, b0;") != std::string::npos &&
        text.find("addc.u32        r3, a3, b3;") != std::string::npos)
      return halves(b_.CreateAdd(wide(a(0), a(1)), wide(a(2), a(3))));
    if (four_words && text.find("sub.cc.u32      r0, a0, b0;") != std::string::npos &&
        text.find("subc.u32        r3, a3, b3;") != std::string::npos)
      return halves(b_.CreateSub(wide(a(0), a(1)), wide(a(2), a(3))));
    // The full 128-bit product of two 64-bit words, plus a third (umad64wide) or not.
    if (text.find("mov.b64         {alo,ahi}, $2;") != std::string::npos &&
        text.find("mov.b64         $1, {r2,r3};") != std::string::npos) {
      llvm::Value* prod = b_.CreateMul(b_.CreateZExt(a(0), i128), b_.CreateZExt(a(1), i128));
      if (call_->arg_size() == 3 && text.find("mov.b64         {clo,chi}, $4;") != std::string::npos)
        return halves(b_.CreateAdd(prod, b_.CreateZExt(a(2), i128)));
      if (call_->arg_size() == 2 && text.find("{clo,chi}") == std::string::npos) return halves(prod);
    }
    return nullptr;
  }

 private:
  llvm::Value* one(llvm::Value* like) { return llvm::ConstantFP::get(like->getType(), 1.0); }
  llvm::Value* unary(llvm::Intrinsic::ID id, llvm::Value* x) { return b_.CreateUnaryIntrinsic(id, x); }

  llvm::FunctionCallee runtime(const char* name, llvm::Type* ret, std::vector<llvm::Type*> params) {
    return m_.getOrInsertFunction(name, llvm::FunctionType::get(ret, params, false));
  }
  llvm::Value* libm(const char* name, llvm::Value* x) {
    return b_.CreateCall(runtime(name, x->getType(), {x->getType()}), {x});
  }

  // .ftz: a subnormal becomes a zero of the same sign.
  llvm::Value* flush_subnormal(llvm::Value* x) {
    llvm::Type* t = x->getType();
    double smallest = t->isFloatTy() ? double(FLT_MIN) : DBL_MIN;
    llvm::Value* tiny = b_.CreateFCmpOLT(unary(llvm::Intrinsic::fabs, x), llvm::ConstantFP::get(t, smallest));
    llvm::Value* zero = b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, llvm::ConstantFP::get(t, 0.0), x);
    return b_.CreateSelect(tiny, zero, x);
  }

  llvm::Value* rounded(Op op, int mode, const std::vector<llvm::Value*>& args) {
    llvm::Type* t = args[0]->getType();
    if (mode == RN) {
      switch (op) {
        case Add: return b_.CreateFAdd(args[0], args[1]);
        case Sub: return b_.CreateFSub(args[0], args[1]);
        case Mul: return b_.CreateFMul(args[0], args[1]);
        case Div: return b_.CreateFDiv(args[0], args[1]);
        case Fma: return b_.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {args[0], args[1], args[2]});
        case Sqrt: return unary(llvm::Intrinsic::sqrt, args[0]);
        case Rcp: return b_.CreateFDiv(one(args[0]), args[0]);
      }
    }
    bool f32 = t->isFloatTy();
    auto fn =
        runtime(f32 ? "cuhost_cpu_round_f32" : "cuhost_cpu_round_f64", t, {b_.getInt32Ty(), b_.getInt32Ty(), t, t, t});
    llvm::Value* zero = llvm::ConstantFP::get(t, 0.0);
    return b_.CreateCall(fn, {b_.getInt32(op), b_.getInt32(mode), args[0], args.size() > 1 ? args[1] : zero,
                              args.size() > 2 ? args[2] : zero});
  }

  // cvt.rni/rzi/rmi/rpi: the integral value in the mode.
  llvm::Value* round_integral(int mode, llvm::Value* x) {
    switch (mode) {
      case RZ: return unary(llvm::Intrinsic::trunc, x);
      case RM: return unary(llvm::Intrinsic::floor, x);
      case RP: return unary(llvm::Intrinsic::ceil, x);
      default: return unary(llvm::Intrinsic::roundeven, x);
    }
  }

  // PTX min/max: a NaN operand yields the other; -0 is below +0.
  llvm::Value* min_max(bool is_min, llvm::Value* x, llvm::Value* y) {
    llvm::Type* t = x->getType();
    llvm::Type* it = b_.getIntNTy(t->getPrimitiveSizeInBits());
    llvm::Value* xi = b_.CreateBitCast(x, it);
    llvm::Value* yi = b_.CreateBitCast(y, it);
    llvm::Value* zeros = b_.CreateBitCast(is_min ? b_.CreateOr(xi, yi) : b_.CreateAnd(xi, yi), t);
    llvm::Value* pick = is_min ? b_.CreateFCmpOLT(x, y) : b_.CreateFCmpOGT(x, y);
    llvm::Value* r = b_.CreateSelect(pick, x, y);
    r = b_.CreateSelect(b_.CreateFCmpOEQ(x, y), zeros, r);
    r = b_.CreateSelect(b_.CreateFCmpUNO(y, y), x, r);
    return b_.CreateSelect(b_.CreateFCmpUNO(x, x), y, r);
  }

  // prmt.b32 (default mode): byte i of the result is the byte of {b, a}
  // that selector nibble i names; with the nibble's bit 3 set, that byte's
  // sign replicated.
  llvm::Value* permute(llvm::Value* x, llvm::Value* y, llvm::Value* sel) {
    llvm::Type* i64 = b_.getInt64Ty();
    llvm::Value* both = b_.CreateOr(b_.CreateZExt(x, i64), b_.CreateShl(b_.CreateZExt(y, i64), 32));
    llvm::Value* r = b_.getInt32(0);
    for (unsigned i = 0; i < 4; ++i) {
      llvm::Value* nib = b_.CreateAnd(b_.CreateLShr(sel, 4 * i), 15);
      llvm::Value* which = b_.CreateZExt(b_.CreateAnd(nib, 7), i64);
      llvm::Value* byte = b_.CreateTrunc(b_.CreateLShr(both, b_.CreateMul(which, b_.getInt64(8))), b_.getInt8Ty());
      llvm::Value* sign = b_.CreateAShr(byte, 7);
      byte = b_.CreateSelect(b_.CreateICmpNE(b_.CreateAnd(nib, 8), b_.getInt32(0)), sign, byte);
      r = b_.CreateOr(r, b_.CreateShl(b_.CreateZExt(byte, b_.getInt32Ty()), 8 * i));
    }
    return r;
  }

  llvm::Value* pair(llvm::Value* lo, llvm::Value* hi) {
    llvm::Value* agg = llvm::UndefValue::get(call_->getType());
    agg = b_.CreateInsertValue(agg, lo, {0});
    return b_.CreateInsertValue(agg, hi, {1});
  }

  llvm::Module& m_;
  llvm::IRBuilder<> b_;
  llvm::CallInst* call_;
};

// The libdevice function (or other) a call sits in, for messages.
std::string caller_name(llvm::CallInst* call) {
  std::string n = call->getFunction()->getName().str();
  return n.rfind("__nv_", 0) == 0 ? "libdevice." + n.substr(5) : n;
}

void lower_ptx_primitives(llvm::Module& m) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& f : m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
          if (call->isInlineAsm()) {
            calls.push_back(call);
          } else if (llvm::Function* callee = call->getCalledFunction()) {
            if (callee->getName().starts_with("llvm.nvvm.")) calls.push_back(call);
          }
        }
  for (llvm::CallInst* call : calls) {
    Shim shim(m, call);
    llvm::Value* r;
    std::string what;
    if (call->isInlineAsm()) {
      auto* asm_ = llvm::cast<llvm::InlineAsm>(call->getCalledOperand());
      what = "PTX `" + asm_->getAsmString() + "`";
      r = shim.inline_asm(asm_->getAsmString());
    } else {
      what = call->getCalledFunction()->getName().str();
      r = shim.intrinsic(what);
    }
    if (!r)
      throw UserError(ErrorKind::CompileError, concat(caller_name(call), " cannot run on the CPU backend: it uses ",
                                                      what, ", which cuhost does not emulate on the host"));
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }
  std::vector<llvm::Function*> dead;
  for (llvm::Function& f : m)
    if (f.getName().starts_with("llvm.nvvm.") && f.use_empty()) dead.push_back(&f);
  for (llvm::Function* f : dead) f->eraseFromParent();
}

}  // namespace

void link_host_libdevice(llvm::Module& m, bool fastmath) {
  bool needs = false;
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) needs = true;
  if (!needs) return;
  std::set<std::string> before;
  for (const llvm::Function& f : m)
    if (!f.isDeclaration()) before.insert(f.getName().str());
  auto lib = llvm::getLazyBitcodeModule(libdevice_bitcode().getMemBufferRef(), m.getContext());
  if (!lib) throw UserError(ErrorKind::CompileError, "cannot parse libdevice: " + llvm::toString(lib.takeError()));
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
    throw UserError(ErrorKind::CompileError, "linking libdevice for the host failed");
  // sm_90's answers, so libdevice takes the code paths it takes on an H100.
  resolve_nvvm_reflect(m, fastmath, /*all=*/true, 900);
  // NVPTX fuses libdevice's separate multiplies and adds into fma (cuhost's
  // and NVVM's default contraction); marking them contractible lets the
  // host, on a CPU with FMA, fuse the same pairs. Marked before the PTX
  // primitives are lowered: mul.rn/add.rn must never fuse.
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || before.count(f.getName().str())) continue;
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (i.getOpcode() == llvm::Instruction::FMul || i.getOpcode() == llvm::Instruction::FAdd ||
            i.getOpcode() == llvm::Instruction::FSub)
          i.setHasAllowContract(true);
  }
  lower_ptx_primitives(m);
}

}  // namespace cuhost::codegen
