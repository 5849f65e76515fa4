// The watch thread of live kernels (script_watch.h). Events name a file in a
// followed folder; the file is then read and hashed, and only a new hash is a
// change. Writes are taken when the writer closes the file or renames it into
// place (IN_CLOSE_WRITE, IN_MOVED_TO), never half-written (IN_MODIFY).
#include "runtime/script_watch.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "support/hash.h"
#include "support/source_hash.h"

namespace cuhost::runtime {
namespace {

std::string hash_of(const std::string& text) {
  Hasher h;
  h.add(text);
  return h.hex();
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string absolute_script_path(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

ScriptWatch::ScriptWatch(Changed changed, std::function<void()> refresh, int refresh_ms)
    : changed_(std::move(changed)), refresh_(std::move(refresh)), refresh_ms_(refresh_ms) {
  inotify_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
  thread_ = std::thread([this] { run(); });
}

ScriptWatch::~ScriptWatch() {
  stop();
  if (inotify_ >= 0) close(inotify_);
  for (int fd : wake_)
    if (fd >= 0) close(fd);
}

void ScriptWatch::stop() {
  if (stopping_.exchange(true)) {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
    return;
  }
  if (wake_[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] ssize_t n = write(wake_[1], &byte, 1);
  }
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void ScriptWatch::add(const std::string& path) {
  const std::string file = absolute_script_path(path);
  std::lock_guard<std::mutex> lock(mutex_);
  if (files_.count(file)) return;
  File f;
  if (auto early = folder_snapshot_.find(file); early != folder_snapshot_.end()) {
    f = early->second;         // as it was when its folder was first followed: before the script imported it
    recheck_.push_back(file);  // an edit since then was not reported: the watch thread looks again
  } else if (read_whole_file(file, f.text)) {
    f.hash = hash_of(f.text);
  }
  files_[file] = std::move(f);
  const std::string folder = folder_of(file);
  if (!wd_of_folder_.count(folder)) {
    // The other modules of a followed folder are imported later, maybe after
    // an edit: their text now is the baseline they will be followed from.
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
      const std::string other = entry.path().string();
      if (entry.path().extension() != ".py" || files_.count(other) || folder_snapshot_.count(other)) continue;
      File g;
      if (read_whole_file(other, g.text)) g.hash = hash_of(g.text);
      folder_snapshot_[other] = std::move(g);
    }
    wd_of_folder_[folder] = -1;
  }
  if (inotify_ >= 0 && wd_of_folder_[folder] < 0) {
    const int wd = inotify_add_watch(inotify_, folder.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE);
    if (wd >= 0) {
      wd_of_folder_[folder] = wd;
      folder_of_wd_[wd] = folder;
    }
  }
}

std::vector<std::string> ScriptWatch::files() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [path, f] : files_) out.push_back(path);
  return out;
}

void ScriptWatch::check(const std::string& path) {
  std::string text, old_text;
  if (!read_whole_file(path, text)) return;  // removed or being replaced: the rename that follows is seen
  const std::string hash = hash_of(text);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = files_.find(path);
    if (it == files_.end() || it->second.hash == hash) return;
    old_text = std::move(it->second.text);
    it->second.text = text;
    it->second.hash = hash;
  }
  changed_(path, old_text, text);
}

void ScriptWatch::run() {
  // Reloads compile here: below the launching threads' priority, so that on
  // the CPU backend (where kernels need the cores too) a compile does not
  // delay launches; a failure leaves the default priority.
  [[maybe_unused]] int niced = setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
  using Clock = std::chrono::steady_clock;
  auto next_refresh = Clock::now();
  alignas(struct inotify_event) char buffer[16 * (sizeof(struct inotify_event) + NAME_MAX + 1)];
  while (!stopping_.load(std::memory_order_acquire)) {
    if (Clock::now() >= next_refresh) {
      if (refresh_) refresh_();
      next_refresh = Clock::now() + std::chrono::milliseconds(refresh_ms_);
      if (inotify_ < 0)  // no inotify: the hashes are polled instead
        for (const std::string& path : files()) check(path);
      std::vector<std::string> again;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        again.swap(recheck_);
      }
      for (const std::string& path : again) check(path);
    }
    struct pollfd fds[2] = {{wake_[0], POLLIN, 0}, {inotify_, POLLIN, 0}};
    const int wait_ms =
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(next_refresh - Clock::now()).count());
    const int ready = poll(fds, inotify_ >= 0 ? 2 : 1, wait_ms > 0 ? wait_ms : 0);
    if (ready <= 0 || stopping_.load(std::memory_order_acquire)) continue;
    if (!(fds[1].revents & POLLIN)) continue;
    std::vector<std::string> touched;
    for (;;) {
      const ssize_t n = read(inotify_, buffer, sizeof buffer);
      if (n <= 0) break;
      for (char* p = buffer; p < buffer + n;) {
        const auto* e = reinterpret_cast<const struct inotify_event*>(p);
        p += sizeof(struct inotify_event) + e->len;
        if (!e->len) continue;
        std::lock_guard<std::mutex> lock(mutex_);
        auto folder = folder_of_wd_.find(e->wd);
        if (folder == folder_of_wd_.end()) continue;
        const std::string path = folder->second + "/" + e->name;
        if (files_.count(path) && std::find(touched.begin(), touched.end(), path) == touched.end())
          touched.push_back(path);
      }
    }
    for (const std::string& path : touched) check(path);
  }
}

}  // namespace cuhost::runtime
