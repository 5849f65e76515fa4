// cuda.inline_ptx's constraint string and template translation
// (sema/typing/inline_ptx_spec.h): the LLVM constraints each CUDA C form
// becomes, what is refused, and the %N / %% / $ rewriting.
#include <catch2/catch.hpp>

#include "sema/typing/inline_ptx_spec.h"

using cuhost::sema::InlinePtxSpec;
using cuhost::sema::parse_inline_ptx_constraints;
using cuhost::sema::translate_inline_ptx_template;

TEST_CASE("inline_ptx: constraint sections become LLVM constraints", "[inline_ptx]") {
  InlinePtxSpec s;
  REQUIRE(parse_inline_ptx_constraints("=r, =l : r, f, n : memory", &s).empty());
  CHECK(s.outputs == std::vector<char>{'r', 'l'});
  CHECK(s.inputs == std::vector<char>{'r', 'f', 'n'});
  CHECK(s.clobbers_memory);
  CHECK(s.llvm_constraints == "=r,=l,r,f,n,~{memory}");
  REQUIRE(parse_inline_ptx_constraints(": h, d", &s).empty());
  CHECK(s.outputs.empty());
  CHECK(s.llvm_constraints == "h,d");
  REQUIRE(parse_inline_ptx_constraints("=d", &s).empty());
  CHECK(s.llvm_constraints == "=d");
  REQUIRE(parse_inline_ptx_constraints("", &s).empty());
  CHECK(s.llvm_constraints.empty());
}

TEST_CASE("inline_ptx: bad constraints are refused with the reason", "[inline_ptx]") {
  InlinePtxSpec s;
  CHECK(parse_inline_ptx_constraints("r : r", &s) ==
        "'r' is not an output constraint: outputs are '=' and one of h r l f d");
  CHECK(parse_inline_ptx_constraints("+r : r", &s).find("read-write outputs ('+') are not supported") !=
        std::string::npos);
  CHECK(parse_inline_ptx_constraints("=r : x", &s) == "'x' is not an input constraint: inputs are one of h r l f d n");
  CHECK(parse_inline_ptx_constraints("=r : r : cc", &s) == "'cc' is not a clobber: the only clobber is 'memory'");
  CHECK(parse_inline_ptx_constraints("=r : r : memory : x", &s).find("more than three") != std::string::npos);
  CHECK(parse_inline_ptx_constraints("=n", &s).find("not an output constraint") != std::string::npos);
}

TEST_CASE("inline_ptx: the template's operands and escapes", "[inline_ptx]") {
  std::string out;
  REQUIRE(translate_inline_ptx_template("add.s32 %0, %1, %12;", 13, &out).empty());
  CHECK(out == "add.s32 $0, $1, $12;");
  REQUIRE(translate_inline_ptx_template("mov.u32 %0, %%laneid; mov.u32 %0, %laneid;", 1, &out).empty());
  CHECK(out == "mov.u32 $0, %laneid; mov.u32 $0, %laneid;");
  REQUIRE(translate_inline_ptx_template("bra L$1;", 0, &out).empty());
  CHECK(out == "bra L$$1;");
  CHECK(translate_inline_ptx_template("add.s32 %0, %1, %2;", 2, &out) == "refers to operand %2 but has 2 operands");
  CHECK(translate_inline_ptx_template("mov.u32 %1, 0;", 1, &out) == "refers to operand %1 but has 1 operand");
}
