// The arithmetic of strided array layouts, without data: which bytes a view
// of an allocation covers after indexing, slicing, reshaping, squeezing or
// ravelling, with NumPy's and numba's rules and error messages. One home for
// it: DeviceNDArray (python/device_array_index.cpp) and numba's data-less
// model numba.cuda.cudadrv.dummyarray (through `_cuhost._layout_*`) both
// compute here. Offsets are bytes from the allocation's base; extents are
// [begin, end) byte ranges. Errors are UserErrors of numba's kinds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace cuhost::ir {

struct StridedLayout {
  std::int64_t offset = 0;  // byte offset of the first element
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // bytes; may be zero or negative
  std::int64_t itemsize = 1;

  int ndim() const { return static_cast<int>(shape.size()); }
  std::int64_t size() const;  // element count (1 for 0-d)
};

struct Extent {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  bool operator==(const Extent& o) const { return begin == o.begin && end == o.end; }
};

// One item of a basic index: an integer, a slice (absent bounds are None,
// CPython's rules) or an ellipsis.
struct IndexItem {
  enum class Kind { Integer, Slice, Ellipsis };
  Kind kind = Kind::Integer;
  std::int64_t index = 0;  // Integer
  std::optional<std::int64_t> start, stop, step;

  static IndexItem integer(std::int64_t i);
  static IndexItem slice(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                         std::optional<std::int64_t> step);
  static IndexItem ellipsis();
};

// A slice resolved against an axis of `length` (CPython's slice.indices):
// the first index, the step and the number of elements selected. A zero
// step is a ValueError.
struct SliceRange {
  std::int64_t start = 0;
  std::int64_t step = 1;
  std::int64_t count = 0;
};
SliceRange resolve_slice(const IndexItem& slice, std::int64_t length);

// The view `items` select (NumPy's basic indexing: integers drop their axis,
// slices keep it, one ellipsis fills the missing axes, missing trailing axes
// are kept whole). `element` is true when every axis was indexed by an
// integer. IndexError for a second ellipsis, too many indices or an integer
// out of bounds (NumPy's messages).
struct IndexedView {
  StridedLayout layout;
  bool element = false;
};
IndexedView select(const StridedLayout& array, const std::vector<IndexItem>& items);

// Contiguity under NumPy's rules (ir/layout.h).
struct Contiguity {
  bool c = true;
  bool f = true;
};
Contiguity contiguity(const StridedLayout& a);

// The bytes the elements cover: [lowest element, highest element + itemsize);
// empty ([offset, offset)) for an array without elements.
Extent extent(const StridedLayout& a);

// The byte ranges the elements occupy, as few as the layout allows: one for
// a contiguous array, else runs along the axis with the smallest stride when
// that axis is dense, else one per element (in C order of the other axes).
std::vector<Extent> contiguous_extents(const StridedLayout& a);

// The strides of a C- (or F-) contiguous array of `shape`: axes of length 0
// count as 1, as NumPy allocates them (the `dense` form), or as they are
// (numba's iter_strides_*_contig, `dense` false).
std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& shape, std::int64_t itemsize,
                                             bool fortran, bool dense = true);

// A requested new shape with at most one -1 resolved for `size` elements.
enum class ShapeProblem { None, TwoUnknown, CannotInfer, SizeChanges };
struct ResolvedShape {
  std::vector<std::int64_t> shape;
  ShapeProblem problem = ShapeProblem::None;
};
ResolvedShape resolve_new_shape(const std::vector<std::int64_t>& requested, std::int64_t size);
// numba's message for a problem (dummyarray's ValueErrors).
const char* shape_problem_message(ShapeProblem problem);

// The strides that give `new_shape` (same element count) over the same memory
// without a copy, reading elements in C order (F order with `fortran`);
// nullopt when old axes that must merge are not one contiguous block.
std::optional<std::vector<std::int64_t>> nocopy_strides(const StridedLayout& a,
                                                        const std::vector<std::int64_t>& new_shape, bool fortran);

// 'A' as an order: F for an F-contiguous array that is not C-contiguous, else C.
char resolve_order(char order, const Contiguity& c);

// reshape(new_shape, order) without a copy (numba's dummyarray): -1 resolved,
// ValueError for a bad shape (shape_problem_message), NotImplementedError
// ("reshape would require copy") when the layout needs one.
StridedLayout reshape(const StridedLayout& a, const std::vector<std::int64_t>& requested, char order);

// The array without its length-1 axes (all of them, or those in `axes`,
// negative counted from the end). ValueError (NumPy's messages) for an axis
// out of range or of another length.
StridedLayout squeeze(const StridedLayout& a, const std::optional<std::vector<std::int64_t>>& axes);

// The 1-d view of a contiguous array's elements in `order` ('C', 'F', 'A'),
// nullopt when the array is not contiguous in that order (a copy is needed).
std::optional<StridedLayout> ravel(const StridedLayout& a, char order);

// The byte offset of the element at `indices` (one per axis, not checked).
std::int64_t element_offset(const StridedLayout& a, const std::vector<std::int64_t>& indices);

}  // namespace cuhost::ir
