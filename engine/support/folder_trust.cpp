// Folder ownership and permission checks (see folder_trust.h).
#include "support/folder_trust.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace cuhost::support {

namespace {

std::string mode_text(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

std::string writers(mode_t mode) {
  const bool group = mode & S_IWGRP, other = mode & S_IWOTH;
  return group && other ? "its group and all users" : group ? "its group" : "all users";
}

// The folders above `dir`, nearest first ("/a/b/c" -> "/a/b", "/a", "/").
std::vector<std::string> ancestors(const std::string& dir) {
  std::vector<std::string> out;
  std::string cur = dir;
  while (cur.size() > 1 && cur.back() == '/') cur.pop_back();
  for (;;) {
    std::size_t slash = cur.find_last_of('/');
    if (slash == std::string::npos) break;
    cur = slash == 0 ? "/" : cur.substr(0, slash);
    out.push_back(cur);
    if (cur == "/") break;
  }
  return out;
}

}  // namespace

std::string untrusted_folder_reason(const std::string& dir, OwnerRule rule) {
  const uid_t me = geteuid();
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return "it cannot be examined";
  if (!S_ISDIR(st.st_mode)) return "it is not a folder";
  const bool owner_ok = st.st_uid == me || (rule == OwnerRule::CurrentUserOrRoot && st.st_uid == 0);
  if (!owner_ok) return concat("it belongs to another user (uid ", st.st_uid, "; cuhost runs as uid ", me, ")");
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return concat("it is writable by ", writers(st.st_mode), " (mode ", mode_text(st.st_mode), ")");
  // A folder above that others may write without the sticky bit lets them
  // rename this one away and put their own in its place. Only absolute
  // paths are walked: a relative one is resolved against the working folder.
  std::string absolute = dir;
  if (absolute.empty() || absolute[0] != '/') {
    char buf[4096];
    if (!getcwd(buf, sizeof buf)) return "";
    absolute = std::string(buf) + "/" + dir;
  }
  for (const std::string& up : ancestors(absolute)) {
    struct stat ust {};
    if (stat(up.c_str(), &ust) != 0) return concat("the folder above it, ", up, ", cannot be examined");
    if (ust.st_uid != me && ust.st_uid != 0)
      return concat("the folder above it, ", up, ", belongs to another user (uid ", ust.st_uid, ")");
    if ((ust.st_mode & (S_IWGRP | S_IWOTH)) && !(ust.st_mode & S_ISVTX))
      return concat("the folder above it, ", up, ", is writable by ", writers(ust.st_mode),
                    " without the sticky bit (mode ", mode_text(ust.st_mode), ")");
  }
  return "";
}

void warn_untrusted_folder(const std::string& what, const std::string& dir, const std::string& reason,
                           const std::string& consequence) {
  static std::mutex mutex;
  static auto* warned = new std::set<std::string>();  // never destroyed: warnings may come during exit
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!warned->insert(dir).second) return;
  }
  std::fprintf(stderr, "cuhost: warning: not using %s %s: %s; %s\n", what.c_str(), dir.c_str(), reason.c_str(),
               consequence.c_str());
}

}  // namespace cuhost::support
