// Definite assignment (codegen/lowering/definite_assignment.h): the locals
// some path may read before assigning them, which alone get a zero at entry.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "codegen/lowering/definite_assignment.h"
#include "codegen_support.h"

using namespace cuhost;

namespace {
std::set<std::string> unsafe_reads(const std::string& source, const std::string& fname) {
  auto fn = testing::jit_from_source(source, fname);
  testing::Gil gil;
  return codegen::possibly_unassigned_reads(*fn->captured->def);
}
}  // namespace

TEST_CASE("definite assignment: branches, loops and early exits", "[codegen][definite_assignment]") {
  const char* src =
      "def f(a, n):\n"
      "    if n > 0:\n"
      "        x = 1\n"
      "        y = 2\n"
      "    else:\n"
      "        x = 3\n"
      "    s = x + y\n"  // y is assigned on one branch only
      "    for i in range(n):\n"
      "        z = i\n"
      "    t = z + i\n"  // the loop may not run: z and i unsafe
      "    while n > 0:\n"
      "        w = w + 1\n"  // read before its first assignment in the body
      "        n -= 1\n"
      "    if n > 5:\n"
      "        return 0\n"
      "    else:\n"
      "        v = 1\n"
      "    a[0] = v + s + t\n"  // the other branch returned: v is assigned
      "    return a[0]\n";
  auto unsafe = unsafe_reads(src, "f");
  CHECK(unsafe == std::set<std::string>{"y", "z", "i", "w", "range"});
}

TEST_CASE("definite assignment: a barrier kernel's locals are all assigned before use",
          "[codegen][definite_assignment]") {
  const char* src =
      "def k(x, out):\n"
      "    t = x[0]\n"
      "    s = 128\n"
      "    while s > 0:\n"
      "        if t < s:\n"
      "            out[t] += out[t + s]\n"
      "        s //= 2\n"
      "    out[0] = t\n";
  CHECK(unsafe_reads(src, "k").empty());
}
