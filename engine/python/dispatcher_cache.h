// cache=True: numba's on-disk cache of compiled kernels in the source's
// __pycache__ (its index and data files). The lookup is the compile
// path's (runtime/compile_lookup.h), which sees these files as an
// EntryView: a store of the engine's own cache entries (the kernel framed
// by its key and a digest, runtime/compile_cache.h), so a damaged or
// misplaced file is refused and recompiled, never loaded. Only what must be
// Python stays there: the files' folder, names and index are kept by the
// public file store of cuda/core/caching.py (function_cache(d):
// load_overload, save_overload), reached through the function_cache hook;
// entries cross as bytes. No private Python method is called.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "python/dispatcher.h"
#include "runtime/compile_lookup.h"

namespace cuhost::python {

// The cache=True files of `d` for the specialization `types` compiled for
// `target`, or null when `d` was not asked to cache. Its calls take the GIL
// (the lookup runs without it) and throw UserError with the Python error
// set when the files fail.
std::unique_ptr<runtime::EntryView> cache_files_view(DispatcherObject* d, const std::vector<const ir::Type*>& types,
                                                     const runtime::TargetOptions& target);

// The same files under another target string (`identity`): a host njit
// specialization of the function `d` is the device twin of
// (runtime::host_identity).
std::unique_ptr<runtime::EntryView> cache_files_view(DispatcherObject* d, const std::vector<const ir::Type*>& types,
                                                     const std::string& identity);

// [(argument TypeHandles, {cache layer name: count}), ...]: which layer of
// the compile lookup served each specialization (a dispatcher's and host
// njit's _lookup_counts(); `stats` is built from them). New reference.
PyObject* new_lookup_counts(const std::map<std::vector<const ir::Type*>, runtime::LayerCounts>& lookups);

// The dispatcher methods of this file (null-terminated): _forget_compiled,
// _lookup_counts.
PyMethodDef* dispatcher_cache_methods();

}  // namespace cuhost::python
