// The operand specification of cuda.inline_ptx (CUDA C's `asm volatile`):
// parsing of its constraint string ("=r : r, f : memory", the three sections
// of CUDA C's asm statement) and translation of its PTX template (%0 -> $0)
// into LLVM inline assembly. Shared by typing (typing/inline_ptx.cpp, which
// reports the errors) and lowering (lowering/inline_ptx.cpp, which builds the
// llvm::InlineAsm from the same description).
#pragma once

#include <string>
#include <vector>

namespace cuhost::sema {

struct InlinePtxSpec {
  std::vector<char> outputs;  // constraint letters of the outputs (h r l f d)
  std::vector<char> inputs;   // constraint letters of the inputs (h r l f d n)
  bool clobbers_memory = false;
  std::string llvm_constraints;  // "=r,r,f,~{memory}"
};

// Parses `text`; returns "" on success, else what is wrong with it.
std::string parse_inline_ptx_constraints(const std::string& text, InlinePtxSpec* out);

// Translates a CUDA C asm template for LLVM: %N -> $N (N < operand_count),
// %% -> %, $ -> $$; any other % is kept (PTX register names: %laneid).
// Returns "" on success, else what is wrong (an operand number out of range).
std::string translate_inline_ptx_template(const std::string& ptx, std::size_t operand_count, std::string* out);

}  // namespace cuhost::sema
