// Unit tests of error rendering: location header, source line with a caret
// under the column, stacked notes, and internal-error messages.
#include <catch2/catch.hpp>

#include "cuda/driver.h"
#include "support/diagnostics.h"

using namespace cuhost;

TEST_CASE("a located user error shows the line and a caret", "[support]") {
  SourceLocation where{"saxpy.py", 12, 9, "o[i] = a * x[i] + 's'"};
  UserError e(ErrorKind::TypingError, "cannot add float32 and str", where, "saxpy");
  CHECK(std::string(e.what()) ==
        "in 'saxpy' at saxpy.py:12:9\n"
        "    o[i] = a * x[i] + 's'\n"
        "            ^\n"
        "cannot add float32 and str");
  e.add_note("while resolving call to mul");
  CHECK(std::string(e.what()).find("\n(while resolving call to mul)") != std::string::npos);
  CHECK(e.kind() == ErrorKind::TypingError);
  CHECK(std::string(error_kind_name(e.kind())) == "TypingError");
}

TEST_CASE("inner locations win over outer ones", "[support]") {
  UserError e(ErrorKind::NameError, "name 'foo' is not defined", SourceLocation{"k.py", 3, 5, "foo()"}, "k");
  e.set_location_if_unknown(SourceLocation{"other.py", 9, 1, "x"}, "outer");
  CHECK(e.location().file == "k.py");
  CHECK(e.function() == "k");
  UserError bare(ErrorKind::ValueError, "bad");
  CHECK(std::string(bare.what()) == "bad");
  bare.set_location_if_unknown(SourceLocation{"o.py", 2, 0, ""}, "f");
  CHECK(std::string(bare.what()) == "in 'f' at o.py:2\nbad");
}

TEST_CASE("internal checks name the file and condition", "[support]") {
  try {
    int x = 3;
    CUHOST_CHECK(x == 4) << "x was " << x;
    FAIL("no throw");
  } catch (const InternalError& e) {
    std::string m = e.what();
    CHECK(m.find("support_diagnostics_test.cpp") != std::string::npos);
    CHECK(m.find("check 'x == 4' failed: x was 3") != std::string::npos);
  }
}

TEST_CASE("the driver is loaded at run time and its absence is explained", "[support]") {
  const cuda::DriverStatus& s = cuda::driver_status();
  if (s.available) {
    CHECK(s.device_count > 0);
  } else {
    CHECK_FALSE(s.reason.empty());
    CHECK_THROWS_AS(cuda::driver(), UserError);
    try {
      cuda::driver();
    } catch (const UserError& e) {
      CHECK(e.kind() == ErrorKind::CudaSupportError);
      CHECK(std::string(e.what()).rfind("CUDA driver unavailable: ", 0) == 0);
    }
  }
}
