// The export command (see export_command.h).
#include "export_command.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>

#include "cli.h"

namespace po = boost::program_options;

namespace cuhost::app {
namespace {

po::options_description export_options() {
  po::options_description opts("export options");
  opts.add_options()("output,o", po::value<std::string>(), "the export folder (created when missing)")(
      "kernel,k", po::value<std::vector<std::string>>()->composing(),
      "a kernel to export, NAME:SIGNATURE, e.g. axpy:void(float32, float32[::1]) (repeatable)")(
      "all-compiled", "also export every kernel specialization the script compiled")(
      "graph", po::value<std::vector<std::string>>()->composing(),
      "a graph the script registered with cuhost.graph.export_graph (repeatable; default: all)")(
      "arch", po::value<std::string>()->default_value(""),
      "GPU architectures, e.g. sm_80,sm_90: a cubin each and the newest's PTX (default: none)")(
      "cpu", po::value<std::string>()->default_value("x86-64-v3"),
      "target CPU of the CPU library (native: this machine's; none: no CPU library)")(
      "namespace", po::value<std::string>()->default_value(""),
      "namespace of the generated kernels.h (default: the folder's name)");
  return opts;
}

}  // namespace

std::string export_usage() {
  std::ostringstream out;
  out << "usage: cuhost [options] export SCRIPT -o DIR (--kernel NAME:SIGNATURE... | --all-compiled)\n"
      << "                    [--arch sm_80,sm_90] [--cpu x86-64-v3|native|none] [--namespace NAME] [-- ARGS...]\n\n"
      << export_options();
  return out.str();
}

ExportCommand parse_export_command(const std::vector<std::string>& args) {
  ExportCommand c;
  std::vector<std::string> tokens;
  std::vector<std::string> positionals;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      c.script_args.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    tokens.push_back(args[i]);
  }
  po::variables_map vm;
  try {
    po::options_description opts = export_options();
    po::positional_options_description pos;
    pos.add("script", -1);
    po::options_description hidden;
    hidden.add_options()("script", po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(opts).add(hidden);
    po::store(po::command_line_parser(tokens).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError{std::string("export: ") + e.what()};
  }
  if (!vm.count("script")) throw UsageError{"'export' needs a script path"};
  positionals = vm["script"].as<std::vector<std::string>>();
  if (positionals.size() > 1)
    throw UsageError{"'export' takes one script (got '" + positionals[1] + "'; script arguments go after --)"};
  c.script = positionals[0];
  if (!vm.count("output")) throw UsageError{"'export' needs an output folder: -o DIR"};
  ExportOptions& o = c.options;
  o.output_dir = vm["output"].as<std::string>();
  if (vm.count("kernel")) o.kernels = vm["kernel"].as<std::vector<std::string>>();
  o.all_compiled = vm.count("all-compiled") > 0;
  if (o.kernels.empty() && !o.all_compiled)
    throw UsageError{"'export' needs --kernel NAME:SIGNATURE or --all-compiled"};
  if (vm.count("graph")) o.graphs = vm["graph"].as<std::vector<std::string>>();
  o.archs = vm["arch"].as<std::string>();
  o.cpu = vm["cpu"].as<std::string>();
  if (o.cpu == "none") o.cpu.clear();
  if (o.cpu.empty() && o.archs.empty()) throw UsageError{"'export' with --cpu none needs --arch"};
  o.header_namespace = vm["namespace"].as<std::string>();
  o.script = c.script;
  return c;
}

int run_export(Runtime& runtime, const ExportCommand& command) {
  std::string why;
  if (!check_script(command.script, why)) {
    std::cerr << "cuhost: error: " << why << "\n";
    return 2;
  }
  int rc = runtime.run_file(command.script, command.script_args);
  if (rc != 0) {
    std::cerr << "cuhost: error: the script exited with code " << rc << "; nothing was exported\n";
    return rc;
  }
  try {
    ExportResult result = runtime.export_kernels(command.options);
    for (const std::string& f : result.files)
      std::cout << "cuhost export: wrote " << command.options.output_dir << "/" << f << "\n";
    std::cout << "cuhost export: " << result.kernels.size() << " kernel(s), " << result.graphs.size() << " graph(s)\n";
  } catch (const std::exception& e) {
    std::cerr << "cuhost: error: export failed: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace cuhost::app
