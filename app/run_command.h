// The seam between the cuhost executable and the commands that need the
// engine. The executable parses the command line and starts the driver
// without the engine loaded (early_driver_start.h); it then loads
// libcuhost_commands, the module that links the engine, and calls its one
// entry point with what it parsed. Both sides are built from one tree by one
// compiler, so the request is passed as a C++ object.
#pragma once

#include "cli.h"

namespace cuhost::app {

// The command line as parsed, with the options completed from the
// environment (RuntimeOptions::await_driver_start set when the executable
// started the driver early).
struct CommandRequest {
  CommandLine command_line;
};

// Runs the command; returns the process's exit code. Errors are reported on
// stderr ("cuhost: error: ..."), never thrown.
using RunCommand = int (*)(CommandRequest* request);
inline constexpr const char* kRunCommandSymbol = "cuhost_run_command";
inline constexpr const char* kCommandsModule = "libcuhost_commands.so";

}  // namespace cuhost::app
