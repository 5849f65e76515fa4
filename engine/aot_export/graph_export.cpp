// Writes the registered graphs into the manifest (see graph_export.h).
#include "aot_export/graph_export.h"

#include "support/diagnostics.h"

namespace cuhost::aot_export {

aot::Json export_graphs(const std::vector<std::string>& names, const std::vector<std::string>&,
                        std::vector<std::string>*) {
  if (!names.empty())
    throw UserError(ErrorKind::NotImplementedError,
                    concat("no graph named '", names[0], "' was registered for export"));
  return aot::Json::array();
}

}  // namespace cuhost::aot_export
