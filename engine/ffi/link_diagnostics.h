// Collecting the IR linker's diagnostics (llvm::Linker reports a symbol
// defined twice through the context's handler, whose default prints and
// exits the process); used by both backends' foreign-code linking.
#pragma once

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

namespace cuhost::ffi {

// Collects the diagnostics of `c` while alive; restores the previous handler.
class LinkDiagnostics {
 public:
  explicit LinkDiagnostics(llvm::LLVMContext& c)
      : c_(c), old_(c.getDiagnosticHandlerCallBack()), old_ctx_(c.getDiagnosticContext()) {
    c.setDiagnosticHandlerCallBack(&LinkDiagnostics::handle, this);
  }
  ~LinkDiagnostics() { c_.setDiagnosticHandlerCallBack(old_, old_ctx_); }
  const std::string& text() const { return text_; }

 private:
  static void handle(const llvm::DiagnosticInfo* di, void* self) {
    std::string s;
    llvm::raw_string_ostream os(s);
    llvm::DiagnosticPrinterRawOStream printer(os);
    di->print(printer);
    auto* me = static_cast<LinkDiagnostics*>(self);
    if (!me->text_.empty()) me->text_ += "\n";
    me->text_ += os.str();
  }
  llvm::LLVMContext& c_;
  llvm::DiagnosticHandler::DiagnosticHandlerTy old_;
  void* old_ctx_;
  std::string text_;
};

}  // namespace cuhost::ffi
