// The fragments of cuda.wmma (warp-level matrix multiply-accumulate, CUDA
// C++'s nvcuda::wmma): which (use, shape, element type) combinations the
// hardware has, the compute capability each needs, and the fragment types
// typing gives them. A fragment type is an opaque extension type (its value
// is the address of the thread's fragment storage, which lowering sizes per
// target); this table maps the type back to its description for typing
// (typing/wmma.cpp) and lowering (lowering/wmma.cpp).
#pragma once

#include <string>

#include "ir/types.h"

namespace cuhost::sema {

enum class WmmaUse { MatrixA, MatrixB, Accumulator };
// The element type of a fragment: the inputs' fp16, bf16, tf32 (float32
// memory rounded to tf32 on load), and the fp32 accumulator.
enum class WmmaElement { F16, BF16, TF32, F32 };
enum class WmmaLayout { None, RowMajor, ColMajor };

struct WmmaFragment {
  WmmaUse use = WmmaUse::Accumulator;
  int m = 0, n = 0, k = 0;
  WmmaElement element = WmmaElement::F32;
  WmmaLayout layout = WmmaLayout::None;  // matrix_a / matrix_b only
  // The tile this fragment holds: rows x cols (A: m x k, B: k x n, C: m x n).
  int rows() const { return use == WmmaUse::MatrixB ? k : m; }
  int cols() const { return use == WmmaUse::MatrixA ? k : n; }
  std::string spelling() const;  // "wmma.fragment(matrix_a, 16, 16, 16, float16, row_major)"
};

const char* wmma_use_name(WmmaUse u);          // "matrix_a", "matrix_b", "accumulator"
const char* wmma_element_name(WmmaElement e);  // "float16", "bfloat16", "tf32", "float32"
const char* wmma_layout_name(WmmaLayout l);    // "row_major", "col_major", ""

// The shapes (m, n, k) offered for an input element type, as text for
// messages ("16x16x16, 32x8x16, 8x32x16"), and whether (m, n, k) is one.
std::string wmma_shapes_text(WmmaElement input);
bool wmma_shape_offered(WmmaElement input, int m, int n, int k);
// The compute capability (major * 10 + minor) the input type needs: 70 for
// fp16, 80 for bf16 and tf32.
int wmma_required_cc(WmmaElement input);

// The (interned) fragment type of `f`, and the description of a fragment
// type (nullptr for any other type).
const ir::Type* wmma_fragment_type(const WmmaFragment& f);
const WmmaFragment* wmma_fragment_of(const ir::Type* t);

}  // namespace cuhost::sema
