// Unit tests of extension types (ir/extension_types.h): registration by
// spelling, the type parser reading registered spellings (any characters,
// longest match, inside arrays and tuples), sizes and alignment for array
// elements, and the check that keeps such types out of the disk cache.
#include <catch2/catch.hpp>

#include "ir/extension_types.h"
#include "ir/records.h"
#include "ir/type_parser.h"
#include "ir/types.h"
#include "support/diagnostics.h"

using namespace cuhost;
using namespace cuhost::ir;

namespace {

const Type* pair_type(const std::string& spelling) {
  ExtensionTypeInfo info;
  info.spelling = spelling;
  info.model = DataModel::Struct;
  info.members = {{"a", int32()}, {"b", float64()}};
  info.size = 16;
  info.align = 8;
  return register_extension_type(info);
}

}  // namespace

TEST_CASE("extension types are registered once per spelling", "[ir][extension]") {
  const Type* t = pair_type("UnitPair");
  CHECK(t->kind == TypeKind::Extension);
  CHECK(t->str() == "UnitPair");
  CHECK(pair_type("UnitPair") == t);
  CHECK(extension_type_named("UnitPair") == t);
  CHECK(extension_type_named("UnitPairs") == nullptr);
  CHECK(extension_info(t).member_index("b") == 1);
  CHECK(extension_info(t).member_index("c") == -1);
  CHECK(t->byte_size() == 16);
  CHECK(abi_alignment(t) == 8);
  CHECK(is_array_dtype(t));
}

TEST_CASE("the type parser reads registered extension spellings", "[ir][extension]") {
  const Type* plain = pair_type("UnitVec");
  const Type* param = pair_type("UnitVec(float32, 3)");
  CHECK(parse_type("UnitVec") == plain);
  CHECK(parse_type("UnitVec(float32, 3)") == param);  // the longest match wins
  CHECK(parse_type("array(UnitVec, 1d, C)") == array(plain, 1, Layout::C));
  CHECK(parse_type("UnitVec[::1]") == array(plain, 1, Layout::C));
  CHECK(parse_type("Tuple(UnitVec(float32, 3), int32)") == tuple({param, int32()}));
  Signature sig = parse_signature("none(array(UnitVec(float32, 3), 2d, A), UnitVec)");
  REQUIRE(sig.args.size() == 2);
  CHECK(sig.args[0] == array(param, 2, Layout::A));
  CHECK(sig.args[1] == plain);
  CHECK_THROWS_AS(parse_type("UnitVecX"), UserError);  // a prefix of an identifier is not a match
}

TEST_CASE("types holding extension types are recognized", "[ir][extension]") {
  const Type* t = pair_type("UnitHeld");
  CHECK(contains_extension_type(t));
  CHECK(contains_extension_type(array(t, 1, Layout::A)));
  CHECK(contains_extension_type(tuple({int32(), optional(t)})));
  CHECK_FALSE(contains_extension_type(array(float32(), 2, Layout::C)));
  ExtensionObject object{"<function f>", nullptr};
  const Type* f = extension_function(&object);
  CHECK(f->kind == TypeKind::ExtensionFunction);
  CHECK(f->str() == "Function(<function f>)");
  CHECK(f == extension_function(&object));
  const Type* m = extension_method(t, "norm");
  CHECK(m->str() == "BoundFunction(UnitHeld.norm)");
  CHECK(m == extension_method(t, "norm"));
}
