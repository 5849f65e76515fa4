// Unit tests of `cuhost export`'s command line (app/export_command.h): its
// options after the script, script arguments after --, and usage errors;
// and of the --arch list the export parses (aot_export/gpu_images.h).
#include <catch2/catch.hpp>

#include "aot_export/gpu_images.h"
#include "cli.h"
#include "export_command.h"
#include "support/diagnostics.h"

using cuhost::app::ExportCommand;
using cuhost::app::parse_export_command;
using cuhost::app::UsageError;

static std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse_export_command(args);
  } catch (const UsageError& e) {
    return e.message;
  }
  return "no error";
}

TEST_CASE("export takes a script, a folder, kernels and targets", "[cli][aot]") {
  ExportCommand c = parse_export_command({"k.py", "-o", "out", "--kernel", "axpy:void(float32, float32[::1])", "-k",
                                          "scale:void(float32[::1])", "--arch", "sm_80,sm_90", "--cpu", "native",
                                          "--namespace", "ns", "--", "--size", "3"});
  CHECK(c.script == "k.py");
  CHECK(c.options.output_dir == "out");
  CHECK(c.options.kernels == std::vector<std::string>{"axpy:void(float32, float32[::1])", "scale:void(float32[::1])"});
  CHECK_FALSE(c.options.all_compiled);
  CHECK(c.options.archs == "sm_80,sm_90");
  CHECK(c.options.cpu == "native");
  CHECK(c.options.header_namespace == "ns");
  CHECK(c.script_args == std::vector<std::string>{"--size", "3"});
  ExportCommand d = parse_export_command({"--all-compiled", "k.py", "-o", "out", "--cpu", "none", "--arch", "sm_90"});
  CHECK(d.options.all_compiled);
  CHECK(d.options.cpu.empty());
  CHECK(parse_export_command({"k.py", "-o", "o", "--all-compiled"}).options.cpu == "x86-64-v3");
}

TEST_CASE("export usage errors", "[cli][aot]") {
  CHECK(usage_error({"-o", "out", "--all-compiled"}) == "'export' needs a script path");
  CHECK(usage_error({"k.py", "--all-compiled"}) == "'export' needs an output folder: -o DIR");
  CHECK(usage_error({"k.py", "-o", "out"}) == "'export' needs --kernel NAME:SIGNATURE or --all-compiled");
  CHECK(usage_error({"k.py", "j.py", "-o", "out", "--all-compiled"}) ==
        "'export' takes one script (got 'j.py'; script arguments go after --)");
  CHECK(usage_error({"k.py", "-o", "out", "--all-compiled", "--cpu", "none"}) ==
        "'export' with --cpu none needs --arch");
  CHECK(usage_error({"k.py", "-o", "out", "--all-compiled", "--bogus"}).rfind("export: ", 0) == 0);
}

TEST_CASE("the command line hands everything after export to it", "[cli][aot]") {
  std::vector<std::string> args = {"cuhost", "--backend", "cpu", "export", "k.py", "-o", "out", "-v", "--all-compiled"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  cuhost::app::CommandLine cl = cuhost::app::parse_command_line(static_cast<int>(argv.size()), argv.data());
  CHECK(cl.command == "export");
  CHECK(cl.options.backend == cuhost::Backend::Cpu);
  CHECK(cl.args == std::vector<std::string>{"k.py", "-o", "out", "-v", "--all-compiled"});
}

TEST_CASE("GPU architecture lists of export", "[aot]") {
  auto archs = cuhost::aot_export::parse_arch_list("sm_90a,sm_80,sm_86");
  REQUIRE(archs.size() == 3);
  CHECK(archs[0].name() == "sm_80");
  CHECK(archs[1].name() == "sm_86");
  CHECK(archs[2].name() == "sm_90a");
  CHECK(cuhost::aot_export::parse_arch_list("sm_100")[0].name() == "sm_100");
  CHECK_THROWS_WITH(cuhost::aot_export::parse_arch_list("sm_80,compute_90"),
                    Catch::Contains("invalid GPU architecture 'compute_90' in --arch (expected e.g. sm_80,sm_90)"));
  CHECK_THROWS_WITH(cuhost::aot_export::parse_arch_list("sm_8"), Catch::Contains("invalid GPU architecture 'sm_8'"));
}
