// CPU launcher tests: hand-written LLVM IR kernels (tests/data/cpu/*.ll, each
// prefixed with prelude.ll) following engine/model/cpu_abi.h are JIT-compiled
// with cpu::add_module and run with cpu::launch; results are checked against
// host references on random data.
#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "codegen/host_target.h"
#include "cpu/jit.h"
#include "cpu/launcher.h"
#include "model/cpu_abi.h"
#include "support/diagnostics.h"

using namespace cuhost;

namespace {

std::string read_data(const std::string& name) {
  std::ifstream in(std::string(CUHOST_TEST_DATA_DIR) + "/cpu/" + name);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the O3 pipeline for the host, as codegen does before add_module.
void optimize_for_host(llvm::Module& m) {
  REQUIRE_FALSE(codegen::host_target().triple.empty());  // initializes the native target
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  REQUIRE(bool(jtmb));
  auto tm = jtmb->createTargetMachine();
  REQUIRE(bool(tm));
  m.setDataLayout((*tm)->createDataLayout());
  m.setTargetTriple((*tm)->getTargetTriple().str());
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm->get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
}

// Compiles prelude.ll + file once per file and returns the named entry points.
void* kernel(const std::string& file, const std::string& symbol, bool optimize = false) {
  static std::mutex mutex;
  static std::map<std::string, void*> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::string key = file + ":" + symbol + (optimize ? ":O3" : "");
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  auto ctx = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  auto module = llvm::parseAssemblyString(read_data("prelude.ll") + read_data(file), diag, *ctx);
  if (!module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print(file.c_str(), os);
    FAIL(os.str());
  }
  module->setModuleIdentifier(file);
  if (optimize) optimize_for_host(*module);
  auto fns = cpu::add_module(std::move(module), std::move(ctx), {symbol});
  REQUIRE(fns.size() == 1);
  REQUIRE(fns[0] != nullptr);
  cache[key] = fns[0];
  return fns[0];
}

// kernelParams: one slot per parameter, params[k] points at slot k.
class Params {
 public:
  Params& ptr(const void* p) {
    slots_.push_back(reinterpret_cast<std::uint64_t>(p));
    return *this;
  }
  Params& i64(std::int64_t v) {
    slots_.push_back(static_cast<std::uint64_t>(v));
    return *this;
  }
  void** data() {
    ptrs_.clear();
    for (auto& s : slots_) ptrs_.push_back(&s);
    return ptrs_.data();
  }

 private:
  std::vector<std::uint64_t> slots_;
  std::vector<void*> ptrs_;
};

cpu::CpuLaunch make_launch(const std::string& name, void* thread_fn, bool fibers, cpu::Dim3 grid, cpu::Dim3 block,
                           void** params) {
  cpu::CpuLaunch l;
  l.kernel_name = name;
  l.thread_fn = thread_fn;
  l.needs_fibers = fibers;
  l.grid = grid;
  l.block = block;
  l.params = params;
  return l;
}

std::vector<std::int32_t> random_ints(std::size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

ErrorKind launch_error_kind(const cpu::CpuLaunch& l, std::string* message) {
  try {
    cpu::launch(l);
  } catch (const UserError& e) {
    *message = e.message();
    return e.kind();
  }
  FAIL("launch did not throw");
  return ErrorKind::RuntimeError;
}

}  // namespace

TEST_CASE("cpu: barrier-free vector add through the block function and the thread loop", "[cpu]") {
  const std::int64_t n = 100003;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-100.f, 100.f);
  std::vector<float> a(n), b(n);
  for (auto& x : a) x = dist(rng);
  for (auto& x : b) x = dist(rng);
  for (bool use_block_fn : {true, false}) {
    std::vector<float> out(n, -1.f);
    Params p;
    p.ptr(a.data()).ptr(b.data()).ptr(out.data()).i64(n);
    auto l =
        make_launch("vadd", kernel("vadd.ll", "vadd.cpu.thread"), false, {unsigned((n + 255) / 256)}, {256}, p.data());
    if (use_block_fn) l.block_fn = kernel("vadd.ll", "vadd.cpu.block");
    cpu::launch(l);
    for (std::int64_t i = 0; i < n; ++i) REQUIRE(out[i] == a[i] + b[i]);
  }
}

TEST_CASE("cpu: shared-memory tree reduction with syncthreads over 256 threads", "[cpu]") {
  const std::int64_t n = 256 * 300 + 77;
  auto in = random_ints(n, -1000, 1000, 11);
  const unsigned blocks = unsigned((n + 255) / 256);
  std::vector<std::int32_t> out(blocks, 12345);
  Params p;
  p.ptr(in.data()).ptr(out.data()).i64(n);
  auto l = make_launch("reduce", kernel("reduce.ll", "reduce.cpu.thread"), true, {blocks}, {256}, p.data());
  l.static_shared_bytes = 256 * 4;
  for (int rep = 0; rep < 3; ++rep) {
    cpu::launch(l);
    for (unsigned b = 0; b < blocks; ++b) {
      std::int32_t ref = 0;
      for (std::int64_t i = b * 256; i < std::min<std::int64_t>(n, (b + 1) * 256); ++i) ref += in[i];
      REQUIRE(out[b] == ref);
    }
  }
}

TEST_CASE("cpu: block-wide Hillis-Steele scan in dynamic shared memory", "[cpu]") {
  for (unsigned bs : {128u, 1024u, 96u}) {
    const std::int64_t n = bs * 37 + 5;
    auto in = random_ints(n, -50, 50, 3 + bs);
    std::vector<std::int32_t> out(n, 0);
    Params p;
    p.ptr(in.data()).ptr(out.data()).i64(n);
    auto l =
        make_launch("scan", kernel("scan.ll", "scan.cpu.thread"), true, {unsigned((n + bs - 1) / bs)}, {bs}, p.data());
    l.dynamic_shared_bytes = bs * 4;
    cpu::launch(l);
    std::int32_t acc = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (i % bs == 0) acc = 0;
      acc += in[i];
      INFO("block size " << bs << ", i " << i);
      REQUIRE(out[i] == acc);
    }
  }
}

TEST_CASE("cpu: atomic histogram on shared and global memory across many blocks", "[cpu]") {
  const std::int64_t n = 256 * 500 - 3;
  auto in = random_ints(n, 0, 1 << 20, 5);
  std::vector<std::int32_t> hist(16, 0), ref(16, 0);
  for (auto v : in) ref[v & 15]++;
  Params p;
  p.ptr(in.data()).ptr(hist.data()).i64(n);
  auto l =
      make_launch("hist", kernel("hist.ll", "hist.cpu.thread"), true, {unsigned((n + 255) / 256)}, {256}, p.data());
  l.static_shared_bytes = 16 * 4;
  cpu::launch(l);
  CHECK(hist == ref);
}

TEST_CASE("cpu: syncthreads_count, _and and _or reduce the block's predicates", "[cpu]") {
  const unsigned bs = 192, blocks = 40;
  const std::int64_t n = bs * blocks - 20;  // the last block is partial
  auto in = random_ints(n, -3, 10, 9);
  for (unsigned i = 0; i < bs; ++i) in[bs * 3 + i] = 1 + int(i);  // block 3: all positive
  for (unsigned i = 0; i < bs; ++i) in[bs * 4 + i] = -int(i);     // block 4: none positive
  std::vector<std::int32_t> out(3 * blocks, -7);
  Params p;
  p.ptr(in.data()).ptr(out.data()).i64(n);
  auto l = make_launch("counts", kernel("barriers.ll", "counts.cpu.thread"), true, {blocks}, {bs}, p.data());
  cpu::launch(l);
  for (unsigned b = 0; b < blocks; ++b) {
    int count = 0;
    for (unsigned t = 0; t < bs; ++t) {
      std::int64_t i = std::int64_t(b) * bs + t;
      count += i < n && in[i] > 0;
    }
    INFO("block " << b);
    CHECK(out[3 * b] == count);
    CHECK(out[3 * b + 1] == (count == int(bs)));
    CHECK(out[3 * b + 2] == (count > 0));
  }
  CHECK(out[3 * 3 + 1] == 1);
  CHECK(out[3 * 4 + 2] == 0);
}

TEST_CASE("cpu: threads that returned count as arrived at barriers", "[cpu]") {
  const unsigned blocks = 9;
  std::vector<std::int32_t> out(blocks, -1);
  Params p;
  p.ptr(nullptr).ptr(out.data());
  for (unsigned bs : {256u, 33u}) {
    auto l = make_launch("early", kernel("barriers.ll", "early.cpu.thread"), true, {blocks}, {bs}, p.data());
    cpu::launch(l);
    for (unsigned b = 0; b < blocks; ++b) CHECK(out[b] == int((bs + 1) / 2));
  }
}

TEST_CASE("cpu: thread and block indices in three dimensions, with and without fibers", "[cpu]") {
  cpu::Dim3 grid{3, 2, 2}, block{8, 4, 2};
  const unsigned nt = 8 * 4 * 2, nb = 12;
  for (bool fibers : {true, false}) {
    std::vector<std::int32_t> out(nt * nb, -1);
    Params p;
    p.ptr(out.data());
    auto l = make_launch("ids", kernel("barriers.ll", "ids.cpu.thread"), fibers, grid, block, p.data());
    cpu::launch(l);
    for (unsigned bz = 0; bz < 2; ++bz)
      for (unsigned by = 0; by < 2; ++by)
        for (unsigned bx = 0; bx < 3; ++bx)
          for (unsigned tz = 0; tz < 2; ++tz)
            for (unsigned ty = 0; ty < 4; ++ty)
              for (unsigned tx = 0; tx < 8; ++tx) {
                unsigned blin = bx + by * 3 + bz * 6;
                unsigned lt = tx + ty * 8 + tz * 32;
                REQUIRE(out[blin * nt + lt] == int(tx + 100 * ty + 10000 * tz + 1000000 * blin));
              }
  }
}

TEST_CASE("cpu: local arrays live on the fiber stack", "[cpu]") {
  const unsigned bs = 64, blocks = 6;
  std::vector<std::int32_t> out(bs * blocks, 0);
  Params p;
  p.ptr(out.data());
  auto l = make_launch("bigstack", kernel("barriers.ll", "bigstack.cpu.thread"), true, {blocks}, {bs}, p.data());
  cpu::launch(l);
  for (unsigned i = 0; i < bs * blocks; ++i) {
    std::uint32_t t = i % bs, ref = 0;
    for (std::uint32_t k = 0; k < 8192; ++k) ref += k * t;
    REQUIRE(out[i] == std::int32_t(ref));
  }
}

TEST_CASE("cpu: an out-of-bounds index reports array, index, thread and block", "[cpu]") {
  const std::int64_t n = 1024;
  std::vector<std::int32_t> out(n, -1);
  Params p;
  p.ptr(out.data()).i64(n);
  for (bool fibers : {true, false}) {
    auto l = make_launch("oob", kernel("barriers.ll", "oob.cpu.thread"), fibers, {5}, {256}, p.data());
    std::string message;
    CHECK(launch_error_kind(l, &message) == ErrorKind::IndexError);
    CHECK(message ==
          "index 1024 is out of bounds for axis 0 with size 1024 (array 'out' in kernel 'oob', thread (0,0,0), block "
          "(4,0,0))");
  }
  // The pool keeps working after a failed launch.
  auto ok = make_launch("oob", kernel("barriers.ll", "oob.cpu.thread"), true, {4}, {256}, p.data());
  std::fill(out.begin(), out.end(), -1);
  cpu::launch(ok);
  for (std::int64_t i = 0; i < n; ++i) REQUIRE(out[i] == i);
}

TEST_CASE("cpu: a kernel error names the kernel, message, code and thread", "[cpu]") {
  Params p;
  auto l = make_launch("kerr", kernel("barriers.ll", "kerr.cpu.thread"), true, {4}, {32}, p.data());
  std::string message;
  CHECK(launch_error_kind(l, &message) == ErrorKind::KernelError);
  CHECK(message == "error in kernel 'kerr': foreign fault (code 7, thread (5,0,0), block (2,0,0))");
}

TEST_CASE("cpu: a barrier deadlock is reported, not hung", "[cpu]") {
  Params p;
  auto l = make_launch("dead", kernel("barriers.ll", "dead.cpu.thread"), true, {3}, {64}, p.data());
  std::string message;
  CHECK(launch_error_kind(l, &message) == ErrorKind::KernelError);
  CHECK_THAT(message, Catch::StartsWith("deadlock in kernel 'dead', block ("));
  CHECK_THAT(message, Catch::Contains("): threads (0,0,0), (1,0,0), (2,0,0), (3,0,0), (4,0,0), (5,0,0) and 42 more "
                                      "wait at syncthreads while threads (16,0,0), (17,0,0), (18,0,0), (19,0,0), "
                                      "(20,0,0), (21,0,0) and 10 more wait at shfl_sync with mask 0xffffffff; "
                                      "no thread can make progress"));
}

TEST_CASE("cpu: invalid launch configurations are ValueErrors naming the numbers", "[cpu]") {
  Params p;
  void* fn = kernel("barriers.ll", "ids.cpu.thread");
  auto check = [&](cpu::Dim3 grid, cpu::Dim3 block, std::size_t shared, const std::string& expected) {
    auto l = make_launch("cfg", fn, true, grid, block, p.data());
    l.dynamic_shared_bytes = shared;
    std::string message;
    CHECK(launch_error_kind(l, &message) == ErrorKind::ValueError);
    CHECK(message == "invalid launch configuration for kernel 'cfg': " + expected);
  };
  check({1}, {0}, 0, "block dimensions (0, 1, 1) must all be >= 1");
  check({1, 0, 1}, {32}, 0, "grid dimensions (1, 0, 1) must all be >= 1");
  check({1}, {1025}, 0, "block dimensions (1025, 1, 1) exceed the maximum (1024, 1024, 64)");
  check({1}, {1, 1, 65}, 0, "block dimensions (1, 1, 65) exceed the maximum (1024, 1024, 64)");
  check({1}, {32, 32, 2}, 0, "block (32, 32, 2) has 2048 threads; at most 1024 threads per block");
  check({1, 65536, 1}, {32}, 0, "grid dimensions (1, 65536, 1) exceed the maximum (2147483647, 65535, 65535)");
  check({1}, {32}, 49153,
        "shared memory of 49153 bytes (0 static + 49153 dynamic) exceeds the limit of 49152 bytes per block");
}

TEST_CASE("cpu: launches from several host threads at once are serialized correctly", "[cpu]") {
  const std::int64_t n = 256 * 64 + 9;
  void* thread_fn = kernel("reduce.ll", "reduce.cpu.thread");
  const unsigned blocks = unsigned((n + 255) / 256);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int h = 0; h < 4; ++h)
    threads.emplace_back([&, h] {
      auto in = random_ints(n, -500, 500, 100 + h);
      std::vector<std::int32_t> out(blocks, 0);
      Params p;
      p.ptr(in.data()).ptr(out.data()).i64(n);
      auto l = make_launch("reduce", thread_fn, true, {blocks}, {256}, p.data());
      l.static_shared_bytes = 1024;
      int good = 1;
      for (int rep = 0; rep < 10; ++rep) {
        cpu::launch(l);
        for (unsigned b = 0; b < blocks; ++b) {
          std::int32_t ref = 0;
          for (std::int64_t i = b * 256; i < std::min<std::int64_t>(n, (b + 1) * 256); ++i) ref += in[i];
          good &= out[b] == ref;
        }
      }
      ok[h] = good;
    });
  for (auto& t : threads) t.join();
  CHECK(ok == std::vector<int>(4, 1));
}

TEST_CASE("cpu: a forked child process launches on a fresh pool", "[cpu]") {
  const std::int64_t n = 256 * 40 + 3;
  auto in = random_ints(n, -500, 500, 77);
  const unsigned blocks = unsigned((n + 255) / 256);
  std::vector<std::int32_t> out(blocks, 0);
  Params p;
  p.ptr(in.data()).ptr(out.data()).i64(n);
  auto l = make_launch("reduce", kernel("reduce.ll", "reduce.cpu.thread"), true, {blocks}, {256}, p.data());
  l.static_shared_bytes = 1024;
  cpu::launch(l);  // the parent's pool exists before the fork
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    alarm(60);  // a hang in the child must not hang the test
    std::fill(out.begin(), out.end(), 0);
    int good = 1;
    try {
      cpu::launch(l);
    } catch (...) {
      good = 0;
    }
    for (unsigned b = 0; b < blocks; ++b) {
      std::int32_t ref = 0;
      for (std::int64_t i = b * 256; i < std::min<std::int64_t>(n, (b + 1) * 256); ++i) ref += in[i];
      good &= out[b] == ref;
    }
    _exit(good ? 0 : 3);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

namespace {
std::mutex seen_mutex;
std::set<std::thread::id> seen_threads;
void record_thread_block(void** params, CuhostThreadCtx* ctx) {
  {
    std::lock_guard<std::mutex> lock(seen_mutex);
    seen_threads.insert(std::this_thread::get_id());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
}
}  // namespace

TEST_CASE("cpu: blocks spread over more than one worker", "[cpu]") {
  REQUIRE(cpu::worker_count() >= 1);
  seen_threads.clear();
  Params p;
  auto l = make_launch("threads", nullptr, false, {64}, {32}, p.data());
  l.block_fn = reinterpret_cast<void*>(&record_thread_block);
  cpu::launch(l);
  CHECK(seen_threads.size() == std::min(cpu::worker_count(), 64u));
}

// Timing of the two P9 workloads at 2^22 elements (hidden: run with
// "[.cpu_bench]"); results are still checked.
TEST_CASE("cpu: saxpy-like vector add and shared-memory reduction at 2^22 (timing)", "[.cpu_bench]") {
  const std::int64_t n = std::int64_t(1) << 22;
  std::vector<float> a(n, 1.5f), b(n, 2.25f), out(n, 0.f);
  Params p;
  p.ptr(a.data()).ptr(b.data()).ptr(out.data()).i64(n);
  auto l = make_launch("vadd", kernel("vadd.ll", "vadd.cpu.thread", true), false, {unsigned(n / 256)}, {256}, p.data());
  l.block_fn = kernel("vadd.ll", "vadd.cpu.block", true);
  cpu::launch(l);
  auto t0 = std::chrono::steady_clock::now();
  const int reps = 20;
  for (int r = 0; r < reps; ++r) cpu::launch(l);
  auto t1 = std::chrono::steady_clock::now();
  REQUIRE(out[n - 1] == 3.75f);
  auto in = random_ints(n, -100, 100, 1);
  std::vector<std::int32_t> sums(n / 256);
  Params q;
  q.ptr(in.data()).ptr(sums.data()).i64(n);
  auto r =
      make_launch("reduce", kernel("reduce.ll", "reduce.cpu.thread", true), true, {unsigned(n / 256)}, {256}, q.data());
  r.static_shared_bytes = 1024;
  cpu::launch(r);
  auto t2 = std::chrono::steady_clock::now();
  for (int k = 0; k < 3; ++k) cpu::launch(r);
  auto t3 = std::chrono::steady_clock::now();
  std::int64_t total = 0, ref = 0;
  for (auto s : sums) total += s;
  for (auto v : in) ref += v;
  REQUIRE(total == ref);
  using ms = std::chrono::duration<double, std::milli>;
  WARN("workers " << cpu::worker_count() << ": vector add " << ms(t1 - t0).count() / reps << " ms, reduction "
                  << ms(t3 - t2).count() / 3 << " ms");
}
