// Unit tests of the cache folders and entries only their owner writes
// (support/cache_files.h, support/folder_trust.h): folders are made 0700 and
// entries 0600; a folder writable by its group or all users, below a folder
// others may write without the sticky bit, or owned by another user is
// refused with one warning naming it and why; a symbolic link planted at an
// entry's path or at the old predictable temporary name is never followed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "support/cache_files.h"
#include "support/folder_trust.h"

using namespace cuhost;

namespace {

// A fresh private folder under /tmp, removed at the end.
struct TempFolder {
  std::string path;
  TempFolder() {
    char tmpl[] = "/tmp/cuhost-cache-test-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempFolder() {
    int rc = std::system(("rm -rf '" + path + "'").c_str());
    (void)rc;
  }
};

// Sets CUHOST_CACHE_DIR for one scope.
struct CacheDir {
  explicit CacheDir(const std::string& dir) { setenv("CUHOST_CACHE_DIR", dir.c_str(), 1); }
  ~CacheDir() { unsetenv("CUHOST_CACHE_DIR"); }
};

// What `fn` writes on stderr.
template <typename Fn>
std::string stderr_of(Fn fn) {
  std::fflush(stderr);
  char tmpl[] = "/tmp/cuhost-stderr-XXXXXX";
  int fd = mkstemp(tmpl);
  REQUIRE(fd >= 0);
  int saved = dup(2);
  dup2(fd, 2);
  fn();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(tmpl);
  std::stringstream ss;
  ss << in.rdbuf();
  unlink(tmpl);
  return ss.str();
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("cache folders are made 0700 and entries 0600, written whole and read back", "[cache]") {
  TempFolder t;
  const std::string base = t.path + "/new/cache";
  CacheDir env(base);
  std::string dir = cache_folder("kernels");
  REQUIRE(dir == base + "/kernels");
  CHECK(mode_of(base) == 0700);
  CHECK(mode_of(dir) == 0700);
  const std::string entry = dir + "/abc.bin";
  const std::string payload = std::string("\x00\x01 entry \xff", 11) + std::string(70000, 'k');
  REQUIRE(write_file_atomically(entry, payload));
  CHECK(mode_of(entry) == 0600);
  std::string back;
  REQUIRE(read_cache_entry(entry, back));
  CHECK(back == payload);
  // No temporary file is left beside it.
  CHECK(std::system(("test $(ls -A '" + dir + "' | wc -l) -eq 1").c_str()) == 0);
}

TEST_CASE("a cache folder others may write is refused with one warning", "[cache]") {
  TempFolder t;
  CacheDir env(t.path);
  const std::string dir = t.path + "/nvrtc";
  REQUIRE(mkdir(dir.c_str(), 0700) == 0);
  REQUIRE(chmod(dir.c_str(), 0777) == 0);
  std::string first, second;
  std::string err = stderr_of([&] {
    first = cache_folder("nvrtc");
    second = cache_folder("nvrtc");
  });
  CHECK(first.empty());
  CHECK(second.empty());
  CHECK(err == "cuhost: warning: not using the cache folder " + dir +
                   ": it is writable by its group and all users (mode 0777); compiled code is cached in memory only "
                   "(make the folder yours with mode 0700, or set CUHOST_CACHE_DIR)\n");
  // Group-writable only, another folder: its own warning.
  const std::string group = t.path + "/cubins";
  REQUIRE(mkdir(group.c_str(), 0700) == 0);
  REQUIRE(chmod(group.c_str(), 0770) == 0);
  err = stderr_of([&] { CHECK(cache_folder("cubins").empty()); });
  CHECK(err.find("not using the cache folder " + group + ": it is writable by its group (mode 0770)") !=
        std::string::npos);
  // Made private again, it is used.
  REQUIRE(chmod(dir.c_str(), 0700) == 0);
  CHECK(cache_folder("nvrtc") == dir);
}

TEST_CASE("a cache folder below a folder others may write without the sticky bit is refused", "[cache]") {
  TempFolder t;
  const std::string open_parent = t.path + "/shared";
  REQUIRE(mkdir(open_parent.c_str(), 0700) == 0);
  REQUIRE(chmod(open_parent.c_str(), 0777) == 0);
  CacheDir env(open_parent + "/mine");
  std::string dir;
  std::string err = stderr_of([&] { dir = cache_folder("kernels"); });
  CHECK(dir.empty());
  CHECK(err.find("the folder above it, " + open_parent +
                 ", is writable by its group and all users without the sticky bit (mode 0777)") != std::string::npos);
  // With the sticky bit (as /tmp has), no one else can rename the folder away.
  REQUIRE(chmod(open_parent.c_str(), 01777) == 0);
  CHECK(cache_folder("kernels") == open_parent + "/mine/kernels");
}

TEST_CASE("a cache folder owned by another user is refused", "[cache]") {
  if (geteuid() != 0) {
    WARN("not root: cannot give a folder to another user");
    return;
  }
  const passwd* nobody = getpwnam("nobody");
  REQUIRE(nobody != nullptr);
  TempFolder t;
  CacheDir env(t.path);
  const std::string dir = t.path + "/host-cxx";
  REQUIRE(mkdir(dir.c_str(), 0700) == 0);
  REQUIRE(chown(dir.c_str(), nobody->pw_uid, nobody->pw_gid) == 0);
  std::string got;
  std::string err = stderr_of([&] { got = cache_folder("host-cxx"); });
  CHECK(got.empty());
  CHECK(err.find("not using the cache folder " + dir + ": it belongs to another user (uid " +
                 std::to_string(nobody->pw_uid) + "; cuhost runs as uid 0)") != std::string::npos);
  // A plugin folder of another user is refused for the same reason; root's are trusted.
  CHECK(
      support::untrusted_folder_reason(dir, support::OwnerRule::CurrentUserOrRoot).find("it belongs to another user") ==
      0);
  CHECK(support::untrusted_folder_reason(t.path, support::OwnerRule::CurrentUserOrRoot).empty());
}

TEST_CASE("a symbolic link planted at an entry or its old temporary name is not followed", "[cache]") {
  TempFolder t;
  CacheDir env(t.path);
  const std::string dir = cache_folder("kernels");
  REQUIRE(!dir.empty());
  const std::string victim = t.path + "/victim.txt";
  { std::ofstream(victim) << "precious"; }
  const std::string entry = dir + "/key.bin";
  REQUIRE(symlink(victim.c_str(), entry.c_str()) == 0);
  // Reading: a link is a miss, never its target's content.
  std::string read;
  CHECK_FALSE(read_cache_entry(entry, read));
  // The name cuhost used to write through (path.tmp.<pid>) is a link too.
  const std::string old_tmp = entry + ".tmp." + std::to_string(getpid());
  REQUIRE(symlink(victim.c_str(), old_tmp.c_str()) == 0);
  REQUIRE(write_file_atomically(entry, "compiled code"));
  CHECK(contents(victim) == "precious");
  struct stat st {};
  REQUIRE(lstat(entry.c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));  // the link itself was replaced
  REQUIRE(read_cache_entry(entry, read));
  CHECK(read == "compiled code");
  // A link to a file that does not exist yet: replaced as well, nothing is created at its target.
  const std::string elsewhere = t.path + "/elsewhere";
  REQUIRE(mkdir(elsewhere.c_str(), 0700) == 0);
  const std::string linked_entry = dir + "/linked.bin";
  REQUIRE(symlink((elsewhere + "/target.bin").c_str(), linked_entry.c_str()) == 0);
  REQUIRE(write_file_atomically(linked_entry, "x"));
  CHECK(access((elsewhere + "/target.bin").c_str(), F_OK) != 0);
}

TEST_CASE("a cache entry of another user is not read", "[cache]") {
  if (geteuid() != 0) {
    WARN("not root: cannot give a file to another user");
    return;
  }
  const passwd* nobody = getpwnam("nobody");
  REQUIRE(nobody != nullptr);
  TempFolder t;
  const std::string entry = t.path + "/planted.bin";
  REQUIRE(write_file_atomically(entry, "planted"));
  REQUIRE(chown(entry.c_str(), nobody->pw_uid, nobody->pw_gid) == 0);
  std::string read;
  CHECK_FALSE(read_cache_entry(entry, read));
}
