// A foreign device function declared with cuda.declare_device (or by a plugin
// manifest): its symbol, signature, ABI and the link items it brings along.
// Link items travel with the declaration into every kernel that calls it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::ir {

enum class Abi : std::uint8_t { Numba, C };

// The kind of a piece of foreign code, from its extension or LinkableCode class.
enum class LinkKind : std::uint8_t { CUSource, PTXSource, Cubin, Fatbin, Archive, Object, LTOIR };

// One item to link: either a path (read at link time) or in-memory data.
struct LinkItem {
  LinkKind kind = LinkKind::PTXSource;
  std::string path;                       // non-empty for items given by path
  std::string name;                       // program/file name used in logs
  std::string data;                       // contents for in-memory items
  std::vector<std::string> include_dirs;  // extra include folders for a CUSource (plugins)
  bool from_path() const { return !path.empty(); }
  // Opaque handles to Python setup/teardown callbacks (owned by python/).
  std::shared_ptr<void> setup_callback;
  std::shared_ptr<void> teardown_callback;
  // The folder of the plugin that ships this item when that plugin has a host
  // library: it sets up every module that links the item (plugin/host_library.h).
  std::string plugin_dir;
  // LinkableCode(nrt=True): the code calls the NRT's NRT_Allocate/NRT_Free,
  // which the kernel's module then defines (codegen/lowering/nrt.h).
  bool nrt = false;
};

struct Signature {
  const Type* return_type = nullptr;
  std::vector<const Type*> args;
  std::string str() const;  // "float32(float32, int32)"
};

struct ForeignFunction {
  std::string name;  // the linker symbol, verbatim
  Signature sig;
  Abi abi = Abi::Numba;
  bool use_cooperative = false;
  std::vector<LinkItem> link;
  // When non-empty, the CPU backend links these instead of `link` (a plugin's
  // host implementation); otherwise it compiles `link`'s .cu items for the host.
  std::vector<LinkItem> cpu_link;
  std::string python_name;  // how scripts refer to it (error messages)
  std::string doc;          // plugin docs
};

}  // namespace cuhost::ir
