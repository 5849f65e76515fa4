// Debug information through LLVM's DIBuilder, at two levels.
//
// Line tables (lineinfo=True, GPU): one compile unit, one DISubprogram per
// lowered function and a DILocation per statement, emitted as directives
// only (DebugDirectivesOnly, as numba-cuda does for lineinfo): the PTX
// carries `.file` / `.loc` naming the script and its lines, no DWARF
// sections.
//
// Full debug information (debug=True, both targets): the same line table
// plus DWARF describing every function (its subroutine type from the Python
// argument types) and every parameter and local variable (DILocalVariable
// with llvm.dbg.declare on its stack slot, typed by debug_types.h). Scalar
// locals are declared too, where numba-cuda tracks them with llvm.dbg.value:
// LLVM 19's NVPTX backend writes no location lists, so a variable described
// by values gets no DW_AT_location in the cubin at all, while a declared
// slot is a frame location cuda-gdb reads (docs/COMPILE_API.md). The GPU
// PTX then holds `.section .debug_info` and friends, which ptxas (inside
// nvJitLink) turns into the cubin's DWARF for cuda-gdb; on the CPU backend
// the JIT-compiled code carries the same DWARF for gdb.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"

namespace llvm {
class AllocaInst;
class DIBuilder;
class DICompileUnit;
class DIFile;
class DILocation;
class DISubprogram;
class Function;
class Instruction;
class Module;
}  // namespace llvm

namespace cuhost::codegen {

class DebugTypes;

class DebugInfo {
 public:
  // `file` is the path of the kernel's script (the compile unit's file);
  // `full` asks for variables and types (debug=True), else line tables only;
  // `gpu`: DWARF 2 (what ptxas reads), else DWARF 4; `optimized`: the
  // functions are optimized (opt=True), which each subprogram says.
  DebugInfo(llvm::Module& m, const std::string& file, bool full, bool gpu, bool optimized);
  ~DebugInfo();

  bool full() const { return full_; }

  // Attaches a subprogram to `f` (defined at file:line; `params` and
  // `result` are the Python-level types of its arguments and result, null
  // for none) and returns the location of its first line.
  llvm::DILocation* begin_function(llvm::Function* f, const std::string& name, const std::string& file, int line,
                                   const std::vector<const ir::Type*>& params = {}, const ir::Type* result = nullptr);
  // A location inside `f` (which has a subprogram); line 0 keeps the function's line.
  llvm::DILocation* location(llvm::Function* f, int line, int column);
  // Full debug information only: describes the variable `name` of type `t`
  // living in `slot` (an alloca of `f`), the `arg_no`-th parameter (1-based)
  // or a local (0), declared at `line`.
  // `types` are the types the variable takes (its versions'): several give
  // it a union type, for a slot that holds whichever version is current.
  void declare_variable(llvm::Function* f, llvm::AllocaInst* slot, const std::string& name,
                        const std::vector<const ir::Type*>& types, unsigned arg_no, int line);
  // Gives every defined function without line information (wrappers) a
  // subprogram and every instruction without a location its function's
  // line, then finalizes the metadata. Call once, after lowering.
  void finish();

 private:
  llvm::DIFile* file_for(const std::string& path);

  llvm::Module& module_;
  std::unique_ptr<llvm::DIBuilder> builder_;
  std::unique_ptr<DebugTypes> types_;
  llvm::DICompileUnit* unit_ = nullptr;
  std::string main_file_;
  bool full_ = false;
  bool optimized_ = false;
  std::map<std::string, llvm::DIFile*> files_;
};

}  // namespace cuhost::codegen
