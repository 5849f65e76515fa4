// Unit tests of record, nested-array and vector types: interning by
// spelling, numba's spellings and their parsing, sizes and ABI alignment.
#include <catch2/catch.hpp>

#include "ir/records.h"
#include "ir/type_parser.h"
#include "ir/types.h"
#include "ir/vector_types.h"

using namespace cuhost;
using namespace cuhost::ir;

namespace {

const Type* sample_record() {
  const Type* inner = record({{"p", int16(), 0}, {"q", float32(), 4}}, 8, true);
  return record({{"a", float64(), 0},
                 {"b", int32(), 8},
                 {"c", complex64(), 12},
                 {"d", nested_array(uint8(), {5}), 20},
                 {"n", inner, 28}},
                36, false);
}

}  // namespace

TEST_CASE("record types are interned by their numba spelling", "[ir][records]") {
  const Type* r = sample_record();
  CHECK(r == sample_record());
  CHECK(r->kind == TypeKind::Record);
  CHECK(r->str() ==
        "Record(a[type=float64;offset=0],b[type=int32;offset=8],c[type=complex64;offset=12],"
        "d[type=nestedarray(uint8, (5,));offset=20],n[type=Record(p[type=int16;offset=0],q[type=float32;offset=4];8;"
        "True);offset=28];36;False)");
  CHECK(r->byte_size() == 36);
  CHECK(abi_alignment(r) == 8);
  CHECK(abi_alignment(complex64()) == 4);
  const RecordLayout& layout = record_layout(r);
  REQUIRE(layout.find("d"));
  CHECK(layout.find("d")->offset == 20);
  CHECK(layout.find("zz") == nullptr);
  CHECK(nested_array(float32(), {3, 2})->str() == "nestedarray(float32, (3, 2))");
  CHECK(nested_array(float32(), {3, 2})->byte_size() == 24);
  CHECK(record({{"a", int32(), 0}}, 4, true) != record({{"a", int32(), 0}}, 4, false));
}

TEST_CASE("record spellings parse back to the same type", "[ir][records]") {
  const Type* r = sample_record();
  CHECK(parse_type(r->str()) == r);
  CHECK(parse_type(r->str() + "[:]") == array(r, 1, Layout::A));
  CHECK(parse_type("array(" + r->str() + ", 2d, A)") == array(r, 2, Layout::A));
  CHECK(parse_type("nestedarray(int16, (3,))") == nested_array(int16(), {3}));
}

TEST_CASE("vector types are named value tuples", "[ir][vectors]") {
  const Type* v = vector_type(float32(), 4);
  CHECK(v == vector_type_by_name("float32x4"));
  CHECK(v->str() == "float32x4");
  CHECK(is_vector_type(v));
  CHECK(!is_vector_type(tuple({float32(), float32(), float32(), float32()})));
  CHECK(v != tuple({float32(), float32(), float32(), float32()}));
  CHECK(v->elements.size() == 4);
  CHECK(vector_type_by_name("float16x2") == nullptr);
  CHECK(vector_type_by_name("int32x5") == nullptr);
  CHECK(parse_type("uint16x3") == vector_type(uint16(), 3));
}
