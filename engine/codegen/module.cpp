// Builds the module for one compile request: the kernel entry with one LLVM
// parameter per ABI slot (array data pointers noalias, read-only ones
// readonly), PTX kernel marking on the GPU, the CPU thread/block entry
// wrappers of model/cpu_abi.h, exported device-function wrappers, and the
// bodies of every jitted callee. Also gathers the foreign link items.
#include "codegen/module.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <set>

#include "codegen/cpu_fission.h"
#include "codegen/debug_info.h"
#include "codegen/host_entry.h"
#include "codegen/host_target.h"
#include "codegen/inline_marked.h"
#include "codegen/lowering/lowerer.h"
#include "codegen/lowering/nrt.h"
#include "codegen/nvptx_backend.h"
#include "ir/extension_types.h"
#include "model/jit_function.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

struct Slot {
  llvm::Type* type;
  bool array_data = false;
  std::string param;  // owning parameter name
};

void append_slots(llvm::LLVMContext& c, const ir::Type* t, const std::string& param, std::vector<Slot>& out) {
  using K = ir::TypeKind;
  switch (t->kind) {
    case K::Boolean: out.push_back({llvm::Type::getInt8Ty(c), false, param}); return;
    case K::Integer:
    case K::NPDatetime:
    case K::NPTimedelta:
    case K::Float: out.push_back({llvm_type_of(c, t), false, param}); return;
    case K::Complex: {
      llvm::Type* f = t->bits == 64 ? llvm::Type::getFloatTy(c) : llvm::Type::getDoubleTy(c);
      out.push_back({f, false, param});
      out.push_back({f, false, param});
      return;
    }
    case K::CPointer:
    case K::Record: out.push_back({llvm::PointerType::get(c, 0), false, param}); return;
    case K::Array:
      out.push_back({llvm::PointerType::get(c, 0), true, param});
      for (int i = 0; i < 2 * t->ndim; ++i) out.push_back({llvm::Type::getInt64Ty(c), false, param});
      return;
    case K::TypeRef: return;  // a type argument (np.float32) is known at compile time: no bits
    case K::Tuple: {
      // Arrays inside a tuple get no noalias/readonly: the write analysis
      // follows array names, and two elements may be the same array.
      size_t first = out.size();
      for (const ir::Type* e : t->elements) append_slots(c, e, param, out);
      for (size_t i = first; i < out.size(); ++i) out[i].array_data = false;
      return;
    }
    case K::Extension: {  // codegen/kernel_abi.cpp: members like a tuple, else the one value
      const ir::ExtensionTypeInfo& info = ir::extension_info(t);
      if (info.model == ir::DataModel::Struct) {
        size_t first = out.size();
        for (const auto& m : info.members) append_slots(c, m.type, param, out);
        for (size_t i = first; i < out.size(); ++i) out[i].array_data = false;
      } else {
        out.push_back({llvm_type_of(c, t), false, param});
      }
      return;
    }
    case K::EnumMember: append_slots(c, t->pointee, param, out); return;  // its value
    default: CUHOST_CHECK(false) << "type " << t->str() << " cannot be a kernel parameter";
  }
}

void mark_nvptx_kernel(llvm::Function* f, int max_registers, const int launch_bounds[3]) {
  f->setCallingConv(llvm::CallingConv::PTX_Kernel);
  llvm::Module& m = *f->getParent();
  llvm::LLVMContext& c = m.getContext();
  auto annotate = [&](const char* key, int value) {
    llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(f), llvm::MDString::get(c, key),
                            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(c), value))};
    m.getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(c, md));
  };
  annotate("kernel", 1);
  // LLVM 19's NVPTX printer turns the "maxnreg" annotation into `.maxnreg N`,
  // which ptxas (inside nvJitLink) honours for this kernel.
  // PTX allows at most 255 registers per thread; larger limits mean none.
  if (max_registers > 0) annotate("maxnreg", std::min(max_registers, 255));
  // launch_bounds: the printer writes `.maxntid N, 1, 1`, `.minnctapersm M`
  // and (sm_90) `.maxclusterrank R`; the driver then refuses larger blocks.
  if (launch_bounds[0] > 0) annotate("maxntidx", launch_bounds[0]);
  if (launch_bounds[1] > 0) annotate("minctasm", launch_bounds[1]);
  if (launch_bounds[2] > 0) annotate("maxclusterrank", launch_bounds[2]);
}

std::string link_key(const ir::LinkItem& item) {
  return concat(int(item.kind), "|", item.path, "|", item.name, "|", std::hash<std::string>()(item.data), "|",
                item.data.size());
}

void lower_pending(ModuleState& state) {
  while (!state.pending.empty()) {
    std::shared_ptr<const sema::TypedFunction> tf = state.pending.back();
    state.pending.pop_back();
    Lowerer(state, *tf, state.functions.at(tf.get()), false).lower_body();
  }
}

// The CPU entry wrappers: load each slot through params[i]; thread reads
// ctx->tid, block loops z, y, x (x fastest) over ctx->bdim.
void emit_cpu_wrappers(LoweredModule& out, llvm::Function* body, const std::vector<Slot>& slots, bool with_block,
                       const std::string& symbol) {
  llvm::Module& m = *out.module;
  llvm::LLVMContext& c = m.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  auto* wty = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false);
  auto load_slots = [&](llvm::IRBuilder<>& b, llvm::Value* params) {
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < slots.size(); ++i) {
      llvm::Value* pp = b.CreateConstInBoundsGEP1_64(ptr, params, i);
      llvm::Value* p = b.CreateAlignedLoad(ptr, pp, llvm::Align(8));
      args.push_back(b.CreateLoad(slots[i].type, p));
    }
    return args;
  };
  auto load_i32 = [&](llvm::IRBuilder<>& b, llvm::Value* ctx, int offset) {
    return b.CreateAlignedLoad(i32, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, offset), llvm::Align(4));
  };
  {
    out.cpu_thread_symbol = symbol + ".cpu.thread";
    auto* f = llvm::Function::Create(wty, llvm::GlobalValue::ExternalLinkage, out.cpu_thread_symbol, m);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    f->addParamAttr(1, llvm::Attribute::NoAlias);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", f));
    std::vector<llvm::Value*> args = load_slots(b, f->getArg(0));
    args.push_back(f->getArg(1));
    for (int a = 0; a < 3; ++a) args.push_back(load_i32(b, f->getArg(1), 4 * a));
    b.CreateCall(body, args);
    b.CreateRetVoid();
    out.keep.push_back(out.cpu_thread_symbol);
  }
  if (!with_block) return;
  out.cpu_block_symbol = symbol + ".cpu.block";
  auto* f = llvm::Function::Create(wty, llvm::GlobalValue::ExternalLinkage, out.cpu_block_symbol, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addParamAttr(1, llvm::Attribute::NoAlias);
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(c, "entry", f);
  llvm::IRBuilder<> b(entry);
  llvm::Value* ctx = f->getArg(1);
  std::vector<llvm::Value*> args = load_slots(b, f->getArg(0));
  llvm::Value* dims[3];
  for (int a = 0; a < 3; ++a) dims[a] = load_i32(b, ctx, 24 + 4 * a);
  // for z: for y: for x: body(slots..., ctx, x, y, z)
  llvm::Value* idx[3] = {nullptr, nullptr, nullptr};
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(c, "exit", f);
  std::vector<std::pair<llvm::PHINode*, llvm::BasicBlock*>> loops;  // (phi, header) per level z, y, x
  llvm::BasicBlock* after_outer = exit;
  llvm::BasicBlock* cur = entry;
  std::vector<llvm::BasicBlock*> latches;
  std::vector<llvm::BasicBlock*> headers;
  std::vector<llvm::PHINode*> phis;
  for (int level = 2; level >= 0; --level) {
    llvm::BasicBlock* header = llvm::BasicBlock::Create(c, concat("loop", level), f);
    b.SetInsertPoint(cur);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    llvm::PHINode* phi = b.CreatePHI(i32, 2);
    phi->addIncoming(b.getInt32(0), cur);
    idx[level] = phi;
    headers.push_back(header);
    phis.push_back(phi);
    cur = header;
  }
  (void)loops;
  (void)after_outer;
  // Innermost body (x loop header block continues into the body).
  b.SetInsertPoint(cur);
  std::vector<llvm::Value*> call_args = args;
  call_args.push_back(ctx);
  for (int a = 0; a < 3; ++a) call_args.push_back(idx[a]);
  b.CreateCall(body, call_args);
  // Latches from the innermost (x) outwards.
  llvm::BasicBlock* tail = b.GetInsertBlock();
  for (int k = 2; k >= 0; --k) {
    int level = 2 - k;  // phis[2] is x (level 0), phis[0] is z (level 2)
    llvm::PHINode* phi = phis[k];
    b.SetInsertPoint(tail);
    llvm::Value* next = b.CreateAdd(phi, b.getInt32(1), "", true, true);
    phi->addIncoming(next, tail);
    llvm::Value* more = b.CreateICmpSLT(next, dims[level]);
    llvm::BasicBlock* after = llvm::BasicBlock::Create(c, concat("loop", level, ".end"), f);
    b.CreateCondBr(more, headers[k], after);
    tail = after;
  }
  b.SetInsertPoint(tail);
  b.CreateBr(exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
  out.keep.push_back(out.cpu_block_symbol);
}

llvm::Type* abi_type(llvm::LLVMContext& c, const ir::Type* t) {
  return t->kind == ir::TypeKind::Boolean ? llvm::Type::getInt8Ty(c) : llvm_type_of(c, t);
}

// The numba ABI pairs each function with its environment global,
// `_ZN08NumbaEnv<the function's mangled name>`, a pointer that numba's
// callers of a Python-object-free function never read but expect to be
// defined (a module linking numba-ABI code declares it). It is null, and
// common so that modules defining the same function link without a clash.
std::string emit_numba_env_global(llvm::Module& m, const std::string& function_symbol) {
  std::string mangled_tail = function_symbol.rfind("_ZN", 0) == 0
                                 ? function_symbol.substr(3)
                                 : concat(function_symbol.size(), function_symbol, "E");
  std::string env_name = "_ZN08NumbaEnv" + mangled_tail;
  auto* ptr = llvm::PointerType::get(m.getContext(), 0);
  auto* env = new llvm::GlobalVariable(m, ptr, false, llvm::GlobalValue::CommonLinkage,
                                       llvm::ConstantPointerNull::get(ptr), env_name);
  env->setAlignment(llvm::Align(8));
  return env_name;
}

void emit_exported_device(LoweredModule& out, ModuleState& state, const ModuleRequest& r) {
  llvm::Module& m = *out.module;
  llvm::LLVMContext& c = m.getContext();
  const sema::TypedFunction& tf = *r.typed;
  llvm::Function* impl = state.function_for(r.typed);
  std::vector<llvm::Type*> params;
  bool numba = r.abi == ir::Abi::Numba;
  bool void_ret = is_void_type(tf.return_type);
  if (numba) params.push_back(llvm::PointerType::get(c, 0));
  for (const ir::Type* a : tf.arg_types) params.push_back(abi_type(c, a));
  llvm::Type* ret = numba      ? llvm::Type::getInt32Ty(c)
                    : void_ret ? llvm::Type::getVoidTy(c)
                               : abi_type(c, tf.return_type);
  std::string name = !r.abi_name.empty() ? r.abi_name : (!tf.symbol.empty() ? tf.symbol : tf.captured->name);
  auto* f =
      llvm::Function::Create(llvm::FunctionType::get(ret, params, false), llvm::GlobalValue::ExternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", f));
  std::vector<llvm::Value*> args;
  unsigned first = numba ? 1 : 0;
  for (size_t i = 0; i < tf.arg_types.size(); ++i) {
    llvm::Value* a = f->getArg(unsigned(first + i));
    if (tf.arg_types[i]->kind == ir::TypeKind::Boolean) a = b.CreateICmpNE(a, b.getInt8(0));
    args.push_back(a);
  }
  // Exported functions have no thread context on the host: pass zeros.
  for (llvm::Type* t : state.hooks->context_param_types(m)) args.push_back(llvm::Constant::getNullValue(t));
  llvm::AllocaInst* slot = tf.raises && !void_ret ? b.CreateAlloca(llvm_type_of(c, tf.return_type)) : nullptr;
  InternalCall call = call_internal(b, impl, tf, args, slot);
  llvm::Value* result = call.result;
  // numba ABI: an Optional result is its payload with status -2 for None.
  llvm::Value* none_status = nullptr;
  const ir::Type* value_type = tf.return_type;
  if (!void_ret && tf.return_type->kind == ir::TypeKind::Optional) {
    none_status = b.CreateSelect(b.CreateExtractValue(result, {0}), b.getInt32(0), b.getInt32(-2));
    result = b.CreateExtractValue(result, {1});
    value_type = tf.return_type->pointee;
  }
  if (!void_ret && value_type->kind == ir::TypeKind::Boolean) result = b.CreateZExt(result, b.getInt8Ty());
  if (numba) {
    if (!void_ret) b.CreateStore(result, f->getArg(0));
    llvm::Value* status = none_status ? none_status : b.getInt32(0);
    if (call.status) status = b.CreateSelect(b.CreateICmpEQ(call.status, b.getInt32(0)), status, call.status);
    b.CreateRet(status);
  } else if (void_ret) {
    b.CreateRetVoid();
  } else {
    b.CreateRet(result);
  }
  // The body folds into the exported function, unless _dbg_optnone keeps it apart.
  if (!impl->hasFnAttribute(llvm::Attribute::OptimizeNone)) impl->addFnAttr(llvm::Attribute::AlwaysInline);
  out.entry_symbol = name;
  out.keep.push_back(name);
  if (numba) out.keep.push_back(emit_numba_env_global(m, name));
}

// C-ABI device functions called in this module are also defined under their
// C symbol (the function's name or abi_info's abi_name), so foreign code
// linked into the module can call them back (C -> Python nesting).
void emit_c_abi_symbols(ModuleState& state, LoweredModule& out, bool keep_symbols) {
  llvm::Module& m = *state.module;
  llvm::LLVMContext& c = m.getContext();
  std::vector<std::shared_ptr<const sema::TypedFunction>> fns = state.keep_alive;
  for (const auto& tfp : fns) {
    const sema::TypedFunction& tf = *tfp;
    if (tf.abi != ir::Abi::C || tf.symbol.empty() || m.getFunction(tf.symbol)) continue;
    llvm::Function* impl = state.function_for(tfp);
    bool void_ret = is_void_type(tf.return_type);
    std::vector<llvm::Type*> params;
    for (const ir::Type* a : tf.arg_types) params.push_back(abi_type(c, a));
    llvm::Type* ret = void_ret ? llvm::Type::getVoidTy(c) : abi_type(c, tf.return_type);
    auto* f = llvm::Function::Create(llvm::FunctionType::get(ret, params, false), llvm::GlobalValue::ExternalLinkage,
                                     tf.symbol, m);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", f));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < tf.arg_types.size(); ++i) {
      llvm::Value* a = f->getArg(unsigned(i));
      if (tf.arg_types[i]->kind == ir::TypeKind::Boolean) a = b.CreateICmpNE(a, b.getInt8(0));
      args.push_back(a);
    }
    for (llvm::Type* t : state.hooks->context_param_types(m)) args.push_back(llvm::Constant::getNullValue(t));
    llvm::Value* result = call_internal(b, impl, tf, args, nullptr).result;  // C ABI: no status channel
    if (void_ret) {
      b.CreateRetVoid();
    } else {
      if (tf.return_type->kind == ir::TypeKind::Boolean) result = b.CreateZExt(result, b.getInt8Ty());
      b.CreateRet(result);
    }
    // On the GPU foreign code joins at nvJitLink time, so the symbol must
    // stay visible; on the CPU it is linked into this module first and then
    // internalized like everything else (several kernels may define it).
    if (keep_symbols) out.keep.push_back(tf.symbol);
  }
}

}  // namespace

LoweredModule lower_module(const ModuleRequest& r) {
  CUHOST_CHECK(r.typed && r.typed->captured && r.typed->captured->def) << "lowering an untyped function";
  const sema::TypedFunction& tf = *r.typed;
  LoweredModule out;
  out.context = std::make_unique<llvm::LLVMContext>();
  out.module = std::make_unique<llvm::Module>(tf.captured->name, *out.context);
  llvm::Module& m = *out.module;
  llvm::LLVMContext& c = *out.context;
  std::unique_ptr<TargetHooks> hooks;
  if (r.target == CodegenTarget::NVPTX) {
    auto tm = make_nvptx_target_machine(r.cc_major, r.cc_minor, r.fastmath, r.arch_suffix);
    m.setTargetTriple(nvptx_triple());
    m.setDataLayout(tm->createDataLayout());
    hooks = make_nvptx_hooks();
  } else {
    m.setTargetTriple(host_target().triple);
    m.setDataLayout(host_target().data_layout);
    hooks = make_cpu_hooks();
  }
  MeminfoLayoutScope meminfo_layout(r.nrt && !r.host_entry);  // array values carry a meminfo
  ModuleState state;
  state.module = &m;
  state.hooks = hooks.get();
  state.options.debug = r.debug;
  state.options.bounds_check = r.bounds_check;
  state.options.fastmath = r.fastmath;
  state.options.fastmath_flags = r.fastmath_flags;
  state.options.kernel_name = tf.captured->name;
  if (r.target == CodegenTarget::NVPTX) state.options.cc = r.cc_major * 10 + r.cc_minor;
  state.options.nrt = r.nrt && !r.host_entry;
  state.options.report_raises = r.host_entry;
  state.options.python_error_model = r.host_entry && r.python_error_model;
  // Line tables only matter to the GPU tools (the CPU backend ignores
  // lineinfo alone); debug=True describes variables on both targets.
  std::unique_ptr<DebugInfo> debug_info;
  const bool gpu_target = r.target == CodegenTarget::NVPTX;
  if (r.debug || (r.lineinfo && gpu_target)) {
    debug_info = std::make_unique<DebugInfo>(m, tf.captured->filename, r.debug, gpu_target, r.optimized);
    state.debug_info = debug_info.get();
  }

  if (r.exported_device) {
    emit_exported_device(out, state, r);
  } else if (r.host_entry) {
    emit_host_entry(out, state, r);
  } else {
    std::vector<Slot> slots;
    const ast::FunctionDef& def = *tf.captured->def;
    CUHOST_CHECK(def.params.size() == tf.arg_types.size()) << "argument count mismatch";
    for (size_t p = 0; p < tf.arg_types.size(); ++p) append_slots(c, tf.arg_types[p], def.params[p].name, slots);
    std::vector<llvm::Type*> types;
    for (const Slot& s : slots) types.push_back(s.type);
    for (llvm::Type* t : hooks->context_param_types(m)) types.push_back(t);
    std::string symbol = tf.symbol.empty() ? tf.captured->name : tf.symbol;
    bool gpu = r.target == CodegenTarget::NVPTX;
    auto* fty = llvm::FunctionType::get(llvm::Type::getVoidTy(c), types, false);
    auto* f = llvm::Function::Create(fty, gpu ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
                                     gpu ? symbol : symbol + ".body", m);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    if (r.fastmath && gpu) f->addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    Lowerer lowerer(state, tf, f, true);
    lowerer.lower_body();
    for (unsigned i = 0; i < slots.size(); ++i) {
      if (!slots[i].array_data) continue;
      f->addParamAttr(i, llvm::Attribute::NoAlias);
      if (lowerer.readonly_param(slots[i].param)) {
        f->addParamAttr(i, llvm::Attribute::ReadOnly);
        f->addParamAttr(i, llvm::Attribute::NoCapture);
      }
    }
    if (gpu) {
      mark_nvptx_kernel(f, r.max_registers, r.launch_bounds);
      out.entry_symbol = symbol;
      out.keep.push_back(symbol);
    } else {
      f->addFnAttr(llvm::Attribute::AlwaysInline);
      out.entry_symbol = symbol;
      emit_cpu_wrappers(out, f, slots, !tf.uses_barriers && !tf.uses_warp_ops, symbol);
      if (tf.uses_barriers && cpu_fission_enabled() && fission_supported(tf)) {
        std::vector<llvm::Type*> slot_types;
        for (const Slot& s : slots) slot_types.push_back(s.type);
        emit_cpu_fission_block(out, f, slot_types, symbol, state.options.kernel_name);
      }
    }
  }
  lower_pending(state);
  emit_c_abi_symbols(state, out, r.target == CodegenTarget::NVPTX);
  if (debug_info) debug_info->finish();
  inline_marked_calls(m);
  const std::int64_t dyn = state.dynamic_shared_align;
  out.static_shared_bytes = (state.static_shared_bytes + dyn - 1) / dyn * dyn;
  out.dynamic_shared_padding = state.dynamic_shared_padding;

  // Link items of the whole call tree, each once.
  std::set<std::string> seen;
  auto add_items = [&](const std::vector<ir::LinkItem>& items) {
    for (const ir::LinkItem& item : items)
      if (seen.insert(link_key(item)).second) out.link.push_back(item);
  };
  std::set<const sema::TypedFunction*> visited;
  std::function<void(const sema::TypedFunction&)> visit = [&](const sema::TypedFunction& f) {
    if (!visited.insert(&f).second) return;
    if (f.function) add_items(f.function->options.link);
    for (const auto& ff : f.foreign_callees) add_items(ff->link);
    for (const auto& cal : f.callees) visit(*cal);
  };
  visit(tf);
  for (const auto& cal : state.keep_alive) visit(*cal);
  for (const auto& ff : state.foreign_used) add_items(ff->link);
  std::set<const ir::ForeignFunction*> seen_ff;
  for (const auto& ff : state.foreign_used)
    if (seen_ff.insert(ff.get()).second) out.foreign.push_back(ff);
  // Foreign code built against nrt.cuh calls the NRT's allocator: the module
  // defines it, visible to the linker (numba-cuda links its NRT library in).
  for (const ir::LinkItem& item : out.link) {
    if (!item.nrt) continue;
    const bool gpu = r.target == CodegenTarget::NVPTX;
    nrt_allocate(m, gpu);
    nrt_free(m, gpu);
    out.keep.push_back("NRT_Allocate");
    out.keep.push_back("NRT_Free");
    break;
  }
  // The counters' pointer stays visible: the loader finds it by name (cuda/nrt_stats.h).
  if (m.getNamedGlobal(kNrtStatsPointerSymbol)) out.keep.push_back(kNrtStatsPointerSymbol);

  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(m, &os)) {
    std::string text;
    llvm::raw_string_ostream ts(text);
    m.print(ts, nullptr);
    CUHOST_CHECK(false) << "lowering produced an invalid module for '" << tf.captured->name << "': " << os.str() << "\n"
                        << ts.str();
  }
  return out;
}

}  // namespace cuhost::codegen
