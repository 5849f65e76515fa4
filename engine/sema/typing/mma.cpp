// Typing of cuda.mma, the register-fragment tensor-core API (PTX's
// mma.sync, ldmatrix and cp.async): unlike cuda.wmma, whose fragments are
// opaque, a fragment here is a tuple of the thread's registers laid out as
// PTX's ISA documents for each lane (docs/HOPPER.md), so a kernel can move
// them, keep them in local arrays and feed them from shared memory as fast
// GEMMs do. Every mma_sync/ldmatrix call is a warp operation (the CPU
// backend runs such kernels on fibers: lowering/mma.cpp).
#include <set>

#include "sema/typer.h"
#include "sema/typing/mma_kinds.h"

namespace cuhost::sema {

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

const std::set<std::string>& function_names() {
  static const std::set<std::string> s = {"mma_sync", "ldmatrix", "cp_async", "commit_group", "wait_group", "to_tf32"};
  return s;
}

const ir::Type* uint32_tuple(int n) { return ir::tuple(std::vector<const ir::Type*>(size_t(n), ir::uint32())); }

// A tuple of `n` 32-bit integer registers (the A and B fragments).
void check_registers(Typer& t, const ast::Expr* e, int n, const char* what, const MmaKind& kind) {
  const ir::Type* ty = t.type_of(e);
  bool ok = ty->is_tuple() && int(ty->elements.size()) == n;
  if (ok)
    for (const ir::Type* el : ty->elements) ok = ok && el->kind == ir::TypeKind::Integer && el->bits == 32;
  if (!ok)
    t.typing_error(
        e, concat("cuda.mma.mma_sync(", kind.name, ")'s ", what, " must be a tuple of ", n,
                  " 32-bit integer registers (uint32 or int32, as cuda.mma.ldmatrix gives them), got ", display(ty)));
}

void check_accumulator(Typer& t, const ast::Expr* e, const MmaKind& kind) {
  const ir::Type* ty = t.type_of(e);
  bool ok = ty->is_tuple() && ty->elements.size() == 4;
  if (ok)
    for (const ir::Type* el : ty->elements) ok = ok && (el->is_float() || el->is_integer());
  if (!ok)
    t.typing_error(e,
                   concat("cuda.mma.mma_sync(", kind.name,
                          ")'s c must be a tuple of 4 numbers (the lane's float32 accumulators), got ", display(ty)));
}

bool is_16bit(const ir::Type* dt) {
  return dt == ir::float16() || dt == ir::bfloat16() || dt == ir::uint16() || dt == ir::int16();
}

void check_array(Typer& t, const ast::Expr* e, const char* fname, const char* what, bool store) {
  const ir::Type* at = t.type_of(e);
  if (!at->is_array())
    t.typing_error(e, concat("cuda.mma.", fname, "() needs ", what, " (an array), got ", display(at)));
  if (at->layout != ir::Layout::C)
    t.typing_error(e, concat("cuda.mma.", fname,
                             "() addresses the array by element offset: it must be C-contiguous, got ", display(at)));
  if (store && at->readonly) t.typing_error(e, concat("cuda.mma.", fname, "() cannot write into a read-only array"));
}

void check_integer(Typer& t, const ast::Expr* e, const char* fname, const char* what) {
  if (!t.type_of(e)->is_integer())
    t.typing_error(e, concat("cuda.mma.", fname, "()'s ", what, " must be an integer, got ", display(t.type_of(e))));
}

const ir::Type* type_mma_sync(Typer& t, const ast::Call& c, ExprInfo& info) {
  auto args = t.bind(c, "mma_sync", {"kind", "a", "b", "c"}, 4, info);
  const ir::Type* kt = t.type_of(args[0]);
  const MmaKind* kind = kt->kind == ir::TypeKind::Intrinsic && starts_with(kt->key, "cuda.mma.")
                            ? mma_kind_named(kt->key.substr(9))
                            : nullptr;
  if (!kind)
    t.typing_error(args[0],
                   concat("cuda.mma.mma_sync()'s kind must be one of ", mma_kinds_text(), ", got ", display(kt)));
  check_registers(t, args[1], 4, "a", *kind);
  check_registers(t, args[2], 2, "b", *kind);
  check_accumulator(t, args[3], *kind);
  t.use_warp_ops();
  const ir::Type* acc = ir::tuple(std::vector<const ir::Type*>(4, ir::float32()));
  info.param_types = {nullptr, uint32_tuple(4), uint32_tuple(2), acc};
  return acc;
}

const ir::Type* type_ldmatrix(Typer& t, const ast::Call& c, ExprInfo& info) {
  auto args = t.bind(c, "ldmatrix", {"array", "offset", "num", "trans"}, 2, info);
  check_array(t, args[0], "ldmatrix", "a shared array of 16-bit elements", false);
  if (!is_16bit(t.type_of(args[0])->dtype))
    t.typing_error(args[0], concat("cuda.mma.ldmatrix() loads 8x8 matrices of 16-bit elements: the array's dtype must "
                                   "be float16, bfloat16, int16 or uint16, got ",
                                   display(t.type_of(args[0]))));
  check_integer(t, args[1], "ldmatrix", "offset");
  int num = 4;
  if (args[2]) {
    std::optional<std::int64_t> v = t.literal_int(args[2]);
    if (!v || (*v != 1 && *v != 2 && *v != 4))
      t.typing_error(args[2], concat("cuda.mma.ldmatrix()'s num (the number of 8x8 matrices) must be the literal 1, "
                                     "2 or 4, got ",
                                     display(t.type_of(args[2]))));
    num = int(*v);
  }
  if (args[3]) {
    const auto& k = t.constant(args[3]);
    if (t.type_of(args[3]) != ir::boolean() || !k)
      t.typing_error(args[3], "cuda.mma.ldmatrix()'s trans must be the constant True or False");
  }
  t.use_warp_ops();
  info.param_types = {t.type_of(args[0]), ir::int64(), nullptr, nullptr};
  return uint32_tuple(num);
}

const ir::Type* type_cp_async(Typer& t, const ast::Call& c, ExprInfo& info) {
  auto args = t.bind(c, "cp_async", {"dst", "dst_offset", "src", "src_offset"}, 4, info);
  check_array(t, args[0], "cp_async", "a shared array to copy into", true);
  check_integer(t, args[1], "cp_async", "dst_offset");
  check_array(t, args[2], "cp_async", "a global array to copy from", false);
  check_integer(t, args[3], "cp_async", "src_offset");
  info.param_types = {t.type_of(args[0]), ir::int64(), t.type_of(args[2]), ir::int64()};
  return ir::none_type();
}

}  // namespace

bool resolve_mma_key(const std::string& key, ExprInfo& info) {
  if (key == "cuda.mma") {
    info.type = ir::module(key);
    return true;
  }
  if (!starts_with(key, "cuda.mma.")) return false;
  const std::string last = key.substr(9);
  if (!mma_kind_named(last) && !function_names().count(last)) return false;
  info.type = ir::intrinsic(key);
  return true;
}

const ir::Type* type_mma_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (!starts_with(key, "cuda.mma.")) return nullptr;
  const std::string name = key.substr(9);
  if (name == "mma_sync") return type_mma_sync(t, c, info);
  if (name == "ldmatrix") return type_ldmatrix(t, c, info);
  if (name == "cp_async") return type_cp_async(t, c, info);
  if (name == "commit_group") {
    t.bind(c, name, {}, 0, info);
    return ir::none_type();
  }
  if (name == "wait_group") {
    auto args = t.bind(c, name, {"n"}, 1, info);
    std::optional<std::int64_t> v = t.literal_int(args[0]);
    if (!v || *v < 0 || *v > 7)
      t.typing_error(args[0], concat("cuda.mma.wait_group()'s n (the groups left pending) must be a literal integer "
                                     "from 0 to 7, got ",
                                     display(t.type_of(args[0]))));
    info.param_types = {nullptr};
    return ir::none_type();
  }
  if (name == "to_tf32") {
    auto args = t.bind(c, name, {"x"}, 1, info);
    const ir::Type* x = t.type_of(args[0]);
    if (!x->is_float() && !x->is_integer())
      t.typing_error(args[0], concat("cuda.mma.to_tf32() needs a number, got ", display(x)));
    info.param_types = {ir::float32()};
    return ir::uint32();
  }
  t.fail(ErrorKind::TypingError, c.loc, concat("cuda.mma.", name, " is not callable"));
}

}  // namespace cuhost::sema
