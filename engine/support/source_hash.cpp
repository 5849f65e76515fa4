// Content keys for foreign sources (see source_hash.h).
#include "support/source_hash.h"

#include <sys/stat.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace cuhost {

namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void hash_recursive(const std::string& text, const std::string& dir, const std::vector<std::string>& search,
                    std::set<std::string>& seen, Hasher& h, int depth) {
  if (depth > 32) return;
  static const std::regex include_re(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, include_re)) continue;
    std::vector<std::string> candidates;
    if (!dir.empty()) candidates.push_back(dir + "/" + m[1].str());
    for (const auto& s : search) candidates.push_back(s + "/" + m[1].str());
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
