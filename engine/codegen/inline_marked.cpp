// Early inlining of inline=True device functions (see inline_marked.h).
#include "codegen/inline_marked.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <vector>

namespace cuhost::codegen {

void inline_marked_calls(llvm::Module& m) {
  // A marked function calling another marked one is inlined round by round;
  // recursion (a call to the caller itself) is left as a call.
  for (int round = 0; round < 16; ++round) {
    std::vector<llvm::CallBase*> calls;
    for (llvm::Function& f : m)
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
          if (auto* cb = llvm::dyn_cast<llvm::CallBase>(&i))
            if (llvm::Function* callee = cb->getCalledFunction())
              if (!callee->isDeclaration() && callee != &f && callee->hasFnAttribute(kInlineMarker))
                calls.push_back(cb);
    if (calls.empty()) break;
    bool changed = false;
    for (llvm::CallBase* cb : calls) {
      llvm::InlineFunctionInfo info;
      // No lifetime markers: the IR then reads as if the body had been written in place.
      changed |= llvm::InlineFunction(*cb, info, /*MergeAttributes=*/false, /*CalleeAAR=*/nullptr,
                                      /*InsertLifetime=*/false)
                     .isSuccess();
    }
    if (!changed) break;
  }
  std::vector<llvm::Function*> dead;
  for (llvm::Function& f : m) {
    if (!f.hasFnAttribute(kInlineMarker)) continue;
    f.removeFnAttr(kInlineMarker);
    if (f.use_empty() && f.hasLocalLinkage()) dead.push_back(&f);
  }
  for (llvm::Function* f : dead) f->eraseFromParent();
}

}  // namespace cuhost::codegen
