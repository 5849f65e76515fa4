// A loaded module's globals as a backend exposes them to plugin host
// libraries (cuhost/plugin_abi.h): the GPU backend through cuLibraryGetGlobal
// and copies (cuda/module_globals.h), the CPU backend through the JIT's
// addresses (cpu/module_globals.h). plugin/ calls it; the backends implement it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuhost::model {

// One loaded module's globals, as a backend exposes them. Status codes are
// cuhost_plugin_status values; on failure `error` says why. Never throws.
class ModuleGlobals {
 public:
  virtual ~ModuleGlobals() = default;
  virtual int backend() const = 0;  // a cuhost_plugin_backend
  virtual int find(const std::string& name, std::uint64_t* address, std::size_t* bytes, bool* read_only,
                   std::string* error) = 0;
  virtual int copy_in(std::uint64_t address, const void* src, std::size_t bytes, std::string* error) = 0;
  virtual int copy_out(void* dst, std::uint64_t address, std::size_t bytes, std::string* error) = 0;
};

}  // namespace cuhost::model
