// Unit tests of the interned type system and the numba type-spelling parser.
#include <catch2/catch.hpp>

#include "ir/constant.h"
#include "ir/foreign.h"
#include "ir/type_parser.h"
#include "ir/types.h"
#include "support/diagnostics.h"

using namespace cuhost;
using namespace cuhost::ir;

TEST_CASE("types are interned and print with numba's spelling", "[ir]") {
  CHECK(int32() == integer(32, true));
  CHECK(array(float32(), 1, Layout::C) == array(float32(), 1, Layout::C));
  CHECK(array(float32(), 1, Layout::C) != array(float32(), 1, Layout::A));
  CHECK(int32()->str() == "int32");
  CHECK(uint8()->str() == "uint8");
  CHECK(float32()->str() == "float32");
  CHECK(boolean()->str() == "bool");
  CHECK(none_type()->str() == "none");
  CHECK(complex128()->str() == "complex128");
  CHECK(array(float32(), 1, Layout::C)->str() == "array(float32, 1d, C)");
  CHECK(array(float64(), 2, Layout::F, true)->str() == "readonly array(float64, 2d, F)");
  CHECK(tuple({int64(), int64()})->str() == "UniTuple(int64 x 2)");
  CHECK(tuple({int64(), float32()})->str() == "Tuple(int64, float32)");
  CHECK(cpointer(float32())->str() == "CPointer(float32)");
  CHECK(optional(int32())->str() == "OptionalType(int32)");
  CHECK(int16()->byte_size() == 2);
  CHECK(boolean()->byte_size() == 1);
  CHECK(complex64()->byte_size() == 8);
  CHECK(cpointer(int8())->byte_size() == 8);
}

TEST_CASE("scalar names include numba and NumPy aliases", "[ir]") {
  CHECK(scalar_by_name("f4") == float32());
  CHECK(scalar_by_name("f8") == float64());
  CHECK(scalar_by_name("intp") == int64());
  CHECK(scalar_by_name("uintp") == uint64());
  CHECK(scalar_by_name("bool_") == boolean());
  CHECK(scalar_by_name("boolean") == boolean());
  CHECK(scalar_by_name("i4") == int32());
  CHECK(scalar_by_name("u1") == uint8());
  CHECK(scalar_by_name("double") == float64());
  CHECK(scalar_by_name("void") == void_type());
  CHECK(scalar_by_name("floaat32") == nullptr);
  CHECK(numpy_name(boolean()) == "bool");
  CHECK(numpy_name(uint16()) == "uint16");
}

TEST_CASE("constants print like Python", "[ir]") {
  CHECK(ConstValue::integer(-3).repr() == "-3");
  CHECK(ConstValue::floating(0.1).repr() == "0.1");
  CHECK(ConstValue::floating(2.0).repr() == "2.0");
  CHECK(ConstValue::boolean(true).repr() == "True");
  CHECK(ConstValue::none().repr() == "None");
  CHECK(ConstValue::string("a'b").repr() == "'a\\'b'");
  CHECK(ConstValue::tuple({ConstValue::integer(1)}).repr() == "(1,)");
  CHECK(ConstValue::tuple({ConstValue::integer(1), ConstValue::floating(2.5)}).type->str() == "Tuple(int64, float64)");
  CHECK(ConstValue::unsigned_integer(18446744073709551615ull).type == uint64());
  CHECK(ConstValue::floating(1.5, float32()).type == float32());
}

TEST_CASE("the parser reads decorator array syntax", "[ir]") {
  CHECK(parse_type("float32[:]") == array(float32(), 1, Layout::A));
  CHECK(parse_type("float32[::1]") == array(float32(), 1, Layout::C));
  CHECK(parse_type("float32[:, ::1]") == array(float32(), 2, Layout::C));
  CHECK(parse_type("float32[::1, :]") == array(float32(), 2, Layout::F));
  CHECK(parse_type("float64[:, :]") == array(float64(), 2, Layout::A));
  CHECK(parse_type("int8[:,:,::1]") == array(int8(), 3, Layout::C));
  CHECK(parse_type("f4") == float32());
  CHECK(parse_type("boolean") == boolean());
  CHECK(parse_type("types.int32") == int32());
}

TEST_CASE("the parser reads canonical spellings", "[ir]") {
  CHECK(parse_type("array(float32, 1d, C)") == array(float32(), 1, Layout::C));
  CHECK(parse_type("readonly array(int64, 2d, A)") == array(int64(), 2, Layout::A, true));
  CHECK(parse_type("UniTuple(int64 x 2)") == tuple({int64(), int64()}));
  CHECK(parse_type("UniTuple(int64, 3)") == tuple({int64(), int64(), int64()}));
  CHECK(parse_type("Tuple(int64, float32)") == tuple({int64(), float32()}));
  CHECK(parse_type("CPointer(float32)") == cpointer(float32()));
  CHECK(parse_type("OptionalType(int32)") == optional(int32()));
  CHECK(parse_type("Optional(int32)") == optional(int32()));
  // Round trips through str().
  for (const char* s : {"array(uint16, 3d, F)", "UniTuple(float32 x 4)", "Tuple(int32, array(float64, 1d, C))",
                        "CPointer(CPointer(int8))", "readonly array(bool, 1d, C)"}) {
    CHECK(parse_type(s)->str() == s);
  }
}

TEST_CASE("the parser reads signatures", "[ir]") {
  Signature s = parse_signature("void(float32[::1], int32)");
  CHECK(s.return_type == void_type());
  REQUIRE(s.args.size() == 2);
  CHECK(s.args[0] == array(float32(), 1, Layout::C));
  CHECK(s.args[1] == int32());
  CHECK(parse_signature("float32(CPointer(float32), int32)").str() == "float32(CPointer(float32), int32)");
  Signature args_only = parse_signature("(int32, float64)");
  CHECK(args_only.return_type == nullptr);
  CHECK(args_only.args.size() == 2);
  Signature bare = parse_signature("int32, float64[:]");
  CHECK(bare.return_type == nullptr);
  CHECK(bare.args[1] == array(float64(), 1, Layout::A));
  CHECK(parse_signature("int32()").args.empty());
  CHECK(parse_signature("int32(float32[:])").args[0] == array(float32(), 1, Layout::A));
}

TEST_CASE("the parser reports unknown names and bad syntax", "[ir]") {
  try {
    parse_signature("void(floaat32)");
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(e.kind() == ErrorKind::NameError);
    CHECK(e.message() == "name 'floaat32' is not defined");
  }
  for (const char* bad : {"float32[", "float32(", "array(float32, 1d, Q)", "float32[:, ::2]", "int32 int32",
                          "UniTuple(int64)", "float32[::1, ::1]", "$"}) {
    try {
      parse_type(bad);
      FAIL("no error for " << bad);
    } catch (const UserError& e) {
      CHECK(e.kind() == ErrorKind::SyntaxError);
      CHECK(e.message() == std::string("invalid type syntax: '") + bad + "'");
    }
  }
}

TEST_CASE("fixed-width strings print and parse as numba's CharSeq spellings", "[ir]") {
  const Type* s12 = char_seq(12, false);
  const Type* u3 = char_seq(3, true);
  CHECK(s12 == char_seq(12, false));
  CHECK(s12 != char_seq(12, true));
  CHECK(s12->str() == "[char x 12]");
  CHECK(u3->str() == "[unichr x 3]");
  CHECK(s12->byte_size() == 12);
  CHECK(u3->byte_size() == 12);
  CHECK(is_unicode_char_seq(u3));
  CHECK(!is_unicode_char_seq(s12));
  CHECK(parse_type("[char x 12]") == s12);
  CHECK(parse_type("array([unichr x 3], 1d, C)") == array(u3, 1, Layout::C));
  CHECK(bytes_literal("ab")->str() == "Literal[bytes](ab)");
  for (const char* bad : {"[char x 0]", "[byte x 2]", "[char 2]"}) {
    try {
      parse_type(bad);
      FAIL("no error for " << bad);
    } catch (const UserError& e) {
      CHECK(e.kind() != ErrorKind::TypingError);
    }
  }
}
