// Calls: intrinsic dispatch (a table filled by the feature files), calls of
// other jitted device functions (a plain LLVM call; the callee's body is
// lowered into the same module) and calls of declared foreign functions
// with their ABI (numba: `i32 f(T* ret, args...)` with a status that ends
// the thread on error; C: `T f(args...)`, booleans as i8, void as void).
#include <llvm/IR/Constants.h>

#include <cctype>
#include <mutex>

#include "codegen/inline_marked.h"
#include "codegen/lowering/lowerer.h"
#include "codegen/lowering/records.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

std::map<std::string, IntrinsicFn>& table() {
  static std::map<std::string, IntrinsicFn> t;
  static std::once_flag once;
  std::call_once(once, [] {
    register_arith(t);
    register_builtins(t);
    register_math(t);
    register_cuda_indexing(t);
    register_atomics(t);
    register_warp(t);
    register_cache_hints(t);
    register_inline_ptx(t);
    register_wmma(t);
    register_mma(t);
    register_clusters(t);
    register_memory(t);
    register_arrays(t);
    register_print(t);
    register_complex(t);
    register_records(t);
    register_vector_types(t);
    register_named_tuples(t);
    register_half(t);
    register_fp8(t);
    register_cooperative(t);
    register_extension(t);
    register_reductions(t);
    register_array_methods(t);
    register_nrt_arrays(t);
  });
  return t;
}

// Foreign argument/return types in memory form: booleans are i8.
llvm::Type* foreign_type(llvm::LLVMContext& c, const ir::Type* t) {
  if (t->kind == ir::TypeKind::Boolean) return llvm::Type::getInt8Ty(c);
  if (t->kind == ir::TypeKind::Array) return llvm::PointerType::get(c, 0);
  return llvm_type_of(c, t);
}

llvm::Function* declare_foreign(Lowerer& l, const ir::ForeignFunction& ff) {
  auto& decls = l.state().foreign_decls;
  auto it = decls.find(ff.name);
  if (it != decls.end()) return it->second;
  llvm::LLVMContext& c = l.ctx();
  std::vector<llvm::Type*> params;
  llvm::Type* ret;
  if (ff.abi == ir::Abi::Numba) {
    params.push_back(llvm::PointerType::get(c, 0));
    ret = llvm::Type::getInt32Ty(c);
  } else {
    ret = is_void_type(ff.sig.return_type) ? llvm::Type::getVoidTy(c) : foreign_type(c, ff.sig.return_type);
  }
  for (const ir::Type* a : ff.sig.args) params.push_back(foreign_type(c, a));
  auto* fty = llvm::FunctionType::get(ret, params, false);
  llvm::Function* f = l.module().getFunction(ff.name);
  if (!f) f = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, ff.name, l.module());
  decls[ff.name] = f;
  return f;
}

Val call_foreign(Lowerer& l, const ast::Call* e, const sema::ExprInfo& inf) {
  auto& b = l.b();
  const ir::ForeignFunction& ff = *inf.foreign;
  llvm::Function* f = declare_foreign(l, ff);
  l.state().foreign_used.push_back(inf.foreign);
  std::vector<llvm::Value*> args;
  llvm::AllocaInst* slot = nullptr;
  const ir::Type* rt = ff.sig.return_type;
  bool void_ret = is_void_type(rt);
  if (ff.abi == ir::Abi::Numba) {
    llvm::Type* st = void_ret ? b.getInt8Ty() : foreign_type(l.ctx(), rt);
    slot = l.entry_alloca(st, ff.name + ".ret");
    b.CreateStore(llvm::Constant::getNullValue(st), slot);
    args.push_back(slot);
  }
  for (size_t i = 0; i < inf.ordered_args.size(); ++i) {
    const ir::Type* pt = i < ff.sig.args.size() ? ff.sig.args[i] : nullptr;
    Val v = l.expr(inf.ordered_args[i]);
    if (pt && pt->kind == ir::TypeKind::CPointer && v.t->kind == ir::TypeKind::Array)
      v = {b.CreateExtractValue(v.v, {0}), pt};
    else
      v = l.convert(v, pt);
    args.push_back(pt ? l.to_memory(v.v, pt) : v.v);
  }
  if (ff.abi == ir::Abi::Numba && l.typed().abi == ir::Abi::C) {
    // A C-ABI caller has no status channel: it ignores the callee's status
    // and uses whatever the callee left in the result slot.
    b.CreateCall(f, args, "status.ignored");
    if (void_ret) return {nullptr, inf.type};
    llvm::Value* r = b.CreateLoad(foreign_type(l.ctx(), rt), slot);
    return l.convert({l.from_memory(r, rt), rt}, inf.type);
  }
  if (ff.abi == ir::Abi::Numba) {
    llvm::Value* status = b.CreateCall(f, args, "status");
    llvm::Value* ok = b.CreateOr(b.CreateICmpEQ(status, b.getInt32(0)), b.CreateICmpEQ(status, b.getInt32(-2)));
    auto* fail = llvm::BasicBlock::Create(l.ctx(), "call.failed", l.function());
    auto* cont = llvm::BasicBlock::Create(l.ctx(), "call.ok", l.function());
    b.CreateCondBr(ok, cont, fail);
    b.SetInsertPoint(fail);
    // The error ends the thread: a kernel returns, a numba-ABI device
    // function passes the code on to its caller (lowering/status.cpp).
    const KernelErrorSite site = fault_site(concat("foreign function '", ff.name, "' returned an error status"));
    l.raise_error(status, &site);
    b.CreateUnreachable();
    b.SetInsertPoint(cont);
    if (void_ret) return {nullptr, inf.type};
    llvm::Value* r = b.CreateLoad(foreign_type(l.ctx(), rt), slot);
    return l.convert({l.from_memory(r, rt), rt}, inf.type);
  }
  llvm::Value* r = b.CreateCall(f, args);
  if (void_ret) return {nullptr, inf.type};
  return l.convert({l.from_memory(r, rt), rt}, inf.type);
}

// One argument of a jitted call (typing/calls.cpp's binding): an
// expression's value, an element of a tuple unpacked with `*`, or for an
// omitted parameter the default the callee was specialized on.
Val bound_argument(Lowerer& l, const sema::ExprInfo& inf, size_t i) {
  const ast::Expr* a = inf.ordered_args[i];
  const auto& callee = *inf.callee;
  if (!a) {
    CUHOST_CHECK(i < callee.arg_constants.size() && callee.arg_constants[i]) << "omitted argument without a default";
    return l.constant(*callee.arg_constants[i], callee.arg_types[i]);
  }
  int element = i < inf.arg_elements.size() ? inf.arg_elements[i] : -1;
  if (element < 0) return l.expr(a);
  Val tuple = l.expr(a);
  return {l.b().CreateExtractValue(tuple.v, {unsigned(element)}), tuple.t->elements[size_t(element)]};
}

Val call_jitted(Lowerer& l, const ast::Call* e, const sema::ExprInfo& inf) {
  (void)e;
  std::vector<llvm::Value*> args;
  const auto& pts = inf.callee->arg_types;
  const size_t packed = inf.packed_from >= 0 ? size_t(inf.packed_from) : inf.ordered_args.size();
  auto value_of = [&](Val v, const ir::Type* pt) {
    v = l.convert(v, pt);
    return v.v ? v.v : llvm::UndefValue::get(llvm_type_of(l.ctx(), pt));
  };
  for (size_t i = 0; i < packed; ++i) args.push_back(value_of(bound_argument(l, inf, i), pts.at(i)));
  if (inf.packed_from >= 0) {  // the callee's *args: one tuple of the remaining arguments
    const ir::Type* tt = pts.at(packed);
    llvm::Value* tuple = llvm::UndefValue::get(llvm_type_of(l.ctx(), tt));
    for (size_t i = packed; i < inf.ordered_args.size(); ++i) {
      unsigned k = unsigned(i - packed);
      tuple = l.b().CreateInsertValue(tuple, value_of(bound_argument(l, inf, i), tt->elements[k]), {k});
    }
    args.push_back(tuple);
  }
  return l.call_jitted(inf.callee, std::move(args), inf.type);
}

}  // namespace

void register_intrinsic(const std::string& key, IntrinsicFn fn) { table()[key] = std::move(fn); }

Val lower_intrinsic(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  auto& t = table();
  auto it = t.find(inf.intrinsic);
  if (it == t.end()) {
    // Prefix keys ("math.", "cuda.libdevice.", "cuda.atomic.") end in a dot.
    std::string key = inf.intrinsic;
    while (it == t.end()) {
      std::size_t dot = key.rfind('.', key.size() >= 2 ? key.size() - 2 : 0);
      if (dot == std::string::npos || dot == 0) break;
      key = key.substr(0, dot + 1);
      it = t.find(key);
    }
  }
  if (it == t.end()) l.unsupported(e->loc, concat("'", inf.intrinsic, "' is not supported by the compiler yet"));
  return it->second(l, e, inf);
}

Val lower_call(Lowerer& l, const ast::Call* e, const sema::ExprInfo& inf) {
  if (!inf.intrinsic.empty()) return lower_intrinsic(l, e, inf);
  if (inf.callee) return call_jitted(l, e, inf);
  if (inf.foreign) return call_foreign(l, e, inf);
  l.unsupported(e->loc, "this call cannot be compiled");
}

namespace {

// The module-local name of a device function: numba's form, an Itanium
// nested name (`_ZN6cuhost8set_zeroB17h<hash>E`, which demanglers read as
// cuhost::set_zero[abi:h<hash>]), with the specialization's hash from its
// symbol as the ABI tag. Python names that are not C identifiers are escaped
// as numba escapes them (`<lambda>` as `_3clambda_3e`). A symbol cuhost did
// not make (a C ABI name) keeps its own spelling.
std::string internal_name(const std::string& symbol, const std::string& python_name) {
  constexpr std::size_t kHash = 16;
  const std::string prefix = "_cuhost_";
  if (symbol.size() < prefix.size() + kHash + 1 || symbol.compare(0, prefix.size(), prefix) != 0 ||
      symbol[symbol.size() - kHash - 1] != '_')
    return symbol + ".impl";
  std::string id;
  static const char* hex = "0123456789abcdef";
  for (unsigned char c : python_name) {
    if (std::isalnum(c) && c < 0x80) {
      id += char(c);
    } else if (c == '_') {
      id += c;
    } else {
      id += '_';
      id += hex[c >> 4];
      id += hex[c & 0xf];
    }
  }
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  const std::string tag = "h" + symbol.substr(symbol.size() - kHash);
  return concat("_ZN6cuhost", id.size(), id, "B", tag.size(), tag, "E");
}

}  // namespace

llvm::Function* ModuleState::function_for(const std::shared_ptr<const sema::TypedFunction>& tf) {
  auto it = functions.find(tf.get());
  if (it != functions.end()) return it->second;
  llvm::LLVMContext& c = module->getContext();
  llvm::FunctionType* fty = internal_function_type(c, *tf, hooks->context_param_types(*module));
  std::string name = tf->symbol.empty() ? tf->captured->name + ".impl" : internal_name(tf->symbol, tf->captured->name);
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, name, *module);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  // inline=True inlines at the call sites before optimization (inline_marked_calls);
  // forceinline=True is LLVM's attribute, kept in the IR and honoured by the optimizer.
  if (tf->function && tf->function->options.inline_always) f->addFnAttr(kInlineMarker);
  if (tf->function && tf->function->options.forceinline) {
    f->addFnAttr(llvm::Attribute::AlwaysInline);
  } else if (tf->function && tf->function->options.dbg_optnone && tf->function->options.debug) {
    f->addFnAttr(llvm::Attribute::OptimizeNone);
    f->addFnAttr(llvm::Attribute::NoInline);
  }
  functions[tf.get()] = f;
  pending.push_back(tf);
  keep_alive.push_back(tf);
  return f;
}

}  // namespace cuhost::codegen
