/* The C ABI of plugin host libraries. A plugin may ship a host-side shared
 * library (manifest: [build] host_library = "libfoo_host.so") whose setup
 * entry point cuhost calls once for every loaded module (GPU module or CPU
 * JIT module) that links one of the plugin's device functions, before any
 * launch from it; its teardown entry point runs when that module unloads
 * (cuda.close(), context reset, process exit). Setup typically fills
 * __device__ globals: lookup tables, constants, module state.
 *
 * This header is plain C with no dependencies so vendors can compile their
 * host library against it alone. The context struct is versioned: fields are
 * only ever appended, and `struct_size` says how many bytes of it cuhost
 * filled in. Every function pointer returns a cuhost_plugin_status; none of
 * them throws or aborts, and a failing call leaves a message that cuhost adds
 * to the error it raises.
 */
#ifndef CUHOST_PLUGIN_ABI_H
#define CUHOST_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes (context.abi_version). */
#define CUHOST_PLUGIN_ABI_VERSION 1

/* Default entry point names (the manifest may name others with
 * [build] host_setup = "..." and host_teardown = "..."). */
#define CUHOST_PLUGIN_DEFAULT_SETUP "cuhost_plugin_setup"
#define CUHOST_PLUGIN_DEFAULT_TEARDOWN "cuhost_plugin_teardown"

/* Marks an entry point for export from the host library. */
#ifdef __cplusplus
#define CUHOST_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define CUHOST_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

typedef enum cuhost_plugin_status {
  CUHOST_PLUGIN_OK = 0,
  CUHOST_PLUGIN_NOT_FOUND = 1,    /* no global of that name in the module */
  CUHOST_PLUGIN_OUT_OF_RANGE = 2, /* offset + bytes past the global's end */
  CUHOST_PLUGIN_READ_ONLY = 3,    /* the global cannot be written on this backend */
  CUHOST_PLUGIN_DEVICE_ERROR = 4, /* a driver call failed (the message names it) */
  CUHOST_PLUGIN_INVALID = 5       /* a null pointer or other bad argument */
} cuhost_plugin_status;

typedef enum cuhost_plugin_backend {
  CUHOST_PLUGIN_BACKEND_CPU = 0, /* globals live in host memory (the CPU JIT) */
  CUHOST_PLUGIN_BACKEND_CUDA = 1 /* globals live in device memory (a CUlibrary) */
} cuhost_plugin_backend;

/* A loaded module, opaque to the library. */
typedef struct cuhost_plugin_module cuhost_plugin_module;

typedef struct cuhost_plugin_context {
  uint32_t abi_version; /* CUHOST_PLUGIN_ABI_VERSION of the running cuhost */
  uint32_t struct_size; /* sizeof(cuhost_plugin_context) of the running cuhost */
  const char* plugin_name;
  const char* plugin_dir;  /* absolute folder of the plugin (data files) */
  const char* kernel_name; /* the kernel whose module is being set up */
  int backend;             /* a cuhost_plugin_backend */
  cuhost_plugin_module* module;

  /* The address and size in bytes of the global `name` (its linker symbol:
   * declare it extern "C" in the .cu to keep the name unmangled). On CUDA the
   * address is a device pointer (CUdeviceptr); on the CPU a host pointer.
   * Either out pointer may be null. */
  int (*get_global)(cuhost_plugin_module* module, const char* name, uint64_t* address, size_t* bytes);
  /* Copies `bytes` bytes from host memory `src` into the global `name` at
   * byte `offset` (cuMemcpyHtoD on CUDA, memcpy on the CPU). */
  int (*write_global)(cuhost_plugin_module* module, const char* name, size_t offset, const void* src, size_t bytes);
  /* Copies `bytes` bytes of the global `name` from byte `offset` into `dst`. */
  int (*read_global)(cuhost_plugin_module* module, const char* name, size_t offset, void* dst, size_t bytes);
  /* Sets the message cuhost reports when the entry point returns nonzero. */
  void (*set_error)(cuhost_plugin_module* module, const char* message);

  /* Free for the library: what setup stores here, teardown receives. */
  void* user_data;
} cuhost_plugin_context;

/* setup: 0 on success; anything else fails the compile or launch that loaded
 * the module with cuda.PluginError naming the plugin, the library, the entry
 * point, the code and the set_error message. */
typedef int (*cuhost_plugin_setup_fn)(cuhost_plugin_context* context);
/* teardown: the return value is ignored (nothing can fail an unload). */
typedef int (*cuhost_plugin_teardown_fn)(cuhost_plugin_context* context);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUHOST_PLUGIN_ABI_H */
