// Lowering of what the extension API adds (sema/typing/extension.cpp):
// "extension.call" calls the device function the Python implementation was
// compiled to; "extension.member" reads a StructModel member; and
// "extension.codegen" links the LLVM IR a Python code generation callback
// built (llvmlite text, parsed into this module's context: LLVM 19 reads
// llvmlite's typed pointers as opaque ones) and calls its one function with
// the converted arguments. Calls that IR makes to the placeholders of
// context.compile_internal go to jitted callees through small bridges; where
// the target passes context arguments (the CPU backend's thread indices),
// the function is rebuilt with them appended so the bridges can pass them on.
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "codegen/lowering/lowerer.h"
#include "ir/extension_types.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

[[noreturn]] void codegen_error(const std::string& what) { throw UserError(ErrorKind::LoweringError, what); }

std::string type_text(llvm::Type* t) {
  std::string s;
  llvm::raw_string_ostream o(s);
  t->print(o);
  return o.str();
}

// A function taking (args..., context...) that calls `callee` (a jitted
// function) with them: what a placeholder call turns into.
llvm::Function* bridge_for(Lowerer& l, llvm::Function* placeholder,
                           const std::shared_ptr<const sema::TypedFunction>& callee,
                           const std::vector<llvm::Type*>& context_types) {
  llvm::LLVMContext& c = l.ctx();
  llvm::FunctionType* pty = placeholder->getFunctionType();
  std::vector<llvm::Type*> params(pty->param_begin(), pty->param_end());
  if (params.size() != callee->arg_types.size()) {
    codegen_error(concat("compile_internal: the call of '", callee->captured->name, "' passes ", params.size(),
                         " arguments for ", callee->arg_types.size(), " parameters"));
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] != llvm_type_of(c, callee->arg_types[i])) {
      codegen_error(concat("compile_internal: argument ", i + 1, " of '", callee->captured->name, "' is ",
                           type_text(params[i]), " in the generated code but ", callee->arg_types[i]->str(), " is ",
                           type_text(llvm_type_of(c, callee->arg_types[i]))));
    }
  }
  params.insert(params.end(), context_types.begin(), context_types.end());
  auto* fty = llvm::FunctionType::get(pty->getReturnType(), params, false);
  auto* f =
      llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, placeholder->getName() + ".bridge", l.module());
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", f));
  std::vector<llvm::Value*> args;
  for (auto& a : f->args()) args.push_back(&a);
  llvm::AllocaInst* slot = nullptr;
  bool void_ret = is_void_type(callee->return_type);
  if (callee->raises && !void_ret) slot = b.CreateAlloca(llvm_type_of(c, callee->return_type));
  // A status the callee returns is not seen by the generated code (numba's
  // compile_internal ignores it too): the result is then zero.
  InternalCall r = call_internal(b, l.state().function_for(callee), *callee, args, slot);
  if (pty->getReturnType()->isVoidTy()) {
    b.CreateRetVoid();
  } else if (!r.result || r.result->getType() != pty->getReturnType()) {
    codegen_error(concat("compile_internal: '", callee->captured->name, "' returns ", callee->return_type->str(),
                         " but the generated code expects ", type_text(pty->getReturnType())));
  } else {
    b.CreateRet(r.result);
  }
  return f;
}

// Rebuilds `f` with the context parameters appended (their values are the
// caller's context arguments).
llvm::Function* with_context_params(llvm::Function* f, const std::vector<llvm::Type*>& context_types) {
  llvm::FunctionType* fty = f->getFunctionType();
  std::vector<llvm::Type*> params(fty->param_begin(), fty->param_end());
  params.insert(params.end(), context_types.begin(), context_types.end());
  auto* nty = llvm::FunctionType::get(fty->getReturnType(), params, false);
  auto* g = llvm::Function::Create(nty, f->getLinkage(), f->getName() + ".ctx", f->getParent());
  llvm::ValueToValueMapTy vmap;
  auto dst = g->arg_begin();
  for (auto& a : f->args()) vmap[&a] = &*dst++;
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  llvm::CloneFunctionInto(g, f, vmap, llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  f->eraseFromParent();
  return g;
}

struct LinkedFunction {
  llvm::Function* function = nullptr;
  bool takes_context = false;
};

LinkedFunction link_extension(Lowerer& l, const sema::ExtensionLowering& ext) {
  auto& cache = l.state().extension_functions;
  auto it = cache.find(ext.ir_text);
  if (it != cache.end()) return {it->second.first, it->second.second};
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ext.ir_text, diag, l.ctx());
  if (!m) {
    std::string msg;
    llvm::raw_string_ostream o(msg);
    diag.print("extension", o);
    codegen_error(concat("the LLVM IR a code generation function built does not parse:\n", o.str(), "\n", ext.ir_text));
  }
  if (!l.hooks().is_gpu()) {
    // NVVM intrinsics exist only on the GPU: LLVM cannot select them for the host.
    for (const llvm::Function& f : m->functions()) {
      if (f.isDeclaration() && f.getName().starts_with("llvm.nvvm.")) {
        throw UserError(ErrorKind::NotImplementedError,
                        concat("a code generation function calls the NVVM intrinsic ", f.getName().str(),
                               ", which exists only on the GPU: the CPU backend cannot run this kernel"));
      }
    }
  }
  m->setDataLayout(l.module().getDataLayout());
  m->setTargetTriple(l.module().getTargetTriple());
  if (llvm::Linker::linkModules(l.module(), std::move(m)))
    codegen_error(concat("the LLVM IR of a code generation function does not link into the kernel:\n", ext.ir_text));
  llvm::Function* f = l.module().getFunction(ext.entry);
  CUHOST_CHECK(f && !f->isDeclaration()) << "extension IR without its function " << ext.entry;
  f->setLinkage(llvm::GlobalValue::InternalLinkage);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  bool takes_context = false;
  if (!ext.internal_calls.empty()) {
    std::vector<llvm::Type*> context_types = l.hooks().context_param_types(l.module());
    if (!context_types.empty()) {
      f = with_context_params(f, context_types);
      takes_context = true;
    }
    for (const auto& [placeholder, callee] : ext.internal_calls) {
      llvm::Function* ph = l.module().getFunction(placeholder);
      if (!ph) continue;  // declared but never called
      llvm::Function* bridge = bridge_for(l, ph, callee, context_types);
      std::vector<llvm::CallInst*> calls;
      for (llvm::User* u : ph->users())
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(call);
      for (llvm::CallInst* call : calls) {
        llvm::Function* in = call->getFunction();
        std::vector<llvm::Value*> args(call->arg_begin(), call->arg_end());
        if (takes_context) {
          // Only the function rebuilt above has the context parameters.
          CUHOST_CHECK(in == f) << "a compile_internal placeholder called outside its function";
          for (size_t i = 0; i < context_types.size(); ++i)
            args.push_back(f->getArg(static_cast<unsigned>(f->arg_size() - context_types.size() + i)));
        }
        auto* replacement = llvm::CallInst::Create(bridge, args, "", call);
        call->replaceAllUsesWith(replacement);
        call->eraseFromParent();
      }
      if (ph->use_empty()) ph->eraseFromParent();
    }
  }
  cache[ext.ir_text] = {f, takes_context};
  return {f, takes_context};
}

// Errors of the generated code point at the call that uses it.
LinkedFunction link_at(Lowerer& l, const ast::Expr* e, const sema::ExtensionLowering& ext) {
  try {
    return link_extension(l, ext);
  } catch (UserError& err) {
    err.set_location_if_unknown(l.where(e->loc), l.typed().captured->name);
    throw;
  }
}

Val lower_codegen(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  LinkedFunction linked = link_at(l, e, *inf.extension);
  llvm::FunctionType* fty = linked.function->getFunctionType();
  std::vector<llvm::Value*> args;
  for (size_t i = 0; i < inf.ordered_args.size(); ++i) {
    Val v = l.expr_as(inf.ordered_args[i], inf.param_types[i]);
    llvm::Type* want = llvm_type_of(l.ctx(), inf.param_types[i]);
    args.push_back(v.v ? v.v : llvm::UndefValue::get(want));
  }
  if (linked.takes_context)
    for (llvm::Value* c : l.context_args()) args.push_back(c);
  bool ok = fty->getNumParams() == args.size();
  for (size_t i = 0; ok && i < args.size(); ++i) ok = fty->getParamType(static_cast<unsigned>(i)) == args[i]->getType();
  llvm::Type* ret = is_void_type(inf.type) ? llvm::Type::getVoidTy(l.ctx()) : llvm_type_of(l.ctx(), inf.type);
  if (!ok || fty->getReturnType() != ret) {
    std::string expected = type_text(ret) + " (";
    for (size_t i = 0; i < args.size(); ++i) expected += (i ? ", " : "") + type_text(args[i]->getType());
    UserError err(ErrorKind::LoweringError, concat("a code generation function built a function of type ",
                                                   type_text(fty), " where the data model needs ", expected, ")"));
    err.set_location_if_unknown(l.where(e->loc), l.typed().captured->name);
    throw err;
  }
  llvm::Value* r = l.b().CreateCall(linked.function, args);
  if (is_void_type(inf.type)) return {nullptr, inf.type};
  return {r, inf.type};
}

Val lower_extension_call(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  (void)e;
  const sema::TypedFunction& callee = *inf.callee;
  std::vector<llvm::Value*> args;
  const size_t unpacked = inf.packed_from >= 0 ? size_t(inf.packed_from) : inf.ordered_args.size();
  for (size_t i = 0; i < unpacked; ++i) {
    const ir::Type* pt = inf.param_types[i];
    Val v;
    if (inf.ordered_args[i]) {
      v = l.expr_as(inf.ordered_args[i], pt);
    } else {
      // A parameter left to its default: the callee is specialized on that value.
      CUHOST_CHECK(i < callee.arg_constants.size() && callee.arg_constants[i]) << "default without a value";
      v = l.constant(*callee.arg_constants[i], pt);
    }
    args.push_back(v.v ? v.v : llvm::UndefValue::get(llvm_type_of(l.ctx(), pt)));
  }
  if (inf.packed_from >= 0) {  // the implementation's *args: one tuple of the remaining arguments
    const ir::Type* tt = inf.param_types.at(unpacked);
    llvm::Value* tuple = llvm::UndefValue::get(llvm_type_of(l.ctx(), tt));
    for (size_t i = unpacked; i < inf.ordered_args.size(); ++i) {
      const unsigned k = unsigned(i - unpacked);
      Val v = l.expr_as(inf.ordered_args[i], tt->elements[k]);
      tuple = l.b().CreateInsertValue(tuple, v.v ? v.v : llvm::UndefValue::get(llvm_type_of(l.ctx(), tt->elements[k])),
                                      {k});
    }
    args.push_back(tuple);
  }
  return l.call_jitted(inf.callee, std::move(args), inf.type);
}

Val lower_member(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) {
  (void)e;
  Val v = l.expr_as(inf.ordered_args.at(0), inf.param_types.at(0));
  unsigned index = static_cast<unsigned>(inf.extension->member);
  return {l.b().CreateExtractValue(v.v, {index}), inf.type};
}

}  // namespace

llvm::Type* extension_llvm_type(llvm::LLVMContext& c, const ir::Type* t) {
  const ir::ExtensionTypeInfo& info = ir::extension_info(t);
  switch (info.model) {
    case ir::DataModel::Struct: {
      std::vector<llvm::Type*> members;
      for (const auto& m : info.members) members.push_back(llvm_type_of(c, m.type));
      return llvm::StructType::get(c, members);
    }
    case ir::DataModel::Opaque: return llvm::PointerType::get(c, 0);
    case ir::DataModel::Primitive: {
      llvm::Module scratch("extension.type", c);
      llvm::SMDiagnostic diag;
      if (llvm::Type* parsed = llvm::parseType(info.llvm_text, diag, scratch)) return parsed;
      codegen_error(concat("the data model of ", info.spelling, " names the LLVM type '", info.llvm_text,
                           "', which does not parse: ", diag.getMessage().str()));
    }
  }
  return llvm::StructType::get(c);
}

void register_extension(std::map<std::string, IntrinsicFn>& table) {
  table["extension.call"] = lower_extension_call;
  table["extension.codegen"] = lower_codegen;
  table["extension.member"] = lower_member;
}

}  // namespace cuhost::codegen
