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

// A specialization in memory: the function object, its argument types and
// every target option that changes the code.
struct MemoKey {
  const JitFunction* fn;
  std::vector<const ir::Type*> args;
  int target, cc_major, cc_minor;
  std::string arch_suffix;
  bool bounds_check;
  bool operator<(const MemoKey& o) const {
    return std::tie(fn, args, target, cc_major, cc_minor, arch_suffix, bounds_check) <
           std::tie(o.fn, o.args, o.target, o.cc_major, o.cc_minor, o.arch_suffix, o.bounds_check);
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

// The key of a cache=True entry whose kernel the content-keyed cache does
// not take (CPU kernels): the specialization and what it was compiled for.
std::string files_entry_key(const JitFunction& fn, const std::vector<const ir::Type*>& types,
                            const TargetOptions& target) {
  std::string key = concat("cache=True ", fn.name, "(");
  for (size_t i = 0; i < types.size(); ++i) key += concat(i ? ", " : "", types[i]->str());
  return concat(key, ") for ", target_identity(target));
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
  MemoKey memo_key{fn.get(),        arg_types,          int(target.target), target.cc_major,
                   target.cc_minor, target.arch_suffix, target.bounds_check};
  LookupResult result;
  if ((result.kernel = memo().find(memo_key, fn))) {
    result.layer = CacheLayer::Memory;
    ++counters()[std::size_t(result.layer)];
    return result;
  }
  // One key frames the entry in both disk layers: the content key where
  // the content-keyed cache takes the kernel, so the cache=True files hold
  // the very entry it holds.
  std::optional<std::string> content_key;
  std::shared_ptr<CompiledKernel> found;
  {
    log::StageTimer timer(fn->name, "cache");
    content_key = kernel_cache_key(*fn, arg_types, target);
    // The cache=True files come first: numba's rule that a cached kernel
    // keeps the globals it was compiled with holds only if they answer
    // before a content key that follows the globals' values.
    if (files && (found = load_from_files(*files, *fn, arg_types, target))) result.layer = CacheLayer::CacheFiles;
    if (!found && content_key && (found = load_cached_kernel(*content_key, *fn, arg_types)))
      result.layer = CacheLayer::Disk;
  }
  if (found) {
    found->launch_bound_threads = fn->options.launch_bounds[0];
    found->shared_memory_carveout = fn->options.shared_memory_carveout;
  } else {
    found = build_kernel(fn, arg_types, target);
    result.layer = CacheLayer::Compiled;
    if (content_key) store_cached_kernel(*content_key, *found);
  }
  if (files && result.layer != CacheLayer::CacheFiles && serializable(*found)) {
    std::string key = content_key ? *content_key : files_entry_key(*fn, arg_types, target);
    files->save(EntryView::Entry{key, cache_entry(key, *found)});
  }
  if (result.layer == CacheLayer::Compiled && target.target == Target::CPU) verify_ptx_if_asked(fn, arg_types);
  ++counters()[std::size_t(result.layer)];
  result.kernel = memo().keep(memo_key, fn, found);
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
