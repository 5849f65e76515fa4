// DebugInfo (debug_info.h): DIBuilder bookkeeping for line tables.
#include "codegen/debug_info.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>

namespace cuhost::codegen {

namespace {

// Splits a path into (directory, file name) as DIFile wants them.
std::pair<std::string, std::string> split_path(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

}  // namespace

DebugInfo::DebugInfo(llvm::Module& m, const std::string& file)
    : module_(m), builder_(std::make_unique<llvm::DIBuilder>(m)), main_file_(file.empty() ? "<unknown>" : file) {
  unit_ = builder_->createCompileUnit(llvm::dwarf::DW_LANG_Python, file_for(main_file_), "cuhost", true, "", 0, "",
                                      llvm::DICompileUnit::DebugDirectivesOnly);
  m.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
  m.addModuleFlag(llvm::Module::Warning, "Dwarf Version", 4);
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
                                            int line) {
  llvm::DIFile* df = file_for(file.empty() ? main_file_ : file);
  unsigned l = line > 0 ? unsigned(line) : 0;
  llvm::DISubroutineType* ty = builder_->createSubroutineType(builder_->getOrCreateTypeArray({}));
  llvm::DISubprogram* sp =
      builder_->createFunction(df, name, f->getName(), df, l, ty, l, llvm::DINode::FlagZero,
                               llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized);
  f->setSubprogram(sp);
  return llvm::DILocation::get(f->getContext(), l, 0, sp);
}

llvm::DILocation* DebugInfo::location(llvm::Function* f, int line, int column) {
  llvm::DISubprogram* sp = f->getSubprogram();
  if (!sp) return nullptr;
  unsigned l = line > 0 ? unsigned(line) : sp->getLine();
  return llvm::DILocation::get(f->getContext(), l, column > 0 ? unsigned(column) : 0, sp);
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
