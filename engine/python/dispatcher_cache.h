// cache=True: numba's on-disk cache of compiled kernels in the source's
// __pycache__ (its index and data files, hit and miss statistics). The
// lookup is the compile path's, in C++: a compile of a kernel with
// cache=True asks these files first (after the dispatcher's compiled
// kernels in memory) and stores what it compiled; the files themselves are
// kept by the public file store of cuda/core/caching.py (function_cache(d):
// load_overload, note_hit, save_overload), to which kernels cross as bytes:
// each data file is an entry of the engine's own disk-cache format
// (runtime/compile_cache.h: the kernel framed by a key and a digest), so a
// damaged or misplaced file is refused and recompiled, never loaded. No
// private Python method is called.
#pragma once

#include <vector>

#include "python/dispatcher.h"

namespace cuhost::python {

// Loads the kernel of `types` from the function's cache files into the
// dispatcher's compiled kernels; true when it was. Throws UserError (a Python
// error stays set) when the cache failed.
bool load_from_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types);

// Stores the freshly compiled kernel of `types` in the cache files (counted
// as a miss; a kernel that cannot be kept between processes is only counted).
void save_to_pycache(DispatcherObject* d, const std::vector<const ir::Type*>& types);

// The dispatcher methods of this file (null-terminated): _forget_compiled.
PyMethodDef* dispatcher_cache_methods();

}  // namespace cuhost::python
