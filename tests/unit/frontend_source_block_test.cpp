// The indentation cut of a function's source (frontend/source_block.h):
// decorators (also spanning lines), nested functions, comments and blank
// lines, and the cases it must refuse or leave to the parser's check.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "frontend/source_block.h"

using cuhost::frontend::function_block;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line + "\n");
  return out;
}
}  // namespace

TEST_CASE("a decorated top-level function is cut at the next statement", "[frontend][source_block]") {
  auto lines = lines_of(
      "import x\n"
      "@cuda.jit(\n"
      "    'void(float32[:])'\n"
      ")\n"
      "def k(a):\n"
      "    i = 1\n"
      "\n"
      "# a comment at column 0\n"
      "    a[i] = 2\n"
      "\n"
      "k2 = 3\n");
  auto block = function_block(lines, 2);
  REQUIRE(block);
  CHECK(block->indent == 0);
  CHECK(block->text ==
        "@cuda.jit(\n    'void(float32[:])'\n)\ndef k(a):\n    i = 1\n\n# a comment at column 0\n    a[i] = 2\n");
}

TEST_CASE("a nested function is dedented and ends at its parent's next line", "[frontend][source_block]") {
  auto lines = lines_of(
      "def outer():\n"
      "    @cuda.jit\n"
      "    def inner(a):\n"
      "        a[0] = 1\n"
      "      # comment, less indented than the body\n"
      "        a[1] = 2\n"
      "    return inner\n");
  auto block = function_block(lines, 2);
  REQUIRE(block);
  CHECK(block->indent == 4);
  CHECK(block->text ==
        "@cuda.jit\ndef inner(a):\n    a[0] = 1\n  # comment, less indented than the body\n    a[1] = 2\n");
}

TEST_CASE("one-line functions and bad line numbers", "[frontend][source_block]") {
  auto lines = lines_of("def f(x): return x + 1\ny = 2\n");
  auto block = function_block(lines, 1);
  REQUIRE(block);
  CHECK(block->text == "def f(x): return x + 1\n");
  CHECK_FALSE(function_block(lines, 0));
  CHECK_FALSE(function_block(lines, 3));
  CHECK_FALSE(function_block(lines_of("x = 1\ny = 2\n"), 1));  // no def at that indentation
}

TEST_CASE("a continuation line below the function's indentation ends the cut early", "[frontend][source_block]") {
  // The cut stops at the shallow line; the caller's parse then fails and it
  // falls back to inspect.getsource.
  auto lines = lines_of(
      "    def f(a):\n"
      "        s = '''doc\n"
      "text at column 0\n"
      "        '''\n"
      "        return a\n");
  auto block = function_block(lines, 1);
  REQUIRE(block);
  CHECK(block->text == "def f(a):\n    s = '''doc\n");
}
