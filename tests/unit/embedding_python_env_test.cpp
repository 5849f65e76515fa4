// The embedding API's RuntimeOptions::python_env: an application points the
// runtime at a venv, and scripts see it as that venv's python3 does
// (sys.prefix, its site-packages before the system's).
#include <Python.h>  // PY_MAJOR_VERSION, PY_MINOR_VERSION
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <cuhost/runtime.h>

namespace fs = std::filesystem;
using namespace cuhost;

#define CUHOST_STR2(x) #x
#define CUHOST_STR(x) CUHOST_STR2(x)
#define PY_VERSION_MAJOR_MINOR CUHOST_STR(PY_MAJOR_VERSION) "." CUHOST_STR(PY_MINOR_VERSION)

TEST_CASE("an application runs scripts in a venv it names", "[embedding]") {
  if (Runtime::current()) {
    WARN("the runtime of this process was started by another test case; run this one alone (CTest does)");
    return;
  }
  std::string pattern = (fs::temp_directory_path() / "cuhost-embed-env-XXXXXX").string();
  const fs::path venv = mkdtemp(pattern.data());
  // A venv of the embedded Python that also sees the system's packages (NumPy),
  // with one module of its own.
  const fs::path site = venv / "lib" / ("python" PY_VERSION_MAJOR_MINOR) / "site-packages";
  fs::create_directories(site);
  std::ofstream(site / "embedded_env_marker.py") << "WHERE = __file__\n";
  std::ofstream(venv / "pyvenv.cfg") << "home = /usr/bin\ninclude-system-site-packages = true\n";
  RuntimeOptions options;
  options.backend = Backend::Cpu;
  options.python_env = venv.string();
  Runtime& rt = Runtime::initialize(options);
  int rc = rt.run_string(R"(
import os, sys
site = os.path.join(sys.prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
assert sys.prefix == ")" + venv.string() +
                             R"(", sys.prefix
assert site in sys.path and sys.path.index(site) < min(
    [i for i, p in enumerate(sys.path) if p.endswith("dist-packages")] or [len(sys.path)]), sys.path
import embedded_env_marker
assert embedded_env_marker.WHERE.startswith(sys.prefix), embedded_env_marker.WHERE
from numba import cuda
import numpy as np
@cuda.jit
def twice(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= 2
x = np.random.default_rng(5).random(100)
y = x.copy()
twice[1, 128](y)
assert np.array_equal(y, 2 * x)
)",
                         "<embedding python_env>");
  CHECK(rc == 0);
  fs::remove_all(venv);
}
