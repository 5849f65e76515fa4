// Arrays the kernel creates: cuda.shared.array (a static block-shared
// allocation per call site, or the dynamic shared segment for shape 0),
// cuda.local.array (an entry-block alloca named as numba-cuda names it,
// `_cudapy_lmem`), cuda.const.array_like and frozen
// global NumPy arrays (constant data in the module); captured device arrays
// (their address, in place). Each becomes the usual
// array value with constant shape and C-order byte strides.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "codegen/nvptx_local_arrays.h"
#include "frontend/captured.h"
#include "ir/records.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

Val make_array(Lowerer& l, const ir::Type* t, llvm::Value* data, const std::vector<std::int64_t>& shape) {
  auto& b = l.b();
  llvm::Value* agg = llvm::Constant::getNullValue(l.llvm_type(t));
  agg = b.CreateInsertValue(agg, data, {0});
  int item = t->dtype->byte_size();
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = item;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = s;
    s *= std::max<std::int64_t>(shape[d], 1);
  }
  for (unsigned d = 0; d < shape.size(); ++d) {
    agg = b.CreateInsertValue(agg, l.i64(shape[d]), {1, d});
    agg = b.CreateInsertValue(agg, l.i64(strides[d]), {2, d});
  }
  return {agg, t};
}

std::int64_t element_count(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t e : shape) n *= e;
  return n;
}

const ir::ArrayConstant& global_array(Lowerer& l, const ast::Expr* name_expr) {
  CUHOST_CHECK(name_expr && name_expr->kind == ast::ExprKind::Name) << "constant array must be a global name";
  const std::string& id = static_cast<const ast::Name*>(name_expr)->id;
  const auto& globals = l.typed().captured->globals;
  auto it = globals.find(id);
  CUHOST_CHECK(it != globals.end() && it->second.array) << "global '" << id << "' is not a frozen array";
  return *it->second.array;
}

Val const_array(Lowerer& l, const ast::Expr* name_expr, const ir::Type* t) {
  const ir::ArrayConstant& a = global_array(l, name_expr);
  llvm::Value* p = l.hooks().const_array(l, a, static_cast<const ast::Name*>(name_expr)->id);
  return make_array(l, t, p, a.shape);
}

// The frozen global a Name or a user module's Attribute (`mod.X`, frozen as
// "mod.X") reads.
const frontend::GlobalValue& global_of(Lowerer& l, const ast::Expr* e, std::string* key) {
  const auto& globals = l.typed().captured->globals;
  if (e->kind == ast::ExprKind::Name) {
    *key = static_cast<const ast::Name*>(e)->id;
  } else {
    CUHOST_CHECK(e->kind == ast::ExprKind::Attribute) << "frozen global read by a non-name";
    const auto* a = static_cast<const ast::Attribute*>(e);
    CUHOST_CHECK(a->value->kind == ast::ExprKind::Name) << "frozen attribute of a non-name";
    *key = static_cast<const ast::Name*>(a->value.get())->id + "." + a->attr;
  }
  auto it = globals.find(*key);
  CUHOST_CHECK(it != globals.end()) << "global '" << *key << "' was not frozen";
  return it->second;
}

// A frozen tuple of arrays and constants: each array's bytes become a
// constant of the module (named after the tuple and the element's index).
Val global_tuple(Lowerer& l, const frontend::GlobalValue& g, const ir::Type* t, const std::string& name) {
  using K = frontend::GlobalValue::Kind;
  llvm::Value* agg = llvm::UndefValue::get(l.llvm_type(t));
  for (unsigned i = 0; i < g.items.size(); ++i) {
    const frontend::GlobalValue& item = g.items[i];
    const ir::Type* et = t->elements.at(i);
    std::string item_name = concat(name, ".", i);
    Val v;
    if (item.kind == K::Constant) {
      v = l.constant(item.constant, et);
    } else if (item.kind == K::Array) {
      v = make_array(l, et, l.hooks().const_array(l, *item.array, item_name), item.array->shape);
    } else {
      v = global_tuple(l, item, et, item_name);
    }
    agg = l.b().CreateInsertValue(agg, v.v, {i});
  }
  return {agg, t};
}

// A captured device array: its address and strides as constants.
Val device_array(Lowerer& l, const ast::Expr* name_expr, const ir::Type* t) {
  CUHOST_CHECK(name_expr && name_expr->kind == ast::ExprKind::Name) << "captured device array must be a global name";
  const std::string& id = static_cast<const ast::Name*>(name_expr)->id;
  const auto& globals = l.typed().captured->globals;
  auto it = globals.find(id);
  CUHOST_CHECK(it != globals.end() && it->second.device_array) << "global '" << id << "' is not a device array";
  const frontend::DeviceArrayRef& d = *it->second.device_array;
  auto& b = l.b();
  llvm::Type* agg_type = l.llvm_type(t);
  llvm::Type* ptr_type = llvm::cast<llvm::StructType>(agg_type)->getElementType(0);
  llvm::Value* agg = llvm::Constant::getNullValue(agg_type);
  agg = b.CreateInsertValue(agg, b.CreateIntToPtr(l.i64(static_cast<std::int64_t>(d.address)), ptr_type), {0});
  for (unsigned k = 0; k < d.shape.size(); ++k) {
    agg = b.CreateInsertValue(agg, l.i64(d.shape[k]), {1, k});
    agg = b.CreateInsertValue(agg, l.i64(d.strides[k]), {2, k});
  }
  return {agg, t};
}

}  // namespace

// What the driver guarantees on the GPU: the dynamic shared window starts on
// a 16-byte boundary, whatever the PTX declares (the local frame's is
// kGpuFrameAlign).
constexpr std::int64_t kGpuWindowAlign = 16;

void register_memory(std::map<std::string, IntrinsicFn>& table) {
  table["cuda.shared.array"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    const ir::Type* t = inf.type;
    llvm::Type* elem = l.memory_type(t->dtype);
    int align = std::max<std::int64_t>({16, array_element_alignment(t->dtype), inf.alignment});
    if (inf.shape.size() == 1 && inf.shape[0] == 0) {
      // Dynamic shared memory: the extent is the launch's byte count over the
      // item size (as numba computes it) where the target can read it, else
      // unbounded.
      std::vector<std::int64_t> shape = {std::int64_t(1) << 40};
      l.state().dynamic_shared_align = std::max<std::int64_t>(l.state().dynamic_shared_align, align);
      llvm::Value* start = l.hooks().dynamic_shared(l, align);
      llvm::Value* padding = nullptr;
      if (l.hooks().is_gpu() && align > kGpuWindowAlign) {
        // The driver places the window on a 16-byte boundary only: the start
        // is rounded up at run time, into bytes each launch adds for it.
        auto& b = l.b();
        padding = b.CreateAnd(b.CreateNeg(b.CreatePtrToInt(start, b.getInt64Ty())), l.i64(align - 1));
        start = b.CreateGEP(b.getInt8Ty(), start, padding, "dynamic.shared.aligned");
        l.state().dynamic_shared_padding = std::max(l.state().dynamic_shared_padding, align - kGpuWindowAlign);
      }
      Val arr = make_array(l, t, start, shape);
      if (llvm::Value* bytes = l.hooks().dynamic_shared_bytes(l)) {
        if (padding) bytes = l.b().CreateSub(bytes, padding);
        llvm::Value* n = l.b().CreateUDiv(bytes, l.i64(std::max(1, t->dtype->byte_size())));
        arr.v = l.b().CreateInsertValue(arr.v, n, {1, 0});
      }
      return arr;
    }
    llvm::Value* p = l.hooks().shared_array(l, elem, element_count(inf.shape), align);
    return make_array(l, t, p, inf.shape);
  };
  table["cuda.local.array"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    const ir::Type* t = inf.type;
    llvm::Type* elem = l.memory_type(t->dtype);
    llvm::Type* array_type = llvm::ArrayType::get(elem, std::uint64_t(element_count(inf.shape)));
    const std::int64_t natural = std::int64_t(l.module().getDataLayout().getPrefTypeAlign(array_type).value());
    const std::int64_t need = std::max<std::int64_t>(array_element_alignment(t->dtype), inf.alignment);
    // As numba-cuda: the alignment asked for, else the type's own (what an
    // alloca written without one gets). On the GPU, after inspect_llvm()'s
    // text is taken, place_local_arrays puts every local array on 16 bytes at
    // least and makes more by hand, so only an element that needs more than
    // 16 keeps its own here; on the CPU the alloca has it all (8 at least).
    std::int64_t align = inf.alignment ? std::max(need, natural) : natural;
    if (!l.hooks().is_gpu()) {
      align = std::max<std::int64_t>({8, need, natural});
    } else if (need > std::max(align, kGpuFrameAlign)) {
      align = need;
    }
    llvm::AllocaInst* a = l.entry_alloca(array_type, kLocalArrayName);
    a->setAlignment(llvm::Align(std::uint64_t(align)));
    return make_array(l, t, a, inf.shape);
  };
  // np.dtype(...): a type known at compile time, no bits.
  table["numpy.dtype"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    return {llvm::UndefValue::get(l.llvm_type(inf.type)), inf.type};
  };
  table["cuda.const.array_like"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    return const_array(l, inf.ordered_args.at(0), inf.type);
  };
  table["global.array"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    return const_array(l, e, inf.type);
  };
  table["global.tuple"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    std::string key;
    const frontend::GlobalValue& g = global_of(l, e, &key);
    return global_tuple(l, g, inf.type, key);
  };
  table["global.device_array"] = [](Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf) -> Val {
    return device_array(l, e, inf.type);
  };
}

int array_element_alignment(const ir::Type* dtype) {
  bool by_member = dtype->kind == ir::TypeKind::Record || dtype->kind == ir::TypeKind::CharSeq;
  return by_member ? ir::abi_alignment(dtype) : std::max(1, dtype->byte_size());
}

int element_access_alignment(const ir::Type* container, const ir::Type* dtype) {
  if (container->kind == ir::TypeKind::Array && container->unaligned) return 1;
  return array_element_alignment(dtype);
}

}  // namespace cuhost::codegen
