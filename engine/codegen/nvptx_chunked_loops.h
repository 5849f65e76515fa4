// Cancellation points of counted loops under a GPU deadline
// (nvptx_cancellation.h). A countdown beside a loop's own induction variable
// costs a subtract and a compare-and-branch in every iteration, which a
// short loop body feels (4-5% on the P7 kernels). A loop whose exit test
// compares an induction variable with a loop-invariant bound instead gets
// its test pointed at the end of the current chunk of
// kCancellationInterval iterations: iterations inside a chunk run exactly
// the instructions they ran before; at a chunk's end the loop leaves to one
// block that makes the original test, reads the flag and computes the next
// chunk's end. Loops that end within their first chunk never read it.
#pragma once

#include <cstdint>
#include <optional>

#include <llvm/IR/IRBuilder.h>

namespace llvm {
class BasicBlock;
class BranchInst;
class GlobalVariable;
class Loop;
class PHINode;
class ScalarEvolution;
class Value;
}  // namespace llvm

namespace cuhost::codegen {

// What chunk_loop needs of a counted loop, read before any loop is changed.
struct ChunkPlan {
  enum class Kind { Below, Above, NotEqual };  // continue while v < n, v > n, v != n
  llvm::BasicBlock* preheader = nullptr;       // the one block outside the loop that enters it
  llvm::BasicBlock* header = nullptr;
  llvm::BasicBlock* latch = nullptr;
  llvm::BranchInst* branch = nullptr;  // the latch's conditional branch
  llvm::PHINode* iv = nullptr;         // the induction variable in the header
  llvm::Value* compared = nullptr;     // iv or iv + step, as the test reads it
  llvm::Value* bound = nullptr;        // loop-invariant
  llvm::Value* step = nullptr;  // loop-invariant; positive for Below, negative for Above, a constant for NotEqual
  unsigned predicate = 0;       // llvm::CmpInst::Predicate of "continue while predicate(compared, bound)"
  Kind kind = Kind::Below;
};

// The plan for `loop`, or none when its exit test is not of that form (the
// loop then keeps a countdown).
std::optional<ChunkPlan> plan_chunks(llvm::Loop* loop, llvm::ScalarEvolution& se);

// The distance the tested value moves in `iterations` iterations (|step| *
// iterations, saturating at the type's limit), computed at b.
llvm::Value* chunk_span(llvm::IRBuilder<>& b, const ChunkPlan& plan, uint64_t iterations);

// The first value the loop's test reads, computed at b (in or after the
// preheader).
llvm::Value* first_tested(llvm::IRBuilder<>& b, const ChunkPlan& plan);

// The end of the chunk that starts where the test reads `first` and spans
// `span`: the loop's bound itself when the loop ends within it.
llvm::Value* chunk_end(llvm::IRBuilder<>& b, const ChunkPlan& plan, llvm::Value* first, llvm::Value* span);

// Rewrites the loop of `plan` to test the end of its chunk (see above).
void chunk_loop(const ChunkPlan& plan, llvm::GlobalVariable* flag_address);

}  // namespace cuhost::codegen
