// The GPU half of kernel errors as data: a kernel compiled with checks
// stores each report site in its PTX as the bytes the host decodes after a
// failed launch (cuda/error_record.cpp), so the class key, argument and
// source location of a raise reach the host without a GPU run to show it.
#include <catch2/catch.hpp>

#include <sstream>

#include "codegen_support.h"
#include "frontend/exception_classes.h"
#include "support/kernel_error.h"

using namespace cuhost;
using namespace cuhost::testing;

namespace {

// The sites of a PTX module, decoded from the initializers of its
// cuhost_error_site_N globals ("... .b8 cuhost_error_site_0[N] = {69, 0, ...};").
std::vector<KernelErrorSite> ptx_sites(const std::string& ptx) {
  std::vector<KernelErrorSite> sites;
  for (std::size_t at = ptx.find("cuhost_error_site_"); at != std::string::npos;
       at = ptx.find("cuhost_error_site_", at + 1)) {
    std::size_t open = ptx.find("= {", at), close = ptx.find('}', at), line_end = ptx.find('\n', at);
    if (open == std::string::npos || open > line_end) continue;  // a use, not the definition
    std::string bytes;
    std::istringstream in(ptx.substr(open + 3, close - open - 3));
    for (std::string item; std::getline(in, item, ',');) bytes.push_back(static_cast<char>(std::stoi(item)));
    KernelErrorSite site;
    REQUIRE(decode_site(bytes.data(), bytes.size(), &site));
    sites.push_back(site);
  }
  return sites;
}

}  // namespace

TEST_CASE("kernel error sites: a GPU raise and bounds check store their data in the PTX", "[codegen]") {
  const char* src = R"(
from numba import cuda

def limited(a, limit):
    i = cuda.grid(1)
    if a[i] > limit:
        raise ValueError("past the limit")
    a[i] = 0
)";
  model::JitOptions debug;
  debug.debug = true;
  auto k = compile_source(src, "limited", {"float64[:]", "float64"}, runtime::Target::NVPTX, debug);
  std::vector<KernelErrorSite> sites = ptx_sites(k->ptx);
  const KernelErrorSite* raise = nullptr;
  int index_sites = 0;
  for (const KernelErrorSite& s : sites) {
    if (s.form == KernelErrorForm::Raise) raise = &s;
    if (s.form == KernelErrorForm::Index) {
      ++index_sites;
      CHECK(s.message == "a");  // the array the index is out of bounds of
    }
  }
  REQUIRE(raise);
  CHECK(frontend::exception_name_of(raise->class_key) == "ValueError");
  CHECK(raise->message == "past the limit");
  CHECK(raise->function == "limited");
  CHECK(raise->line == 7);
  CHECK(index_sites >= 1);
  // No marker bytes: the message is the argument alone.
  CHECK(k->ptx.find("In function") == std::string::npos);
}
