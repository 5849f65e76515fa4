// libcuhost_commands: the commands of the cuhost executable that need the
// engine (run_command.h). One Runtime is configured from the parsed command
// line and the subcommand dispatched.
#include "run_command.h"

#include <iostream>

#include <cuhost/runtime.h>

#include "export_command.h"

namespace {

int run(cuhost::app::CommandLine& cl) {
  cuhost::app::ExportCommand export_command;
  if (cl.command == "export") {
    try {
      export_command = cuhost::app::parse_export_command(cl.args);
    } catch (const cuhost::app::UsageError& e) {
      std::cerr << "cuhost: error: " << e.message << "\n\n" << cuhost::app::export_usage();
      return 2;
    }
  }
  cuhost::Runtime& runtime = cuhost::Runtime::initialize(cl.options);
  if (cl.communicators) runtime.create_communicators(cl.communicator_options);
  if (cl.command == "run" && cl.watch) {
    runtime.watch(cl.script);  // reports go to stderr (no callback)
    const int rc = runtime.run_python_main();
    runtime.stop_watching();
    return rc;
  }
  if (cl.command == "python" || cl.command == "run") return runtime.run_python_main();
  if (cl.command == "info") {
    std::cout << runtime.info();
    return 0;
  }
  if (cl.command == "plugins")
    return runtime.run_string("import cuhost.plugins as _p\n_p._print_listing()\n", "<cuhost plugins>");
  if (cl.command == "bench") {
    std::vector<std::string> args = cl.args;
    if (!cl.output.empty()) args.insert(args.begin(), {"--output", cl.output});
    return runtime.run_module_main("cuhost.bench", args);
  }
  if (cl.command == "jupyter-kernel") return runtime.run_module_main("cuhost.jupyter", cl.args);
  if (cl.command == "export") return cuhost::app::run_export(runtime, export_command);
  std::cerr << "cuhost: error: unknown command '" << cl.command << "'\n\n" << cuhost::app::usage();
  return 2;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int cuhost_run_command(cuhost::app::CommandRequest* request) {
  try {
    return run(request->command_line);
  } catch (const std::exception& e) {
    std::cerr << "cuhost: error: " << e.what() << "\n";
    return 1;
  }
}
