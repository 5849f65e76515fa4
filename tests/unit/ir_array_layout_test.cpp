// Unit tests of the strided layout arithmetic (ir/array_layout.h) on random
// views of C- and F-ordered allocations, each result checked against a
// brute-force reference that enumerates element byte offsets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "ir/array_layout.h"
#include "support/diagnostics.h"

using namespace cuhost;
using namespace cuhost::ir;

namespace {

// Every element's byte offset, in C order (last axis fastest) or F order.
std::vector<std::int64_t> offsets(const StridedLayout& a, bool fortran = false) {
  std::vector<std::int64_t> out;
  std::int64_t n = 1;
  for (std::int64_t s : a.shape) n *= s;
  for (std::int64_t flat = 0; flat < n; ++flat) {
    std::int64_t rest = flat, off = a.offset;
    for (int i = 0; i < a.ndim(); ++i) {
      int axis = fortran ? i : a.ndim() - 1 - i;
      off += (rest % a.shape[axis]) * a.strides[axis];
      rest /= a.shape[axis];
    }
    out.push_back(off);
  }
  return out;
}

bool consecutive(const std::vector<std::int64_t>& offs, std::int64_t itemsize) {
  for (std::size_t k = 1; k < offs.size(); ++k)
    if (offs[k] != offs[0] + std::int64_t(k) * itemsize) return false;
  return true;
}

// The indices a slice selects, by walking the definition of Python slicing
// on the list [0, length).
std::vector<std::int64_t> slice_indices(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                                        std::int64_t step, std::int64_t length) {
  std::vector<std::int64_t> picked;
  auto position = [&](std::optional<std::int64_t> v, bool is_start) -> std::int64_t {
    if (!v) return step > 0 ? (is_start ? 0 : length) : (is_start ? length - 1 : -1);
    std::int64_t x = *v < 0 ? *v + length : *v;
    if (step > 0) return std::min(std::max(x, std::int64_t(0)), length);
    return std::min(std::max(x, std::int64_t(-1)), length - 1);
  };
  std::int64_t i = position(start, true), end = position(stop, false);
  for (; step > 0 ? i < end : i > end; i += step) picked.push_back(i);
  return picked;
}

struct Case {
  StridedLayout base;
  std::vector<IndexItem> items;
  std::vector<std::vector<std::int64_t>> picked;  // per axis of base: the indices kept
  std::vector<bool> integer;                      // per axis: indexed by an integer
};

StridedLayout random_base(std::mt19937& rng) {
  StridedLayout a;
  int ndim = std::uniform_int_distribution<int>(0, 4)(rng);
  for (int k = 0; k < ndim; ++k) a.shape.push_back(std::uniform_int_distribution<int>(0, 5)(rng));
  a.itemsize = std::vector<int>{1, 2, 4, 8}[std::uniform_int_distribution<int>(0, 3)(rng)];
  a.offset = std::uniform_int_distribution<int>(0, 3)(rng) * a.itemsize;
  a.strides = contiguous_strides(a.shape, a.itemsize, rng() % 2 == 0);
  return a;
}

Case random_index(std::mt19937& rng, const StridedLayout& base) {
  Case c;
  c.base = base;
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int n = base.ndim() ? pick(0, base.ndim()) : 0;
  for (int k = 0; k < base.ndim(); ++k) {
    std::int64_t len = base.shape[k];
    if (k < n && len > 0 && pick(0, 3) == 0) {
      std::int64_t i = pick(int(-len), int(len - 1));
      c.items.push_back(IndexItem::integer(i));
      c.picked.push_back({i < 0 ? i + len : i});
      c.integer.push_back(true);
      continue;
    }
    std::optional<std::int64_t> start, stop;
    if (pick(0, 1)) start = pick(int(-len - 2), int(len + 2));
    if (pick(0, 1)) stop = pick(int(-len - 2), int(len + 2));
    std::int64_t step = std::vector<int>{1, 2, 3, -1, -2}[pick(0, 4)];
    if (k < n) c.items.push_back(IndexItem::slice(start, stop, step));
    c.picked.push_back(k < n ? slice_indices(start, stop, step, len) : slice_indices({}, {}, 1, len));
    c.integer.push_back(false);
  }
  // An ellipsis in place of the trailing axes, sometimes.
  if (n < base.ndim() && pick(0, 1)) c.items.push_back(IndexItem::ellipsis());
  return c;
}

// The offsets of the view a Case selects, in C order of the kept axes.
std::vector<std::int64_t> expected_offsets(const Case& c) {
  std::vector<std::int64_t> out{c.base.offset};
  for (int k = 0; k < c.base.ndim(); ++k) {
    std::vector<std::int64_t> next;
    for (std::int64_t o : out)
      for (std::int64_t i : c.picked[k]) next.push_back(o + i * c.base.strides[k]);
    out = next;
  }
  return out;
}

}  // namespace

TEST_CASE("random basic indexes select NumPy's views", "[ir][layout]") {
  std::mt19937 rng(20261128);
  for (int trial = 0; trial < 3000; ++trial) {
    StridedLayout base = random_base(rng);
    Case c = random_index(rng, base);
    IndexedView v = select(base, c.items);
    std::vector<std::int64_t> shape;
    for (int k = 0; k < base.ndim(); ++k)
      if (!c.integer[k]) shape.push_back(std::int64_t(c.picked[k].size()));
    INFO("trial " << trial);
    REQUIRE(v.layout.shape == shape);
    REQUIRE(v.element == (shape.empty() && std::find(c.integer.begin(), c.integer.end(), false) == c.integer.end() &&
                          (c.items.empty() || c.items.back().kind != IndexItem::Kind::Ellipsis)));
    std::vector<std::int64_t> want = expected_offsets(c);
    REQUIRE(offsets(v.layout) == want);

    // Extent, contiguity and contiguous extents of the view.
    const StridedLayout& a = v.layout;
    Extent e = extent(a);
    if (want.empty()) {
      CHECK(e == Extent{a.offset, a.offset});
    } else {
      auto [lo, hi] = std::minmax_element(want.begin(), want.end());
      CHECK(e == Extent{*lo, *hi + a.itemsize});
    }
    Contiguity flags = contiguity(a);
    CHECK(flags.c == consecutive(offsets(a, false), a.itemsize));
    CHECK(flags.f == consecutive(offsets(a, true), a.itemsize));
    std::set<std::int64_t> bytes, covered;
    for (std::int64_t o : want)
      for (std::int64_t b = 0; b < a.itemsize; ++b) bytes.insert(o + b);
    std::int64_t total = 0;
    for (const Extent& x : contiguous_extents(a)) {
      total += x.end - x.begin;
      for (std::int64_t b = x.begin; b < x.end; ++b) covered.insert(b);
    }
    CHECK(covered == bytes);
    CHECK(total == std::int64_t(bytes.size()));

    // Squeeze keeps the elements in order; ravel only when contiguous.
    CHECK(offsets(squeeze(a, std::nullopt)) == want);
    for (char order : {'C', 'F', 'A'}) {
      bool fortran = order == 'F' || (order == 'A' && flags.f && !flags.c);
      std::optional<StridedLayout> flat = ravel(a, order);
      REQUIRE(flat.has_value() == (fortran ? flags.f : flags.c));
      if (flat) CHECK(offsets(*flat) == offsets(a, fortran));
    }
  }
}

TEST_CASE("no-copy reshapes read the same elements in order", "[ir][layout]") {
  std::mt19937 rng(7);
  int reshaped = 0, refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    StridedLayout base = random_base(rng);
    StridedLayout a = select(base, random_index(rng, base).items).layout;
    // A random factorisation of the size into up to 4 axes.
    std::int64_t size = a.size(), rest = size;
    std::vector<std::int64_t> shape;
    int axes = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int k = 0; k + 1 < axes; ++k) {
      std::vector<std::int64_t> divisors;
      for (std::int64_t d = 1; d <= std::max<std::int64_t>(rest, 1); ++d)
        if (rest == 0 ? d <= 3 : rest % d == 0) divisors.push_back(d);
      shape.push_back(divisors[rng() % divisors.size()]);
      if (rest) rest /= shape.back();
    }
    shape.push_back(rest);
    for (bool fortran : {false, true}) {
      std::optional<std::vector<std::int64_t>> strides = nocopy_strides(a, shape, fortran);
      Contiguity flags = contiguity(a);
      if (fortran ? flags.f : flags.c) REQUIRE(strides.has_value());
      if (!strides) {
        ++refused;
        CHECK_THROWS_WITH(reshape(a, shape, fortran ? 'F' : 'C'), "reshape would require copy");
        continue;
      }
      ++reshaped;
      StridedLayout r{a.offset, shape, *strides, a.itemsize};
      INFO("trial " << trial);
      CHECK(offsets(r, fortran) == offsets(a, fortran));
      StridedLayout via = reshape(a, shape, fortran ? 'F' : 'C');
      CHECK(via.shape == shape);
      CHECK(offsets(via, fortran) == offsets(a, fortran));
    }
  }
  CHECK(reshaped > 1000);
  CHECK(refused > 50);
}

TEST_CASE("layout errors carry numba's types and messages", "[ir][layout]") {
  StridedLayout a{0, {3, 4}, {32, 8}, 8};
  auto kind_of = [](auto&& f) {
    try {
      f();
    } catch (const UserError& e) {
      return e.kind();
    }
    return ErrorKind::RuntimeError;
  };
  CHECK_THROWS_WITH(select(a, {IndexItem::integer(3)}), "index 3 is out of bounds for axis 0 with size 3");
  CHECK_THROWS_WITH(select(a, {IndexItem::integer(0), IndexItem::integer(-5)}),
                    "index -5 is out of bounds for axis 1 with size 4");
  CHECK(kind_of([&] { select(a, {IndexItem::integer(3)}); }) == ErrorKind::IndexError);
  CHECK_THROWS_WITH(select(a, {IndexItem::integer(0), IndexItem::integer(0), IndexItem::integer(0)}),
                    "too many indices for array: array is 2-dimensional, but 3 were indexed");
  CHECK_THROWS_WITH(select(a, {IndexItem::ellipsis(), IndexItem::ellipsis()}),
                    "an index can only have a single ellipsis ('...')");
  CHECK_THROWS_WITH(select(a, {IndexItem::slice({}, {}, 0)}), "slice step cannot be zero");
  CHECK(kind_of([&] { select(a, {IndexItem::slice({}, {}, 0)}); }) == ErrorKind::ValueError);
  CHECK_THROWS_WITH(reshape(a, {-1, -1}, 'C'), "can only specify one unknown dimension");
  CHECK_THROWS_WITH(reshape(a, {5, -1}, 'C'), "cannot infer valid shape for unknown dimension");
  CHECK_THROWS_WITH(reshape(a, {5, 5}, 'C'), "reshape changes the size of the array");
  CHECK(reshape(a, {2, -1}, 'C').shape == std::vector<std::int64_t>{2, 6});
  StridedLayout strided = select(a, {IndexItem::slice({}, {}, 2)}).layout;
  CHECK_THROWS_WITH(reshape(strided, {8}, 'C'), "reshape would require copy");
  CHECK(kind_of([&] { reshape(strided, {8}, 'C'); }) == ErrorKind::NotImplementedError);
  StridedLayout with_ones{16, {1, 3, 1}, {96, 32, 8}, 8};
  CHECK(squeeze(with_ones, std::vector<std::int64_t>{-1}).shape == std::vector<std::int64_t>{1, 3});
  CHECK_THROWS_WITH(squeeze(with_ones, std::vector<std::int64_t>{1}),
                    "cannot select an axis to squeeze out which has size not equal to one");
  CHECK_THROWS_WITH(squeeze(with_ones, std::vector<std::int64_t>{3}),
                    "axis 3 is out of bounds for array of dimension 3");
  CHECK(contiguous_strides({2, 0, 3}, 4, false, false) == std::vector<std::int64_t>{0, 12, 4});
  CHECK(contiguous_strides({2, 0, 3}, 4, false, true) == std::vector<std::int64_t>{12, 12, 4});
  CHECK(element_offset(a, {2, 3}) == 88);
}
