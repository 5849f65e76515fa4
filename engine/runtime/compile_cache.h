// The on-disk kernel cache (PERFORMANCE.md P5): a compiled NVPTX kernel is
// stored under a key that hashes everything that can change it — the
// captured source of the kernel and of every jitted function reachable from
// it, the frozen values of the globals they read, the argument types, the
// compile options and target, the toolchain versions, and the content of
// every linked foreign item — never a file's modification time. On by
// default (@cuda.jit(cache=False) or CUHOST_NO_CACHE=1 turn it off); kernels
// whose link items carry Python callbacks are not cached.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/compiler.h"

namespace cuhost::runtime {

// What identifies the compiler in cache keys: the path, size and modification
// time of the binary holding this code (a rebuilt engine never reuses kernels
// an older build compiled).
const std::string& engine_build_identity();

// What a cached kernel must have been compiled for to run on `target`
// (backend and architecture, bounds checks, the compiler and its build):
// part of every key of numba's cache=True files.
std::string target_identity(const TargetOptions& target);

// What a host njit specialization is compiled for, as numba's cache=True
// index keys it beside kernels: its declared return type, its error model
// and the CPU's target_identity with its bounds checks.
std::string host_identity(const ir::Type* declared_return, bool python_error_model, bool bounds_check);

// The key, or nullopt when this compile must not be cached.
std::optional<std::string> kernel_cache_key(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types,
                                            const TargetOptions& target);

// The content key of a product other than a launched kernel (compile*()'s
// text, host njit functions): what kernel_cache_key hashes for the function,
// argument types and target, plus `product`, which names what is made and
// each option of the request that the function's JitOptions do not carry.
// nullopt when it must not be cached (CUHOST_NO_CACHE, or a part that
// belongs to this process).
std::optional<std::string> product_cache_key(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types,
                                             const TargetOptions& target, const std::string& product);

// The keys of a kernel's entries, computed once per lookup: `content`
// where the content-keyed disk cache takes the kernel (kernel_cache_key),
// and `entry`, the key its cache=True entry is framed with: the content key
// where there is one, so both disk layers hold the very same entry, else a
// key naming the specialization and its target_identity (CPU kernels).
struct EntryKeys {
  std::optional<std::string> content;
  std::string entry;
};
EntryKeys entry_keys(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types, const TargetOptions& target);

// A kernel from the cache (its `typed` is null: inspect_types reports the
// signature only; the lookup sets its argument types), or null.
std::shared_ptr<CompiledKernel> load_cached_kernel(const std::string& key, const JitFunction& fn);

// A kernel as a cache entry, the one format of both disk caches (this one
// and numba's cache=True files, python/dispatcher_cache.h): a magic line,
// `key`, the kernel as kernel_serialize.h writes it, then a digest of
// everything before it.
std::string cache_entry(const std::string& key, const CompiledKernel& kernel);

// The kernel of an entry written for `key`, named `name`; null, with `why`
// set, when the entry is truncated, altered, of another format or written
// for another key. Throws UserError when a CPU kernel fails to JIT-compile.
std::shared_ptr<CompiledKernel> kernel_of_entry(std::string entry, const std::string& key, const std::string& name,
                                                std::string& why);

// Any product as an entry of that format: the magic line, `key`, `payload`,
// then the digest; and the payload back, or nullopt (with `why`) when the
// entry is truncated, altered, of another format or written for another key.
std::string frame_entry(const std::string& key, const std::string& payload);
std::optional<std::string> payload_of_entry(std::string entry, const std::string& key, std::string& why);

// The content-keyed disk cache for any product: the payload kept under
// `key` (a damaged entry is removed; `name` names the function in `-v`
// lines), keeping one, and dropping one the caller could not use.
std::optional<std::string> load_cached_payload(const std::string& key, const std::string& name);
void store_cached_payload(const std::string& key, const std::string& payload);
void forget_cached_entry(const std::string& key);

// Stores a freshly compiled NVPTX kernel (best effort: a cache that cannot
// be written only makes the next run slower).
void store_cached_kernel(const std::string& key, const CompiledKernel& kernel);

}  // namespace cuhost::runtime
