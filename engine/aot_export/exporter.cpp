// Assembles an export folder (see exporter.h): compiles each selected
// kernel for the CPU and every GPU architecture asked for, writes the
// images, the CPU library, the header, and last the manifest with the
// digest of every file.
#include "aot_export/exporter.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "aot/json.h"
#include "aot/sha256.h"
#include "aot_export/cpu_library.h"
#include "aot_export/gpu_images.h"
#include "aot_export/graph_export.h"
#include "aot_export/header_writer.h"
#include "aot_export/kernel_selection.h"
#include "aot_export/parameter_abi.h"
#include "support/diagnostics.h"
#include "support/source_hash.h"

namespace cuhost::aot_export {
namespace {

namespace fs = std::filesystem;
using aot::Json;

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw UserError(ErrorKind::RuntimeError, concat("cannot write ", path.string()));
}

// A C++ identifier made of the folder's name ("my-kernels" -> "my_kernels").
std::string namespace_for(const ExportOptions& o) {
  std::string base = o.header_namespace;
  if (base.empty()) base = fs::path(o.output_dir).lexically_normal().filename().string();
  if (base.empty()) base = fs::absolute(o.output_dir).lexically_normal().parent_path().filename().string();
  std::string out;
  for (char c : base) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "exported_" + out;
  return out;
}

Json param_json(const ParameterAbi& p) {
  Json j = Json::object();
  j.set("name", p.name);
  j.set("type", p.type);
  j.set("kind", p.kind);
  j.set("cpp_type", p.cpp_type);
  if (p.kind == "array") {
    j.set("element", p.element);
    j.set("ndim", p.ndim);
    j.set("layout", p.layout);
  }
  Json slots = Json::array();
  for (int s : p.slots) slots.push(s);
  j.set("slots", std::move(slots));
  return j;
}

}  // namespace

ExportResult export_folder(const ExportOptions& o) {
  if (o.output_dir.empty()) throw UserError(ErrorKind::ValueError, "the export needs an output folder (-o DIR)");
  if (o.cpu.empty() && o.archs.empty())
    throw UserError(ErrorKind::ValueError, "nothing to export for: give --arch for GPU images or --cpu for the CPU");
  std::vector<GpuArch> archs = o.archs.empty() ? std::vector<GpuArch>{} : parse_arch_list(o.archs);
  std::vector<SelectedKernel> selected = select_kernels(o.kernels, o.all_compiled);

  const fs::path dir(o.output_dir);
  std::error_code ec;
  fs::create_directories(dir / "gpu", ec);
  if (!ec) fs::create_directories(dir / "cpu", ec);
  if (ec) throw UserError(ErrorKind::RuntimeError, concat("cannot create ", o.output_dir, ": ", ec.message()));
  ExportResult result;

  Json manifest = Json::object();
  manifest.set("format", "cuhost-aot");
  manifest.set("version", 1);
  manifest.set("cuhost_version", CUHOST_VERSION);
  manifest.set("script", o.script);
  Json kernels = Json::array();
  std::vector<HeaderKernel> header_kernels;
  std::vector<CpuKernel> cpu_kernels;
  for (const SelectedKernel& sel : selected) {
    HeaderKernel hk;
    hk.name = sel.name;
    Json k = Json::object();
    k.set("name", sel.name);
    std::string signature = "(";
    for (std::size_t i = 0; i < sel.arg_types.size(); ++i) {
      hk.params.push_back(parameter_abi(sel.name, sel.param_names[i], sel.arg_types[i]));
      signature += (i ? ", " : "") + sel.arg_types[i]->str();
    }
    signature += ")";
    hk.signature = signature;
    k.set("signature", signature);
    Json params = Json::array();
    std::size_t slot_count = 0;
    for (const ParameterAbi& p : hk.params) {
      params.push(param_json(p));
      slot_count += p.slots.size();
    }
    k.set("params", std::move(params));
    k.set("slot_count", slot_count);

    std::shared_ptr<const model::CompiledKernel> facts;
    if (!archs.empty()) {
      GpuExport gpu = export_gpu(sel, archs);
      facts = gpu.newest;
      Json g = Json::object();
      g.set("symbol", gpu.newest->symbol);
      g.set("static_shared_bytes", gpu.newest->static_shared_bytes);
      g.set("dynamic_shared_padding", gpu.newest->dynamic_shared_padding);
      Json cubins = Json::object();
      for (const GpuImage& img : gpu.cubins) {
        std::string rel = concat("gpu/", sel.name, ".", img.arch.name(), ".cubin");
        write_file(dir / rel, img.cubin);
        cubins.set(img.arch.name(), rel);
        result.files.push_back(rel);
      }
      g.set("cubins", std::move(cubins));
      if (!gpu.ptx.empty()) {
        std::string rel = concat("gpu/", sel.name, ".", gpu.ptx_arch, ".ptx");
        write_file(dir / rel, gpu.ptx);
        Json ptx = Json::object();
        ptx.set("arch", gpu.ptx_arch);
        ptx.set("file", rel);
        g.set("ptx", std::move(ptx));
        result.files.push_back(rel);
      }
      k.set("gpu", std::move(g));
    }
    if (!o.cpu.empty()) {
      CpuKernel ck = compile_cpu(sel);
      if (!facts) facts = ck.compiled;
      Json c = Json::object();
      c.set("thread_symbol", ck.compiled->cpu_thread_symbol);
      c.set("block_symbol", ck.compiled->cpu_block_symbol.empty() ? Json() : Json(ck.compiled->cpu_block_symbol));
      c.set("static_shared_bytes", ck.compiled->static_shared_bytes);
      k.set("cpu", std::move(c));
      cpu_kernels.push_back(std::move(ck));
    }
    k.set("cooperative", facts->use_cooperative);
    Json cluster = Json::array();
    for (unsigned d : facts->cluster_dim) cluster.push(static_cast<long long>(d));
    k.set("cluster", std::move(cluster));
    k.set("launch_bound_threads", facts->launch_bound_threads);
    Json links = Json::array();
    for (const ir::LinkItem& item : facts->link) links.push(item.from_path() ? item.path : item.name);
    k.set("links", std::move(links));
    // Exported kernels carry no Python callbacks (compile_cpu refuses them) and no module globals of their own.
    k.set("setup_callbacks", Json::array());
    k.set("teardown_callbacks", Json::array());
    k.set("module_globals", Json::array());
    kernels.push(std::move(k));
    header_kernels.push_back(std::move(hk));
    result.kernels.push_back(sel.name);
  }
  manifest.set("kernels", std::move(kernels));

  if (!cpu_kernels.empty()) {
    fs::path work = dir / ".build";
    fs::create_directories(work, ec);
    const std::string rel = "cpu/kernels.so";
    write_cpu_library(cpu_kernels, o.cpu, work.string(), (dir / rel).string());
    fs::remove_all(work, ec);
    Json lib = Json::object();
    lib.set("file", rel);
    lib.set("cpu", o.cpu);
    lib.set("abi_version", 1);
    manifest.set("cpu_library", std::move(lib));
    result.files.push_back(rel);
  }

  Json graphs = export_graphs(o.graphs, selected, &result.graphs);
  manifest.set("graphs", std::move(graphs));

  const std::string header = "kernels.h";
  write_file(dir / header, generate_header(namespace_for(o), o.script.empty() ? "a script" : o.script, header_kernels));
  result.files.push_back(header);
  manifest.set("header", header);

  Json files = Json::object();
  for (const std::string& rel : result.files) {
    std::string bytes;
    read_whole_file((dir / rel).string(), bytes);
    Json f = Json::object();
    f.set("bytes", bytes.size());
    f.set("sha256", aot::sha256_hex(bytes));
    files.set(rel, std::move(f));
  }
  manifest.set("files", std::move(files));
  write_file(dir / "manifest.json", manifest.dump(2) + "\n");
  result.files.push_back("manifest.json");
  return result;
}

}  // namespace cuhost::aot_export
