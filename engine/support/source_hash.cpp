// Content keys for foreign sources (see source_hash.h).
#include "support/source_hash.h"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace cuhost {

namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The file a line's quoted #include names (`#include "x.h"`, spaces allowed
// around `#`), or "" for any other line. A scan, not a std::regex: building
// the regex was a tenth of the host time of the first cached call of a
// kernel linking a .cu (issue 34, P6).
std::string quoted_include(const char* p, const char* end) {
  while (p < end && is_space(*p)) ++p;
  if (p == end || *p++ != '#') return "";
  while (p < end && is_space(*p)) ++p;
  static constexpr char kInclude[] = "include";
  constexpr std::size_t kLength = sizeof(kInclude) - 1;
  if (static_cast<std::size_t>(end - p) < kLength || std::memcmp(p, kInclude, kLength) != 0) return "";
  p += kLength;
  while (p < end && is_space(*p)) ++p;
  if (p == end || *p++ != '"') return "";
  const char* close = static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
  return close && close > p ? std::string(p, close) : "";
}

void hash_recursive(const std::string& text, const std::string& dir, const std::vector<std::string>& search,
                    std::set<std::string>& seen, Hasher& h, int depth) {
  if (depth > 32) return;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t stop = text.find('\n', start);
    if (stop == std::string::npos) stop = text.size();
    const std::string name = quoted_include(text.data() + start, text.data() + stop);
    start = stop + 1;
    if (name.empty()) continue;
    std::vector<std::string> candidates;
    if (!dir.empty()) candidates.push_back(dir + "/" + name);
    for (const auto& s : search) candidates.push_back(s + "/" + name);
    for (const auto& c : candidates) {
      if (!is_file(c)) continue;
      if (!seen.insert(c).second) break;
      std::string content;
      if (read_whole_file(c, content)) {
        h.add(c);
        h.add(content);
        hash_recursive(content, c.substr(0, c.find_last_of('/')), search, seen, h, depth + 1);
      }
      break;
    }
  }
}

}  // namespace

void hash_quoted_includes(const std::string& text, const std::string& dir, const std::vector<std::string>& search,
                          Hasher& h) {
  std::set<std::string> seen;
  hash_recursive(text, dir, search, seen, h, 0);
}

bool read_whole_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

}  // namespace cuhost
