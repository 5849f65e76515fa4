// Loops over enumerate(...) and zip(...) (typing/iterators.cpp): each
// underlying sequence (range, array, tuple) is evaluated once before the
// loop; the loop counts 0..n-1 with n the shortest length, and item i is
// built from item i of each sequence.
#pragma once

#include <vector>

#include "codegen/lowering/lowerer.h"

namespace cuhost::codegen {

struct SequencePlan {
  enum class Kind { Range, Tuple, Array, Enumerate, Zip } kind = Kind::Range;
  Val value;                             // Tuple, Array: the evaluated sequence
  llvm::Value* start = nullptr;          // Range (i64); Enumerate: the first count
  llvm::Value* step = nullptr;           // Range (i64)
  const ir::Type* index_type = nullptr;  // Range: the loop variable's type
  llvm::Value* length = nullptr;         // i64, >= 0
  std::vector<SequencePlan> children;    // Enumerate (1), Zip (n)
  const ir::Type* item_type = nullptr;
};

// Evaluates the sequences of the iterable `seq` (an enumerate/zip call, or
// one of their arguments) and computes its length.
SequencePlan plan_sequence(Lowerer& l, const ast::Expr* seq);
// Item `i` (i64, 0 <= i < length) of the planned iterable.
Val sequence_item(Lowerer& l, const SequencePlan& p, llvm::Value* i);

}  // namespace cuhost::codegen
