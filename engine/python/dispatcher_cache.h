// cache=True: numba's on-disk cache of compiled kernels in the source's
// __pycache__ (its index and data files, hit and miss statistics) is kept by
// the Python layer (cuda/core/caching.py); this is the C++ side it works
// with: a compile of a kernel with cache=True asks the cache first and
// stores what it compiled, and the dispatcher gives and takes compiled
// kernels as bytes (runtime/kernel_serialize.h).
#pragma once

#include <vector>

#include "python/dispatcher.h"

namespace cuhost::python {

// Asks the dispatcher's cache (`_cache_load`) for the kernel of `types`;
// true when it was loaded into the dispatcher's compiled kernels. Throws
// UserError (a Python error stays set) when the cache failed.
bool load_from_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types);

// Stores the freshly compiled kernel of `types` in the cache (`_cache_save`).
void save_to_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types);

// The dispatcher methods of this file (null-terminated): _cache_export,
// _cache_import, _cache_target and _forget_compiled.
PyMethodDef* dispatcher_cache_methods();

}  // namespace cuhost::python
