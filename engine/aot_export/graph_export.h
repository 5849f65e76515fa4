// The graphs of an export: the cuhost.graph captures the script left in
// globals of __main__ (the global's name is the graph's), each written as
// its kernel launches in order (kernel, grid, block, shared bytes) with
// every argument either a parameter or a constant. An argument the script
// passed through a global becomes the parameter of that name (an array:
// its data pointer, with the captured shape and strides; a scalar: its
// value); arrays passed through no global are refused, other scalars stay
// constants.
#pragma once

#include <string>
#include <vector>

#include "aot/json.h"
#include "aot_export/kernel_selection.h"

namespace cuhost::aot_export {

// The manifest's "graphs" array for the graphs named in `names` (empty:
// every Graph global that can be exported; the others are left out with a
// line on stderr saying why). Takes the GIL. Throws UserError naming the
// graph: no such global, a capture holding copies, a launch of a kernel the
// export lacks, an unnamed array argument, a name passed as two kinds.
aot::Json export_graphs(const std::vector<std::string>& names, const std::vector<SelectedKernel>& kernels,
                        std::vector<std::string>* exported);

}  // namespace cuhost::aot_export
