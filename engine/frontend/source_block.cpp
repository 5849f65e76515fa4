// Indentation-based cut of a function's source (see source_block.h).
#include "frontend/source_block.h"

namespace cuhost::frontend {
namespace {

std::string leading_whitespace(const std::string& line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return line.substr(0, n);
}

// Blank or comment-only lines belong to whatever block surrounds them.
bool is_filler(const std::string& line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t' || line[n] == '\r' || line[n] == '\f')) ++n;
  return n == line.size() || line[n] == '\n' || line[n] == '#';
}

bool starts_def(const std::string& line, std::size_t indent) {
  return line.compare(indent, 4, "def ") == 0 || line.compare(indent, 10, "async def ") == 0;
}

}  // namespace

std::optional<SourceBlock> function_block(const std::vector<std::string>& file_lines, int first_line) {
  if (first_line < 1 || first_line > static_cast<int>(file_lines.size())) return std::nullopt;
  const std::size_t first = static_cast<std::size_t>(first_line - 1);
  const std::string prefix = leading_whitespace(file_lines[first]);
  // The def line: the first one at the decorators' indentation that starts a def.
  std::size_t def = first;
  while (def < file_lines.size() &&
         !(leading_whitespace(file_lines[def]) == prefix && starts_def(file_lines[def], prefix.size())))
    ++def;
  if (def == file_lines.size()) return std::nullopt;
  // The body: every following line indented deeper than the def (fillers too).
  std::size_t end = def + 1;
  while (end < file_lines.size() &&
         (is_filler(file_lines[end]) || leading_whitespace(file_lines[end]).size() > prefix.size()))
    ++end;
  while (end > def + 1 && is_filler(file_lines[end - 1])) --end;

  SourceBlock block;
  block.indent = static_cast<int>(prefix.size());
  for (std::size_t i = first; i < end; ++i) {
    const std::string& line = file_lines[i];
    if (line.compare(0, prefix.size(), prefix) == 0) {
      block.text += line.substr(prefix.size());
    } else if (is_filler(line)) {
      block.text += "\n";  // a comment or blank line less indented than the function
    } else {
      return std::nullopt;
    }
    if (block.text.empty() || block.text.back() != '\n') block.text += '\n';
  }
  return block;
}

}  // namespace cuhost::frontend
