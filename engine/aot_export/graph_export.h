// The graphs of an export: cuhost.graph captures the script registered for
// export, each written as its kernel launches in order (kernel, grid,
// block, shared bytes) with every argument either a named parameter the
// host binds or a constant.
#pragma once

#include <string>
#include <vector>

#include "aot/json.h"

namespace cuhost::aot_export {

// The manifest's "graphs" array for the graphs named in `names` (empty:
// every registered one). `kernels` are the exported kernels' names.
// Throws UserError naming the graph: not registered, or launching a kernel
// the export does not hold.
aot::Json export_graphs(const std::vector<std::string>& names, const std::vector<std::string>& kernels,
                        std::vector<std::string>* exported);

}  // namespace cuhost::aot_export
