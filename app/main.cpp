// The cuhost executable: parses the command line, starts the CUDA driver
// early where the command will use it (early_driver_start.h), then loads
// the engine's side of the commands (libcuhost_commands, run_command.h),
// which configures one Runtime and dispatches the subcommand or runs a
// python3 command line. The executable itself links neither the engine nor
// LLVM, CPython or CUDA. cuhost is sys.executable inside its scripts, and the
// backend, device and plugin path it was given travel to the processes a
// script starts (subprocess, multiprocessing) through the environment.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include <cuhost/runtime.h>

#include "cli.h"
#include "early_driver_start.h"
#include "python_env_choice.h"
#include "run_command.h"

namespace {

int usage_error(const std::string& message) {
  std::cerr << "cuhost: error: " << message << "\n\n" << cuhost::app::usage();
  return 2;
}

// The file this process runs (/proc/self/exe); empty when it cannot be read.
std::string executable_file() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// The executable's own absolute path, for sys.executable. A launcher that
// wraps the binary (a GPU bundle's script that sets the library path) names
// itself in CUHOST_EXECUTABLE, so that children started through
// sys.executable go through it again; the variable is not passed on.
// A link in a venv's bin/ that cuhost was started through is kept (python3
// in a venv is such a link too).
std::string own_path(const char* argv0, const std::string& venv_link) {
  if (const char* launcher = std::getenv("CUHOST_EXECUTABLE"); launcher && *launcher) {
    std::string path = launcher;
    unsetenv("CUHOST_EXECUTABLE");
    return path;
  }
  if (!venv_link.empty()) return venv_link;
  const std::string self = executable_file();
  return self.empty() ? std::string(argv0) : self;
}

// Options given on the command line become the environment's defaults, so a
// child cuhost (multiprocessing, subprocess with sys.executable) runs as its
// parent does; options not given are read from there.
void inherit_through_environment(cuhost::app::CommandLine& cl) {
  if (cl.backend_given) {
    setenv("CUHOST_BACKEND", cuhost::backend_name(cl.options.backend), 1);
  } else if (const char* b = std::getenv("CUHOST_BACKEND")) {
    std::string name = b;
    if (name == "cpu") cl.options.backend = cuhost::Backend::Cpu;
    if (name == "cuda") cl.options.backend = cuhost::Backend::Cuda;
  }
  if (cl.device_given) {
    setenv("CUHOST_DEVICE", std::to_string(cl.options.device).c_str(), 1);
  } else if (const char* d = std::getenv("CUHOST_DEVICE")) {
    cl.options.device = std::atoi(d);
  } else {
    // Each rank an MPI launcher starts takes the device of its local rank
    // (device 0 when no launcher started the process).
    cl.options.device = cuhost::RuntimeOptions::kDeviceFromLocalRank;
  }
  if (cl.kernel_timeout_given) {
    setenv("CUHOST_KERNEL_TIMEOUT", std::to_string(cl.options.kernel_timeout).c_str(), 1);
  } else if (const char* t = std::getenv("CUHOST_KERNEL_TIMEOUT")) {
    cl.options.kernel_timeout = std::max(0.0, std::atof(t));
  }
  if (cl.memory_quota_given) {
    setenv("CUHOST_MEMORY_QUOTA", std::to_string(cl.options.memory_quota).c_str(), 1);
  } else if (const char* q = std::getenv("CUHOST_MEMORY_QUOTA")) {
    std::size_t bytes = 0;
    if (cuhost::app::parse_memory_size(q, &bytes)) cl.options.memory_quota = bytes;
  }
  if (!cl.options.plugin_paths.empty()) {  // same search order: the given folders, then the variable's
    std::string joined;
    for (const auto& p : cl.options.plugin_paths) joined += (joined.empty() ? "" : ":") + p;
    if (const char* old = std::getenv("CUHOST_PLUGIN_PATH"); old && *old) joined += std::string(":") + old;
    setenv("CUHOST_PLUGIN_PATH", joined.c_str(), 1);
    cl.options.plugin_paths.clear();
  }
}

// True when python3 would run the code of -c: its options come first, and
// -c may end a cluster of flags (-Bc). -W and -X take a value.
// The one-letter options of a python3-style command line before what it runs
// ("IEc" for `-IE -c CODE`): the letters up to and including -c or -m, whose
// values end the options.
std::string leading_python_flags(const std::vector<std::string>& argv) {
  std::string flags;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& token = argv[i];
    if (token == "--check-hash-based-pycs") {
      ++i;
      continue;
    }
    if (token.size() < 2 || token[0] != '-' || token == "--") return flags;
    if (token[1] == '-') continue;  // --help, --version
    for (size_t k = 1; k < token.size(); ++k) {
      flags += token[k];
      if (token[k] == 'c' || token[k] == 'm') return flags;
      if (token[k] == 'W' || token[k] == 'X') {
        if (k + 1 == token.size()) ++i;  // the value is the next argument
        break;
      }
    }
  }
  return flags;
}

bool runs_code_string(const std::vector<std::string>& argv) {
  return leading_python_flags(argv).find('c') != std::string::npos;
}

// -E and -I: python3 ignores the environment's PYTHON* variables; cuhost
// then ignores VIRTUAL_ENV too (python3 never reads it).
bool ignores_environment(const std::vector<std::string>& argv) {
  return leading_python_flags(argv).find_first_of("EI") != std::string::npos;
}

// libcuhost_commands, from the folder the install layout puts libraries in
// relative to the executable's (CUHOST_BIN_TO_LIB), else by the library
// search path (RUNPATH, LD_LIBRARY_PATH). RTLD_GLOBAL: the engine's
// libraries serve later loads as if the executable linked them (CPython's
// extension modules find libpython).
cuhost::app::RunCommand load_commands(std::string& why) {
  const std::string self = executable_file();
  void* module = nullptr;
  if (const size_t slash = self.rfind('/'); slash != std::string::npos) {
    const std::string path = self.substr(0, slash + 1) + CUHOST_BIN_TO_LIB + "/" + cuhost::app::kCommandsModule;
    if (access(path.c_str(), F_OK) == 0) {
      module = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (!module) why = dlerror();
    }
  }
  if (!module && why.empty()) module = dlopen(cuhost::app::kCommandsModule, RTLD_NOW | RTLD_GLOBAL);
  if (!module) {
    if (why.empty()) why = dlerror();
    return nullptr;
  }
  auto run = reinterpret_cast<cuhost::app::RunCommand>(dlsym(module, cuhost::app::kRunCommandSymbol));
  if (!run) why = dlerror();
  return run;
}

// Whether the command starts the driver as soon as the runtime starts
// (Runtime::initialize without defer_backend_start): only then is it started
// before the engine loads.
bool starts_driver_at_once(const cuhost::RuntimeOptions& options) {
  return options.backend != cuhost::Backend::Cpu && !options.defer_backend_start;
}

}  // namespace

int main(int argc, char** argv) {
  cuhost::app::CommandLine cl;
  try {
    cl = cuhost::app::parse_command_line(argc, argv);
  } catch (const cuhost::app::UsageError& e) {
    return usage_error(e.message);
  }
  if (cl.help) {
    std::cout << "cuhost " << CUHOST_VERSION
              << ": run Python GPU kernel scripts (numba-cuda API) on CUDA or the CPU\n\n"
              << cuhost::app::usage();
    return 0;
  }
  if (cl.version) {
    std::cout << "cuhost " << CUHOST_VERSION << "\n";
    return 0;
  }
  if (cl.command == "run") {
    std::string why;
    if (!cuhost::app::check_script(cl.script, why)) return usage_error(why);
  }
  inherit_through_environment(cl);
  const cuhost::app::PythonEnvChoice env = cuhost::app::choose_python_env(
      cl.python_env, argv[0], cl.command == "python" && ignores_environment(cl.python_argv));
  cl.options.python_env = env.dir;
  cl.options.python_executable = own_path(argv[0], env.executable);
  if (cl.command == "python") cl.options.python_command_line = cl.python_argv;
  // `-c` commands (multiprocessing's spawn and forkserver children among
  // them) start the driver at first use: the forkserver forks its workers
  // from a process that must not have initialized CUDA.
  cl.options.defer_backend_start = cl.command == "python" && runs_code_string(cl.python_argv);
  if (cl.command == "run") {  // `cuhost run SCRIPT ARGS` is `cuhost SCRIPT ARGS` ("--": a script may start with '-')
    cl.options.python_command_line = {argv[0], "--", cl.script};
    cl.options.python_command_line.insert(cl.options.python_command_line.end(), cl.args.begin(), cl.args.end());
  }

  cuhost::app::EarlyDriverStart early_driver;
  if (starts_driver_at_once(cl.options)) {
    early_driver.start();
    cl.options.await_driver_start = [&early_driver] { early_driver.wait(); };
  }
  std::string why;
  const cuhost::app::RunCommand run_command = load_commands(why);
  if (!run_command) {
    std::cerr << "cuhost: error: cannot load " << cuhost::app::kCommandsModule << ": " << why << "\n";
    return 1;
  }
  cuhost::app::CommandRequest request{std::move(cl)};
  const int rc = run_command(&request);
  early_driver.wait();  // before the driver's exit handlers run (a command that never used the driver)
  return rc;
}
