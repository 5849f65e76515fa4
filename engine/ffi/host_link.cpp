// Host foreign code linked into CPU modules (see host_link.h).
#include "ffi/host_link.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <functional>
#include <set>
#include <string>

#include "cuda/nvrtc.h"
#include "ffi/host_compile.h"
#include "ffi/link_diagnostics.h"
#include "support/diagnostics.h"

namespace cuhost::ffi {

namespace {

// "Linking globals named 'f': symbol multiply defined!" -> f
std::string multiply_defined_symbol(const std::string& text) {
  std::size_t at = text.find("Linking globals named '");
  if (at == std::string::npos) return "";
  at += 23;
  std::size_t end = text.find('\'', at);
  return end == std::string::npos ? "" : text.substr(at, end - at);
}

}  // namespace

void link_host_foreign(llvm::Module& m, const std::vector<std::shared_ptr<const ir::ForeignFunction>>& foreign) {
  LinkDiagnostics diagnostics(m.getContext());
  std::set<std::string> seen;
  for (const auto& ff : foreign) {
    const std::vector<ir::LinkItem>& items = !ff->cpu_link.empty() ? ff->cpu_link : ff->link;
    for (const ir::LinkItem& item : items) {
      std::string key =
          concat(int(item.kind), "|", item.path, "|", item.name, "|", std::hash<std::string>()(item.data));
      if (!seen.insert(key).second) continue;
      // The same search path NVRTC would use: the item's own folders, then
      // NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS.
      std::vector<std::string> includes = item.include_dirs;
      for (const std::string& dir : cuda::extra_search_paths_from_environment()) includes.push_back(dir);
      std::string bitcode = host_bitcode(item, ff->python_name.empty() ? ff->name : ff->python_name, includes);
      auto buffer = llvm::MemoryBuffer::getMemBuffer(bitcode, item.name.empty() ? item.path : item.name, false);
      auto lib = llvm::parseBitcodeFile(buffer->getMemBufferRef(), m.getContext());
      if (!lib)
        throw UserError(ErrorKind::CompileError,
                        concat("cannot read the host code of '", ff->name, "': ", llvm::toString(lib.takeError())));
      (*lib)->setTargetTriple(m.getTargetTriple());
      (*lib)->setDataLayout(m.getDataLayout());
      if (llvm::Linker::linkModules(m, std::move(*lib))) {
        std::string sym = multiply_defined_symbol(diagnostics.text());
        std::string shown = item.from_path() ? item.path : item.name;
        if (!sym.empty())
          throw UserError(ErrorKind::LinkerError, concat("symbol defined more than once: ", sym, " (again in '", shown,
                                                         "', linked for '", ff->name, "')"));
        throw UserError(ErrorKind::LinkerError, concat("linking the host code of '", shown, "' for '", ff->name,
                                                       "' failed: ", diagnostics.text()));
      }
    }
  }
}

}  // namespace cuhost::ffi
