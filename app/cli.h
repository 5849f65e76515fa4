// Command-line parsing for cuhost: splits argv into cuhost's own options, the
// subcommand and (for `run`) the script and its untouched arguments, then
// validates the options with Boost.Program_options.
#pragma once

#include <string>
#include <vector>

#include <cuhost/runtime.h>

namespace cuhost::app {

struct CommandLine {
  std::string command;            // "run", "info", "plugins", "bench", or "" with --help/--version
  std::string script;             // run: the script path
  std::vector<std::string> args;  // run: arguments after the script; bench: scripts
  RuntimeOptions options;
  bool help = false;
  bool version = false;
  bool json = false;   // bench: also write JSON
  std::string output;  // bench: JSON path
};

// Thrown for a bad command line; main prints the message and usage, exits 2.
struct UsageError {
  std::string message;
};

CommandLine parse_command_line(int argc, char** argv);
std::string usage();

}  // namespace cuhost::app
