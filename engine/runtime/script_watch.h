// Following script files while a host runs (live kernels): inotify on the
// folders that hold them, and a content hash per file, so that an editor's
// save that changes nothing (or a touch) is no change, and a change that
// keeps the file time is still seen. One background thread waits for the
// events and calls back on it; the launch threads never see it.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace cuhost::runtime {

class ScriptWatch {
 public:
  // `changed(path, old_text, new_text)` runs on the watch thread for each
  // file whose content hash changed. `refresh()` runs on it too, about every
  // `refresh_ms`, to add files (modules imported since) with add().
  using Changed =
      std::function<void(const std::string& path, const std::string& old_text, const std::string& new_text)>;
  ScriptWatch(Changed changed, std::function<void()> refresh, int refresh_ms = 250);
  ~ScriptWatch();  // stops and joins the thread
  ScriptWatch(const ScriptWatch&) = delete;
  ScriptWatch& operator=(const ScriptWatch&) = delete;

  // Follows `path` (made absolute), its current content as the baseline (or,
  // for a file of a folder already followed, its content when that folder
  // was first followed: a module imported after an edit is still seen
  // changed); a file already followed is left as it is. Thread-safe.
  void add(const std::string& path);
  std::vector<std::string> files() const;
  // Stops the thread (idempotent); the callbacks have returned when it does.
  void stop();

 private:
  void run();
  void check(const std::string& path);  // hashes `path` again; calls back when it changed

  struct File {
    std::string text;
    std::string hash;
  };
  Changed changed_;
  std::function<void()> refresh_;
  int refresh_ms_;
  mutable std::mutex mutex_;
  std::map<std::string, File> files_;            // absolute path -> last content seen
  std::map<std::string, File> folder_snapshot_;  // other .py files of followed folders, when first seen
  std::vector<std::string> recheck_;             // added from the snapshot: hashed again by the thread
  std::map<int, std::string> folder_of_wd_;      // inotify watch -> folder
  std::map<std::string, int> wd_of_folder_;
  int inotify_ = -1;        // -1: inotify is unavailable; the thread polls the hashes
  int wake_[2] = {-1, -1};  // a pipe that ends the wait at stop()
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// The absolute, normalized form of `path` (symlinks resolved when it exists).
std::string absolute_script_path(const std::string& path);

}  // namespace cuhost::runtime
