// Unit tests of the user's Python environment check (python/python_env.cpp):
// a venv's version read from pyvenv.cfg (venv's `version`, virtualenv's
// `version_info`, or its lib/python3.X), a conda-style prefix, and the
// errors for another Python, a folder that is no environment, a missing one.
#include <Python.h>  // PY_VERSION
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "python/python_env.h"
#include "support/diagnostics.h"

namespace fs = std::filesystem;
using cuhost::python::embedded_python_prefix;
using cuhost::python::embedded_python_version;
using cuhost::python::inspect_python_env;
using cuhost::python::PythonEnv;

namespace {

// A fresh folder under the system's temporary folder, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "cuhost-env-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

std::string error_of(const std::string& dir) {
  try {
    inspect_python_env(dir);
  } catch (const cuhost::UserError& e) {
    return e.what();
  }
  return "no error";
}

std::string other_version() { return embedded_python_version() == "3.9" ? "3.12.1" : "3.9.18"; }

}  // namespace

TEST_CASE("a venv of the embedded Python keeps the embedded standard library", "[python_env]") {
  TempDir t;
  write(t.path / "pyvenv.cfg", "home = /usr/bin\nversion = " + embedded_python_version() + ".7\n");
  PythonEnv env = inspect_python_env(t.path.string() + "/");
  CHECK(env.kind == PythonEnv::Kind::Venv);
  CHECK(env.dir == t.path.string());
  CHECK(env.python == t.path.string() + "/bin/python3");
  CHECK(env.stdlib_home == embedded_python_prefix());
  CHECK(inspect_python_env("").kind == PythonEnv::Kind::None);
}

TEST_CASE("a venv of another Python is refused naming both versions", "[python_env]") {
  TempDir t;
  write(t.path / "pyvenv.cfg", "home = /opt/bin\nversion = " + other_version() + "\n");
  std::string why = error_of(t.path.string());
  CHECK(why.find("the Python environment " + t.path.string() + " was made for Python " + other_version() + " (" +
                 (t.path / "pyvenv.cfg").string() + "), but cuhost embeds Python " PY_VERSION) == 0);
  CHECK(why.find("python" + embedded_python_version() + " -m venv " + t.path.string()) != std::string::npos);
}

TEST_CASE("virtualenv's version_info and a bare lib/python3.X give the version too", "[python_env]") {
  TempDir a;
  write(a.path / "pyvenv.cfg", "version_info = " + other_version() + ".final.0\n");
  CHECK(error_of(a.path.string()).find("was made for Python " + other_version() + ".final.0") != std::string::npos);
  TempDir b;
  write(b.path / "pyvenv.cfg", "home = /usr/bin\n");
  fs::create_directories(b.path / "lib" / "python3.9" / "site-packages");
  if (embedded_python_version() != "3.9")
    CHECK(error_of(b.path.string()).find("was made for Python 3.9 (its lib/python3.9)") != std::string::npos);
}

TEST_CASE("a prefix with the embedded Python's lib is used whole", "[python_env]") {
  TempDir t;
  write(t.path / "lib" / ("python" + embedded_python_version()) / "os.py", "");
  PythonEnv env = inspect_python_env(t.path.string());
  CHECK(env.kind == PythonEnv::Kind::Prefix);
  CHECK(env.stdlib_home == t.path.string());
  TempDir other;
  write(other.path / "lib" / "python3.9" / "os.py", "");
  if (embedded_python_version() != "3.9")
    CHECK(error_of(other.path.string()).find("was made for Python 3.9") != std::string::npos);
}

TEST_CASE("a folder that is no environment, and a missing one", "[python_env]") {
  TempDir t;
  CHECK(error_of(t.path.string()) == "the folder " + t.path.string() +
                                         " is not a Python environment: it has neither a pyvenv.cfg (a venv) nor a "
                                         "lib/python" +
                                         embedded_python_version() +
                                         "/os.py (a conda environment or another installation)");
  CHECK(error_of((t.path / "missing").string()) ==
        "the Python environment " + (t.path / "missing").string() + " does not exist (or is not a folder)");
}
