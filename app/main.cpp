// The cuhost executable: parses the command line, configures one Runtime
// through the public embedding API and dispatches the subcommand.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include <cuhost/runtime.h>

#include "cli.h"

namespace {

int usage_error(const std::string& message) {
  std::cerr << "cuhost: error: " << message << "\n\n" << cuhost::app::usage();
  return 2;
}

// A script must exist, be a regular file and be readable; otherwise exit 2.
bool check_script(const std::string& path, std::string& why) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    why = "script not found: '" + path + "'";
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    why = "is a directory, not a script: '" + path + "'";
    return false;
  }
  if (access(path.c_str(), R_OK) != 0) {
    why = "cannot read script: '" + path + "' (permission denied)";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  cuhost::app::CommandLine cl;
  try {
    cl = cuhost::app::parse_command_line(argc, argv);
  } catch (const cuhost::app::UsageError& e) {
    return usage_error(e.message);
  }
  if (cl.help) {
    std::cout << "cuhost " << cuhost::version()
              << ": run Python GPU kernel scripts (numba-cuda API) on CUDA or the CPU\n\n"
              << cuhost::app::usage();
    return 0;
  }
  if (cl.version) {
    std::cout << "cuhost " << cuhost::version() << "\n";
    return 0;
  }
  if (cl.command == "run") {
    std::string why;
    if (!check_script(cl.script, why)) return usage_error(why);
  }

  try {
    cuhost::Runtime& runtime = cuhost::Runtime::initialize(cl.options);
    if (cl.command == "info") {
      std::cout << runtime.info();
      return 0;
    }
    if (cl.command == "run") return runtime.run_file(cl.script, cl.args);
    if (cl.command == "plugins")
      return runtime.run_string("import cuhost.plugins as _p\n_p._print_listing()\n", "<cuhost plugins>");
    if (cl.command == "bench") {
      std::vector<std::string> args = cl.args;
      if (!cl.output.empty()) args.insert(args.begin(), {"--output", cl.output});
      return runtime.run_module_main("cuhost.bench", args);
    }
  } catch (const std::exception& e) {
    std::cerr << "cuhost: error: " << e.what() << "\n";
    return 1;
  }
  return usage_error("unknown command '" + cl.command + "'");
}
