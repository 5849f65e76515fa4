// An export folder's manifest.json as the aot runtime reads it (the format
// of docs/EXPORT.md, written by aot_export/exporter.cpp), and the one check
// every file goes through before it is used: its size and SHA-256 digest
// against the manifest's, so a truncated or altered file is refused by name.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace cuhost::aot {

struct ManifestParam {
  std::string name, type, kind;
  std::vector<int> slots;
};

struct ManifestKernel {
  std::string name;
  std::string signature;
  std::vector<ManifestParam> params;
  std::size_t slot_count = 0;
  bool cooperative = false;
  unsigned cluster[3] = {1, 1, 1};  // the thread-block cluster shape (cluster_dim); absent in older manifests
  int launch_bound_threads = 0;
  // GPU (absent when exported without --arch)
  bool has_gpu = false;
  std::string symbol;
  std::size_t gpu_static_shared = 0;
  std::size_t dynamic_shared_padding = 0;
  std::map<std::string, std::string> cubins;  // "sm_80" -> relative file
  std::string ptx_arch, ptx_file;
  // CPU (absent when exported with --cpu none)
  bool has_cpu = false;
  std::string thread_symbol, block_symbol;
  std::size_t cpu_static_shared = 0;
};

// One argument of a graph launch: a named parameter, or a constant slot value.
struct ManifestGraphArg {
  std::string param;                    // non-empty: bound by name
  std::vector<unsigned char> constant;  // else: the slot's bytes
};

struct ManifestGraphLaunch {
  std::string kernel;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::size_t shared = 0;
  std::vector<ManifestGraphArg> slots;  // one per kernel-ABI slot
};

struct ManifestGraphParam {
  std::string name;
  std::string kind;  // "pointer", "int", "float"
  int bytes = 8;     // the slot size: 1, 2, 4 or 8
};

struct ManifestGraph {
  std::string name;
  std::vector<ManifestGraphParam> params;
  std::vector<ManifestGraphLaunch> launches;
};

struct ManifestFile {
  std::size_t bytes = 0;
  std::string sha256;
};

struct Manifest {
  std::string dir;
  std::string script;
  std::vector<ManifestKernel> kernels;
  std::vector<ManifestGraph> graphs;
  std::string cpu_library;  // relative file, empty when none
  std::string cpu_name;
  std::map<std::string, ManifestFile> files;
};

// Reads <dir>/manifest.json. Throws cuhost::aot::Error: the folder or the
// manifest missing, invalid JSON or fields (naming the field).
Manifest read_manifest(const std::string& dir);

// The bytes of the relative file `rel`, after its size and digest matched
// the manifest. Throws Error naming `subject` (the kernel or graph that
// needs it) and the file: not listed, missing, truncated, altered.
std::string read_verified(const Manifest& m, const std::string& rel, const std::string& subject);
// The same check for a file used by path (the CPU library, dlopen-ed).
void verify_file(const Manifest& m, const std::string& rel, const std::string& subject);

}  // namespace cuhost::aot
