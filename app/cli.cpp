// Command-line parsing (see cli.h). Options may stand before or after the
// subcommand; for `run`, everything after the script path belongs to the
// script and is never interpreted by cuhost. Without a subcommand the line is
// python3's: cuhost takes its long options from the front and hands the rest,
// untouched, to CPython's own parser.
#include "cli.h"

#include <sys/stat.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>

namespace po = boost::program_options;

namespace cuhost::app {

static po::options_description option_table() {
  po::options_description opts("Options");
  opts.add_options()("help,h", "show this help and exit")("version", "print the cuhost version and exit")(
      "backend,b", po::value<std::string>()->default_value("auto"),
      "kernel backend: auto (CUDA when a driver and GPU exist, else CPU), cpu or cuda")(
      "device,d", po::value<int>()->default_value(0),
      "CUDA device ordinal (default: 0; under an MPI launcher, the local rank's device)")(
      "verbose,v", "print per-stage compile timings and backend choices on stderr")(
      "streams", po::value<int>()->default_value(0),
      "create N host-owned streams, lent to scripts as cuda.host_stream('s0'..)")(
      "plugin-path", po::value<std::vector<std::string>>()->composing(),
      "add a plugin directory to the search path (repeatable; before CUHOST_PLUGIN_PATH)")(
      "no-bounds-check", "CPU backend: turn off array bounds checks (faster)")(
      "watch",
      "run: follow the script and the modules it imports; a changed kernel or device function is compiled "
      "in the background and swapped in while the script runs (errors and refusals on stderr)")(
      "kernel-timeout", po::value<double>(),
      "stop a kernel launch running longer than SECONDS with a KernelError (GPU: each launch then waits for "
      "its stream); scripts may set a shorter one per launch with cuhost.kernel_deadline(seconds)")(
      "memory-quota", po::value<std::string>(),
      "device and managed memory the script may hold at once, e.g. 512M or 2G (K, M, G, T: powers of 1024); "
      "an allocation past it raises CudaAPIError (CUDA_ERROR_OUT_OF_MEMORY)")(
      "nccl",
      "lend collective communicators to the script (cuhost.nccl): NCCL over this process's GPUs, or one "
      "per rank when an MPI launcher (mpirun -n N cuhost run ...) started it; MPI carries them on the CPU backend")(
      "nccl-devices", po::value<std::string>(), "with --nccl in one process: the devices, e.g. 0,1 (default: all)")(
      "python-env", po::value<std::string>(),
      "use this Python environment (a venv, or a conda environment's folder) as its python3 would: its "
      "sys.prefix and site-packages (default: the venv whose bin/ holds the link cuhost was started through, "
      "CUHOST_PYTHON_ENV, or the active venv, VIRTUAL_ENV)")("output,o", po::value<std::string>(),
                                                             "bench: write results as JSON to this file");
  return opts;
}

std::string usage() {
  std::ostringstream out;
  out << "usage: cuhost [options] <command> [arguments]\n\n"
      << "Commands:\n"
      << "  run SCRIPT [ARGS...]   run a Python kernel script (sys.argv = [SCRIPT, ARGS...]);\n"
      << "                         the exit code is the script's (1 after an uncaught exception)\n"
      << "  info                   versions, backends and GPUs\n"
      << "  plugins                list plugins on the search path with their functions and status\n"
      << "  bench [SCRIPTS...]     run benchmark scripts (default: scripts/bench) and print a table\n"
      << "  jupyter-kernel install [--user | --sys-prefix | --prefix DIR] [--name NAME] [--display-name TEXT]\n"
      << "                         register a Jupyter kernel that runs cuhost (ipykernel) in this environment\n"
      << "  export SCRIPT -o DIR (--kernel NAME:SIGNATURE... | --all-compiled) [--arch sm_80,sm_90] [--cpu CPU]\n"
      << "                         run the script, then write its kernels for hosts without Python (cuhost/aot.h)\n\n"
      << option_table() << "\n"
      << "Environment:\n"
      << "  CUHOST_PLUGIN_PATH     colon-separated plugin directories\n"
      << "  CUHOST_PYTHON_ENV      default for --python-env after the venv whose bin/ holds the link cuhost was\n"
      << "                         started through (cuhost sets it for the processes a script starts); then the\n"
      << "                         active venv (VIRTUAL_ENV)\n"
      << "  NUMBA_CUDA_INCLUDE_PATH, NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS  include paths for NVRTC\n\n"
      << "  CUHOST_BACKEND, CUHOST_DEVICE, CUHOST_KERNEL_TIMEOUT, CUHOST_MEMORY_QUOTA   defaults for\n"
      << "                         --backend, --device, --kernel-timeout and --memory-quota (cuhost sets\n"
      << "                         them for the processes a script starts when the options were given)\n\n"
      << python_usage() << "\n"
      << "Exit codes: the script's own; 2 for a bad command line.\n";
  return out.str();
}

std::string python_usage() {
  return "Without a command, cuhost is python3 with cuhost's `numba` and `cuda`:\n"
         "  cuhost [cuhost long options] [python options] (-c CODE | -m MODULE | SCRIPT | -) [ARGS...]\n"
         "python options are python3's own (-u, -W, -X, -E, -I, -B, -O, -i, ...); in this form cuhost's\n"
         "options are written long (--backend cpu) and come first. A script named like a command runs as\n"
         "`cuhost ./run` or `cuhost run run`.\n";
}

static const std::set<std::string> kCommands = {"run", "info", "plugins", "bench", "jupyter-kernel", "export"};

// A cuhost option token (`--backend`, `--backend=cpu`, `-v`), and whether
// its value is the next token.
static bool is_cuhost_option(const std::string& token, bool long_only, bool& value_follows) {
  static const std::set<std::string> long_flags = {"--help", "--version", "--verbose", "--no-bounds-check", "--nccl"};
  static const std::set<std::string> long_valued = {"--backend",      "--device",       "--streams",
                                                    "--plugin-path",  "--output",       "--kernel-timeout",
                                                    "--nccl-devices", "--memory-quota", "--python-env"};
  static const std::set<std::string> short_flags = {"-h", "-v"};
  static const std::set<std::string> short_valued = {"-b", "-d", "-o"};
  value_follows = false;
  std::string name = token.substr(0, token.find('='));
  if (long_flags.count(token)) return true;
  if (long_valued.count(name)) {
    value_follows = name == token;
    return true;
  }
  if (long_only) return false;
  if (short_flags.count(token)) return true;
  value_follows = short_valued.count(token) > 0;
  return value_follows;
}

static bool takes_value(const std::string& token) {
  static const std::set<std::string> with_value = {"--backend",
                                                   "-b",
                                                   "--device",
                                                   "-d",
                                                   "--streams",
                                                   "--output",
                                                   "-o",
                                                   "--plugin-path",
                                                   "--kernel-timeout",
                                                   "--nccl-devices",
                                                   "--memory-quota",
                                                   "--python-env"};
  return with_value.count(token) > 0;
}

// "0,1,3" -> {0, 1, 3}.
static std::vector<int> parse_device_list(const std::string& text) {
  std::vector<int> devices;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    long d = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || d < 0 || d > 1023)
      throw UsageError{"invalid value for --nccl-devices: '" + text + "' (expected device ordinals such as 0,1)"};
    devices.push_back(static_cast<int>(d));
  }
  if (devices.empty()) throw UsageError{"invalid value for --nccl-devices: no devices given"};
  return devices;
}

bool parse_memory_size(const std::string& text, std::size_t* bytes) {
  std::size_t i = 0;
  unsigned long long value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (value > (~0ull - 9) / 10) return false;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
  }
  if (i == 0) return false;
  std::string unit = text.substr(i);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();  // 512MB, 2GiB
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  int shift = 0;
  if (unit == "K")
    shift = 10;
  else if (unit == "M")
    shift = 20;
  else if (unit == "G")
    shift = 30;
  else if (unit == "T")
    shift = 40;
  else if (!unit.empty() && unit != "B")
    return false;
  if (shift && value > (~0ull >> shift)) return false;
  *bytes = static_cast<std::size_t>(value << shift);
  return true;
}

static Backend parse_backend(const std::string& name) {
  if (name == "auto") return Backend::Auto;
  if (name == "cpu") return Backend::Cpu;
  if (name == "cuda") return Backend::Cuda;
  throw UsageError{"invalid value for --backend: '" + name + "' (expected auto, cpu or cuda)"};
}

// True when the first token that is not a cuhost option is a subcommand (or
// there is only --help/--version): the command line is cuhost's own.
static bool names_a_command(int argc, char** argv) {
  bool only_info_options = argc > 1;
  for (int i = 1; i < argc; ++i) {
    std::string token = argv[i];
    if (token == "--") return i + 1 < argc && kCommands.count(argv[i + 1]);
    bool value_follows = false;
    if (is_cuhost_option(token, false, value_follows)) {
      if (token != "--help" && token != "-h" && token != "--version") only_info_options = false;
      if (value_follows) ++i;
      continue;
    }
    if (token.rfind("--", 0) == 0) {  // an unknown long option: Boost reports it if a command follows
      only_info_options = false;
      continue;
    }
    return kCommands.count(token) > 0;
  }
  return only_info_options;
}

CommandLine parse_command_line(int argc, char** argv) {
  CommandLine cl;
  std::vector<std::string> option_tokens;
  std::vector<std::string> positionals;
  bool python_mode = !names_a_command(argc, argv);
  if (python_mode) {  // cuhost's long options, then python3's command line
    cl.command = "python";
    cl.python_argv.push_back(argv[0]);
    int i = 1;
    for (bool value_follows = false; i < argc && is_cuhost_option(argv[i], true, value_follows); ++i) {
      option_tokens.push_back(argv[i]);
      if (value_follows) {
        if (i + 1 >= argc) throw UsageError{"option '" + std::string(argv[i]) + "' needs a value"};
        option_tokens.push_back(argv[++i]);
      }
    }
    for (; i < argc; ++i) cl.python_argv.push_back(argv[i]);
  }
  bool script_found = false;
  for (int i = 1; i < argc && !python_mode; ++i) {
    std::string token = argv[i];
    if (script_found) {  // everything after the script is the script's
      cl.args.push_back(token);
      continue;
    }
    if (token == "--") {  // explicit end of options
      for (++i; i < argc; ++i) positionals.push_back(argv[i]);
      break;
    }
    if (token.size() > 1 && token[0] == '-') {
      option_tokens.push_back(token);
      if (takes_value(token)) {
        if (i + 1 >= argc) throw UsageError{"option '" + token + "' needs a value"};
        option_tokens.push_back(argv[++i]);
      }
      continue;
    }
    positionals.push_back(token);
    if (positionals.size() == 2 && positionals[0] == "run") script_found = true;
    if (positionals.size() == 1 && positionals[0] == "jupyter-kernel") script_found = true;  // the rest is its own
    if (positionals.size() == 1 && positionals[0] == "export") script_found = true;  // export_command.h parses it
  }

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(option_tokens).options(option_table()).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError{e.what()};
  }
  cl.help = vm.count("help") > 0;
  cl.version = vm.count("version") > 0;
  cl.backend_given = !vm["backend"].defaulted();
  cl.device_given = !vm["device"].defaulted();
  cl.options.backend = parse_backend(vm["backend"].as<std::string>());
  cl.options.device = vm["device"].as<int>();
  if (cl.options.device < 0) throw UsageError{"invalid value for --device: must be >= 0"};
  cl.options.verbose = vm.count("verbose") > 0;
  cl.options.streams = vm["streams"].as<int>();
  if (cl.options.streams < 0 || cl.options.streams > 64)
    throw UsageError{"invalid value for --streams: must be between 0 and 64"};
  cl.options.bounds_check = vm.count("no-bounds-check") == 0;
  cl.watch = vm.count("watch") > 0;
  if (vm.count("kernel-timeout")) {
    cl.options.kernel_timeout = vm["kernel-timeout"].as<double>();
    if (!(cl.options.kernel_timeout > 0)) throw UsageError{"invalid value for --kernel-timeout: must be > 0 seconds"};
    cl.kernel_timeout_given = true;
  }
  if (vm.count("memory-quota")) {
    const std::string text = vm["memory-quota"].as<std::string>();
    if (!parse_memory_size(text, &cl.options.memory_quota) || cl.options.memory_quota == 0)
      throw UsageError{"invalid value for --memory-quota: '" + text +
                       "' (expected a size above 0 such as 512M, 2G or 1048576)"};
    cl.memory_quota_given = true;
  }
  if (vm.count("plugin-path")) cl.options.plugin_paths = vm["plugin-path"].as<std::vector<std::string>>();
  if (vm.count("python-env")) cl.python_env = vm["python-env"].as<std::string>();
  if (vm.count("output")) cl.output = vm["output"].as<std::string>();
  cl.communicators = vm.count("nccl") > 0;
  if (vm.count("nccl-devices")) {
    if (!cl.communicators) throw UsageError{"--nccl-devices needs --nccl"};
    cl.communicator_options.devices = parse_device_list(vm["nccl-devices"].as<std::string>());
    cl.communicator_options.scope = CommunicatorOptions::Scope::Process;
  }
  if (cl.help || cl.version || python_mode) return cl;

  if (positionals.empty()) throw UsageError{"missing command (run, info, plugins, bench, export or jupyter-kernel)"};
  cl.command = positionals[0];
  if (cl.watch && cl.command != "run") throw UsageError{"--watch applies to 'run' only"};
  if (cl.command == "run") {
    if (positionals.size() < 2) throw UsageError{"'run' needs a script path"};
    cl.script = positionals[1];
    for (size_t i = 2; i < positionals.size(); ++i) cl.args.push_back(positionals[i]);
  } else if (cl.command == "info" || cl.command == "plugins") {
    if (positionals.size() > 1)
      throw UsageError{"'" + cl.command + "' takes no arguments (got '" + positionals[1] + "')"};
  } else if (cl.command == "bench") {
    cl.args.assign(positionals.begin() + 1, positionals.end());
  } else if (cl.command == "export") {
    if (cl.args.empty()) throw UsageError{"'export' needs a script path and -o DIR"};
  } else if (cl.command == "jupyter-kernel") {
    if (cl.args.empty() || cl.args[0] != "install")
      throw UsageError{
          "'jupyter-kernel' needs a subcommand: jupyter-kernel install [--user | --sys-prefix | --prefix "
          "DIR] [--name NAME]"};
  } else {
    throw UsageError{"unknown command '" + cl.command + "'"};
  }
  return cl;
}

bool check_script(const std::string& path, std::string& why) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    why = "script not found: '" + path + "'";
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    why = "is a directory, not a script: '" + path + "'";
    return false;
  }
  if (access(path.c_str(), R_OK) != 0) {
    why = "cannot read script: '" + path + "' (permission denied)";
    return false;
  }
  return true;
}

}  // namespace cuhost::app
