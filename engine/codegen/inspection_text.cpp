// See inspection_text.h.
#include "codegen/inspection_text.h"

#include <llvm/IR/AssemblyAnnotationWriter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FormattedStream.h>
#include <llvm/Support/raw_ostream.h>

#include <string_view>

#include "codegen/nvptx_local_arrays.h"

namespace cuhost::codegen {
namespace {

// Ends the line of each alloca to print without its alignment; the marker
// cannot occur in LLVM's text otherwise (comments of its own are `; `).
constexpr std::string_view kMarker = ";;cuhost-natural-align";

class MarkNaturalAlign : public llvm::AssemblyAnnotationWriter {
 public:
  explicit MarkNaturalAlign(const llvm::DataLayout& layout) : layout_(layout) {}

  void printInfoComment(const llvm::Value& v, llvm::formatted_raw_ostream& os) override {
    const auto* a = llvm::dyn_cast<llvm::AllocaInst>(&v);
    if (a && is_local_array(*a) && a->getAlign() == layout_.getPrefTypeAlign(a->getAllocatedType())) os << kMarker;
  }

 private:
  const llvm::DataLayout& layout_;
};

// `  %x = alloca [8 x i32], align 4` -> `  %x = alloca [8 x i32]` (metadata
// attachments after the alignment stay).
std::string without_alignment(std::string_view line) {
  std::size_t at = line.find(", align ");
  if (at == std::string_view::npos) return std::string(line);
  std::size_t end = at + 8;
  while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
  return std::string(line.substr(0, at)) + std::string(line.substr(end));
}

}  // namespace

std::string inspection_text(const llvm::Module& m) {
  MarkNaturalAlign marker(m.getDataLayout());
  std::string printed;
  llvm::raw_string_ostream os(printed);
  m.print(os, &marker);
  os.flush();
  std::string text;
  text.reserve(printed.size());
  std::size_t start = 0;
  while (start < printed.size()) {
    std::size_t end = printed.find('\n', start);
    if (end == std::string::npos) end = printed.size();
    std::string_view line(printed.data() + start, end - start);
    if (line.size() >= kMarker.size() && line.substr(line.size() - kMarker.size()) == kMarker) {
      text += without_alignment(line.substr(0, line.size() - kMarker.size()));
    } else {
      text += line;
    }
    if (end < printed.size()) text += '\n';
    start = end + 1;
  }
  return text;
}

}  // namespace cuhost::codegen
