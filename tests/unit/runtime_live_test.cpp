// Unit tests of live kernels' runtime parts: the script watch reports a file
// only when its content hash changes (a rewrite of the same text or a touch
// is no change; a rename into place is one), and the live slots and graph
// successors follow each swap, an undo included, while a reader on another
// thread only ever sees whole products.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "runtime/live_kernels.h"
#include "runtime/script_watch.h"

using namespace cuhost;

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

struct Changes {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::tuple<std::string, std::string, std::string>> seen;

  void add(const std::string& path, const std::string& old_text, const std::string& new_text) {
    std::lock_guard<std::mutex> lock(mutex);
    seen.emplace_back(path, old_text, new_text);
    cv.notify_all();
  }
  // Waits until `n` changes were seen (false after `ms`).
  bool wait(std::size_t n, int ms) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, std::chrono::milliseconds(ms), [&] { return seen.size() >= n; });
  }
};

std::shared_ptr<const runtime::CompiledKernel> product(const std::string& name) {
  auto k = std::make_shared<runtime::CompiledKernel>();
  k->name = name;
  return k;
}

}  // namespace

TEST_CASE("the script watch reports changed content only", "[live]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cuhost-live-unit-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string script = (dir / "kernels.py").string();
  write_text(script, "A = 1\n");
  Changes changes;
  runtime::ScriptWatch watch(
      [&](const std::string& p, const std::string& o, const std::string& n) { changes.add(p, o, n); }, nullptr, 50);
  watch.add(script);
  REQUIRE(watch.files() == std::vector<std::string>{runtime::absolute_script_path(script)});

  write_text(script, "A = 1\n");  // the same text again: no change
  fs::last_write_time(script, fs::file_time_type::clock::now() + std::chrono::seconds(5));  // a touch: none either
  CHECK_FALSE(changes.wait(1, 400));

  write_text(script, "A = 2\n");
  REQUIRE(changes.wait(1, 5000));
  CHECK(std::get<0>(changes.seen[0]) == runtime::absolute_script_path(script));
  CHECK(std::get<1>(changes.seen[0]) == "A = 1\n");
  CHECK(std::get<2>(changes.seen[0]) == "A = 2\n");

  // An editor's save by rename into place is one change too.
  write_text((dir / "kernels.py.tmp").string(), "A = 3\n");
  fs::rename(dir / "kernels.py.tmp", script);
  REQUIRE(changes.wait(2, 5000));
  CHECK(std::get<1>(changes.seen[1]) == "A = 2\n");
  CHECK(std::get<2>(changes.seen[1]) == "A = 3\n");

  // Another file of the folder is not followed.
  write_text((dir / "other.py").string(), "B = 1\n");
  CHECK_FALSE(changes.wait(3, 300));
  watch.stop();
  fs::remove_all(dir);
}

TEST_CASE("live slots and graph successors follow swaps and undos", "[live]") {
  auto a = product("a"), b = product("b"), c = product("c");
  auto slot = runtime::live_slot_for(a);
  CHECK(slot->current()->kernel == a);
  const std::uint64_t before = runtime::live_generation();

  runtime::swap_live_kernel(a, b);
  CHECK(slot->current()->kernel == b);
  CHECK(runtime::live_successor(a) == b);
  CHECK(runtime::live_generation() == before + 1);

  runtime::swap_live_kernel(b, c);
  CHECK(slot->current()->kernel == c);
  CHECK(runtime::live_successor(a) == c);  // a graph that captured `a` runs the newest

  runtime::swap_live_kernel(c, a);  // an undo to an earlier product: no cycle
  CHECK(slot->current()->kernel == a);
  CHECK(runtime::live_successor(a) == a);
  CHECK(runtime::live_successor(b) == a);
  CHECK(runtime::live_successor(c) == a);
}

TEST_CASE("a launch thread sees whole products while swaps go on", "[live]") {
  std::vector<std::shared_ptr<const runtime::CompiledKernel>> products;
  for (int i = 0; i < 64; ++i) products.push_back(product("k" + std::to_string(i)));
  auto slot = runtime::live_slot_for(products[0]);
  std::atomic<bool> done{false}, started{false};
  std::set<std::string> names;
  for (const auto& p : products) names.insert(p->name);
  long reads = 0, bad = 0;
  std::thread reader([&] {
    while (!done.load()) {
      started = true;
      const runtime::LiveProduct* p = slot->current();
      if (!p || !p->kernel || !names.count(p->kernel->name)) ++bad;
      ++reads;
    }
  });
  while (!started.load()) std::this_thread::yield();
  for (std::size_t i = 1; i < products.size(); ++i) {
    runtime::swap_live_kernel(products[i - 1], products[i]);
    std::this_thread::yield();  // the reader runs between the swaps too
  }
  done = true;
  reader.join();
  CHECK(bad == 0);
  CHECK(reads > 0);
  CHECK(slot->current()->kernel == products.back());
}
