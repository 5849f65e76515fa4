// `cuhost export SCRIPT -o DIR [--kernel NAME:SIGNATURE]... [--all-compiled]
// [--arch sm_80,sm_90] [--cpu x86-64-v3] [--namespace NAME] [-- ARGS...]`:
// runs the script, then writes the kernels it names into an export folder
// for hosts without Python (cuhost/export.h, docs/EXPORT.md). Its own file,
// with its own option table, beside the other commands of main.cpp.
#pragma once

#include <string>
#include <vector>

#include <cuhost/export.h>
#include <cuhost/runtime.h>

namespace cuhost::app {

struct ExportCommand {
  std::string script;
  std::vector<std::string> script_args;  // after "--"
  ExportOptions options;
};

// Parses the arguments after `export`. Throws UsageError (cli.h).
ExportCommand parse_export_command(const std::vector<std::string>& args);
std::string export_usage();

// Runs the script, then exports; prints one line per file written. Returns
// the exit code: the script's when it failed (nothing is exported), 1 when
// the export failed (the error on stderr), else 0.
int run_export(Runtime& runtime, const ExportCommand& command);

}  // namespace cuhost::app
