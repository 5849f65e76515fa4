// Parsing of cuda.inline_ptx's constraint string and PTX template (see
// inline_ptx_spec.h): one place decides what a constraint means, for typing
// and lowering alike.
#include "sema/typing/inline_ptx_spec.h"

#include <cctype>

namespace cuhost::sema {

namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// The entries of one section; an empty section has none.
std::vector<std::string> entries(const std::string& section) {
  std::vector<std::string> out;
  if (trim(section).empty()) return out;
  for (const std::string& p : split(section, ',')) out.push_back(trim(p));
  return out;
}

bool register_letter(char c) { return c == 'h' || c == 'r' || c == 'l' || c == 'f' || c == 'd'; }

}  // namespace

std::string parse_inline_ptx_constraints(const std::string& text, InlinePtxSpec* out) {
  *out = InlinePtxSpec{};
  std::vector<std::string> sections = split(text, ':');
  if (sections.size() > 3) return "has more than three ':'-separated sections (outputs : inputs : clobbers)";
  std::vector<std::string> pieces;
  if (sections.size() >= 1) {
    for (const std::string& e : entries(sections[0])) {
      if (e.size() != 2 || e[0] != '=' || !register_letter(e[1])) {
        if (!e.empty() && e[0] == '+')
          return "'" + e +
                 "': read-write outputs ('+') are not supported; pass the value as an input and take it back as an "
                 "output";
        return "'" + e + "' is not an output constraint: outputs are '=' and one of h r l f d";
      }
      out->outputs.push_back(e[1]);
      pieces.push_back(e);
    }
  }
  if (sections.size() >= 2) {
    for (const std::string& e : entries(sections[1])) {
      if (e.size() != 1 || !(register_letter(e[0]) || e[0] == 'n'))
        return "'" + e + "' is not an input constraint: inputs are one of h r l f d n";
      out->inputs.push_back(e[0]);
      pieces.push_back(e);
    }
  }
  if (sections.size() == 3) {
    for (const std::string& e : entries(sections[2])) {
      if (e != "memory") return "'" + e + "' is not a clobber: the only clobber is 'memory'";
      out->clobbers_memory = true;
    }
  }
  if (out->clobbers_memory) pieces.push_back("~{memory}");
  for (size_t i = 0; i < pieces.size(); ++i) out->llvm_constraints += (i ? "," : "") + pieces[i];
  return "";
}

std::string translate_inline_ptx_template(const std::string& ptx, std::size_t operand_count, std::string* out) {
  out->clear();
  for (size_t i = 0; i < ptx.size(); ++i) {
    char c = ptx[i];
    if (c == '$') {
      *out += "$$";
    } else if (c == '%' && i + 1 < ptx.size() && ptx[i + 1] == '%') {
      *out += '%';
      ++i;
    } else if (c == '%' && i + 1 < ptx.size() && std::isdigit(static_cast<unsigned char>(ptx[i + 1]))) {
      size_t j = i + 1;
      std::size_t n = 0;
      while (j < ptx.size() && std::isdigit(static_cast<unsigned char>(ptx[j])))
        n = n * 10 + std::size_t(ptx[j++] - '0');
      if (n >= operand_count)
        return "refers to operand %" + std::to_string(n) + " but has " + std::to_string(operand_count) + " operand" +
               (operand_count == 1 ? "" : "s");
      *out += "$" + std::to_string(n);
      i = j - 1;
    } else {
      *out += c;
    }
  }
  return "";
}

}  // namespace cuhost::sema
