// The cuda.wmma fragment table (wmma_fragments.h): the shapes PTX's wmma
// instructions have for each input type, and the fragment types.
#include "sema/typing/wmma_fragments.h"

#include <map>
#include <memory>
#include <mutex>

#include "ir/extension_types.h"
#include "support/diagnostics.h"

namespace cuhost::sema {

namespace {

struct Shape {
  int m, n, k;
};

const std::vector<Shape>& shapes(WmmaElement input) {
  static const std::vector<Shape> half = {{16, 16, 16}, {32, 8, 16}, {8, 32, 16}};
  static const std::vector<Shape> tf32 = {{16, 16, 8}};
  return input == WmmaElement::TF32 ? tf32 : half;
}

struct Registry {
  std::mutex mu;
  std::map<const ir::Type*, std::unique_ptr<WmmaFragment>> by_type;
};

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

}  // namespace

const char* wmma_use_name(WmmaUse u) {
  switch (u) {
    case WmmaUse::MatrixA: return "matrix_a";
    case WmmaUse::MatrixB: return "matrix_b";
    default: return "accumulator";
  }
}

const char* wmma_element_name(WmmaElement e) {
  switch (e) {
    case WmmaElement::F16: return "float16";
    case WmmaElement::BF16: return "bfloat16";
    case WmmaElement::TF32: return "tf32";
    default: return "float32";
  }
}

const char* wmma_layout_name(WmmaLayout l) {
  switch (l) {
    case WmmaLayout::RowMajor: return "row_major";
    case WmmaLayout::ColMajor: return "col_major";
    default: return "";
  }
}

std::string WmmaFragment::spelling() const {
  std::string s =
      concat("wmma.fragment(", wmma_use_name(use), ", ", m, ", ", n, ", ", k, ", ", wmma_element_name(element));
  if (layout != WmmaLayout::None) s += concat(", ", wmma_layout_name(layout));
  return s + ")";
}

std::string wmma_shapes_text(WmmaElement input) {
  std::string s;
  for (const Shape& sh : shapes(input)) s += concat(s.empty() ? "" : ", ", sh.m, "x", sh.n, "x", sh.k);
  return s;
}

bool wmma_shape_offered(WmmaElement input, int m, int n, int k) {
  for (const Shape& sh : shapes(input))
    if (sh.m == m && sh.n == n && sh.k == k) return true;
  return false;
}

int wmma_required_cc(WmmaElement input) { return input == WmmaElement::F16 ? 70 : 80; }

const ir::Type* wmma_fragment_type(const WmmaFragment& f) {
  ir::ExtensionTypeInfo info;
  info.spelling = f.spelling();
  info.model = ir::DataModel::Opaque;
  info.size = 8;
  info.align = 8;
  const ir::Type* t = ir::register_extension_type(info);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (!r.by_type.count(t)) r.by_type[t] = std::make_unique<WmmaFragment>(f);
  return t;
}

const WmmaFragment* wmma_fragment_of(const ir::Type* t) {
  if (!t || t->kind != ir::TypeKind::Extension) return nullptr;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.by_type.find(t);
  return it == r.by_type.end() ? nullptr : it->second.get();
}

}  // namespace cuhost::sema
