// The Python environment of a cuhost run (see python_env_choice.h). A venv's
// own python3 uses the venv it lies in; cuhost, not being installed in the
// venv, also follows an activated venv (VIRTUAL_ENV) and an explicit
// --python-env, and passes its choice on to its children.
#include "python_env_choice.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <sstream>

namespace cuhost::app {

namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string folder_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string absolute(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  char cwd[PATH_MAX];
  return getcwd(cwd, sizeof(cwd)) ? std::string(cwd) + "/" + path : path;
}

std::string without_trailing_slash(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// The path cuhost was started through, links unresolved: argv[0] when it
// names a folder, else the first match on PATH (as a shell found it).
std::string invoked_path(const char* argv0) {
  std::string name = argv0 ? argv0 : "";
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return absolute(name);
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0 && is_file(candidate)) return candidate;
  }
  return {};
}

}  // namespace

PythonEnvChoice choose_python_env(const std::string& given, const char* argv0, bool ignore_virtual_env) {
  PythonEnvChoice choice;
  if (!given.empty()) choice.dir = without_trailing_slash(absolute(given));
  // A link to cuhost in a venv's bin/: that venv, as for the venv's python3
  // (whatever the environment variables say).
  std::string invoked = invoked_path(argv0);
  if (!invoked.empty()) {
    std::string venv = folder_of(folder_of(invoked));
    if (is_file(venv + "/pyvenv.cfg")) {
      if (choice.dir.empty()) choice.dir = venv;
      if (choice.dir == venv) choice.executable = invoked;
    }
  }
  for (const char* variable : {"CUHOST_PYTHON_ENV", "VIRTUAL_ENV"}) {
    if (ignore_virtual_env && std::string(variable) == "VIRTUAL_ENV") continue;
    const char* value = std::getenv(variable);
    if (choice.dir.empty() && value && *value) choice.dir = without_trailing_slash(absolute(value));
  }
  if (!choice.dir.empty())
    setenv("CUHOST_PYTHON_ENV", choice.dir.c_str(), 1);  // absolute: children may start elsewhere
  return choice;
}

}  // namespace cuhost::app
