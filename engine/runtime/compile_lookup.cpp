// The cache path of a kernel compile (see compile_lookup.h), in one place:
// memory, cache=True files, the content-keyed disk cache, then the
// pipeline; each layer that missed keeps what was found or compiled.
#include "runtime/compile_lookup.h"

#include <atomic>
#include <cstdlib>
#include <tuple>

#include "cuda/linker.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_memo.h"
#include "runtime/kernel_serialize.h"
#include "support/diagnostics.h"
#include "support/log.h"

namespace cuhost::runtime {

const char* cache_layer_name(CacheLayer layer) {
  switch (layer) {
    case CacheLayer::Memory: return "memory";
    case CacheLayer::CacheFiles: return "cache files";
    case CacheLayer::Disk: return "disk";
    case CacheLayer::Compiled: return "compiled";
  }
  return "?";
}

namespace {

// A specialization in memory: the function object, what was made of it
// (a kernel or a device function on its own), its argument types and every
// target option that changes the code.
struct MemoKey {
  const JitFunction* fn;
  bool device_function;
  std::vector<const ir::Type*> args;
  int target, cc_major, cc_minor;
  std::string arch_suffix;
  bool bounds_check;
  MemoKey(const JitFunction* f, bool device, const std::vector<const ir::Type*>& arg_types, const TargetOptions& t)
      : fn(f),
        device_function(device),
        args(arg_types),
        target(int(t.target)),
        cc_major(t.cc_major),
        cc_minor(t.cc_minor),
        arch_suffix(t.arch_suffix),
        bounds_check(t.bounds_check) {}
  bool operator<(const MemoKey& o) const {
    return std::tie(fn, device_function, args, target, cc_major, cc_minor, arch_suffix, bounds_check) <
           std::tie(o.fn, o.device_function, o.args, o.target, o.cc_major, o.cc_minor, o.arch_suffix, o.bounds_check);
  }
};

CompileMemo<MemoKey, CompiledKernel>& memo() {
  static CompileMemo<MemoKey, CompiledKernel> m;
  return m;
}

std::array<std::atomic<long>, kCacheLayers>& counters() {
  static std::array<std::atomic<long>, kCacheLayers> c{};
  return c;
}

// The kernel of the cache=True entry, or null when there is none or it is
// refused (damaged, framed for another specialization, or compiled for
// another backend): then it is compiled and saved anew, never loaded.
std::shared_ptr<CompiledKernel> load_from_files(EntryView& files, const JitFunction& fn,
                                                const std::vector<const ir::Type*>& arg_types,
                                                const TargetOptions& target) {
  std::optional<EntryView::Entry> entry = files.load();
  if (!entry) return nullptr;
  std::string why;
  std::shared_ptr<CompiledKernel> k = kernel_of_entry(std::move(entry->bytes), entry->key, fn.name, arg_types, why);
  if (k && k->target != target.target) why = "compiled for another backend";
  if (why.empty()) return k;
  log::info(concat("[", fn.name, "] cache=True entry rejected (", why, "); recompiling"));
  return nullptr;
}

// CUHOST_VERIFY_PTX=1 (set by the test suite): every kernel compiled for the
// CPU is also compiled to PTX and, when it links no foreign code, assembled
// for sm_90 by nvJitLink, so CI checks the GPU path of every kernel it runs
// without a GPU.
void verify_ptx_if_asked(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types) {
  const char* v = std::getenv("CUHOST_VERIFY_PTX");
  if (!v || !*v || std::string(v) == "0") return;
  TargetOptions nv;
  nv.target = Target::NVPTX;
  std::shared_ptr<const CompiledKernel> k = lookup_kernel(fn, arg_types, nv).kernel;
  if (!k->link.empty()) return;  // foreign items need the module loader; the GPU run links them
  log::StageTimer timer(fn->name, "verify-ptx");
  cuda::link({cuda::LinkInput{ir::LinkKind::PTXSource, fn->name + ".ptx", k->ptx}}, 9, 0, false);
}

}  // namespace

LookupResult lookup_kernel(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                           const TargetOptions& target, EntryView* files) {
  CUHOST_CHECK(fn && fn->captured) << "a kernel must be captured before its compile is looked up";
  MemoKey memo_key(fn.get(), false, arg_types, target);
  LookupResult result;
  if ((result.kernel = memo().find(memo_key, fn))) {
    result.layer = CacheLayer::Memory;
    ++counters()[std::size_t(result.layer)];
    return result;
  }
  EntryKeys keys;
  std::shared_ptr<CompiledKernel> found;
  {
    log::StageTimer timer(fn->name, "cache");
    keys = entry_keys(*fn, arg_types, target);
    // The cache=True files come first: numba's rule that a cached kernel
    // keeps the globals it was compiled with holds only if they answer
    // before a content key that follows the globals' values.
    if (files && (found = load_from_files(*files, *fn, arg_types, target))) result.layer = CacheLayer::CacheFiles;
    if (!found && keys.content && (found = load_cached_kernel(*keys.content, *fn, arg_types)))
      result.layer = CacheLayer::Disk;
  }
  if (found) {
    found->launch_bound_threads = fn->options.launch_bounds[0];
    for (int i = 0; i < 3; ++i) found->cluster_dim[i] = fn->options.cluster_dim[i];
    found->shared_memory_carveout = fn->options.shared_memory_carveout;
  } else {
    found = build_kernel(fn, arg_types, target);
    result.layer = CacheLayer::Compiled;
    if (keys.content) store_cached_kernel(*keys.content, *found);
  }
  if (files && result.layer != CacheLayer::CacheFiles && serializable(*found))
    files->save(EntryView::Entry{keys.entry, cache_entry(keys.entry, *found)});
  if (result.layer == CacheLayer::Compiled && target.target == Target::CPU) verify_ptx_if_asked(fn, arg_types);
  ++counters()[std::size_t(result.layer)];
  result.kernel = memo().keep(memo_key, fn, found);
  return result;
}

LookupResult lookup_device_function(const std::shared_ptr<JitFunction>& fn,
                                    const std::vector<const ir::Type*>& arg_types, const TargetOptions& target) {
  MemoKey memo_key(fn.get(), true, arg_types, target);
  LookupResult result;
  result.layer = CacheLayer::Memory;
  if (!(result.kernel = memo().find(memo_key, fn))) {
    result.layer = CacheLayer::Compiled;
    result.kernel = memo().keep(memo_key, fn, compile_device_function(fn, arg_types, target));
  }
  ++counters()[std::size_t(result.layer)];
  return result;
}

std::shared_ptr<const CompiledKernel> compile_kernel(const std::shared_ptr<JitFunction>& fn,
                                                     const std::vector<const ir::Type*>& arg_types,
                                                     const TargetOptions& target) {
  return lookup_kernel(fn, arg_types, target).kernel;
}

LayerCounts lookup_counts() {
  LayerCounts out{};
  for (std::size_t i = 0; i < kCacheLayers; ++i) out[i] = counters()[i].load();
  return out;
}

}  // namespace cuhost::runtime
