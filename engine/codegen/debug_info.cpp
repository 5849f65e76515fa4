// DebugInfo (debug_info.h): DIBuilder bookkeeping for line tables and, with
// debug=True, for variables.
#include "codegen/debug_info.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>

#include "codegen/debug_types.h"

namespace cuhost::codegen {

namespace {

// Splits a path into (directory, file name) as DIFile wants them.
std::pair<std::string, std::string> split_path(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

}  // namespace

DebugInfo::DebugInfo(llvm::Module& m, const std::string& file, bool full, bool gpu, bool optimized)
    : module_(m),
      builder_(std::make_unique<llvm::DIBuilder>(m)),
      main_file_(file.empty() ? "<unknown>" : file),
      full_(full),
      optimized_(optimized) {
  // Debuggers render variables by the unit's language: C++ (as numba-cuda
  // declares it) gives cuda-gdb and gdb structures, pointers and arrays.
  // Line tables alone need no language support. The producer starts with
  // "clang " as numba-cuda's does: gdb on x86-64 skips a prologue by its
  // line table only for producers it recognizes as LLVM's (producer_is_llvm),
  // so a breakpoint on a kernel stops after the arguments are stored. The
  // unit is marked optimized as numba-cuda marks it (by its optimization
  // level, not a function's opt=): each subprogram says whether its
  // function was.
  unit_ = builder_->createCompileUnit(full ? llvm::dwarf::DW_LANG_C_plus_plus : llvm::dwarf::DW_LANG_Python,
                                      file_for(main_file_), "clang (Numba)",
                                      /*isOptimized=*/true, "", 0, "",
                                      full ? llvm::DICompileUnit::FullDebug : llvm::DICompileUnit::DebugDirectivesOnly);
  m.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
  m.addModuleFlag(llvm::Module::Warning, "Dwarf Version", gpu ? 2 : 4);
  if (full) types_ = std::make_unique<DebugTypes>(*builder_, m, file_for(main_file_));
}

DebugInfo::~DebugInfo() = default;

llvm::DIFile* DebugInfo::file_for(const std::string& path) {
  auto it = files_.find(path);
  if (it != files_.end()) return it->second;
  // Absolute paths let profilers and debuggers find the script from anywhere.
  llvm::SmallString<256> abs(path);
  if (path.front() != '<') llvm::sys::fs::make_absolute(abs);
  auto [dir, name] = split_path(std::string(abs.str()));
  llvm::DIFile* f = builder_->createFile(name, dir);
  files_[path] = f;
  return f;
}

llvm::DILocation* DebugInfo::begin_function(llvm::Function* f, const std::string& name, const std::string& file,
                                            int line, const std::vector<const ir::Type*>& params,
                                            const ir::Type* result) {
  llvm::DIFile* df = file_for(file.empty() ? main_file_ : file);
  unsigned l = line > 0 ? unsigned(line) : 0;
  std::vector<llvm::Metadata*> signature;
  if (full_) {
    // The result first (null: returns nothing), then each parameter.
    signature.push_back(result ? types_->type_of(result) : nullptr);
    for (const ir::Type* p : params) signature.push_back(types_->type_of(p));
  }
  llvm::DISubroutineType* ty = builder_->createSubroutineType(builder_->getOrCreateTypeArray(signature));
  auto flags = llvm::DISubprogram::SPFlagDefinition;
  if (!full_ || optimized_) flags |= llvm::DISubprogram::SPFlagOptimized;
  llvm::DISubprogram* sp =
      builder_->createFunction(df, name, f->getName(), df, l, ty, l, llvm::DINode::FlagPrototyped, flags);
  f->setSubprogram(sp);
  return llvm::DILocation::get(f->getContext(), l, 0, sp);
}

llvm::DILocation* DebugInfo::location(llvm::Function* f, int line, int column) {
  llvm::DISubprogram* sp = f->getSubprogram();
  if (!sp) return nullptr;
  unsigned l = line > 0 ? unsigned(line) : sp->getLine();
  return llvm::DILocation::get(f->getContext(), l, column > 0 ? unsigned(column) : 0, sp);
}

void DebugInfo::declare_variable(llvm::Function* f, llvm::AllocaInst* slot, const std::string& name,
                                 const std::vector<const ir::Type*>& types, unsigned arg_no, int line) {
  llvm::DISubprogram* sp = f->getSubprogram();
  if (!full_ || !sp || !slot) return;
  llvm::DIType* dt = types_->union_of(types);
  if (!dt) return;  // no bits to show (a module, a function, None)
  unsigned l = line > 0 ? unsigned(line) : sp->getLine();
  // Parameters stay listed even where optimization removes them, so a
  // debugger shows every argument of a frame (as "optimized out" at worst);
  // locals too when the function is optimized, as clang keeps them (without
  // optimization their declarations keep them).
  llvm::DILocalVariable* var =
      arg_no > 0 ? builder_->createParameterVariable(sp, name, arg_no, sp->getFile(), l, dt, /*AlwaysPreserve=*/true)
                 : builder_->createAutoVariable(sp, name, sp->getFile(), l, dt, /*AlwaysPreserve=*/optimized_);
  llvm::Instruction* after = slot->getNextNode();
  llvm::DILocation* at = llvm::DILocation::get(f->getContext(), l, 0, sp);
  if (after)
    builder_->insertDeclare(slot, var, builder_->createExpression(), at, after);
  else
    builder_->insertDeclare(slot, var, builder_->createExpression(), at, slot->getParent());
}

void DebugInfo::finish() {
  for (llvm::Function& f : module_) {
    if (f.isDeclaration()) continue;
    if (!f.getSubprogram()) begin_function(&f, f.getName().str(), main_file_, 0);
    llvm::DISubprogram* sp = f.getSubprogram();
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& i : bb)
        if (!i.getDebugLoc()) i.setDebugLoc(llvm::DILocation::get(f.getContext(), sp->getLine(), 0, sp));
  }
  builder_->finalize();
}

}  // namespace cuhost::codegen
