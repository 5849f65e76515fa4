// Strided layout arithmetic (see array_layout.h).
#include "ir/array_layout.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "ir/layout.h"
#include "support/diagnostics.h"

namespace cuhost::ir {

namespace {

[[noreturn]] void fail(ErrorKind kind, const std::string& message) { throw UserError(kind, message); }

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

std::int64_t StridedLayout::size() const { return element_count(ndim(), shape.data()); }

IndexItem IndexItem::integer(std::int64_t i) {
  IndexItem item;
  item.kind = Kind::Integer;
  item.index = i;
  return item;
}

IndexItem IndexItem::slice(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                           std::optional<std::int64_t> step) {
  IndexItem item;
  item.kind = Kind::Slice;
  item.start = start;
  item.stop = stop;
  item.step = step;
  return item;
}

IndexItem IndexItem::ellipsis() {
  IndexItem item;
  item.kind = Kind::Ellipsis;
  return item;
}

SliceRange resolve_slice(const IndexItem& s, std::int64_t length) {
  SliceRange r;
  r.step = s.step.value_or(1);
  if (r.step == 0) fail(ErrorKind::ValueError, "slice step cannot be zero");
  // CPython's slice.indices: bounds clamp to [0, length] (to [-1, length-1]
  // going backwards), negative ones count from the end.
  const bool back = r.step < 0;
  auto clamp = [&](std::optional<std::int64_t> v, std::int64_t absent) {
    if (!v) return absent;
    std::int64_t x = *v;
    if (x < 0) {
      x += length;
      if (x < 0) x = back ? -1 : 0;
    } else if (x >= length) {
      x = back ? length - 1 : length;
    }
    return x;
  };
  r.start = clamp(s.start, back ? length - 1 : 0);
  std::int64_t stop = clamp(s.stop, back ? -1 : length);
  if (back)
    r.count = stop < r.start ? (r.start - stop - 1) / (-r.step) + 1 : 0;
  else
    r.count = r.start < stop ? (stop - r.start - 1) / r.step + 1 : 0;
  return r;
}

IndexedView select(const StridedLayout& a, const std::vector<IndexItem>& items) {
  int ellipses = 0, consumed = 0;
  for (const IndexItem& it : items) (it.kind == IndexItem::Kind::Ellipsis ? ellipses : consumed) += 1;
  if (ellipses > 1) fail(ErrorKind::IndexError, "an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim())
    fail(ErrorKind::IndexError, "too many indices for array: array is " + str(a.ndim()) + "-dimensional, but " +
                                    str(consumed) + " were indexed");
  IndexedView out;
  out.layout.offset = a.offset;
  out.layout.itemsize = a.itemsize;
  out.element = ellipses == 0 && consumed == a.ndim();
  auto keep = [&](int axis) {
    out.layout.shape.push_back(a.shape[axis]);
    out.layout.strides.push_back(a.strides[axis]);
  };
  int axis = 0;
  for (const IndexItem& it : items) {
    switch (it.kind) {
      case IndexItem::Kind::Ellipsis:
        for (int fill = a.ndim() - consumed; fill > 0; --fill) keep(axis++);
        break;
      case IndexItem::Kind::Slice: {
        SliceRange r = resolve_slice(it, a.shape[axis]);
        out.element = false;
        // NumPy: an empty selection stays at the axis' start with its stride.
        if (r.count > 0) out.layout.offset += r.start * a.strides[axis];
        out.layout.shape.push_back(r.count);
        out.layout.strides.push_back(r.count > 0 ? r.step * a.strides[axis] : a.strides[axis]);
        ++axis;
        break;
      }
      case IndexItem::Kind::Integer: {
        std::int64_t i = it.index < 0 ? it.index + a.shape[axis] : it.index;
        if (i < 0 || i >= a.shape[axis])
          fail(ErrorKind::IndexError, "index " + str(it.index) + " is out of bounds for axis " + str(axis) +
                                          " with size " + str(a.shape[axis]));
        out.layout.offset += i * a.strides[axis];
        ++axis;
        break;
      }
    }
  }
  while (axis < a.ndim()) keep(axis++);
  return out;
}

Contiguity contiguity(const StridedLayout& a) {
  return {is_c_contiguous(a.ndim(), a.shape.data(), a.strides.data(), a.itemsize),
          is_f_contiguous(a.ndim(), a.shape.data(), a.strides.data(), a.itemsize)};
}

Extent extent(const StridedLayout& a) {
  if (a.size() == 0) return {a.offset, a.offset};
  std::int64_t low = a.offset, high = a.offset;
  for (int k = 0; k < a.ndim(); ++k) {
    std::int64_t span = (a.shape[k] - 1) * a.strides[k];
    (span < 0 ? low : high) += span;
  }
  return {low, high + a.itemsize};
}

namespace {

// Calls `visit(offset)` for every combination of indices of the axes in
// `axes` (C order: the last axis varies fastest).
template <typename Visit>
void for_each_offset(const StridedLayout& a, const std::vector<int>& axes, Visit visit) {
  std::vector<std::int64_t> index(axes.size(), 0);
  for (int axis : axes)
    if (a.shape[axis] == 0) return;
  std::int64_t offset = a.offset;
  while (true) {
    visit(offset);
    int k = static_cast<int>(axes.size()) - 1;
    for (; k >= 0; --k) {
      int axis = axes[k];
      if (++index[k] < a.shape[axis]) {
        offset += a.strides[axis];
        break;
      }
      offset -= (a.shape[axis] - 1) * a.strides[axis];
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

}  // namespace

std::vector<Extent> contiguous_extents(const StridedLayout& a) {
  Contiguity c = contiguity(a);
  if (c.c || c.f) return {extent(a)};
  int inner = 0;
  for (int k = 1; k < a.ndim(); ++k)
    if (std::llabs(a.strides[k]) < std::llabs(a.strides[inner])) inner = k;
  std::vector<Extent> out;
  std::vector<int> axes;
  if (a.strides[inner] == a.itemsize) {
    // Runs along the dense innermost axis, one per index of the others.
    for (int k = 0; k < a.ndim(); ++k)
      if (k != inner) axes.push_back(k);
    const std::int64_t run = a.shape[inner] * a.itemsize;
    for_each_offset(a, axes, [&](std::int64_t begin) { out.push_back({begin, begin + run}); });
  } else {
    for (int k = 0; k < a.ndim(); ++k) axes.push_back(k);
    for_each_offset(a, axes, [&](std::int64_t begin) { out.push_back({begin, begin + a.itemsize}); });
  }
  return out;
}

std::vector<std::int64_t> contiguous_strides(const std::vector<std::int64_t>& shape, std::int64_t itemsize,
                                             bool fortran, bool dense) {
  const int n = static_cast<int>(shape.size());
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t step = itemsize;
  for (int i = 0; i < n; ++i) {
    int axis = fortran ? i : n - 1 - i;
    strides[axis] = step;
    step *= dense && shape[axis] <= 0 ? 1 : shape[axis];
  }
  return strides;
}

ResolvedShape resolve_new_shape(const std::vector<std::int64_t>& requested, std::int64_t size) {
  ResolvedShape r;
  r.shape = requested;
  int unknown = -1;
  std::int64_t known = 1;
  for (int k = 0; k < static_cast<int>(requested.size()); ++k) {
    if (requested[k] < 0) {
      if (unknown >= 0) {
        r.problem = ShapeProblem::TwoUnknown;
        return r;
      }
      unknown = k;
    } else {
      known *= requested[k];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) {
      r.problem = ShapeProblem::CannotInfer;
      return r;
    }
    r.shape[unknown] = size / known;
  } else if (known != size) {
    r.problem = ShapeProblem::SizeChanges;
  }
  return r;
}

const char* shape_problem_message(ShapeProblem problem) {
  switch (problem) {
    case ShapeProblem::TwoUnknown: return "can only specify one unknown dimension";
    case ShapeProblem::CannotInfer: return "cannot infer valid shape for unknown dimension";
    case ShapeProblem::SizeChanges: return "reshape changes the size of the array";
    case ShapeProblem::None: break;
  }
  return "";
}

std::optional<std::vector<std::int64_t>> nocopy_strides(const StridedLayout& a,
                                                        const std::vector<std::int64_t>& new_shape, bool fortran) {
  struct Axis {
    std::int64_t n, stride;
  };
  std::vector<Axis> old;
  for (int k = 0; k < a.ndim(); ++k)
    if (a.shape[k] != 1) old.push_back({a.shape[k], a.strides[k]});
  std::int64_t old_size = 1, new_size = 1;
  for (const Axis& x : old) old_size *= x.n;
  for (std::int64_t n : new_shape) new_size *= n;
  if (old_size != new_size) return std::nullopt;
  const std::size_t nn = new_shape.size();
  if (new_size == 0) return std::vector<std::int64_t>(nn, a.itemsize);
  std::vector<std::int64_t> shape = new_shape;
  if (fortran) {  // F order is C order with the axes reversed
    std::reverse(old.begin(), old.end());
    std::reverse(shape.begin(), shape.end());
  }
  std::vector<std::int64_t> strides(nn, 0);
  std::size_t oi = 0, ni = 0;
  while (oi < old.size() && ni < nn) {
    // Grow a group of old axes [oi, oj) and new axes [ni, nj) of equal products.
    std::size_t oj = oi + 1, nj = ni + 1;
    std::int64_t op = old[oi].n, np = shape[ni];
    while (op != np) {
      if (op < np)
        op *= old[oj++].n;
      else
        np *= shape[nj++];
    }
    for (std::size_t k = oi; k + 1 < oj; ++k)  // the old group must be one C-ordered block
      if (old[k].stride != old[k + 1].n * old[k + 1].stride) return std::nullopt;
    std::int64_t step = old[oj - 1].stride;
    for (std::size_t k = nj; k-- > ni;) {
      strides[k] = step;
      step *= shape[k];
    }
    oi = oj;
    ni = nj;
  }
  // The remaining new axes have length 1: any stride works; the innermost one's.
  std::int64_t tail = ni ? strides[ni - 1] : a.itemsize;
  for (std::size_t k = ni; k < nn; ++k) strides[k] = tail;
  if (fortran) std::reverse(strides.begin(), strides.end());
  return strides;
}

char resolve_order(char order, const Contiguity& c) {
  if (order != 'A') return order;
  return c.f && !c.c ? 'F' : 'C';
}

StridedLayout reshape(const StridedLayout& a, const std::vector<std::int64_t>& requested, char order) {
  ResolvedShape resolved = resolve_new_shape(requested, a.size());
  if (resolved.problem != ShapeProblem::None) fail(ErrorKind::ValueError, shape_problem_message(resolved.problem));
  Contiguity c = contiguity(a);
  order = resolve_order(order, c);
  StridedLayout out;
  out.offset = a.offset;
  out.itemsize = a.itemsize;
  out.shape = resolved.shape;
  if ((order == 'C' && c.c) || (order == 'F' && c.f)) {
    out.strides = contiguous_strides(out.shape, a.itemsize, order == 'F', false);
  } else if (auto strides = nocopy_strides(a, out.shape, order == 'F')) {
    out.strides = *strides;
  } else {
    fail(ErrorKind::NotImplementedError, "reshape would require copy");
  }
  return out;
}

StridedLayout squeeze(const StridedLayout& a, const std::optional<std::vector<std::int64_t>>& axes) {
  std::vector<bool> drop(a.shape.size(), false);
  if (!axes) {
    for (int k = 0; k < a.ndim(); ++k) drop[k] = a.shape[k] == 1;
  } else {
    for (std::int64_t axis : *axes) {
      if (axis < -a.ndim() || axis >= a.ndim())
        fail(ErrorKind::ValueError, "axis " + str(axis) + " is out of bounds for array of dimension " + str(a.ndim()));
      if (axis < 0) axis += a.ndim();
      if (a.shape[axis] != 1)
        fail(ErrorKind::ValueError, "cannot select an axis to squeeze out which has size not equal to one");
      drop[axis] = true;
    }
  }
  StridedLayout out;
  out.offset = a.offset;
  out.itemsize = a.itemsize;
  for (int k = 0; k < a.ndim(); ++k)
    if (!drop[k]) {
      out.shape.push_back(a.shape[k]);
      out.strides.push_back(a.strides[k]);
    }
  return out;
}

std::optional<StridedLayout> ravel(const StridedLayout& a, char order) {
  Contiguity c = contiguity(a);
  order = resolve_order(order, c);
  if (!((order == 'C' && c.c) || (order == 'F' && c.f))) return std::nullopt;
  StridedLayout out;
  out.offset = a.offset;
  out.itemsize = a.itemsize;
  out.shape = {a.size()};
  out.strides = {a.itemsize};
  return out;
}

std::int64_t element_offset(const StridedLayout& a, const std::vector<std::int64_t>& indices) {
  std::int64_t offset = a.offset;
  for (std::size_t k = 0; k < indices.size() && k < a.strides.size(); ++k) offset += indices[k] * a.strides[k];
  return offset;
}

}  // namespace cuhost::ir
