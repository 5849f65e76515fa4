// On-disk kernel cache (see compile_cache.h). One file per entry,
// <cache>/kernels/<key>.bin, written atomically: a header, the kernel's
// facts (symbol, shared memory, barrier/warp flags), its PTX, its optimized
// LLVM IR (inspect_llvm) and its link items, each string length-prefixed.
#include "runtime/compile_cache.h"

#include <llvm/Config/llvm-config.h>

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstring>
#include <set>

#include "cuda/nvrtc.h"
#include "cuda/toolkit_info.h"
#include "ffi/clang_compile.h"
#include "ffi/device_compile.h"
#include "frontend/captured.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/source_hash.h"

namespace cuhost::runtime {
namespace {

// The compiler itself is part of every key: the size and modification time of
// the binary holding this code, so a rebuilt engine (same version number,
// different code generation) never reuses kernels an older build compiled.
const std::string& engine_build_identity() {
  static const std::string identity = [] {
    Dl_info info{};
    struct stat st {};
    if (dladdr(reinterpret_cast<void*>(&engine_build_identity), &info) && info.dli_fname &&
        stat(info.dli_fname, &st) == 0)
      return concat(info.dli_fname, "|", st.st_size, "|", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec);
    return std::string("unknown-build");
  }();
  return identity;
}

constexpr const char* kMagic = "cuhost-kernel-cache-3";

bool cache_disabled() {
  const char* v = std::getenv("CUHOST_NO_CACHE");
  return v && *v && std::string(v) != "0";
}

// Hashes a link item's content (a path's file, and the quoted headers a .cu
// includes). False when the item cannot take part in a cached compile.
bool hash_link_item(const ir::LinkItem& item, Hasher& h) {
  if (item.setup_callback || item.teardown_callback) return false;
  h.add(std::uint64_t(item.kind));
  h.add(item.name);
  for (const auto& d : item.include_dirs) h.add(d);
  // Also keeps entries written before items carried plugin_dir (one string
  // more per item) from being read: their keys differ.
  h.add(item.plugin_dir);
  std::string content = item.data;
  std::string dir;
  if (item.from_path()) {
    h.add(item.path);
    if (!read_whole_file(item.path, content)) return false;  // the link will report it
    auto slash = item.path.find_last_of('/');
    dir = slash == std::string::npos ? "." : item.path.substr(0, slash);
  }
  h.add(content);
  if (item.kind == ir::LinkKind::CUSource) {
    // The source may be compiled into the kernel's own PTX (ffi/device_compile.h).
    h.add(ffi::device_inlining_enabled() ? concat(ffi::clang_path(), "|", ffi::device_prelude()) : "nvrtc only");
    // The same search path NVRTC and clang use: the item's folders, then
    // NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS (numba.cuda.config mirrors into it),
    // so editing a header found there changes the key of kernels that inline it.
    std::vector<std::string> search = item.include_dirs;
    for (const std::string& d : cuda::extra_search_paths_from_environment()) search.push_back(d);
    for (const char* env : {"NUMBA_CUDA_INCLUDE_PATH", "NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS"}) {
      const char* v = std::getenv(env);
      h.add(std::string(v ? v : ""));
    }
    hash_quoted_includes(content, dir, search, h);
  }
  return true;
}

bool hash_function(const JitFunction& fn, Hasher& h, std::set<const JitFunction*>& seen);

bool hash_global(const frontend::GlobalValue& g, Hasher& h, std::set<const JitFunction*>& seen) {
  using K = frontend::GlobalValue::Kind;
  h.add(std::uint64_t(g.kind));
  switch (g.kind) {
    case K::Constant: h.add(g.constant.repr() + "|" + (g.constant.type ? g.constant.type->str() : "")); break;
    case K::DeviceArray: return false;  // an address of this process: never cached
    case K::Array:
      if (!g.array) return false;
      h.add(g.array->dtype ? g.array->dtype->str() : "");
      for (auto s : g.array->shape) h.add(std::uint64_t(s));
      h.add(std::string(g.array->data.begin(), g.array->data.end()));
      break;
    case K::Module:
    case K::Intrinsic: h.add(g.key); break;
    case K::JitFunction:
      if (!g.function) return false;
      return hash_function(*g.function, h, seen);
    case K::Foreign:
      if (!g.foreign) return false;
      h.add(g.foreign->name);
      h.add(g.foreign->sig.str());
      h.add(std::uint64_t(g.foreign->abi));
      h.add(std::uint64_t(g.foreign->use_cooperative));
      for (const auto& item : g.foreign->link)
        if (!hash_link_item(item, h)) return false;
      break;
    case K::TypeObject: h.add(g.type_object ? g.type_object->str() : ""); break;
    case K::Ffi: break;
    case K::Tuple:
      h.add(std::uint64_t(g.items.size()));
      for (const auto& item : g.items)
        if (!hash_global(item, h, seen)) return false;
      break;
    case K::Unsupported: h.add(g.repr); break;
  }
  return true;
}

bool hash_function(const JitFunction& fn, Hasher& h, std::set<const JitFunction*>& seen) {
  if (!seen.insert(&fn).second) return true;
  if (!fn.captured) return false;  // not captured yet: compile normally
  const frontend::CapturedFunction& c = *fn.captured;
  const JitOptions& o = fn.options;
  h.add(c.name);
  h.add(c.source);
  // Where the source sits only reaches the code through line information.
  if (o.lineinfo || o.debug) {
    h.add(c.filename);
    h.add(std::uint64_t(c.first_line));
  }
  h.add(concat(o.device, o.inline_always, o.fastmath, o.debug, o.lineinfo, o.opt, o.lto ? int(*o.lto) : -1,
               o.max_registers, int(o.abi), "|", o.forceinline, o.fastmath_flags, "|", o.launch_bounds[0], ",",
               o.launch_bounds[1], ",", o.launch_bounds[2], "|", o.abi_name, "|",
               o.return_type ? o.return_type->str() : ""));
  for (const auto& item : o.link)
    if (!hash_link_item(item, h)) return false;
  for (const auto& [name, g] : c.globals) {
    h.add(name);
    if (!hash_global(g, h, seen)) return false;
  }
  return true;
}

// --- a tiny length-prefixed record format ----------------------------------
void put(std::string& out, const std::string& s) {
  std::uint64_t n = s.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof(n));
  out += s;
}
void put(std::string& out, std::uint64_t v) { put(out, std::to_string(v)); }

struct Reader {
  const std::string& in;
  std::size_t pos = 0;
  bool ok = true;
  std::string str() {
    std::uint64_t n = 0;
    if (pos + sizeof(n) > in.size()) {
      ok = false;
      return {};
    }
    std::memcpy(&n, in.data() + pos, sizeof(n));
    pos += sizeof(n);
    if (pos + n > in.size()) {
      ok = false;
      return {};
    }
    std::string s = in.substr(pos, n);
    pos += n;
    return s;
  }
  std::uint64_t num() {
    std::string s = str();
    if (!ok || s.empty()) return 0;
    return std::stoull(s);
  }
};

std::string entry_path(const std::string& key) {
  std::string dir = cache_folder("kernels");
  return dir.empty() ? "" : dir + "/" + key + ".bin";
}

// Whether `fn` or a jitted function it calls reads a captured device array.
bool references_device_array(const JitFunction& fn, std::set<const JitFunction*>& seen) {
  if (!seen.insert(&fn).second || !fn.captured) return false;
  for (const auto& [name, g] : fn.captured->globals) {
    if (g.kind == frontend::GlobalValue::Kind::DeviceArray) return true;
    if (g.kind == frontend::GlobalValue::Kind::JitFunction && g.function && references_device_array(*g.function, seen))
      return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> kernel_cache_key(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types,
                                            const TargetOptions& target) {
  if (fn.options.cache_requested) {
    std::set<const JitFunction*> seen;
    if (references_device_array(fn, seen))
      throw UserError(ErrorKind::PicklingError,
                      concat("cannot cache kernel '", fn.name,
                             "': it references global device arrays, whose addresses belong to this process "
                             "(pass the array as an argument, or use cache=False)"));
  }
  if (target.target != Target::NVPTX || !fn.options.cache || cache_disabled()) return std::nullopt;
  Hasher h;
  h.add(std::string(kMagic));
  h.add(std::string(CUHOST_VERSION));
  h.add(engine_build_identity());
  h.add(std::string(LLVM_VERSION_STRING));
  h.add(cuda::nvjitlink_version());
  h.add(concat(target.cc_major, ".", target.cc_minor, "|", target.bounds_check));
  for (const ir::Type* t : arg_types) h.add(t->str());
  std::set<const JitFunction*> seen;
  if (!hash_function(fn, h, seen)) return std::nullopt;
  return h.hex();
}

std::shared_ptr<CompiledKernel> load_cached_kernel(const std::string& key, const JitFunction& fn,
                                                   const std::vector<const ir::Type*>& arg_types) {
  std::string path = entry_path(key);
  std::string data;
  if (path.empty() || !read_whole_file(path, data)) return nullptr;
  Reader r{data};
  if (r.str() != kMagic || r.str() != key) return nullptr;
  auto k = std::make_shared<CompiledKernel>();
  k->name = fn.name;
  k->target = Target::NVPTX;
  k->arg_types = arg_types;
  k->symbol = r.str();
  k->static_shared_bytes = r.num();
  k->uses_barriers = r.num() != 0;
  k->uses_warp_ops = r.num() != 0;
  k->use_cooperative = r.num() != 0;
  k->ptx = r.str();
  k->llvm_ir = r.str();
  k->llvm_ir_unoptimized = r.str();
  std::uint64_t items = r.num();
  for (std::uint64_t i = 0; r.ok && i < items; ++i) {
    ir::LinkItem item;
    item.kind = static_cast<ir::LinkKind>(r.num());
    item.path = r.str();
    item.name = r.str();
    item.data = r.str();
    std::uint64_t dirs = r.num();
    for (std::uint64_t d = 0; r.ok && d < dirs; ++d) item.include_dirs.push_back(r.str());
    item.plugin_dir = r.str();
    k->link.push_back(std::move(item));
  }
  if (!r.ok || k->ptx.empty() || k->symbol.empty()) return nullptr;
  log::info(concat("[", fn.name, "] loaded from the kernel cache (", path, ")"));
  return k;
}

void store_cached_kernel(const std::string& key, const CompiledKernel& k) {
  std::string path = entry_path(key);
  if (path.empty()) return;
  for (const auto& item : k.link)
    if (item.setup_callback || item.teardown_callback) return;
  std::string out;
  put(out, kMagic);
  put(out, key);
  put(out, k.symbol);
  put(out, std::uint64_t(k.static_shared_bytes));
  put(out, std::uint64_t(k.uses_barriers));
  put(out, std::uint64_t(k.uses_warp_ops));
  put(out, std::uint64_t(k.use_cooperative));
  put(out, k.ptx);
  put(out, k.llvm_ir);
  put(out, k.llvm_ir_unoptimized);
  put(out, std::uint64_t(k.link.size()));
  for (const auto& item : k.link) {
    put(out, std::uint64_t(item.kind));
    put(out, item.path);
    put(out, item.name);
    put(out, item.data);
    put(out, std::uint64_t(item.include_dirs.size()));
    for (const auto& d : item.include_dirs) put(out, d);
    put(out, item.plugin_dir);
  }
  write_file_atomically(path, out);
}

}  // namespace cuhost::runtime
