// The cache path of every compile (see compile_lookup.h), in one place:
// memory, cache=True files (kernels), the content-keyed disk cache, then the
// pipeline; each layer that missed keeps what was found or compiled.
#include "runtime/compile_lookup.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>

#include "cuda/linker.h"
#include "frontend/captured.h"
#include "runtime/compile_cache.h"
#include "runtime/compile_memo.h"
#include "runtime/kernel_serialize.h"
#include "runtime/pipeline.h"
#include "runtime/product_serialize.h"
#include "support/compile_warnings.h"
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
// target option that changes the code: what its job asks for.
struct MemoKey {
  const JitFunction* fn;
  bool device_function;
  std::vector<const ir::Type*> args;
  int target, cc_major, cc_minor;
  std::string arch_suffix;
  bool bounds_check, cancellation_points, nrt;
  explicit MemoKey(const CompileJob& job)
      : fn(job.fn.get()),
        device_function(job.product == Product::DeviceFunction),
        args(job.arg_types),
        target(int(job.target.target)),
        cc_major(job.target.cc_major),
        cc_minor(job.target.cc_minor),
        arch_suffix(job.target.arch_suffix),
        bounds_check(job.target.bounds_check),
        cancellation_points(job.target.cancellation_points),
        nrt(job.target.nrt) {}
  bool operator<(const MemoKey& o) const {
    return std::tie(fn, device_function, args, target, cc_major, cc_minor, arch_suffix, bounds_check,
                    cancellation_points, nrt) < std::tie(o.fn, o.device_function, o.args, o.target, o.cc_major,
                                                         o.cc_minor, o.arch_suffix, o.bounds_check,
                                                         o.cancellation_points, o.nrt);
  }
};

CompileMemo<MemoKey, CompiledKernel>& memo() {
  static CompileMemo<MemoKey, CompiledKernel> m;
  return m;
}

// A host specialization in memory: the function object, its argument
// types, an explicit signature's return type and the njit options.
struct HostMemoKey {
  const JitFunction* fn;
  std::vector<const ir::Type*> args;
  const ir::Type* declared;
  bool bounds_check, python_error_model;
  explicit HostMemoKey(const CompileJob& job)
      : fn(job.fn.get()),
        args(job.arg_types),
        declared(job.declared_return),
        bounds_check(job.target.bounds_check),
        python_error_model(job.python_error_model) {}
  bool operator<(const HostMemoKey& o) const {
    return std::tie(fn, args, declared, bounds_check, python_error_model) <
           std::tie(o.fn, o.args, o.declared, o.bounds_check, o.python_error_model);
  }
};

// Never destroyed, as the ORC JIT whose code its entries point into.
CompileMemo<HostMemoKey, CompiledHostFunction>& host_memo() {
  static auto* m = new CompileMemo<HostMemoKey, CompiledHostFunction>();
  return *m;
}

// compile*()'s text in memory, by content key: it refers to nothing of the
// function object it was compiled from, which each call makes anew.
class TextMemo {
 public:
  std::shared_ptr<const CompiledText> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = texts_.find(key);
    return it == texts_.end() ? nullptr : it->second;
  }
  void keep(const std::string& key, std::shared_ptr<const CompiledText> text) {
    std::lock_guard<std::mutex> lock(mutex_);
    texts_.emplace(key, std::move(text));
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const CompiledText>> texts_;
};

TextMemo& text_memo() {
  static TextMemo m;
  return m;
}

std::array<std::atomic<long>, kCacheLayers>& counters() {
  static std::array<std::atomic<long>, kCacheLayers> c{};
  return c;
}

// Counts a lookup and says under `cuhost -v` which layer served it.
void served(const JitFunction& fn, const char* product, CacheLayer layer) {
  ++counters()[std::size_t(layer)];
  if (log::verbose()) log::info(concat("[", fn.name, "] ", product, " served by ", cache_layer_name(layer)));
}

// The kernel of the cache=True entry, or null when there is none or it is
// refused (damaged, framed for another specialization, or compiled for
// another backend): then it is compiled and saved anew, never loaded. The
// entry is read under the key it was framed with, not today's: numba's
// files keep a kernel whose globals have changed since.
std::shared_ptr<CompiledKernel> load_from_files(EntryView& files, const CompileJob& job) {
  std::optional<EntryView::Entry> entry = files.load();
  if (!entry) return nullptr;
  std::string why;
  std::shared_ptr<CompiledKernel> k = kernel_of_entry(std::move(entry->bytes), entry->key, job.fn->name, why);
  if (k && k->target != job.target.target) why = "compiled for another backend";
  if (why.empty()) return k;
  log::info(concat("[", job.fn->name, "] cache=True entry rejected (", why, "); recompiling"));
  return nullptr;
}

// Whether typing `fn` for these argument types may record calls into other
// jitted functions (their dispatchers list the argument types each call
// used as signatures): it names one in its globals, or takes one as an
// argument.
bool may_call_jitted_functions(const JitFunction& fn, const std::vector<const ir::Type*>& arg_types) {
  for (const auto& [name, value] : fn.captured->globals)
    if (value.kind == frontend::GlobalValue::Kind::JitFunction) return true;
  for (const ir::Type* t : arg_types)
    if (t && t->kind == ir::TypeKind::Dispatcher) return true;
  return false;
}

// CUHOST_VERIFY_PTX=1 (set by the test suite): every kernel compiled for the
// CPU is also compiled to PTX and, when it links no foreign code, assembled
// for sm_90 by nvJitLink, so CI checks the GPU path of every kernel it runs
// without a GPU.
void verify_ptx_if_asked(const CompileJob& job) {
  const char* v = std::getenv("CUHOST_VERIFY_PTX");
  if (!v || !*v || std::string(v) == "0") return;
  TargetOptions nv;
  nv.target = Target::NVPTX;
  nv.cancellation_points = job.target.cancellation_points;
  nv.nrt = job.target.nrt;
  std::shared_ptr<const CompiledKernel> k = lookup_kernel(job.fn, job.arg_types, nv).kernel;
  if (!k->link.empty()) return;  // foreign items need the module loader; the GPU run links them
  log::StageTimer timer(job.fn->name, "verify-ptx");
  cuda::link({cuda::LinkInput{ir::LinkKind::PTXSource, job.fn->name + ".ptx", k->ptx}}, 9, 0, false);
}

}  // namespace

// Every lookup makes one CompileJob of its request first: the memory key,
// the disk keys and, on a miss, the pipeline all read that one job, so the
// argument types go down the stages once.

LookupResult lookup_kernel(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                           const TargetOptions& target, EntryView* files) {
  CUHOST_CHECK(fn && fn->captured) << "a kernel must be captured before its compile is looked up";
  CompileJob job(fn, arg_types, target, Product::Kernel);
  MemoKey memo_key(job);
  LookupResult result;
  if ((result.kernel = memo().find(memo_key, fn))) {
    result.layer = CacheLayer::Memory;
    served(*fn, "kernel", result.layer);
    return result;
  }
  EntryKeys keys;
  std::shared_ptr<CompiledKernel> found;
  {
    log::StageTimer timer(fn->name, "cache");
    keys = entry_keys(*job.fn, job.arg_types, job.target);
    // The cache=True files come first: numba's rule that a cached kernel
    // keeps the globals it was compiled with holds only if they answer
    // before a content key that follows the globals' values.
    if (files && (found = load_from_files(*files, job))) result.layer = CacheLayer::CacheFiles;
    if (!found && keys.content && (found = load_cached_kernel(*keys.content, *fn))) result.layer = CacheLayer::Disk;
  }
  if (found && result.layer == CacheLayer::Disk && may_call_jitted_functions(*fn, job.arg_types)) {
    // The content-keyed disk cache is the engine's own and must not show:
    // numba types every kernel in every process, and typing is what records
    // the calls into device functions in their dispatchers' signatures.
    // Kernels served from the disk are typed again for those records (their
    // code is not made again). cache=True files are numba's: a kernel loaded
    // from them is not typed, in numba either.
    log::StageTimer timer(fn->name, "retype");
    run_pipeline(job, {Stage::Typing});
  }
  if (found) {
    if (!found->typed) found->typed = job.typed;
    found->arg_types = job.arg_types;
    found->launch_bound_threads = fn->options.launch_bounds[0];
    for (int i = 0; i < 3; ++i) found->cluster_dim[i] = fn->options.cluster_dim[i];
    found->shared_memory_carveout = fn->options.shared_memory_carveout;
    found->cancellation_points = job.target.cancellation_points;  // part of every layer's key
  } else {
    const std::uint64_t warnings = compile_warnings_reported();
    found = build_kernel(job);
    result.layer = CacheLayer::Compiled;
    // A compile that warned is not kept on disk: the next process compiles
    // it again and warns again, as numba does.
    if (keys.content && compile_warnings_reported() == warnings) store_cached_kernel(*keys.content, *found);
  }
  found->source = fn;
  found->compiled_for = job.target;
  if (files && result.layer != CacheLayer::CacheFiles && serializable(*found))
    files->save(EntryView::Entry{keys.entry, cache_entry(keys.entry, *found)});
  if (result.layer == CacheLayer::Compiled && target.target == Target::CPU) verify_ptx_if_asked(job);
  served(*fn, "kernel", result.layer);
  result.kernel = memo().keep(memo_key, fn, found);
  return result;
}

LookupResult lookup_device_function(const std::shared_ptr<JitFunction>& fn,
                                    const std::vector<const ir::Type*>& arg_types, const TargetOptions& target) {
  CompileJob job(fn, arg_types, target, Product::DeviceFunction);
  job.target.target = Target::NVPTX;  // device functions are compiled on their own for inspection of their PTX
  MemoKey memo_key(job);
  LookupResult result;
  result.layer = CacheLayer::Memory;
  if (!(result.kernel = memo().find(memo_key, fn))) {
    result.layer = CacheLayer::Compiled;
    result.kernel = memo().keep(memo_key, fn, compile_device_function(job));
  }
  served(*fn, "device function", result.layer);
  return result;
}

TextLookup lookup_text(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                       bool device, const TargetOptions& target, const std::string& output) {
  CUHOST_CHECK(fn && fn->captured) << "a function must be captured before its compile is looked up";
  CompileJob job(fn, arg_types, target, device ? Product::DeviceFunction : Product::Kernel);
  job.target.target = Target::NVPTX;  // compile*() always emits PTX
  TextLookup result;
  std::optional<std::string> key;
  {
    log::StageTimer timer(fn->name, "cache");
    key = product_cache_key(*job.fn, job.arg_types, job.target,
                            concat("compile|", device ? "device" : "kernel", "|", output));
    if (key && (result.text = text_memo().find(*key))) {
      result.layer = CacheLayer::Memory;
    } else if (key) {
      std::optional<std::string> payload = load_cached_payload(*key, fn->name);
      std::optional<CompiledText> text = payload ? deserialize_text(*payload) : std::nullopt;
      if (text) {
        result.text = std::make_shared<const CompiledText>(std::move(*text));
        result.layer = CacheLayer::Disk;
      } else if (payload) {
        forget_cached_entry(*key);  // not a text entry: compiled and written again
      }
    }
  }
  if (!result.text) {
    const std::uint64_t warnings = compile_warnings_reported();
    auto text = std::make_shared<const CompiledText>(compile_text(job, output));
    result.text = text;
    result.layer = CacheLayer::Compiled;
    // A compile that warned is asked again to warn again (numba compiles every call).
    if (key && compile_warnings_reported() == warnings) {
      if (std::optional<std::string> bytes = serialize_text(*text)) store_cached_payload(*key, *bytes);
    } else {
      key.reset();
    }
  }
  if (key && result.layer != CacheLayer::Memory) text_memo().keep(*key, result.text);
  served(*fn, "compile", result.layer);
  return result;
}

HostLookup lookup_host_function(const std::shared_ptr<JitFunction>& fn, const std::vector<const ir::Type*>& arg_types,
                                const ir::Type* declared_return, const HostCallOptions& options, EntryView* files) {
  CUHOST_CHECK(fn && fn->captured) << "host functions are compiled after capture";
  CompileJob job(fn, arg_types, TargetOptions(), Product::HostFunction);
  job.target.target = Target::CPU;
  job.target.bounds_check = options.bounds_check;
  job.declared_return = declared_return;
  job.python_error_model = options.python_error_model;
  HostMemoKey memo_key(job);
  HostLookup result;
  if ((result.function = host_memo().find(memo_key, fn))) {
    result.layer = CacheLayer::Memory;
    served(*fn, "host function", result.layer);
    return result;
  }
  // numba's njit keeps a specialization between processes in its cache=True
  // files only; an entry is framed by the specialization and what it was
  // compiled for, and read under the key it was framed with (numba's files
  // keep what a function was compiled with until its source file changes).
  std::string key;
  std::shared_ptr<CompiledHostFunction> found;
  if (files) {
    log::StageTimer timer(fn->name, "cache");
    key = concat("cache=True host ", fn->name, "(");
    for (std::size_t i = 0; i < job.arg_types.size(); ++i) key += concat(i ? ", " : "", job.arg_types[i]->str());
    key += concat(") for ", host_identity(declared_return, options.python_error_model, options.bounds_check));
    if (std::optional<EntryView::Entry> entry = files->load()) {
      std::string why;
      std::optional<std::string> payload = payload_of_entry(std::move(entry->bytes), entry->key, why);
      if (payload && !(found = deserialize_host_function(*payload, fn->name))) why = "not a host function";
      if (found) {
        found->arg_types = job.arg_types;
        result.layer = CacheLayer::CacheFiles;
      } else {
        log::info(concat("[", fn->name, "] cache=True entry rejected (", why, "); recompiling"));
      }
    }
  }
  if (!found) {
    found = build_host_function(job);
    result.layer = CacheLayer::Compiled;
    if (files && found->serializable)
      if (std::optional<std::string> bytes = serialize_host_function(*found))
        files->save(EntryView::Entry{key, frame_entry(key, *bytes)});
  }
  result.function = host_memo().keep(memo_key, fn, found);
  served(*fn, "host function", result.layer);
  return result;
}

std::shared_ptr<const CompiledKernel> compile_kernel(const std::shared_ptr<JitFunction>& fn,
                                                     const std::vector<const ir::Type*>& arg_types,
                                                     const TargetOptions& target) {
  return lookup_kernel(fn, arg_types, target).kernel;
}

namespace {

// The function `kernel` was compiled from, for `what` is asked of it
// (RuntimeError when the function is gone: kernels hold it weakly).
std::shared_ptr<JitFunction> source_of(const CompiledKernel& kernel, const std::string& what) {
  std::shared_ptr<JitFunction> fn = kernel.source.lock();
  if (!fn) throw UserError(ErrorKind::RuntimeError, concat(what, ": the function it was compiled from is gone"));
  return fn;
}

}  // namespace

std::shared_ptr<const CompiledKernel> kernel_variant(const CompiledKernel& kernel, bool cancellation_points) {
  std::shared_ptr<JitFunction> fn =
      source_of(kernel, concat("kernel '", kernel.name, "' cannot be compiled ",
                               cancellation_points ? "with" : "without", " cancellation points for this launch"));
  TargetOptions target = kernel.compiled_for;
  target.cancellation_points = cancellation_points;
  return lookup_kernel(fn, kernel.arg_types, target).kernel;
}

std::shared_ptr<const sema::TypedFunction> kernel_typing(const CompiledKernel& kernel) {
  if (kernel.typed) return kernel.typed;
  std::shared_ptr<JitFunction> fn =
      source_of(kernel, concat("the typing of kernel '", kernel.name, "' cannot be shown"));
  CompileJob job(fn, kernel.arg_types, kernel.compiled_for, Product::Kernel);
  run_pipeline(job, {Stage::Typing});
  return job.typed;
}

LayerCounts lookup_counts() {
  LayerCounts out{};
  for (std::size_t i = 0; i < kCacheLayers; ++i) out[i] = counters()[i].load();
  return out;
}

}  // namespace cuhost::runtime
