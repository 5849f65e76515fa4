// Grid-stride loops (`while i < a.size: ...; i += cuda.gridsize(1)` and
// `for i in range(start, a.size, cuda.gridsize(1))`): recognized so their
// increment can carry `nsw` and the loop an unroll request. Without both,
// LLVM cannot compute the trip count of a loop with a run-time stride and
// keeps one dependent load per iteration; with them it unrolls 4x (with a
// remainder loop) and keeps four loads in flight, as nvcc does.
//
// Why `nsw` is exact here: the loop variable is below an array extent
// (below 2^48 on any machine: extents count elements of real memory) and the
// grid size is below 2^41 (2^31 blocks of 1024 threads), so the increment
// cannot pass 2^63.
#pragma once

namespace llvm {
class Instruction;
}

namespace cuhost::ast {
struct AugAssign;
struct Expr;
struct For;
struct While;
}  // namespace cuhost::ast

namespace cuhost::codegen {

class Lowerer;

// The increment statement of a grid-stride while loop, or null when `w` is
// not one (the test must be `name < extent`, the body's last statement
// `name += cuda.gridsize(1)`, nothing else assigning `name`, no break,
// continue or return in the body).
const ast::AugAssign* grid_stride_increment(Lowerer& l, const ast::While* w);

// Whether a range loop's stop is an array extent and its step cuda.gridsize(1).
bool is_grid_stride_range(Lowerer& l, const ast::Expr* stop, const ast::Expr* step);

// Whether `e` is cuda.gridsize(1) (always positive).
bool is_grid_size(Lowerer& l, const ast::Expr* e);

// Attaches llvm.loop metadata asking for `count`-fold unrolling to a loop's
// back-edge branch.
void request_unroll(llvm::Instruction* backedge, unsigned count);

}  // namespace cuhost::codegen
