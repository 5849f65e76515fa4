// What `cuhost export` (and Runtime::export_kernels) writes out for a host
// without Python: the options of an export and what it made. The folder's
// format is described in docs/EXPORT.md; cuhost/aot.h loads it.
#pragma once

#include <string>
#include <vector>

namespace cuhost {

struct ExportOptions {
  std::string output_dir;            // created when missing; files of an earlier export are replaced
  std::vector<std::string> kernels;  // "name:signature", e.g. "axpy:void(float32, float32[::1])"
  bool all_compiled = false;         // also every specialization the script compiled
  std::vector<std::string> graphs;   // graphs the script registered with cuhost.graph.export_graph (empty: all)
  std::string archs;                 // "sm_80,sm_90": a cubin each, plus the newest's PTX; empty: no GPU images
  std::string cpu = "x86-64-v3";     // the CPU library's target CPU ("native": this machine's); empty: none
  std::string header_namespace;      // the generated header's namespace (empty: from the folder's name)
  std::string script;                // recorded in the manifest
};

struct ExportResult {
  std::vector<std::string> kernels;  // the exported kernels' names
  std::vector<std::string> graphs;   // the exported graphs' names
  std::vector<std::string> files;    // every file written, relative to the folder
};

}  // namespace cuhost
