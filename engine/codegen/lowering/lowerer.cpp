// The statement/expression visitor: parameters into locals, control flow
// (if/while/for over range, break/continue, return), assignments and the
// dispatch of every expression kind to its feature file.
#include "codegen/lowering/lowerer.h"

#include "codegen/lowering/iterators.h"
#include "codegen/lowering/nrt.h"

#include <llvm/IR/Constants.h>

#include "codegen/debug_info.h"
#include "codegen/lowering/grid_stride.h"
#include "codegen/lowering/records.h"
#include "codegen/lowering/saturating_conversions.h"
#include "frontend/captured.h"
#include "frontend/ssa_versions.h"
#include "ir/extension_types.h"
#include "model/fastmath_flags.h"
#include "sema/branch_pruning.h"
#include "support/compile_warnings.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

// fastmath={...} flag bits (model/fastmath_flags.h) as LLVM's flags.
llvm::FastMathFlags llvm_fast_math_flags(unsigned bits) {
  llvm::FastMathFlags f;
  f.setAllowContract(bits & model::kFmfContract);
  f.setAllowReciprocal(bits & model::kFmfArcp);
  f.setNoNaNs(bits & model::kFmfNnan);
  f.setNoInfs(bits & model::kFmfNinf);
  f.setNoSignedZeros(bits & model::kFmfNsz);
  f.setApproxFunc(bits & model::kFmfAfn);
  f.setAllowReassoc(bits & model::kFmfReassoc);
  return f;
}

}  // namespace

Lowerer::Lowerer(ModuleState& state, const sema::TypedFunction& tf, llvm::Function* fn, bool is_kernel_body)
    : state_(state), tf_(tf), fn_(fn), is_kernel_body_(is_kernel_body), builder_(state.module->getContext()) {
  entry_ = llvm::BasicBlock::Create(ctx(), "entry", fn_);
  builder_.SetInsertPoint(entry_);
  if (state.debug_info && tf.captured && tf.captured->def) {
    const ir::Type* result = is_kernel_body || is_void_type(tf.return_type) ? nullptr : tf.return_type;
    builder_.SetCurrentDebugLocation(state.debug_info->begin_function(
        fn_, tf.captured->name, tf.captured->filename, tf.captured->def->loc.line, tf.arg_types, result));
    // The DWARF names a file no debugger can open (source given to exec()):
    // say so, in numba's words, rather than leave a silently blank listing.
    if (state.options.debug && !tf.captured->source_findable)
      report_compile_warning(WarningCategory::DebugInfo,
                             "Could not find source for function: " + tf.captured->function_repr +
                                 ". Debug line information may be inaccurate.");
  }
  if (state.options.fastmath) {
    builder_.setFastMathFlags(llvm::FastMathFlags::getFast());
  } else if (state.options.fastmath_flags) {
    builder_.setFastMathFlags(llvm_fast_math_flags(state.options.fastmath_flags));
  }
  // Allocas go before this marker so they stay in the entry block.
  alloca_point_ = llvm::cast<llvm::Instruction>(builder_.CreateAlloca(builder_.getInt8Ty(), nullptr, "alloca.point"));
}

SourceLocation Lowerer::where(const ast::SourceLoc& loc) const {
  return tf_.captured ? tf_.captured->where(loc) : SourceLocation{};
}

void Lowerer::unsupported(const ast::SourceLoc& loc, const std::string& what) const {
  throw UserError(ErrorKind::UnsupportedError, what, where(loc), tf_.captured ? tf_.captured->name : "");
}

llvm::AllocaInst* Lowerer::entry_alloca(llvm::Type* t, const std::string& name, llvm::Value* count) {
  llvm::IRBuilder<> tmp(alloca_point_);
  return tmp.CreateAlloca(t, count, name);
}

llvm::BasicBlock* Lowerer::new_block(const std::string& name) {
  llvm::BasicBlock* bb = llvm::BasicBlock::Create(ctx(), name, fn_);
  builder_.SetInsertPoint(bb);
  return bb;
}

void Lowerer::emit_return_default() {
  emit_return(nullptr);
  new_block("after.return");
}

llvm::Type* llvm_type_of(llvm::LLVMContext& c, const ir::Type* t) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::Boolean: return llvm::Type::getInt1Ty(c);
    case K::Integer: return llvm::Type::getIntNTy(c, t->bits);
    case K::Float:
      if (ir::is_storage_float(t)) return llvm::Type::getIntNTy(c, t->bits);  // fp8, bfloat16_raw: the bits
      if (t->bits == 16) return ir::is_bfloat16(t) ? llvm::Type::getBFloatTy(c) : llvm::Type::getHalfTy(c);
      return t->bits == 32 ? llvm::Type::getFloatTy(c) : llvm::Type::getDoubleTy(c);
    case K::Complex: {
      llvm::Type* f = t->bits == 64 ? llvm::Type::getFloatTy(c) : llvm::Type::getDoubleTy(c);
      return llvm::StructType::get(c, {f, f});
    }
    case K::Array: {
      llvm::Type* dims = llvm::ArrayType::get(llvm::Type::getInt64Ty(c), t->ndim);
      if (arrays_carry_meminfo())  // NRT: the meminfo of the allocation it views (lowering/nrt.h)
        return llvm::StructType::get(c, {llvm::PointerType::get(c, 0), dims, dims, llvm::PointerType::get(c, 0)});
      return llvm::StructType::get(c, {llvm::PointerType::get(c, 0), dims, dims});
    }
    case K::Tuple: {
      std::vector<llvm::Type*> elems;
      for (const ir::Type* e : t->elements) elems.push_back(llvm_type_of(c, e));
      return llvm::StructType::get(c, elems);
    }
    case K::CPointer:
    case K::Record: return llvm::PointerType::get(c, 0);  // a record is the address of its bytes
    case K::Range: return llvm_type_of(c, t->pointee);
    case K::NPDatetime:
    case K::NPTimedelta: return llvm::Type::getInt64Ty(c);
    case K::EnumMember: return llvm_type_of(c, t->pointee);  // the member's value
    case K::Optional: return llvm::StructType::get(c, {llvm::Type::getInt1Ty(c), llvm_type_of(c, t->pointee)});
    case K::CharSeq: return llvm::ArrayType::get(llvm::Type::getIntNTy(c, unsigned(t->bits)), std::uint64_t(t->ndim));
    case K::Extension: return extension_llvm_type(c, t);
    default:
      // Non-values (modules, functions, type objects, None) carry no bits.
      return llvm::StructType::get(c);
  }
}

llvm::Type* Lowerer::llvm_type(const ir::Type* t) { return llvm_type_of(ctx(), t); }

llvm::Type* llvm_memory_type_of(llvm::LLVMContext& c, const ir::Type* t) {
  // A record stored in an array is its bytes (elements are addressed by size).
  if (t->kind == ir::TypeKind::Record)
    return llvm::ArrayType::get(llvm::Type::getInt8Ty(c), std::uint64_t(t->byte_size()));
  return t->kind == ir::TypeKind::Boolean ? llvm::Type::getInt8Ty(c) : llvm_type_of(c, t);
}

llvm::Type* Lowerer::memory_type(const ir::Type* t) { return llvm_memory_type_of(ctx(), t); }

llvm::Value* Lowerer::to_memory(llvm::Value* v, const ir::Type* t) {
  return t->kind == ir::TypeKind::Boolean ? builder_.CreateZExt(v, builder_.getInt8Ty()) : v;
}

llvm::Value* Lowerer::from_memory(llvm::Value* v, const ir::Type* t) {
  return t->kind == ir::TypeKind::Boolean ? builder_.CreateICmpNE(v, builder_.getInt8(0)) : v;
}

Val Lowerer::constant(const ir::ConstValue& c, const ir::Type* t) {
  using K = ir::TypeKind;
  using CK = ir::ConstValue::Kind;
  auto as_double = [&]() -> double {
    switch (c.kind) {
      case CK::Bool: return c.b ? 1.0 : 0.0;
      case CK::Int: return double(c.i);
      case CK::UInt: return double(c.u);
      case CK::Float: return c.f;
      default: return 0.0;
    }
  };
  auto as_bits = [&]() -> std::uint64_t {
    switch (c.kind) {
      case CK::Bool: return c.b ? 1 : 0;
      case CK::Int: return std::uint64_t(c.i);
      case CK::UInt: return c.u;
      case CK::Float: return std::uint64_t(std::int64_t(c.f));
      default: return 0;
    }
  };
  switch (t->kind) {
    case K::Boolean: return {builder_.getInt1(c.kind == CK::Float ? c.f != 0.0 : as_bits() != 0), t};
    case K::Integer: return {llvm::ConstantInt::get(builder_.getIntNTy(t->bits), as_bits(), t->is_signed), t};
    case K::Float: return {llvm::ConstantFP::get(llvm_type(t), as_double()), t};
    case K::NPDatetime:
    case K::NPTimedelta: return {llvm::ConstantInt::get(builder_.getInt64Ty(), as_bits(), true), t};
    case K::EnumMember: return {constant(c, t->pointee).v, t};
    case K::Complex:
      if (c.kind == CK::Complex) return {complex_constant(*this, t, c.c.real(), c.c.imag()), t};
      return {complex_constant(*this, t, as_double(), 0.0), t};
    case K::Tuple: {
      CUHOST_CHECK(c.kind == CK::Tuple && c.items.size() == t->elements.size()) << "tuple constant " << c.repr();
      llvm::Value* agg = llvm::UndefValue::get(llvm_type(t));
      for (size_t i = 0; i < c.items.size(); ++i) {
        // A string literal element (literal_unroll(("x", "y"))) has no bits: it stays undef.
        if (llvm::Value* item = constant(c.items[i], t->elements[i]).v)
          agg = builder_.CreateInsertValue(agg, item, {unsigned(i)});
      }
      return {agg, t};
    }
    default: return {nullptr, t};
  }
}

Val Lowerer::convert(Val v, const ir::Type* to) {
  using K = ir::TypeKind;
  const ir::Type* from = v.t;
  if (to && from != to &&
      (from->kind == K::Optional || to->kind == K::Optional || (from->kind == K::NoneType && to->is_scalar())))
    return convert_optional(*this, v, to);
  if (to && to->kind == K::CharSeq && (from->kind == K::StringLiteral || from->kind == K::BytesLiteral))
    return char_seq_from_literal(*this, from, to);
  if (!to || from == to || !v.v) return {v.v, to ? to : from};
  auto& b = builder_;
  if ((ir::is_storage_float(from) || ir::is_storage_float(to)) && from->is_scalar() && to->is_scalar()) {
    if (to->kind == K::Boolean) return {truth(storage_float_convert(*this, v, ir::float32())), to};
    return storage_float_convert(*this, v, to);
  }
  if ((ir::is_bfloat16(from) || ir::is_bfloat16(to)) && from->is_scalar() && to->is_scalar() &&
      to->kind != K::Boolean && from->kind != K::Complex && to->kind != K::Complex)
    return bf16_convert(*this, v, to, to->kind == K::Integer ? 'z' : 'n');
  if ((from == ir::float16() && to->kind == K::Integer) || (from->kind == K::Integer && to == ir::float16()))
    return half_int_convert(*this, v, to);
  // An enum member is its value: to the value's type (or any type an
  // IntEnum's integer converts to) through the value.
  if (from->kind == K::EnumMember) return convert({v.v, from->pointee}, to);
  if (ir::is_datetime_like(from) || ir::is_datetime_like(to)) return datetime_convert(*this, v, to);
  if (to->kind == K::Boolean) return {truth(v), to};
  if (to->kind == K::Complex) return complex_convert(*this, v, to);
  if (from->kind == K::Boolean) {
    if (to->kind == K::Integer) return {b.CreateZExt(v.v, llvm_type(to)), to};
    if (to->kind == K::Float) return {b.CreateUIToFP(v.v, llvm_type(to)), to};
  }
  if (from->kind == K::Integer && to->kind == K::Integer) {
    if (from->bits == to->bits) return {v.v, to};
    if (from->bits > to->bits) return {b.CreateTrunc(v.v, llvm_type(to)), to};
    return {from->is_signed ? b.CreateSExt(v.v, llvm_type(to)) : b.CreateZExt(v.v, llvm_type(to)), to};
  }
  if (from->kind == K::Integer && to->kind == K::Float)
    return {from->is_signed ? b.CreateSIToFP(v.v, llvm_type(to)) : b.CreateUIToFP(v.v, llvm_type(to)), to};
  if (from->kind == K::Float && to->kind == K::Integer) {
    if (saturating_float_to_int())  // the GPU's cvt.rzi on every backend (saturating_conversions.h)
      return {gpu_float_to_int(b, v.v, llvm::cast<llvm::IntegerType>(llvm_type(to)), to->is_signed), to};
    return {to->is_signed ? b.CreateFPToSI(v.v, llvm_type(to)) : b.CreateFPToUI(v.v, llvm_type(to)), to};
  }
  if (from->kind == K::Float && to->kind == K::Float)
    return {from->bits < to->bits ? b.CreateFPExt(v.v, llvm_type(to)) : b.CreateFPTrunc(v.v, llvm_type(to)), to};
  if (from->kind == K::Tuple && to->kind == K::Tuple && from->elements.size() == to->elements.size()) {
    llvm::Value* agg = llvm::UndefValue::get(llvm_type(to));
    for (unsigned i = 0; i < from->elements.size(); ++i) {
      Val e = convert({b.CreateExtractValue(v.v, {i}), from->elements[i]}, to->elements[i]);
      agg = b.CreateInsertValue(agg, e.v, {i});
    }
    return {agg, to};
  }
  if (from->kind == K::Array && to->kind == K::CPointer) return {b.CreateExtractValue(v.v, {0}), to};
  if (from->kind == K::Array && from->ndim == 0 && to->is_scalar()) {  // a 0-d array read as its value
    llvm::Value* element = b.CreateLoad(memory_type(from->dtype), b.CreateExtractValue(v.v, {0}));
    return convert({from_memory(element, from->dtype), from->dtype}, to);
  }
  if (from->kind == K::Array && to->kind == K::Array && from->ndim == to->ndim) return {v.v, to};
  if (from->kind == K::CPointer && to->kind == K::CPointer) return {v.v, to};
  CUHOST_CHECK(false) << "no conversion from " << from->str() << " to " << to->str();
  return v;
}

llvm::Value* Lowerer::truth(Val v) {
  using K = ir::TypeKind;
  switch (v.t->kind) {
    case K::Boolean: return v.v;
    case K::Integer: return builder_.CreateICmpNE(v.v, llvm::ConstantInt::get(v.v->getType(), 0));
    case K::Float: return builder_.CreateFCmpUNE(v.v, llvm::ConstantFP::get(v.v->getType(), 0.0));
    case K::Complex: return complex_truth(*this, v);
    case K::NoneType: return builder_.getFalse();
    case K::Optional:
      // None is false; otherwise the payload's truth (Python's rule).
      return builder_.CreateAnd(optional_valid(*this, v), truth(optional_payload(*this, v)));
    case K::Array: return builder_.getTrue();
    case K::Tuple: return builder_.getInt1(!v.t->elements.empty());
    default: return builder_.getTrue();
  }
}

Val Lowerer::expr_as(const ast::Expr* e, const ir::Type* t) { return convert(expr(e), t); }

// A parameter's argument has its name: its slot is "x.addr", as clang names it.
std::string Lowerer::slot_name(const std::string& name) const {
  for (const auto& param : tf_.captured->def->params)
    if (param.name == name) return name + ".addr";
  return name;
}

llvm::Value* Lowerer::local_slot(const std::string& name) {
  auto it = locals_.find(name);
  if (it != locals_.end()) return it->second;
  auto lt = tf_.locals.find(name);
  CUHOST_CHECK(lt != tf_.locals.end()) << "local '" << name << "' has no type";
  // Names the compiler makes ("$loop_broke.3.5") are no user's variables:
  // their own slot and no DWARF, as numba leaves its temporaries out.
  const bool debug = state_.debug_info && state_.debug_info->full() && name.front() != '$';
  llvm::AllocaInst* slot = debug ? debug_variable_slot(name) : entry_alloca(llvm_type(lt->second), slot_name(name));
  // Zero at entry, like numba, where some path may read the variable before
  // assigning it (assigned only inside an `if`, a loop that did not run): it
  // reads zero instead of undefined bits. Only there: a zero store for every
  // local would keep them all alive across barriers in the CPU backend's
  // loop fission.
  // NRT: a variable holding arrays starts with no reference (null meminfos).
  if (zero_at_entry_.count(name) || holds_references(lt->second)) {
    llvm::IRBuilder<> at_entry(alloca_point_);
    if (debug)  // the whole shared slot, whichever version is the larger
      at_entry.CreateMemSet(slot, at_entry.getInt8(0),
                            state_.module->getDataLayout().getTypeAllocSize(slot->getAllocatedType()),
                            slot->getAlign());
    else
      at_entry.CreateStore(llvm::Constant::getNullValue(slot->getAllocatedType()), slot);
  }
  locals_[name] = slot;
  return slot;
}

Val Lowerer::expr(const ast::Expr* e) {
  const sema::ExprInfo& inf = info(e);
  if (inf.constant) return constant(*inf.constant, inf.type);
  switch (e->kind) {
    case ast::ExprKind::Constant: return constant(static_cast<const ast::Constant*>(e)->value, inf.type);
    case ast::ExprKind::Name: {
      auto* n = static_cast<const ast::Name*>(e);
      if (!inf.intrinsic.empty()) return lower_intrinsic(*this, e, inf);
      if (tf_.locals.count(n->id)) {
        llvm::Value* slot = local_slot(n->id);
        const ir::Type* lt = tf_.locals.at(n->id);
        return convert({builder_.CreateLoad(llvm_type(lt), slot, n->id), lt}, inf.type);
      }
      return {nullptr, inf.type};  // a module, function or type object: no bits
    }
    case ast::ExprKind::Attribute:
      if (!inf.intrinsic.empty()) return lower_intrinsic(*this, e, inf);
      return {nullptr, inf.type};
    case ast::ExprKind::Subscript: return lower_subscript(*this, static_cast<const ast::Subscript*>(e), inf);
    case ast::ExprKind::Call: return lower_call(*this, static_cast<const ast::Call*>(e), inf);
    case ast::ExprKind::BinOp: return lower_binop(*this, static_cast<const ast::BinOp*>(e), inf);
    case ast::ExprKind::UnaryOp: return lower_unaryop(*this, static_cast<const ast::UnaryOp*>(e), inf);
    case ast::ExprKind::Compare: return lower_compare(*this, static_cast<const ast::Compare*>(e), inf);
    case ast::ExprKind::BoolOp: {
      auto* bo = static_cast<const ast::BoolOp*>(e);
      llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx(), "boolop.end", fn_);
      std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
      // The operands' unified type (an Optional when a None is among them);
      // the result is converted to the expression's type at the end.
      const ir::Type* ut = inf.operand_types.empty() ? inf.type : inf.operand_types[0];
      for (size_t i = 0; i < bo->values.size(); ++i) {
        // A constant operand but the last (pruned by typing): one that
        // passes the value on is skipped, one that stops is the result.
        auto known =
            i + 1 < bo->values.size() ? sema::constant_truth(info(bo->values[i].get()).constant) : std::nullopt;
        if (known && *known == (bo->op == ast::BoolOpKind::And)) continue;
        Val v = expr(bo->values[i].get());
        llvm::Value* converted = convert(v, ut).v;
        if (i + 1 == bo->values.size() || known) {
          incoming.push_back({converted, builder_.GetInsertBlock()});
          builder_.CreateBr(done);
          break;
        }
        llvm::Value* t = truth(v);
        incoming.push_back({converted, builder_.GetInsertBlock()});
        llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx(), "boolop.next", fn_);
        // `and` stops at the first falsy value, `or` at the first truthy one.
        if (bo->op == ast::BoolOpKind::And)
          builder_.CreateCondBr(t, next, done);
        else
          builder_.CreateCondBr(t, done, next);
        builder_.SetInsertPoint(next);
      }
      builder_.SetInsertPoint(done);
      llvm::PHINode* phi = builder_.CreatePHI(llvm_type(ut), unsigned(incoming.size()));
      for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
      return convert({phi, ut}, inf.type);
    }
    case ast::ExprKind::IfExp: {
      auto* ie = static_cast<const ast::IfExp*>(e);
      if (auto live = sema::constant_truth(info(ie->test.get()).constant)) {  // pruned by typing
        const ir::Type* ut = inf.operand_types.empty() ? inf.type : inf.operand_types[0];
        return convert(expr_as(*live ? ie->body.get() : ie->orelse.get(), ut), inf.type);
      }
      llvm::Value* cond = truth(expr(ie->test.get()));
      llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx(), "ifexp.then", fn_);
      llvm::BasicBlock* else_bb = llvm::BasicBlock::Create(ctx(), "ifexp.else", fn_);
      llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx(), "ifexp.end", fn_);
      builder_.CreateCondBr(cond, then_bb, else_bb);
      // Branches meet in their unified type (an Optional when one is None).
      const ir::Type* ut = inf.operand_types.empty() ? inf.type : inf.operand_types[0];
      builder_.SetInsertPoint(then_bb);
      llvm::Value* tv = expr_as(ie->body.get(), ut).v;
      llvm::BasicBlock* then_end = builder_.GetInsertBlock();
      builder_.CreateBr(done);
      builder_.SetInsertPoint(else_bb);
      llvm::Value* ev = expr_as(ie->orelse.get(), ut).v;
      llvm::BasicBlock* else_end = builder_.GetInsertBlock();
      builder_.CreateBr(done);
      builder_.SetInsertPoint(done);
      if (!tv) return {nullptr, inf.type};
      llvm::PHINode* phi = builder_.CreatePHI(tv->getType(), 2);
      phi->addIncoming(tv, then_end);
      phi->addIncoming(ev, else_end);
      return convert({phi, ut}, inf.type);
    }
    case ast::ExprKind::Tuple: {
      auto* tu = static_cast<const ast::Tuple*>(e);
      llvm::Value* agg = llvm::UndefValue::get(llvm_type(inf.type));
      for (unsigned i = 0; i < tu->elts.size(); ++i) {
        const ir::Type* et = inf.type->kind == ir::TypeKind::Tuple ? inf.type->elements[i] : nullptr;
        Val v = expr_as(tu->elts[i].get(), et);
        if (v.v) agg = builder_.CreateInsertValue(agg, v.v, {i});
      }
      return {agg, inf.type};
    }
    case ast::ExprKind::Slice: unsupported(e->loc, "slices are not supported in kernels");
  }
  CUHOST_CHECK(false) << "unhandled expression kind";
  return {};
}

// ---------------------------------------------------------------------------
// Statements

void Lowerer::assign_to(const ast::Expr* target, Val value) {
  switch (target->kind) {
    case ast::ExprKind::Name: {
      auto* n = static_cast<const ast::Name*>(target);
      const ir::Type* lt = tf_.locals.at(n->id);
      Val v = convert(value, lt);
      if (v.v && holds_references(lt)) {
        // The variable takes its own reference and drops the one it held.
        llvm::Value* slot = local_slot(n->id);
        incref_value(*this, v);
        if (slot_owns_references(n->id)) decref_value(*this, {builder_.CreateLoad(llvm_type(lt), slot), lt});
        builder_.CreateStore(v.v, slot);
        return;
      }
      if (v.v) builder_.CreateStore(v.v, local_slot(n->id));
      return;
    }
    case ast::ExprKind::Subscript: store_subscript(*this, static_cast<const ast::Subscript*>(target), value); return;
    case ast::ExprKind::Attribute: store_record_field(*this, target, value); return;
    case ast::ExprKind::Tuple: {
      auto* tu = static_cast<const ast::Tuple*>(target);
      if (value.t->kind == ir::TypeKind::Optional) value = convert(value, value.t->pointee);  // unpacking unwraps
      CUHOST_CHECK(value.t->kind == ir::TypeKind::Tuple && value.t->elements.size() == tu->elts.size())
          << "tuple unpacking of " << value.t->str();
      for (unsigned i = 0; i < tu->elts.size(); ++i)
        assign_to(tu->elts[i].get(), {builder_.CreateExtractValue(value.v, {i}), value.t->elements[i]});
      return;
    }
    default: unsupported(target->loc, "cannot assign to this expression");
  }
}

void Lowerer::body(const ast::Body& stmts) {
  auto truth = [this](const ast::Expr* test) -> std::optional<bool> {
    auto it = tf_.exprs.find(test);
    return it == tf_.exprs.end() ? std::nullopt : sema::constant_truth(it->second.constant);
  };
  for (const ast::StmtPtr& s : stmts) {
    stmt(s.get());
    // An `if` pruned to a side that leaves the block: the rest is dead and
    // was not typed (sema/branch_pruning.h).
    if (s->kind == ast::StmtKind::If) {
      auto* i = static_cast<const ast::If*>(s.get());
      auto live = truth(i->test.get());
      if (live && sema::leaves_block(*live ? i->body : i->orelse, truth)) return;
    }
  }
}

void Lowerer::lower_augassign(const ast::AugAssign* s) {
  if (s->target->kind == ast::ExprKind::Subscript) {
    augassign_subscript(*this, s);
    return;
  }
  if (s->target->kind == ast::ExprKind::Attribute) {  // r.x += v: the record is evaluated once
    augassign_record_field(*this, s);
    return;
  }
  const sema::ExprInfo& ti = info(s->target.get());
  CUHOST_CHECK(ti.operand_types.size() == 2 && !ti.param_types.empty()) << "augmented assignment not typed";
  Val cur = expr(s->target.get());
  Val rhs = expr(s->value.get());
  if (s == nsw_increment_ && ti.param_types[0] == ir::int64()) {
    // A grid-stride increment: it cannot wrap (see grid_stride.h).
    llvm::Value* sum =
        builder_.CreateAdd(convert(cur, ir::int64()).v, convert(rhs, ir::int64()).v, "stride.next", false, true);
    assign_to(s->target.get(), {sum, ir::int64()});
    return;
  }
  Val res = binary_op(*this, s->op, convert(cur, ti.operand_types[0]), convert(rhs, ti.operand_types[1]),
                      ti.param_types[0], s->loc);
  assign_to(s->target.get(), res);
}

void Lowerer::lower_for(const ast::For* s) {
  const sema::ExprInfo& it = info(s->iter.get());
  // `for x in tup` / `for x in arr` / enumerate / zip count 0..len-1 and read item i.
  bool over_seq = it.intrinsic == "builtins.enumerate" || it.intrinsic == "builtins.zip";
  bool over_tuple = !over_seq && it.type && it.type->kind == ir::TypeKind::Tuple;
  bool over_array = !over_seq && it.type && it.type->kind == ir::TypeKind::Array;
  if (!over_seq && !over_tuple && !over_array && it.intrinsic != "builtins.range")
    unsupported(s->iter->loc, "only range(...) loops are supported");
  bool over_items = over_tuple || over_array || over_seq;
  const ir::Type* I = !over_items && it.param_types.size() == 3 && it.param_types[1] ? it.param_types[1] : ir::int64();
  auto arg = [&](size_t k) -> const ast::Expr* {
    return !over_items && k < it.ordered_args.size() ? it.ordered_args[k] : nullptr;
  };
  llvm::Type* ity = llvm_type(I);
  std::optional<SequencePlan> plan;
  if (over_seq) plan = plan_sequence(*this, s->iter.get());
  Val items = over_tuple || over_array ? expr(s->iter.get()) : Val{};
  llvm::Value* start = arg(0) ? expr_as(arg(0), I).v : llvm::ConstantInt::get(ity, 0);
  llvm::Value* stop = over_seq     ? plan->length
                      : over_tuple ? i64(std::int64_t(it.type->elements.size()))
                      : over_array ? builder_.CreateExtractValue(items.v, {1, 0})
                                   : expr_as(arg(1), I).v;
  llvm::Value* step = arg(2) ? expr_as(arg(2), I).v : llvm::ConstantInt::get(ity, 1);
  bool is_signed = I->is_signed;
  // range(a, b, 0) is Python's ValueError; a step known only at run time is
  // checked always (not only with debug=True): the loop would never end.
  if (auto* known = llvm::dyn_cast<llvm::ConstantInt>(step); !known || known->isZero())
    fail_if(builder_.CreateICmpEQ(step, llvm::ConstantInt::get(ity, 0)), [&] {
      hooks().kernel_error(*this, check_site("builtins.ValueError", "range() arg 3 must not be zero"), i64(0));
    });

  // range() over compile-time bounds that fit 32 bits counts in 32 bits (the
  // loop variable is still the int64 numba gives it): 64-bit integer adds and
  // compares cost two instructions each on a GPU, inside every iteration.
  llvm::Type* full_ity = ity;
  if (!over_items && I == ir::int64()) {
    auto* c_start = llvm::dyn_cast<llvm::ConstantInt>(start);
    auto* c_stop = llvm::dyn_cast<llvm::ConstantInt>(stop);
    auto* c_step = llvm::dyn_cast<llvm::ConstantInt>(step);
    auto fits = [](std::int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; };
    if (c_start && c_stop && c_step && !c_step->isZero() && fits(c_start->getSExtValue()) &&
        fits(c_stop->getSExtValue()) && fits(c_step->getSExtValue()) &&
        fits(c_stop->getSExtValue() + c_step->getSExtValue())) {
      ity = builder_.getInt32Ty();
      start = llvm::ConstantInt::get(ity, c_start->getSExtValue(), true);
      stop = llvm::ConstantInt::get(ity, c_stop->getSExtValue(), true);
      step = llvm::ConstantInt::get(ity, c_step->getSExtValue(), true);
    }
  }
  llvm::AllocaInst* counter = entry_alloca(ity, "range.i");
  builder_.CreateStore(start, counter);
  llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx(), "for.cond", fn_);
  llvm::BasicBlock* body_bb = llvm::BasicBlock::Create(ctx(), "for.body", fn_);
  llvm::BasicBlock* latch = llvm::BasicBlock::Create(ctx(), "for.inc", fn_);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx(), "for.end", fn_);
  builder_.CreateBr(header);
  builder_.SetInsertPoint(header);
  llvm::Value* i = builder_.CreateLoad(ity, counter);
  llvm::Value* cond;
  auto* step_const = llvm::dyn_cast<llvm::ConstantInt>(step);
  // range(start, a.size, cuda.gridsize(1)): a positive step that cannot wrap (grid_stride.h).
  const bool grid_stride = arg(2) && I == ir::int64() && is_grid_stride_range(*this, arg(1), arg(2));
  llvm::Value* up = is_signed ? builder_.CreateICmpSLT(i, stop) : builder_.CreateICmpULT(i, stop);
  if (grid_stride || (step_const && (!is_signed || !step_const->isNegative()))) {
    cond = up;
  } else {
    llvm::Value* down = builder_.CreateICmpSGT(i, stop);
    if (step_const)
      cond = down;
    else
      cond = builder_.CreateSelect(builder_.CreateICmpSGT(step, llvm::ConstantInt::get(ity, 0)), up, down);
  }
  builder_.CreateCondBr(cond, body_bb, exit);
  builder_.SetInsertPoint(body_bb);
  assign_to(s->target.get(), over_seq     ? sequence_item(*this, *plan, i)
                             : over_tuple ? tuple_item(*this, items, i, false)
                             : over_array ? array_item(*this, items, i)
                                          : Val{ity == full_ity ? i : builder_.CreateSExt(i, full_ity), I});
  loops_.push_back({latch, exit});
  body(s->body);
  loops_.pop_back();
  if (!builder_.GetInsertBlock()->getTerminator()) builder_.CreateBr(latch);
  builder_.SetInsertPoint(latch);
  llvm::Value* cur = builder_.CreateLoad(ity, counter);
  builder_.CreateStore(builder_.CreateAdd(cur, step, "", false, grid_stride || (is_signed && step_const != nullptr)),
                       counter);
  llvm::Instruction* backedge = builder_.CreateBr(header);
  if (grid_stride) request_unroll(backedge, 4);
  builder_.SetInsertPoint(exit);
}

void Lowerer::lower_return(const ast::Return* s) {
  if (is_void_type(tf_.return_type) || is_kernel_body_) {
    if (s->value) expr(s->value.get());
    release_temps(0);
    release_locals();
    emit_return(nullptr);
  } else if (s->value) {
    Val v = expr(s->value.get());
    // A C-ABI function flattens an Optional (or None) to its T, None giving zero.
    bool flatten = tf_.abi == ir::Abi::C && tf_.return_type->kind != ir::TypeKind::Optional &&
                   (v.t->kind == ir::TypeKind::Optional || v.t->kind == ir::TypeKind::NoneType);
    v = flatten ? optional_flatten(*this, v, tf_.return_type) : convert(v, tf_.return_type);
    // NRT: the caller gets a reference of its own; then this function's go.
    incref_value(*this, v);
    release_temps(0);
    release_locals();
    emit_return(v.v ? v.v : llvm::Constant::getNullValue(llvm_type(tf_.return_type)));
  } else {
    release_temps(0);
    release_locals();
    emit_return(llvm::Constant::getNullValue(llvm_type(tf_.return_type)));
  }
  new_block("after.return");
}

void Lowerer::stmt(const ast::Stmt* s) {
  const size_t mark = temps_.size();
  stmt_kind(s);
  // The new references the statement made are released where it ends (a
  // point its evaluations dominate); after a return, in a dead block.
  release_temps(mark);
  temps_.resize(mark);
}

void Lowerer::stmt_kind(const ast::Stmt* s) {
  if (state_.debug_info) builder_.SetCurrentDebugLocation(state_.debug_info->location(fn_, s->loc.line, s->loc.column));
  switch (s->kind) {
    case ast::StmtKind::Assign: {
      auto* a = static_cast<const ast::Assign*>(s);
      Val v = expr(a->value.get());
      for (const ast::ExprPtr& t : a->targets) assign_to(t.get(), v);
      return;
    }
    case ast::StmtKind::AugAssign: lower_augassign(static_cast<const ast::AugAssign*>(s)); return;
    case ast::StmtKind::If: {
      auto* i = static_cast<const ast::If*>(s);
      if (auto live = sema::constant_truth(info(i->test.get()).constant)) {  // pruned by typing
        body(*live ? i->body : i->orelse);
        return;
      }
      llvm::Value* cond = truth(expr(i->test.get()));
      llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx(), "if.then", fn_);
      llvm::BasicBlock* else_bb = i->orelse.empty() ? nullptr : llvm::BasicBlock::Create(ctx(), "if.else", fn_);
      llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx(), "if.end", fn_);
      builder_.CreateCondBr(cond, then_bb, else_bb ? else_bb : done);
      builder_.SetInsertPoint(then_bb);
      body(i->body);
      if (!builder_.GetInsertBlock()->getTerminator()) builder_.CreateBr(done);
      if (else_bb) {
        builder_.SetInsertPoint(else_bb);
        body(i->orelse);
        if (!builder_.GetInsertBlock()->getTerminator()) builder_.CreateBr(done);
      }
      builder_.SetInsertPoint(done);
      return;
    }
    case ast::StmtKind::While: {
      auto* w = static_cast<const ast::While*>(s);
      auto live = sema::constant_truth(info(w->test.get()).constant);
      if (live && !*live) return;  // `while False:` (its body is not typed)
      llvm::BasicBlock* header = llvm::BasicBlock::Create(ctx(), "while.cond", fn_);
      llvm::BasicBlock* body_bb = llvm::BasicBlock::Create(ctx(), "while.body", fn_);
      llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx(), "while.end", fn_);
      builder_.CreateBr(header);
      builder_.SetInsertPoint(header);
      builder_.CreateCondBr(truth(expr(w->test.get())), body_bb, exit);
      builder_.SetInsertPoint(body_bb);
      const ast::AugAssign* outer_increment = nsw_increment_;
      const ast::AugAssign* stride_increment = grid_stride_increment(*this, w);
      if (stride_increment) nsw_increment_ = stride_increment;
      loops_.push_back({header, exit});
      body(w->body);
      loops_.pop_back();
      nsw_increment_ = outer_increment;
      if (!builder_.GetInsertBlock()->getTerminator()) {
        llvm::Instruction* backedge = builder_.CreateBr(header);
        if (stride_increment) request_unroll(backedge, 4);
      }
      builder_.SetInsertPoint(exit);
      return;
    }
    case ast::StmtKind::For: lower_for(static_cast<const ast::For*>(s)); return;
    case ast::StmtKind::Raise: lower_raise(*this, static_cast<const ast::Raise*>(s)); return;
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue: {
      CUHOST_CHECK(!loops_.empty()) << "break/continue outside a loop";
      builder_.CreateBr(s->kind == ast::StmtKind::Break ? loops_.back().second : loops_.back().first);
      new_block("after.jump");
      return;
    }
    case ast::StmtKind::Return: lower_return(static_cast<const ast::Return*>(s)); return;
    case ast::StmtKind::Pass: return;
    case ast::StmtKind::ExprStmt: expr(static_cast<const ast::ExprStmt*>(s)->value.get()); return;
  }
}

// ---------------------------------------------------------------------------
// Parameters

void Lowerer::setup_params() {
  const ast::FunctionDef& def = *tf_.captured->def;
  size_t nctx = state_.hooks->context_param_types(*state_.module).size();
  size_t nargs = fn_->arg_size() - nctx;
  for (size_t k = nargs; k < fn_->arg_size(); ++k) context_args_.push_back(fn_->getArg(unsigned(k)));
  unsigned first = has_status() ? 1 : 0;  // the result pointer comes first
  unsigned next = 0;
  // Rebuilds a value of type t from consecutive kernel slots.
  std::function<llvm::Value*(const ir::Type*)> from_slots = [&](const ir::Type* t) -> llvm::Value* {
    using K = ir::TypeKind;
    switch (t->kind) {
      case K::Boolean: return builder_.CreateICmpNE(fn_->getArg(next++), builder_.getInt8(0));
      case K::Array: {
        // (null meminfo with NRT: the launch's arrays are not the kernel's to free)
        llvm::Value* agg = llvm::Constant::getNullValue(llvm_type(t));
        agg = builder_.CreateInsertValue(agg, fn_->getArg(next++), {0});
        for (unsigned d = 0; d < unsigned(t->ndim); ++d)
          agg = builder_.CreateInsertValue(agg, fn_->getArg(next++), {1, d});
        for (unsigned d = 0; d < unsigned(t->ndim); ++d)
          agg = builder_.CreateInsertValue(agg, fn_->getArg(next++), {2, d});
        return agg;
      }
      case K::Complex: {
        llvm::Value* agg = llvm::UndefValue::get(llvm_type(t));
        agg = builder_.CreateInsertValue(agg, fn_->getArg(next++), {0});
        return builder_.CreateInsertValue(agg, fn_->getArg(next++), {1});
      }
      case K::TypeRef: return llvm::UndefValue::get(llvm_type(t));  // no slot: known at compile time
      case K::Tuple: {
        llvm::Value* agg = llvm::UndefValue::get(llvm_type(t));
        for (unsigned i = 0; i < t->elements.size(); ++i)
          agg = builder_.CreateInsertValue(agg, from_slots(t->elements[i]), {i});
        return agg;
      }
      case K::Extension: {
        const ir::ExtensionTypeInfo& info = ir::extension_info(t);
        if (info.model != ir::DataModel::Struct) return fn_->getArg(next++);
        llvm::Value* agg = llvm::UndefValue::get(llvm_type(t));
        for (unsigned i = 0; i < info.members.size(); ++i)
          agg = builder_.CreateInsertValue(agg, from_slots(info.members[i].type), {i});
        return agg;
      }
      case K::EnumMember: return from_slots(t->pointee);
      default: return fn_->getArg(next++);
    }
  };
  // The arguments carry the parameters' names, as numba's do (a parameter
  // passed in several kernel slots, an array's data, shape and strides:
  // "a.0", "a.1", ...), so the IR reads like the source.
  auto name_args = [&](unsigned from, unsigned to, const std::string& name) {
    for (unsigned k = from; k < to; ++k) fn_->getArg(k)->setName(to - from == 1 ? name : concat(name, ".", k - from));
  };
  for (size_t p = 0; p < def.params.size(); ++p) {
    const ir::Type* t = tf_.arg_types[p];
    const unsigned slots_from = next;
    llvm::Value* v = is_kernel_body_ ? from_slots(t) : fn_->getArg(unsigned(first + p));
    if (is_kernel_body_)
      name_args(slots_from, next, def.params[p].name);
    else
      name_args(unsigned(first + p), unsigned(first + p + 1), def.params[p].name);
    auto lt = tf_.locals.find(def.params[p].name);
    const ir::Type* local_t = lt != tf_.locals.end() ? lt->second : t;
    Val cv = convert({v, t}, local_t);
    // NRT: a parameter's variable owns a reference like any other (released at the exit).
    if (!is_kernel_body_) incref_value(*this, cv);
    if (cv.v) builder_.CreateStore(cv.v, local_slot(def.params[p].name));
  }
  CUHOST_CHECK(!is_kernel_body_ || next == nargs) << "kernel slots mismatch: " << next << " vs " << nargs;
}

void Lowerer::lower_body() {
  analyze();
  setup_params();
  body(tf_.captured->def->body);
  if (!builder_.GetInsertBlock()->getTerminator()) {
    release_locals();
    // Falling off the end returns None (a zero value; an invalid Optional).
    emit_return(is_void_type(tf_.return_type) || is_kernel_body_
                    ? nullptr
                    : llvm::Constant::getNullValue(llvm_type(tf_.return_type)));
  }
  alloca_point_->eraseFromParent();
  alloca_point_ = nullptr;
}

}  // namespace cuhost::codegen
