// A plugin's manifest (plugin.toml): what a vendor device library declares so
// scripts can call its functions by name. Parsing and validation live here;
// every error names the plugin, the file and the field (and the line when
// the TOML itself is malformed).
#pragma once

#include <string>
#include <vector>

#include "ir/foreign.h"

namespace cuhost::plugin {

// The plugin format version this cuhost understands.
constexpr int kFormatVersion = 1;

struct FunctionDecl {
  std::string python_name;  // name scripts use
  std::string symbol;       // linker symbol
  std::string signature;    // "float32(uint32, uint32)" (numba signature syntax)
  ir::Abi abi = ir::Abi::C;
  std::string doc;
};

struct Manifest {
  std::string name;
  std::string version;
  int format = kFormatVersion;
  std::string description;
  std::string directory;      // absolute plugin folder
  std::string manifest_path;  // absolute path of plugin.toml (or an in-memory origin)
  std::vector<FunctionDecl> functions;
  std::vector<std::string> link;          // absolute paths of device link items (.cu .ptx .ltoir ...)
  std::vector<std::string> include_dirs;  // absolute include folders for the plugin's .cu files
  std::vector<std::string> cpu_sources;   // absolute paths of sources compiled for the CPU backend
  std::string host_library;               // absolute path of an optional host-side shared library
  // Entry points of the host library (see cuhost/plugin_abi.h); set only with
  // host_library. A teardown named in the manifest must exist; the default
  // one is optional.
  std::string host_setup;
  std::string host_teardown;
  bool host_teardown_required = false;
};

// Parses and validates manifest text. `origin` names it in errors; relative
// paths resolve against `directory`. Files are checked for existence here
// (a missing file is a load-time error); their contents are used at link time.
// Throws UserError(PluginError).
Manifest parse_manifest(const std::string& text, const std::string& origin, const std::string& directory);

// Reads <directory>/plugin.toml and parses it.
Manifest load_manifest(const std::string& directory);

}  // namespace cuhost::plugin
