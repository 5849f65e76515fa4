// Line information for lineinfo=True / debug=True (GPU): one compile unit,
// one DISubprogram per lowered function and a DILocation per statement, so
// the NVPTX backend writes `.file` / `.loc` directives naming the script and
// its lines (what profilers and cuda-gdb map back to the source). Only the
// directives are emitted (DebugDirectivesOnly, as numba-cuda does for
// lineinfo): no DWARF sections, so nvJitLink takes the PTX as it is.
#pragma once

#include <map>
#include <memory>
#include <string>

namespace llvm {
class DIBuilder;
class DICompileUnit;
class DIFile;
class DILocation;
class DISubprogram;
class Function;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

class DebugInfo {
 public:
  // `file` is the path of the kernel's script (the compile unit's file).
  DebugInfo(llvm::Module& m, const std::string& file);
  ~DebugInfo();

  // Attaches a subprogram to `f` (defined at file:line) and returns the
  // location of its first line.
  llvm::DILocation* begin_function(llvm::Function* f, const std::string& name, const std::string& file, int line);
  // A location inside `f` (which has a subprogram); line 0 keeps the function's line.
  llvm::DILocation* location(llvm::Function* f, int line, int column);
  // Gives every defined function without line information (wrappers) a
  // subprogram and every instruction without a location its function's
  // line, then finalizes the metadata. Call once, after lowering.
  void finish();

 private:
  llvm::DIFile* file_for(const std::string& path);

  llvm::Module& module_;
  std::unique_ptr<llvm::DIBuilder> builder_;
  llvm::DICompileUnit* unit_ = nullptr;
  std::string main_file_;
  std::map<std::string, llvm::DIFile*> files_;
};

}  // namespace cuhost::codegen
