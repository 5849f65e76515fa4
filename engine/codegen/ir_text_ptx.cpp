// LLVM IR text to PTX (see ir_text_ptx.h).
#include "codegen/ir_text_ptx.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <vector>

#include "codegen/nvptx_backend.h"
#include "codegen/nvptx_local_arrays.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

std::unique_ptr<llvm::Module> parse(const std::string& text, llvm::LLVMContext& context, llvm::TargetMachine& tm,
                                    std::size_t index) {
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(text, diag, context);
  if (!m) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    diag.print(concat("module ", index).c_str(), os);
    throw UserError(ErrorKind::CompileError, concat("the LLVM IR does not parse:\n", os.str()));
  }
  // The module's own triple and data layout (NVVM's, or none) give way to
  // the NVPTX target's.
  m->setTargetTriple(tm.getTargetTriple().str());
  m->setDataLayout(tm.createDataLayout());
  return m;
}

}  // namespace

std::string compile_ir_text_to_ptx(const std::vector<std::string>& texts, int cc_major, int cc_minor, int opt,
                                   bool fastmath) {
  if (texts.empty()) throw UserError(ErrorKind::ValueError, "no LLVM IR to compile");
  std::unique_ptr<llvm::TargetMachine> tm = make_nvptx_target_machine(cc_major, cc_minor, fastmath, "", opt);
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m = parse(texts[0], context, *tm, 0);
  for (std::size_t i = 1; i < texts.size(); ++i)
    if (llvm::Linker::linkModules(*m, parse(texts[i], context, *tm, i)))
      throw UserError(ErrorKind::CompileError, concat("LLVM IR module ", i, " does not link with the others"));
  std::string problems;
  llvm::raw_string_ostream problem_stream(problems);
  if (llvm::verifyModule(*m, &problem_stream))
    throw UserError(ErrorKind::CompileError, concat("the LLVM IR is not valid:\n", problem_stream.str()));
  // Every function the text defines with outside linkage stays visible.
  std::vector<std::string> keep;
  for (const llvm::Function& f : *m)
    if (!f.isDeclaration() && !f.hasLocalLinkage()) keep.push_back(f.getName().str());
  for (const llvm::GlobalVariable& g : m->globals())
    if (!g.isDeclaration() && !g.hasLocalLinkage()) keep.push_back(g.getName().str());
  place_local_arrays(*m);  // ptxas's 16-byte frame, as for cuhost's own modules
  link_libdevice(*m, keep, fastmath);
  optimize_module(*m, *tm, opt);
  return emit_ptx(*m, *tm);
}

}  // namespace cuhost::codegen
