// Fixed-width strings (NumPy S<n>/U<n>, numba's CharSeq/UnicodeCharSeq): a
// str or bytes constant converted to one is an [n x iW] constant, truncated
// to n characters and NUL-padded, as NumPy assigns a string to an element.
#include <llvm/IR/Constants.h>

#include "codegen/lowering/lowerer.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {

namespace {

// The code points of UTF-8 text (typing let only valid str constants here).
std::vector<std::uint32_t> code_points(const std::string& text) {
  std::vector<std::uint32_t> out;
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    std::uint32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra && i + size_t(k) < text.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + size_t(k)]) & 0x3F);
    out.push_back(cp);
    i += size_t(extra) + 1;
  }
  return out;
}

}  // namespace

Val char_seq_from_literal(Lowerer& l, const ir::Type* literal, const ir::Type* to) {
  CUHOST_CHECK(to->kind == ir::TypeKind::CharSeq) << "not a fixed-width string: " << to->str();
  std::vector<std::uint32_t> chars;
  if (literal->kind == ir::TypeKind::StringLiteral) {
    chars = code_points(literal->key);
  } else {
    for (char c : literal->key) chars.push_back(static_cast<unsigned char>(c));
  }
  chars.resize(static_cast<size_t>(to->ndim), 0);  // truncated, or padded with NULs
  llvm::Type* ct = llvm::Type::getIntNTy(l.ctx(), unsigned(to->bits));
  std::vector<llvm::Constant*> items;
  for (std::uint32_t c : chars) items.push_back(llvm::ConstantInt::get(ct, c));
  return {llvm::ConstantArray::get(llvm::ArrayType::get(ct, items.size()), items), to};
}

}  // namespace cuhost::codegen
