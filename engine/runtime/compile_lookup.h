// The one cache path in front of the pipeline, for every product: kernels,
// device functions, compile*()'s text and host njit functions. A kernel
// compile looks for its specialization in memory (compile_memo.h), then, for a
// cache=True function, in numba's cache files (an index of the engine's own
// entries that the layer above keeps: EntryView), then in the engine's
// content-keyed disk cache (compile_cache.h), and runs the pipeline
// (compiler.h) only when every layer missed; what it got it stores in the
// layers that missed, and it says which layer served it, so dispatchers
// count numba's cache hits and misses from one place. compile*() takes the
// same path without the cache=True files (memory, the content-keyed disk
// cache, the pipeline), host njit without the content-keyed cache (memory,
// its cache=True files, the pipeline), as numba keeps each. `cuhost -v` names the layer that
// served each lookup ("[f] kernel served by disk").
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/compiler.h"
#include "runtime/host_function.h"

namespace cuhost::runtime {

// Where a lookup found its kernel, in the order the layers are consulted.
enum class CacheLayer {
  Memory,      // compiled or loaded earlier in this process
  CacheFiles,  // numba's cache=True files (an EntryView)
  Disk,        // the engine's content-keyed disk cache
  Compiled,    // every layer missed: the pipeline ran
};
constexpr std::size_t kCacheLayers = 4;

// The layer's name in messages and in a dispatcher's per-layer counts.
const char* cache_layer_name(CacheLayer layer);

// One count per layer, indexed by CacheLayer.
using LayerCounts = std::array<long, kCacheLayers>;

// numba's cache=True files of one function and specialization, as the
// lookup sees them: a store of engine entries (compile_cache.h's
// cache_entry) under the key each was framed with. The files themselves
// (their folder, index and names) belong to the layer above, which
// implements this; its calls may throw UserError.
class EntryView {
 public:
  struct Entry {
    std::string key;    // the key the entry was framed with
    std::string bytes;  // cache_entry(key, kernel)
  };
  virtual ~EntryView() = default;
  // The entry kept for this specialization, or nullopt.
  virtual std::optional<Entry> load() = 0;
  // Keeps `entry` for this specialization, replacing an older one.
  virtual void save(const Entry& entry) = 0;
};

// What a lookup gave and where it found it.
struct LookupResult {
  std::shared_ptr<const CompiledKernel> kernel;
  CacheLayer layer = CacheLayer::Compiled;
};

// The kernel specialization of `fn` (captured) for `arg_types` on `target`,
// from the first layer that holds it, else compiled (the pipeline's
// UserErrors propagate). `files` is the function's cache=True view, or null.
LookupResult lookup_kernel(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                           const TargetOptions& target, EntryView* files = nullptr);

// A device function compiled on its own for NVPTX (compiler.h's
// compile_device_function: inspection of device functions), from memory
// or compiled; device functions have no disk layer.
LookupResult lookup_device_function(const std::shared_ptr<JitFunction>& fn,
                                    const std::vector<const ir::Type*>& arg_types, const TargetOptions& target);

// compile*() (cuda.compile, compile_ptx, compile_all, compile_for_current_device):
// `fn` compiled for `arg_types` to `output` as a device function (`device`)
// or a kernel (compiler.h's compile_text), from memory, the disk cache, else
// compiled. Both layers are keyed by content (compile_cache.h's
// product_cache_key: the function's source, globals and options, the
// argument types, the target, `device` and `output`), since every call
// brings a new function object; a compile that queued warnings is not kept,
// so asking again warns again, as numba does.
struct TextLookup {
  std::shared_ptr<const CompiledText> text;
  CacheLayer layer = CacheLayer::Compiled;
};
TextLookup lookup_text(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                       bool device, const TargetOptions& target, const std::string& output);

// A host njit specialization (host_function.h), from memory (one per
// function object, argument types, declared return and options), for a
// cache=True function from numba's cache files (`files`: the function's
// view under compile_cache.h's host_identity; a second process loads it),
// else compiled.
struct HostLookup {
  std::shared_ptr<const CompiledHostFunction> function;
  CacheLayer layer = CacheLayer::Compiled;
};
HostLookup lookup_host_function(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                                const ir::Type* declared_return, const HostCallOptions& options,
                                EntryView* files = nullptr);

// lookup_kernel without cache=True files: the kernel alone.
std::shared_ptr<const CompiledKernel> compile_kernel(const std::shared_ptr<JitFunction>& fn,
                                                     const std::vector<const ir::Type*>& arg_types,
                                                     const TargetOptions& target);

// The variant of `kernel` (from lookup_kernel) with or without cancellation
// points: the same function, argument types and target otherwise, from the
// layers above (memory, the disk cache) or compiled. A launch under a
// deadline needs the variant with points, a launch without one the variant
// without (cpu/cancellation.h); each holder compiles the other variant only
// when a launch first needs it. Throws UserError when the function is gone.
std::shared_ptr<const CompiledKernel> kernel_variant(const CompiledKernel& kernel, bool cancellation_points);

// The typing of `kernel` (inspect_types, the type annotation's typemap):
// its own, or, for a kernel served from the disk cache without it, its
// function typed again for its argument types. Throws UserError when the
// function is gone.
std::shared_ptr<const sema::TypedFunction> kernel_typing(const CompiledKernel& kernel);

// How many lookups of this process each layer served.
LayerCounts lookup_counts();

}  // namespace cuhost::runtime
