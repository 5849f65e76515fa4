// `cuhost export`: writes a script's selected kernels (and registered
// graphs) into a folder a host without Python loads with cuhost::aot:
// GPU images per architecture, the CPU library, the generated header and
// manifest.json, which lists every file with its SHA-256 digest (format:
// docs/EXPORT.md). Runs after the script, in the interpreter that ran it.
#pragma once

#include <cuhost/export.h>

namespace cuhost::aot_export {

// Throws UserError for a bad selection, a kernel that cannot be exported
// (naming it and why), compile and link failures, and files that cannot be
// written.
ExportResult export_folder(const ExportOptions& options);

}  // namespace cuhost::aot_export
