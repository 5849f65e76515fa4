// On-disk kernel cache (see compile_cache.h). One file per entry,
// <cache>/kernels/<key>.bin, written atomically: a magic line, the key, the
// kernel as kernel_serialize.h writes it, then a digest of everything before
// it. An entry whose digest or key does not match (truncated, bit-flipped, or
// another kernel's entry copied over it) is removed and the kernel
// recompiled: it is never loaded.
#include "runtime/compile_cache.h"

#include <llvm/Config/llvm-config.h>

#include <link.h>
#include <sys/stat.h>

#include <cstdio>
#include <set>

#include "codegen/lowering/saturating_conversions.h"
#include "cuda/nvrtc.h"
#include "cuda/toolkit_info.h"
#include "ffi/clang_compile.h"
#include "ffi/device_compile.h"
#include "frontend/captured.h"
#include "ir/extension_types.h"
#include "runtime/kernel_serialize.h"
#include "support/cache_files.h"
#include "support/hash.h"
#include "support/log.h"
#include "support/source_hash.h"

namespace cuhost::runtime {

// The compiler itself is part of every key: the size and modification time of
// the binary holding this code, so a rebuilt engine (same version number,
// different code generation) never reuses kernels an older build compiled.
namespace {

// The file of the loaded object holding `address` ("" when none is found).
// dl_iterate_phdr compares segment ranges; dladdr would also search the
// object's symbol table for the nearest symbol, a tenth of the host time of
// the first cached call in a process (issue 34, P6).
std::string object_file_of(const void* address) {
  struct Search {
    std::uintptr_t address;
    std::string file;
  } search{reinterpret_cast<std::uintptr_t>(address), ""};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const std::uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
          if (s->address < lo || s->address >= lo + ph.p_memsz) continue;
          // The main program's name is empty: it is /proc/self/exe.
          s->file = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
          return 1;
        }
        return 0;
      },
      &search);
  return search.file;
}

}  // namespace

const std::string& engine_build_identity() {
  static const std::string identity = [] {
    const std::string file = object_file_of(reinterpret_cast<const void*>(&engine_build_identity));
    struct stat st {};
    if (!file.empty() && stat(file.c_str(), &st) == 0)
      return concat(file, "|", st.st_size, "|", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec);
    return std::string("unknown-build");
  }();
  return identity;
}

std::string target_identity(const TargetOptions& t) {
  return concat(t.target == Target::NVPTX ? "nvptx" : "cpu", "|", t.cc_major, ".", t.cc_minor, t.arch_suffix, "|",
                t.bounds_check, "|", t.cancellation_points ? "cancellable|" : "", t.nrt ? "nrt|" : "", CUHOST_VERSION,
                "|", LLVM_VERSION_STRING, "|", engine_build_identity());
}

std::string host_identity(const ir::Type* declared_return, bool python_error_model, bool bounds_check) {
  TargetOptions cpu;
  cpu.target = Target::CPU;
  cpu.bounds_check = bounds_check;
  return concat("host|", declared_return ? declared_return->str() : "inferred", "|",
                python_error_model ? "python" : "numpy", "|", target_identity(cpu));
}

namespace {

constexpr const char* kMagic = "cuhost-kernel-cache-5";
constexpr std::size_t kDigestChars = 32;  // Hasher::hex()

std::string payload_digest(const std::string& payload) {
  Hasher h;
  h.add(payload);
  return h.hex();
}

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
    case K::TypeObject:
      // An extension type's spelling names it only in this process.
      if (ir::contains_extension_type(g.type_object)) return false;
      h.add(g.type_object ? g.type_object->str() : "");
      break;
    case K::Ffi: break;
    case K::Extension: return false;  // typed and lowered by Python code the key cannot see
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
               o.return_type ? o.return_type->str() : "", "|", o.dbg_optnone));
  // A device function's explicit signatures decide what its calls convert to.
  for (const ir::Signature& sig : o.device_signatures) h.add(sig.str());
  for (const auto& item : o.link)
    if (!hash_link_item(item, h)) return false;
  for (const auto& [name, g] : c.globals) {
    h.add(name);
    if (!hash_global(g, h, seen)) return false;
  }
  h.add(std::uint64_t(c.defaults.size()));
  for (const auto& d : c.defaults)
    if (!hash_global(d, h, seen)) return false;
  return true;
}

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

// Everything a product's code follows (see compile_cache.h), whatever the
// product; nullopt when some part belongs to this process.
std::optional<std::string> content_key(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types,
                                       const TargetOptions& target, const std::string& product) {
  Hasher h;
  h.add(std::string(kMagic));
  h.add(product);
  h.add(std::string(CUHOST_VERSION));
  h.add(engine_build_identity());
  h.add(std::string(LLVM_VERSION_STRING));
  h.add(cuda::nvjitlink_version());
  h.add(concat(target.cc_major, ".", target.cc_minor, target.arch_suffix, "|", target.bounds_check));
  h.add(std::string(target.cancellation_points ? "cancellation points" : "no cancellation points"));  // deadlines
  h.add(std::string(target.nrt ? "nrt" : "no nrt"));  // heap arrays with reference counts
  h.add(std::string(codegen::saturating_float_to_int() ? "saturating float-to-int" : "numba float-to-int"));
  for (const ir::Type* t : arg_types) {
    // Extension types (cuda.extending) are defined by this process's Python code: never cached.
    if (ir::contains_extension_type(t)) return std::nullopt;
    h.add(t->str());
  }
  std::set<const JitFunction*> seen;
  if (!hash_function(fn, h, seen)) return std::nullopt;
  return h.hex();
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
  return content_key(fn, arg_types, target, "kernel");
}

std::optional<std::string> product_cache_key(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types,
                                             const TargetOptions& target, const std::string& product) {
  if (cache_disabled()) return std::nullopt;
  return content_key(fn, arg_types, target, product);
}

EntryKeys entry_keys(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types,
                     const TargetOptions& target) {
  EntryKeys keys;
  keys.content = kernel_cache_key(fn, arg_types, target);
  if (keys.content) {
    keys.entry = *keys.content;
    return keys;
  }
  keys.entry = concat("cache=True ", fn.name, "(");
  for (size_t i = 0; i < arg_types.size(); ++i) keys.entry += concat(i ? ", " : "", arg_types[i]->str());
  keys.entry += concat(") for ", target_identity(target));
  return keys;
}

std::string frame_entry(const std::string& key, const std::string& payload) {
  std::string out = concat(kMagic, "\n", key, "\n") + payload;
  out += payload_digest(out);
  return out;
}

std::optional<std::string> payload_of_entry(std::string data, const std::string& key, std::string& why) {
  auto reject = [&](const char* reason) -> std::optional<std::string> {
    why = reason;
    return std::nullopt;
  };
  if (data.size() < kDigestChars) return reject("truncated");
  std::string digest = data.substr(data.size() - kDigestChars);
  data.resize(data.size() - kDigestChars);
  if (payload_digest(data) != digest) return reject("content digest mismatch");
  // An entry is the magic, the key, then the payload.
  const std::string magic = concat(kMagic, "\n");
  if (data.compare(0, magic.size(), magic) != 0) return reject("written by another cache format");
  const std::string header = concat(magic, key, "\n");
  if (data.compare(0, header.size(), header) != 0) return reject("holds another kernel");
  return data.substr(header.size());
}

std::string cache_entry(const std::string& key, const CompiledKernel& kernel) {
  return frame_entry(key, serialize_kernel(kernel));
}

std::shared_ptr<CompiledKernel> kernel_of_entry(std::string data, const std::string& key, const std::string& name,
                                                std::string& why) {
  std::optional<std::string> payload = payload_of_entry(std::move(data), key, why);
  if (!payload) return nullptr;
  std::shared_ptr<CompiledKernel> k = deserialize_kernel(*payload, name);
  if (!k || (k->target == Target::NVPTX && (k->ptx.empty() || k->symbol.empty()))) {
    why = "malformed";
    return nullptr;
  }
  return k;
}

std::optional<std::string> load_cached_payload(const std::string& key, const std::string& name) {
  std::string path = entry_path(key);
  std::string data;
  if (path.empty() || !read_cache_entry(path, data)) return std::nullopt;
  std::string why;
  std::optional<std::string> payload = payload_of_entry(std::move(data), key, why);
  if (!payload) {
    log::info(concat("[", name, "] cache entry ", path, " rejected (", why, "); recompiling"));
    std::remove(path.c_str());
    return std::nullopt;
  }
  log::info(concat("[", name, "] loaded from the disk cache (", path, ")"));
  return payload;
}

void store_cached_payload(const std::string& key, const std::string& payload) {
  std::string path = entry_path(key);
  if (!path.empty()) write_file_atomically(path, frame_entry(key, payload));
}

void forget_cached_entry(const std::string& key) {
  std::string path = entry_path(key);
  if (!path.empty()) std::remove(path.c_str());
}

std::shared_ptr<CompiledKernel> load_cached_kernel(const std::string& key, const JitFunction& fn) {
  std::string path = entry_path(key);
  std::string data;
  if (path.empty() || !read_cache_entry(path, data)) return nullptr;
  std::string why;
  std::shared_ptr<CompiledKernel> k = kernel_of_entry(std::move(data), key, fn.name, why);
  if (k && k->target != Target::NVPTX) {
    k = nullptr;
    why = "malformed";
  }
  if (!k) {
    log::info(concat("[", fn.name, "] kernel cache entry ", path, " rejected (", why, "); recompiling"));
    std::remove(path.c_str());
    return nullptr;
  }
  log::info(concat("[", fn.name, "] loaded from the kernel cache (", path, ")"));
  return k;
}

void store_cached_kernel(const std::string& key, const CompiledKernel& k) {
  for (const auto& item : k.link)
    if (item.setup_callback || item.teardown_callback) return;
  store_cached_payload(key, serialize_kernel(k));
}

}  // namespace cuhost::runtime
