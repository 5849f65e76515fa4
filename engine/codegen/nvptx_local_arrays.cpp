// See nvptx_local_arrays.h.
#include "codegen/nvptx_local_arrays.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <vector>

namespace cuhost::codegen {

bool is_local_array(const llvm::AllocaInst& a) { return a.getName().starts_with(kLocalArrayName); }

void place_local_arrays(llvm::Module& m) {
  const llvm::DataLayout& layout = m.getDataLayout();
  const llvm::Align frame(kGpuFrameAlign);
  std::vector<llvm::AllocaInst*> by_hand;
  for (llvm::Function& f : m) {
    for (llvm::BasicBlock& bb : f) {
      for (llvm::Instruction& i : bb) {
        auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i);
        if (!a) continue;
        if (a->getAlign() > frame && a->isStaticAlloca()) {
          by_hand.push_back(a);
        } else if (is_local_array(*a) && a->getAlign() < frame) {
          a->setAlignment(frame);
        }
      }
    }
  }
  for (llvm::AllocaInst* a : by_hand) {
    const std::uint64_t align = a->getAlign().value();
    std::optional<llvm::TypeSize> size = a->getAllocationSize(layout);
    if (!size || size->isScalable()) continue;
    llvm::IRBuilder<> b(a);
    const std::uint64_t bytes = size->getFixedValue() + align - std::uint64_t(kGpuFrameAlign);
    llvm::AllocaInst* room = b.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), bytes), a->getAddressSpace(), nullptr,
                                            a->getName() + ".room");
    room->setAlignment(frame);
    llvm::Value* padding =
        b.CreateAnd(b.CreateNeg(b.CreatePtrToInt(room, b.getInt64Ty())), b.getInt64(std::int64_t(align - 1)));
    llvm::Value* aligned = b.CreateGEP(b.getInt8Ty(), room, padding);
    aligned->takeName(a);
    a->replaceAllUsesWith(aligned);
    a->eraseFromParent();
  }
}

}  // namespace cuhost::codegen
