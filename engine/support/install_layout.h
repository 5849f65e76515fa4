// Where cuhost finds its own files at run time: the Python packages, the
// installed plugins and libdevice. Everything lives in one data folder
// (<prefix>/share/cuhost) found relative to the engine library (or, when the
// engine is linked statically, the executable), so an install tree, a build
// tree and a GPU bundle can be moved anywhere. No source or build path is
// compiled in; CUHOST_DATA_DIR overrides the search.
#pragma once

#include <string>

namespace cuhost::support {

// The data folder: $CUHOST_DATA_DIR when set, else the first of
// <library dir>/<libdir-to-datadir>, <library dir>/../share/cuhost,
// <executable dir>/../share/cuhost (and the configured one when static) that
// holds python/cuda/__init__.py. Empty when none does.
const std::string& data_dir();

// The folder on sys.path holding the `cuda`, `numba` and `cuhost` packages:
// $CUHOST_PYLIB when set, else <data>/python. Throws UserError (RuntimeError)
// naming the places searched when neither exists.
std::string python_dir();

// The installed plugins folder, searched last: <data>/plugins ("" when no data folder).
std::string installed_plugins_dir();

// libdevice.10.bc: $CUHOST_LIBDEVICE, else <data>/libdevice, else the CUDA
// toolkit's ($CUDA_HOME, then the toolkit cuhost was configured with). The
// first that exists; the last candidate when none does (its read then fails
// with the path named).
std::string libdevice_path();

// The CUDA device runtime archive (cooperative grid sync links it): $CUDA_HOME's,
// else the toolkit cuhost was configured with; the last candidate when none
// exists (linking then fails with the path named).
std::string cudadevrt_path();

// The places data_dir() looked at, for error messages.
std::string data_dir_candidates();

}  // namespace cuhost::support
