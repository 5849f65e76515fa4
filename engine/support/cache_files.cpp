// Cache folders and entries that only their owner writes (see cache_files.h).
#include "support/cache_files.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "support/folder_trust.h"

namespace cuhost {

namespace {

// Creates the missing folders of `path` with mode 0700 (existing ones are
// left as they are; folder_trust decides whether they may be used).
void make_private_dirs(const std::string& path) {
  for (std::size_t pos = path.find('/', 1); pos != std::string::npos; pos = path.find('/', pos + 1))
    mkdir(path.substr(0, pos).c_str(), 0700);
  mkdir(path.c_str(), 0700);
}

// 16 random hex digits for a temporary name no one can guess in advance.
std::string random_suffix() {
  unsigned char bytes[8] = {};
  if (getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    // No entropy source: the name is still made exclusively (O_EXCL), only guessable.
    std::uint64_t v = (static_cast<std::uint64_t>(getpid()) << 32) ^ reinterpret_cast<std::uintptr_t>(&bytes);
    for (unsigned char& b : bytes) {
      b = static_cast<unsigned char>(v);
      v >>= 8;
    }
  }
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string cache_folder(const std::string& kind) {
  std::string base;
  if (const char* d = std::getenv("CUHOST_CACHE_DIR"); d && *d) {
    base = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    base = std::string(x) + "/cuhost";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = std::string(home) + "/.cache/cuhost";
  } else {
    return "";
  }
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  std::string dir = base + "/" + kind;
  make_private_dirs(dir);
  std::string why = support::untrusted_folder_reason(dir, support::OwnerRule::CurrentUser);
  if (!why.empty()) {
    support::warn_untrusted_folder("the cache folder", dir, why,
                                   "compiled code is cached in memory only (make the folder yours with mode 0700, "
                                   "or set CUHOST_CACHE_DIR)");
    return "";
  }
  return dir;
}

bool write_file_atomically(const std::string& path, const std::string& data) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::string tmp = path + ".tmp." + random_suffix();
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      if (errno == EEXIST) continue;  // taken (or planted): another name
      return false;
    }
    bool ok = write_all(fd, data);
    ok = close(fd) == 0 && ok;
    if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) return true;
    unlink(tmp.c_str());
    return false;
  }
  return false;
}

bool read_cache_entry(const std::string& path, std::string& out) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
  std::string data;
  if (ok) {
    data.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (ok && done < data.size()) {
      ssize_t n = read(fd, &data[done], data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ok = false;
        break;
      }
      done += static_cast<std::size_t>(n);
    }
  }
  close(fd);
  if (ok) out = std::move(data);
  return ok;
}

}  // namespace cuhost
