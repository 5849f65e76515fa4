// Unit tests of the content key of foreign sources (support/source_hash.h):
// the key follows every header a source reaches through quoted #include
// lines, spelled with or without spaces around `#` and the name, found in
// the source's folder first and then on the search path, and follows nothing
// else (angle-bracket includes, commented-out or malformed lines, files no
// line names).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "support/source_hash.h"

using namespace cuhost;

namespace {

struct TempFolder {
  std::string path;
  TempFolder() {
    char tmpl[] = "/tmp/cuhost-source-hash-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempFolder() {
    int rc = std::system(("rm -rf '" + path + "'").c_str());
    (void)rc;
  }
};

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string key(const std::string& text, const std::string& dir, const std::vector<std::string>& search) {
  Hasher h;
  hash_quoted_includes(text, dir, search, h);
  return h.hex();
}

}  // namespace

TEST_CASE("the key of a source follows its quoted includes and nothing else") {
  TempFolder src, inc;
  const std::string text =
      "#include \"a.h\"\n"
      "  #  include   \"sub.h\"  // spaces around # and the name\n"
      "#include\"tight.h\"\r\n"
      "#include <angle.h>\n"
      "// #include \"commented.h\"\n"
      "#include \"\"\n"
      "#includex \"wrong.h\"\n"
      "#include \"unterminated.h\n"
      "int f() { return 1; }";
  write(src.path + "/a.h", "#include \"nested.h\"\n");
  write(src.path + "/nested.h", "int nested;\n");
  write(inc.path + "/sub.h", "int sub;\n");
  write(src.path + "/tight.h", "int tight;\n");
  for (const char* name : {"angle.h", "commented.h", "wrong.h", "unterminated.h", "unused.h"})
    write(src.path + "/" + name, "int x;\n");
  const std::vector<std::string> search = {inc.path};
  const std::string before = key(text, src.path, search);
  REQUIRE(before == key(text, src.path, search));

  SECTION("a header named by an included header changes the key") {
    write(src.path + "/nested.h", "int nested2;\n");
    CHECK(key(text, src.path, search) != before);
  }
  SECTION("a header found on the search path changes the key") {
    write(inc.path + "/sub.h", "int sub2;\n");
    CHECK(key(text, src.path, search) != before);
  }
  SECTION("#include\"name\" without a space is followed") {
    write(src.path + "/tight.h", "int tight2;\n");
    CHECK(key(text, src.path, search) != before);
  }
  SECTION("angle includes, comments, malformed lines and unnamed files are not") {
    for (const char* name : {"angle.h", "commented.h", "wrong.h", "unterminated.h", "unused.h"})
      write(src.path + "/" + name, "int changed;\n");
    CHECK(key(text, src.path, search) == before);
  }
  SECTION("the source's folder comes before the search path") {
    write(src.path + "/sub.h", "int shadow;\n");
    const std::string shadowed = key(text, src.path, search);
    CHECK(shadowed != before);
    write(inc.path + "/sub.h", "int sub3;\n");
    CHECK(key(text, src.path, search) == shadowed);
  }
}
