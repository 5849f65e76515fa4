// Typing of cuda.wmma, warp-level matrix multiply-accumulate in the spirit of
// CUDA C++'s nvcuda::wmma: fragment(use, m, n, k, dtype, layout) makes a
// fragment (typing/wmma_fragments.h), fill_fragment / load_matrix_sync /
// mma_sync / store_matrix_sync work on it. Memory is addressed as CUDA C's
// pointers are: a C-contiguous array and an element offset into it, with the
// leading dimension in elements. Every call is a warp operation (the CPU
// backend runs such kernels on fibers: lowering/wmma.cpp).
#include <set>

#include "sema/typer.h"
#include "sema/typing/wmma_fragments.h"

namespace cuhost::sema {

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

const std::set<std::string>& marker_names() {
  static const std::set<std::string> s = {"matrix_a",  "matrix_b",      "accumulator",   "row_major",
                                          "col_major", "mem_row_major", "mem_col_major", "tf32"};
  return s;
}

const std::set<std::string>& function_names() {
  static const std::set<std::string> s = {"fragment", "fill_fragment", "load_matrix_sync", "mma_sync",
                                          "store_matrix_sync"};
  return s;
}

// The marker key ("matrix_a", ...) an argument names, or "".
std::string marker(Typer& t, const ast::Expr* e) {
  const ir::Type* ty = t.type_of(e);
  if (ty->kind == ir::TypeKind::Intrinsic && starts_with(ty->key, "cuda.wmma.") &&
      marker_names().count(ty->key.substr(10)))
    return ty->key.substr(10);
  return "";
}

int literal_dim(Typer& t, const ast::Expr* e, const char* name) {
  std::optional<std::int64_t> v = t.literal_int(e);
  if (!v)
    t.typing_error(e,
                   concat("cuda.wmma.fragment()'s ", name, " must be a literal integer, got ", display(t.type_of(e))));
  return int(*v);
}

const WmmaFragment& fragment_arg(Typer& t, const ast::Expr* e, const char* fname, const char* what) {
  const WmmaFragment* f = wmma_fragment_of(t.type_of(e));
  if (!f)
    t.typing_error(
        e, concat("cuda.wmma.", fname, "() needs ", what, " (a cuda.wmma.fragment), got ", display(t.type_of(e))));
  return *f;
}

const ir::Type* type_fragment(Typer& t, const ast::Call& c, ExprInfo& info) {
  auto args = t.bind(c, "fragment", {"use", "m", "n", "k", "dtype", "layout"}, 5, info);
  WmmaFragment f;
  const std::string use = marker(t, args[0]);
  if (use == "matrix_a")
    f.use = WmmaUse::MatrixA;
  else if (use == "matrix_b")
    f.use = WmmaUse::MatrixB;
  else if (use == "accumulator")
    f.use = WmmaUse::Accumulator;
  else
    t.typing_error(args[0],
                   concat("cuda.wmma.fragment()'s use must be cuda.wmma.matrix_a, matrix_b or accumulator, got ",
                          display(t.type_of(args[0]))));
  f.m = literal_dim(t, args[1], "m");
  f.n = literal_dim(t, args[2], "n");
  f.k = literal_dim(t, args[3], "k");
  const ir::Type* dt = t.type_of(args[4]);
  const bool accumulator = f.use == WmmaUse::Accumulator;
  if (marker(t, args[4]) == "tf32") {
    f.element = WmmaElement::TF32;
  } else if (dt->kind == ir::TypeKind::TypeRef && dt->pointee == ir::float16()) {
    f.element = WmmaElement::F16;
  } else if (dt->kind == ir::TypeKind::TypeRef && dt->pointee == ir::bfloat16()) {
    f.element = WmmaElement::BF16;
  } else if (dt->kind == ir::TypeKind::TypeRef && dt->pointee == ir::float32()) {
    f.element = WmmaElement::F32;
  } else {
    t.typing_error(args[4], concat("cuda.wmma.fragment()'s dtype must be float16, bfloat16 or cuda.wmma.tf32 for "
                                   "matrix_a/matrix_b and float32 for the accumulator, got ",
                                   display(dt)));
  }
  if (accumulator && f.element != WmmaElement::F32)
    t.typing_error(
        args[4], concat("cuda.wmma accumulators are float32 (fp32 accumulation), not ", wmma_element_name(f.element)));
  if (!accumulator && f.element == WmmaElement::F32)
    t.typing_error(args[4],
                   "cuda.wmma.matrix_a/matrix_b fragments of float32 data are cuda.wmma.tf32 (the tensor "
                   "cores round them to tf32)");
  const bool offered = accumulator ? wmma_shape_offered(WmmaElement::F16, f.m, f.n, f.k) ||
                                         wmma_shape_offered(WmmaElement::TF32, f.m, f.n, f.k)
                                   : wmma_shape_offered(f.element, f.m, f.n, f.k);
  if (!offered) {
    std::string shown = accumulator ? wmma_shapes_text(WmmaElement::F16) + ", " + wmma_shapes_text(WmmaElement::TF32)
                                    : wmma_shapes_text(f.element);
    t.fail(ErrorKind::TypingError, c.loc,
           concat("cuda.wmma has no ", f.m, "x", f.n, "x", f.k, " shape for ",
                  accumulator ? "accumulators" : wmma_element_name(f.element), " (m x n x k offered: ", shown, ")"));
  }
  if (accumulator) {
    if (args[5])
      t.typing_error(args[5],
                     "cuda.wmma accumulator fragments take no layout (load_matrix_sync and "
                     "store_matrix_sync name the memory layout)");
  } else {
    const std::string layout = args[5] ? marker(t, args[5]) : "";
    if (layout == "row_major")
      f.layout = WmmaLayout::RowMajor;
    else if (layout == "col_major")
      f.layout = WmmaLayout::ColMajor;
    else
      t.fail(ErrorKind::TypingError, args[5] ? args[5]->loc : c.loc,
             "cuda.wmma matrix_a/matrix_b fragments need a layout: cuda.wmma.row_major or cuda.wmma.col_major");
  }
  info.param_types.assign(info.ordered_args.size(), nullptr);
  return wmma_fragment_type(f);
}

// The memory layout argument of an accumulator load/store: true for row-major.
bool memory_layout(Typer& t, const ast::Expr* e, const char* fname) {
  const std::string m = marker(t, e);
  if (m != "mem_row_major" && m != "mem_col_major")
    t.typing_error(e, concat("cuda.wmma.", fname, "()'s layout must be cuda.wmma.mem_row_major or mem_col_major, got ",
                             display(t.type_of(e))));
  return m == "mem_row_major";
}

void check_memory(Typer& t, const ast::Expr* array, const WmmaFragment& f, const char* fname, bool store) {
  const ir::Type* at = t.type_of(array);
  if (!at->is_array())
    t.typing_error(array,
                   concat("cuda.wmma.", fname, "() needs an array (shared or global memory), got ", display(at)));
  bool ok = false;
  const char* wanted = "";
  switch (f.element) {
    case WmmaElement::F16:
      ok = at->dtype == ir::float16();
      wanted = "float16";
      break;
    case WmmaElement::BF16:
      ok = at->dtype == ir::bfloat16() || at->dtype == ir::uint16();
      wanted = "bfloat16 (or uint16 holding bfloat16 bits)";
      break;
    default:
      ok = at->dtype == ir::float32();
      wanted = "float32";
      break;
  }
  if (!ok)
    t.typing_error(
        array, concat("cuda.wmma.", fname, "() of a ", f.spelling(), " needs a ", wanted, " array, got ", display(at)));
  if (at->layout != ir::Layout::C)
    t.typing_error(array, concat("cuda.wmma.", fname,
                                 "() addresses the array by element offset: it must be "
                                 "C-contiguous, got ",
                                 display(at)));
  if (store && at->readonly)
    t.typing_error(array, concat("cuda.wmma.", fname, "() cannot store into a read-only array"));
}

void check_integer(Typer& t, const ast::Expr* e, const char* fname, const char* what) {
  if (!t.type_of(e)->is_integer())
    t.typing_error(e, concat("cuda.wmma.", fname, "()'s ", what, " must be an integer, got ", display(t.type_of(e))));
}

}  // namespace

bool resolve_wmma_key(const std::string& key, ExprInfo& info) {
  if (key == "cuda.wmma") {
    info.type = ir::module(key);
    return true;
  }
  if (!starts_with(key, "cuda.wmma.")) return false;
  const std::string last = key.substr(10);
  if (!marker_names().count(last) && !function_names().count(last)) return false;
  info.type = ir::intrinsic(key);
  return true;
}

const ir::Type* type_wmma_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (!starts_with(key, "cuda.wmma.")) return nullptr;
  const std::string name = key.substr(10);
  if (name == "fragment") return type_fragment(t, c, info);
  if (name == "fill_fragment") {
    auto args = t.bind(c, name, {"fragment", "value"}, 2, info);
    const WmmaFragment& f = fragment_arg(t, args[0], "fill_fragment", "a fragment");
    const ir::Type* v = t.type_of(args[1]);
    if (!v->is_integer() && !v->is_float() && v->kind != ir::TypeKind::Boolean)
      t.typing_error(args[1], concat("cuda.wmma.fill_fragment() needs a number, got ", display(v)));
    info.param_types = {wmma_fragment_type(f), ir::float32()};
    return ir::none_type();
  }
  if (name == "load_matrix_sync") {
    auto args = t.bind(c, name, {"fragment", "array", "offset", "ldm", "layout"}, 4, info);
    const WmmaFragment& f = fragment_arg(t, args[0], "load_matrix_sync", "a fragment to load");
    check_memory(t, args[1], f, "load_matrix_sync", false);
    check_integer(t, args[2], "load_matrix_sync", "offset");
    check_integer(t, args[3], "load_matrix_sync", "ldm");
    if (f.use == WmmaUse::Accumulator) {
      if (!args[4])
        t.fail(ErrorKind::TypingError, c.loc,
               "cuda.wmma.load_matrix_sync() of an accumulator needs the memory layout: cuda.wmma.mem_row_major or "
               "mem_col_major");
      memory_layout(t, args[4], "load_matrix_sync");
    } else if (args[4]) {
      t.typing_error(args[4], "cuda.wmma.load_matrix_sync() of matrix_a/matrix_b takes no layout: the fragment has it");
    }
    t.use_warp_ops();
    info.param_types = {t.type_of(args[0]), t.type_of(args[1]), ir::int64(), ir::int32(), nullptr};
    return ir::none_type();
  }
  if (name == "store_matrix_sync") {
    auto args = t.bind(c, name, {"array", "offset", "fragment", "ldm", "layout"}, 5, info);
    const WmmaFragment& f = fragment_arg(t, args[2], "store_matrix_sync", "an accumulator fragment");
    if (f.use != WmmaUse::Accumulator)
      t.typing_error(args[2], concat("cuda.wmma.store_matrix_sync() stores accumulators, not a ", f.spelling()));
    check_memory(t, args[0], f, "store_matrix_sync", true);
    check_integer(t, args[1], "store_matrix_sync", "offset");
    check_integer(t, args[3], "store_matrix_sync", "ldm");
    memory_layout(t, args[4], "store_matrix_sync");
    t.use_warp_ops();
    info.param_types = {t.type_of(args[0]), ir::int64(), t.type_of(args[2]), ir::int32(), nullptr};
    return ir::none_type();
  }
  if (name == "mma_sync") {
    auto args = t.bind(c, name, {"d", "a", "b", "c"}, 4, info);
    const WmmaFragment& d = fragment_arg(t, args[0], "mma_sync", "the result accumulator d");
    const WmmaFragment& a = fragment_arg(t, args[1], "mma_sync", "a matrix_a fragment a");
    const WmmaFragment& b = fragment_arg(t, args[2], "mma_sync", "a matrix_b fragment b");
    const WmmaFragment& cc = fragment_arg(t, args[3], "mma_sync", "the accumulator c");
    auto same_shape = [](const WmmaFragment& x, const WmmaFragment& y) {
      return x.m == y.m && x.n == y.n && x.k == y.k;
    };
    if (d.use != WmmaUse::Accumulator)
      t.typing_error(args[0], concat("cuda.wmma.mma_sync()'s d must be an accumulator, got a ", d.spelling()));
    if (a.use != WmmaUse::MatrixA)
      t.typing_error(args[1], concat("cuda.wmma.mma_sync()'s a must be a matrix_a fragment, got a ", a.spelling()));
    if (b.use != WmmaUse::MatrixB)
      t.typing_error(args[2], concat("cuda.wmma.mma_sync()'s b must be a matrix_b fragment, got a ", b.spelling()));
    if (cc.use != WmmaUse::Accumulator)
      t.typing_error(args[3], concat("cuda.wmma.mma_sync()'s c must be an accumulator, got a ", cc.spelling()));
    if (b.element != a.element)
      t.typing_error(args[2], concat("cuda.wmma.mma_sync()'s a and b must hold the same type: ",
                                     wmma_element_name(a.element), " and ", wmma_element_name(b.element)));
    for (auto [e, f] : {std::pair{args[2], &b}, std::pair{args[0], &d}, std::pair{args[3], &cc}})
      if (!same_shape(a, *f))
        t.typing_error(e, concat("cuda.wmma.mma_sync()'s fragments must have one shape: a is ", a.m, "x", a.n, "x", a.k,
                                 ", this one ", f->m, "x", f->n, "x", f->k));
    t.use_warp_ops();
    info.param_types = {t.type_of(args[0]), t.type_of(args[1]), t.type_of(args[2]), t.type_of(args[3])};
    return ir::none_type();
  }
  t.fail(ErrorKind::TypingError, c.loc, concat("cuda.wmma.", name, " is not callable"));
}

}  // namespace cuhost::sema
