// libdevice for the CPU backend: links the __nv_* functions a host module
// calls from libdevice.10.bc and replaces the PTX primitives they use with
// host IR of the same meaning (see host_libdevice.cpp, docs/LIBDEVICE.md).
#pragma once

namespace llvm {
class Module;
}  // namespace llvm

namespace cuhost::codegen {

// No-op when the module calls no __nv_* function. Throws a CompileError
// naming the libdevice function when one needs a primitive the host cannot
// reproduce.
void link_host_libdevice(llvm::Module& m, bool fastmath);

}  // namespace cuhost::codegen
