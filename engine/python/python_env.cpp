// Choosing and checking the user's Python environment (see python_env.h):
// reads a venv's pyvenv.cfg, or a prefix's lib/python3.X, and refuses an
// environment made for another Python than the embedded one before CPython
// starts, with a message that names both versions.
#include "python/python_env.h"

#include <Python.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "support/diagnostics.h"

#ifndef CUHOST_PYTHON_PREFIX
#define CUHOST_PYTHON_PREFIX "/usr"
#endif

namespace cuhost::python {

namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string trim(const std::string& text) {
  const char* space = " \t\r\n";
  auto first = text.find_first_not_of(space);
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

// An absolute path, without resolving links: a venv's bin/python3 is a link,
// and the environment is the folder the user named.
std::string absolute(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof(cwd))) return path;
  return std::string(cwd) + "/" + path;
}

std::string strip_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// "3.11.7", "3.11.7.final.0" (virtualenv's version_info) -> "3.11".
std::string major_minor(const std::string& version) {
  auto first = version.find('.');
  if (first == std::string::npos) return version;
  auto second = version.find('.', first + 1);
  return second == std::string::npos ? version : version.substr(0, second);
}

// The value of `key` in a pyvenv.cfg ("key = value" lines), or "".
std::string cfg_value(const std::string& cfg_path, const std::string& key) {
  std::ifstream in(cfg_path);
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string name = trim(line.substr(0, eq));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == key) return trim(line.substr(eq + 1));
  }
  return {};
}

// The "3.X" of each <dir>/lib/python3.X folder (a venv's site-packages lie
// there; a prefix's standard library too, with os.py in it).
std::vector<std::string> lib_versions(const std::string& dir, bool with_stdlib) {
  std::vector<std::string> versions;
  DIR* lib = opendir((dir + "/lib").c_str());
  if (!lib) return versions;
  while (dirent* entry = readdir(lib)) {
    std::string name = entry->d_name;
    if (name.rfind("python3.", 0) != 0) continue;
    if (with_stdlib && !is_file(dir + "/lib/" + name + "/os.py")) continue;
    versions.push_back(name.substr(6));
  }
  closedir(lib);
  return versions;
}

[[noreturn]] void refuse_version(const std::string& dir, const std::string& found, const std::string& where) {
  const std::string embedded = embedded_python_version();
  throw UserError(
      ErrorKind::RuntimeError,
      concat("the Python environment ", dir, " was made for Python ", found, " (", where,
             "), but cuhost embeds Python ", PY_VERSION, ": make the environment with python", embedded, " -m venv ",
             dir, ", or build cuhost against Python ", major_minor(found), " (cmake -DPython3_EXECUTABLE=...)"));
}

}  // namespace

std::string embedded_python_version() {
  return std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION);
}

std::string embedded_python_prefix() {
  if (const char* home = std::getenv("CUHOST_PYTHONHOME"); home && *home) return home;
  return CUHOST_PYTHON_PREFIX;
}

PythonEnv inspect_python_env(const std::string& requested) {
  PythonEnv env;
  if (requested.empty()) return env;
  env.dir = strip_trailing_slashes(absolute(requested));
  if (!is_dir(env.dir))
    throw UserError(ErrorKind::RuntimeError,
                    concat("the Python environment ", requested, " does not exist (or is not a folder)"));
  env.python = env.dir + "/bin/python3";
  const std::string embedded = embedded_python_version();
  const std::string cfg = env.dir + "/pyvenv.cfg";
  if (is_file(cfg)) {
    // A venv: site.py, finding pyvenv.cfg beside sys.executable's folder,
    // makes it sys.prefix and adds its site-packages (and, when the venv
    // includes them, the base installation's). The standard library stays
    // the embedded Python's own.
    env.kind = PythonEnv::Kind::Venv;
    env.stdlib_home = embedded_python_prefix();
    std::string version = cfg_value(cfg, "version");
    if (version.empty()) version = cfg_value(cfg, "version_info");
    if (!version.empty()) {
      if (major_minor(version) != embedded) refuse_version(env.dir, version, cfg);
      return env;
    }
    for (const std::string& v : lib_versions(env.dir, false))
      if (v != embedded) refuse_version(env.dir, v, "its lib/python" + v);
    return env;
  }
  // A complete installation (a conda environment): its own standard library
  // and site-packages, as its own python3 has them.
  std::vector<std::string> versions = lib_versions(env.dir, true);
  for (const std::string& v : versions)
    if (v == embedded) {
      env.kind = PythonEnv::Kind::Prefix;
      env.stdlib_home = env.dir;
      return env;
    }
  if (!versions.empty()) refuse_version(env.dir, versions.front(), "its lib/python" + versions.front());
  throw UserError(ErrorKind::RuntimeError,
                  concat("the folder ", env.dir,
                         " is not a Python environment: it has neither a pyvenv.cfg (a venv) nor a lib/python",
                         embedded, "/os.py (a conda environment or another installation)"));
}

}  // namespace cuhost::python
