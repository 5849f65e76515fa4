// Command-line parsing for cuhost: splits argv into cuhost's own options, the
// subcommand and (for `run`) the script and its untouched arguments, then
// validates the options with Boost.Program_options. A command line that names
// no subcommand is a python3 command line (`cuhost script.py`, `cuhost -c
// CODE`, `cuhost -m MODULE`, `cuhost -`), so that cuhost can be
// sys.executable; cuhost's own options then come first, in their long form.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <cuhost/runtime.h>

namespace cuhost::app {

struct CommandLine {
  std::string command;  // "run", "info", "plugins", "bench", "jupyter-kernel", "python", or "" with --help/--version
  std::string script;   // run: the script path
  std::vector<std::string> args;  // run: arguments after the script; bench: scripts; jupyter-kernel: its arguments
  // python: argv[0] and everything after cuhost's own options, for CPython's
  // own parser (RuntimeOptions::python_command_line)
  std::vector<std::string> python_argv;
  bool backend_given = false;  // --backend / --device were on the command line
  bool device_given = false;
  bool kernel_timeout_given = false;
  bool memory_quota_given = false;
  RuntimeOptions options;
  bool watch = false;          // run --watch: live kernels (Runtime::watch)
  bool communicators = false;  // --nccl: create communicators for the script
  CommunicatorOptions communicator_options;
  bool help = false;
  bool version = false;
  bool json = false;       // bench: also write JSON
  std::string output;      // bench: JSON path
  std::string python_env;  // --python-env (see python_env_choice.h)
};

// Thrown for a bad command line; main prints the message and usage, exits 2.
struct UsageError {
  std::string message;
};

CommandLine parse_command_line(int argc, char** argv);
// "512M", "2G", "1048576", "64KiB" -> bytes (K, M, G, T are powers of 1024);
// false for anything else or an overflow.
bool parse_memory_size(const std::string& text, std::size_t* bytes);
std::string usage();
std::string python_usage();  // the python3 form, part of usage()
// A script must exist, be a regular file and be readable; `why` says which
// fails (the commands that take a script then exit 2).
bool check_script(const std::string& path, std::string& why);

}  // namespace cuhost::app
