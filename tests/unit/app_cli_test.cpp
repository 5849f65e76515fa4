// Unit tests of the command-line parser: options before and after the
// command, script arguments passed through untouched, and usage errors.
#include <catch2/catch.hpp>

#include "cli.h"

using cuhost::app::CommandLine;
using cuhost::app::parse_command_line;
using cuhost::app::UsageError;

static CommandLine parse(std::vector<std::string> args) {
  args.insert(args.begin(), "cuhost");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

static std::string usage_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.message;
  }
  return "no error";
}

TEST_CASE("run takes the script and passes later arguments through", "[cli]") {
  CommandLine cl = parse({"-v", "run", "--backend", "cpu", "k.py", "--device", "7", "-x"});
  CHECK(cl.command == "run");
  CHECK(cl.script == "k.py");
  CHECK(cl.args == std::vector<std::string>{"--device", "7", "-x"});
  CHECK(cl.options.backend == cuhost::Backend::Cpu);
  CHECK(cl.options.verbose);
  CHECK(cl.options.device == 0);
}

TEST_CASE("options with values in both spellings", "[cli]") {
  CommandLine cl = parse({"--backend=cuda", "--device", "2", "--streams", "3", "--plugin-path", "/a",
                          "--plugin-path=/b", "--no-bounds-check", "info"});
  CHECK(cl.command == "info");
  CHECK(cl.options.backend == cuhost::Backend::Cuda);
  CHECK(cl.options.device == 2);
  CHECK(cl.options.streams == 3);
  CHECK(cl.options.plugin_paths == std::vector<std::string>{"/a", "/b"});
  CHECK_FALSE(cl.options.bounds_check);
}

TEST_CASE("usage errors name the problem", "[cli]") {
  CHECK(usage_error({"run"}) == "'run' needs a script path");
  CHECK(usage_error({"--backend", "gpu", "info"}) == "invalid value for --backend: 'gpu' (expected auto, cpu or cuda)");
  CHECK(usage_error({"info", "--device"}) == "option '--device' needs a value");
  CHECK(usage_error({"--device", "-1", "info"}) == "invalid value for --device: must be >= 0");
  CHECK(usage_error({"--streams", "100", "info"}) == "invalid value for --streams: must be between 0 and 64");
  CHECK(usage_error({"info", "extra"}) == "'info' takes no arguments (got 'extra')");
  CHECK(usage_error({"--nope", "info"}).find("unrecognised option '--nope'") != std::string::npos);
  CHECK(usage_error({"--device", "abc", "info"}).find("device") != std::string::npos);
}

TEST_CASE("a line with no command is python3's, after cuhost's long options", "[cli]") {
  auto cl = parse({"--backend", "cpu", "--device=1", "-u", "-m", "pytest", "-x", "--backend", "q"});
  CHECK(cl.command == "python");
  CHECK(cl.options.backend == cuhost::Backend::Cpu);
  CHECK(cl.options.device == 1);
  CHECK(cl.backend_given);
  REQUIRE(cl.python_argv.size() == 7);  // argv[0], then untouched
  CHECK(cl.python_argv[1] == "-u");
  CHECK(cl.python_argv[2] == "-m");
  CHECK(cl.python_argv[6] == "q");
  CHECK(parse({}).command == "python");                 // standard input, as python3
  CHECK(parse({"frob"}).python_argv.back() == "frob");  // a script name
  // short forms stay python3's in this form: -b is bytes warnings, -v verbose imports
  auto shorts = parse({"-v", "-b", "script.py"});
  CHECK(shorts.command == "python");
  CHECK_FALSE(shorts.options.verbose);
  CHECK(shorts.python_argv.size() == 4);
  // ... and cuhost's when a command follows
  auto with_command = parse({"-v", "-b", "cpu", "run", "script.py"});
  CHECK(with_command.command == "run");
  CHECK(with_command.options.verbose);
  CHECK(with_command.options.backend == cuhost::Backend::Cpu);
  CHECK(parse({"--", "run", "x.py"}).command == "run");
}

TEST_CASE("help and version need no command", "[cli]") {
  CHECK(parse({"--help"}).help);
  CHECK(parse({"--version"}).version);
}

TEST_CASE("the nccl options lend communicators and name the devices of one process", "[cli]") {
  CommandLine cl = parse({"--nccl", "run", "k.py", "--nccl"});
  CHECK(cl.communicators);
  CHECK(cl.communicator_options.scope == cuhost::CommunicatorOptions::Scope::Auto);
  CHECK(cl.args == std::vector<std::string>{"--nccl"});  // the script's own
  cl = parse({"--nccl", "--nccl-devices", "0,2,1", "run", "k.py"});
  CHECK(cl.communicator_options.devices == std::vector<int>{0, 2, 1});
  CHECK(cl.communicator_options.scope == cuhost::CommunicatorOptions::Scope::Process);
  CHECK(!parse({"run", "k.py"}).communicators);
  cl = parse({"--nccl", "--backend", "cpu", "-c", "pass"});  // the python3 form
  CHECK((cl.command == "python" && cl.communicators));
  CHECK(usage_error({"--nccl-devices", "0", "info"}) == "--nccl-devices needs --nccl");
  CHECK(usage_error({"--nccl", "--nccl-devices", "0,x", "info"}) ==
        "invalid value for --nccl-devices: '0,x' (expected device ordinals such as 0,1)");
  CHECK(usage_error({"--nccl", "--nccl-devices", ",", "info"}).find("invalid value for --nccl-devices") == 0);
}

TEST_CASE("the memory-quota option takes sizes in powers of 1024", "[cli]") {
  CHECK(parse({"--memory-quota", "512M", "info"}).options.memory_quota == std::size_t(512) << 20);
  CHECK(parse({"--memory-quota=2G", "info"}).options.memory_quota == std::size_t(2) << 30);
  CHECK(parse({"run", "--memory-quota", "64KiB", "k.py"}).options.memory_quota == std::size_t(64) << 10);
  CHECK(parse({"--memory-quota", "1048577", "info"}).options.memory_quota == 1048577);
  CHECK(parse({"--memory-quota", "3t", "info"}).options.memory_quota == std::size_t(3) << 40);
  CHECK(parse({"--memory-quota", "2G", "info"}).memory_quota_given);
  CHECK_FALSE(parse({"info"}).memory_quota_given);
  CHECK(parse({"info"}).options.memory_quota == 0);
  CHECK(usage_error({"--memory-quota", "0", "info"}) ==
        "invalid value for --memory-quota: '0' (expected a size above 0 such as 512M, 2G or 1048576)");
  CHECK(usage_error({"--memory-quota", "2X", "info"}).find("invalid value for --memory-quota: '2X'") == 0);
  CHECK(usage_error({"--memory-quota", "G", "info"}).find("invalid value for --memory-quota: 'G'") == 0);
  CHECK(usage_error({"--memory-quota", "99999999999999T", "info"}).find("invalid value") == 0);
}

TEST_CASE("python-env in both option forms, and jupyter-kernel keeps its own arguments", "[cli]") {
  CommandLine cl = parse({"--python-env", "/e/v", "-c", "pass"});
  CHECK(cl.command == "python");
  CHECK(cl.python_env == "/e/v");
  CHECK(cl.python_argv == std::vector<std::string>{"cuhost", "-c", "pass"});
  cl = parse({"--python-env=v", "run", "k.py"});
  CHECK(cl.python_env == "v");
  cl = parse({"--backend", "cpu", "jupyter-kernel", "install", "--user", "--name", "gpu"});
  CHECK(cl.command == "jupyter-kernel");
  CHECK(cl.args == std::vector<std::string>{"install", "--user", "--name", "gpu"});
  CHECK(usage_error({"jupyter-kernel"}).find("'jupyter-kernel' needs a subcommand") == 0);
}

TEST_CASE("run --watch follows the script and other commands refuse it", "[cli]") {
  CommandLine cl = parse({"run", "--watch", "k.py", "--watch"});
  CHECK(cl.watch);
  CHECK(cl.script == "k.py");
  CHECK(cl.args == std::vector<std::string>{"--watch"});  // after the script: the script's own argument
  CHECK_FALSE(parse({"run", "k.py"}).watch);
  CHECK(usage_error({"--watch", "info"}) == "--watch applies to 'run' only");
}
