// Reading and checking an export's manifest (see manifest.h).
#include "aot/manifest.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <cuhost/aot.h>

#include "aot/json.h"
#include "aot/sha256.h"

namespace cuhost::aot {
namespace {

bool read_bytes(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

std::size_t size_of(const Json& j, const std::string& what) {
  long long n = j.as_int(what);
  if (n < 0) throw std::runtime_error(what + " must not be negative");
  return static_cast<std::size_t>(n);
}

ManifestKernel read_kernel(const Json& k) {
  ManifestKernel out;
  out.name = k["name"].as_string("kernels[].name");
  const std::string at = "kernel '" + out.name + "': ";
  out.signature = k["signature"].as_string(at + "signature");
  for (const Json& p : k["params"].items(at + "params")) {
    ManifestParam mp;
    mp.name = p["name"].as_string(at + "params[].name");
    mp.type = p["type"].as_string(at + "params[].type");
    mp.kind = p["kind"].as_string(at + "params[].kind");
    for (const Json& s : p["slots"].items(at + "params[].slots"))
      mp.slots.push_back(static_cast<int>(s.as_int(at + "params[].slots[]")));
    out.params.push_back(std::move(mp));
  }
  out.slot_count = size_of(k["slot_count"], at + "slot_count");
  out.cooperative = k["cooperative"].as_bool(at + "cooperative");
  if (!k["cluster"].is_null()) {
    const auto& items = k["cluster"].items(at + "cluster");
    if (items.size() != 3) throw std::runtime_error(at + "cluster must have 3 dimensions");
    for (std::size_t d = 0; d < 3; ++d) {
      const long long v = items[d].as_int(at + "cluster");
      if (v < 1) throw std::runtime_error(at + "cluster dimensions must be positive");
      out.cluster[d] = static_cast<unsigned>(v);
    }
  }
  out.launch_bound_threads = static_cast<int>(k["launch_bound_threads"].as_int(at + "launch_bound_threads"));
  if (!k["gpu"].is_null()) {
    const Json& g = k["gpu"];
    out.has_gpu = true;
    out.symbol = g["symbol"].as_string(at + "gpu.symbol");
    out.gpu_static_shared = size_of(g["static_shared_bytes"], at + "gpu.static_shared_bytes");
    out.dynamic_shared_padding = size_of(g["dynamic_shared_padding"], at + "gpu.dynamic_shared_padding");
    for (const auto& c : g["cubins"].members(at + "gpu.cubins"))
      out.cubins[c.first] = c.second.as_string(at + "gpu.cubins." + c.first);
    if (!g["ptx"].is_null()) {
      out.ptx_arch = g["ptx"]["arch"].as_string(at + "gpu.ptx.arch");
      out.ptx_file = g["ptx"]["file"].as_string(at + "gpu.ptx.file");
    }
  }
  if (!k["cpu"].is_null()) {
    const Json& c = k["cpu"];
    out.has_cpu = true;
    out.thread_symbol = c["thread_symbol"].as_string(at + "cpu.thread_symbol");
    if (!c["block_symbol"].is_null()) out.block_symbol = c["block_symbol"].as_string(at + "cpu.block_symbol");
    out.cpu_static_shared = size_of(c["static_shared_bytes"], at + "cpu.static_shared_bytes");
  }
  return out;
}

ManifestGraph read_graph(const Json& g) {
  ManifestGraph out;
  out.name = g["name"].as_string("graphs[].name");
  const std::string at = "graph '" + out.name + "': ";
  for (const Json& p : g["params"].items(at + "params")) {
    ManifestGraphParam mp;
    mp.name = p["name"].as_string(at + "params[].name");
    mp.kind = p["kind"].as_string(at + "params[].kind");
    mp.bytes = static_cast<int>(p["bytes"].as_int(at + "params[].bytes"));
    out.params.push_back(std::move(mp));
  }
  for (const Json& l : g["launches"].items(at + "launches")) {
    ManifestGraphLaunch ml;
    ml.kernel = l["kernel"].as_string(at + "launches[].kernel");
    for (int d = 0; d < 3; ++d) {
      ml.grid[d] =
          static_cast<unsigned>(l["grid"].items(at + "grid").at(static_cast<std::size_t>(d)).as_int(at + "grid"));
      ml.block[d] =
          static_cast<unsigned>(l["block"].items(at + "block").at(static_cast<std::size_t>(d)).as_int(at + "block"));
    }
    ml.shared = size_of(l["shared"], at + "launches[].shared");
    for (const Json& s : l["slots"].items(at + "launches[].slots")) {
      ManifestGraphArg a;
      if (!s["param"].is_null()) {
        a.param = s["param"].as_string(at + "slots[].param");
      } else {
        for (const Json& b : s["bytes"].items(at + "slots[].bytes"))
          a.constant.push_back(static_cast<unsigned char>(b.as_int(at + "slots[].bytes[]")));
      }
      ml.slots.push_back(std::move(a));
    }
    out.launches.push_back(std::move(ml));
  }
  return out;
}

}  // namespace

Manifest read_manifest(const std::string& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw Error("", "export folder '" + dir + "' not found");
  std::string text;
  if (!read_bytes(dir + "/manifest.json", &text))
    throw Error("", "export folder '" + dir + "' has no manifest.json (not made by cuhost export?)");
  Manifest m;
  m.dir = dir;
  try {
    Json j = Json::parse(text);
    if (j["format"].is_null() || j["format"].as_string("format") != "cuhost-aot")
      throw std::runtime_error("its format is not cuhost-aot");
    if (j["version"].as_int("version") != 1)
      throw std::runtime_error("format version " + std::to_string(j["version"].as_int("version")) +
                               " is not the version 1 this runtime reads");
    if (!j["script"].is_null()) m.script = j["script"].as_string("script");
    for (const Json& k : j["kernels"].items("kernels")) m.kernels.push_back(read_kernel(k));
    if (!j["graphs"].is_null())
      for (const Json& g : j["graphs"].items("graphs")) m.graphs.push_back(read_graph(g));
    if (!j["cpu_library"].is_null()) {
      m.cpu_library = j["cpu_library"]["file"].as_string("cpu_library.file");
      m.cpu_name = j["cpu_library"]["cpu"].as_string("cpu_library.cpu");
    }
    for (const auto& f : j["files"].members("files")) {
      ManifestFile mf;
      mf.bytes = size_of(f.second["bytes"], "files." + f.first + ".bytes");
      mf.sha256 = f.second["sha256"].as_string("files." + f.first + ".sha256");
      m.files[f.first] = mf;
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("", dir + "/manifest.json is invalid: " + e.what());
  }
  return m;
}

std::string read_verified(const Manifest& m, const std::string& rel, const std::string& subject) {
  const std::string who = subject.empty() ? std::string() : subject + ": ";
  auto it = m.files.find(rel);
  if (it == m.files.end()) throw Error(subject, who + rel + " is not listed in the manifest's files");
  std::string bytes;
  if (!read_bytes(m.dir + "/" + rel, &bytes)) throw Error(subject, who + m.dir + "/" + rel + " is missing");
  if (bytes.size() != it->second.bytes)
    throw Error(subject, who + m.dir + "/" + rel + " has " + std::to_string(bytes.size()) + " bytes, the manifest " +
                             std::to_string(it->second.bytes) + " (truncated or replaced)");
  if (sha256_hex(bytes) != it->second.sha256)
    throw Error(subject, who + m.dir + "/" + rel + " does not match its SHA-256 digest in the manifest (altered)");
  return bytes;
}

void verify_file(const Manifest& m, const std::string& rel, const std::string& subject) {
  (void)read_verified(m, rel, subject);
}

}  // namespace cuhost::aot
