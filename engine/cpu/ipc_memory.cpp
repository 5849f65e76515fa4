// CPU-backend IPC over memfds (see ipc_memory.h). Handle layout (64 bytes):
// "cuhostIP", pid (u32), fd (i32), bytes (u64), nonce (u64), zeros. The
// memfd is named "cuhost-ipc-<nonce>", which the opening side checks
// through /proc so that a recycled descriptor number is never mapped.
#include "cpu/ipc_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>

#include "support/diagnostics.h"

namespace cuhost::cpu {

namespace {

constexpr char kMagic[8] = {'c', 'u', 'h', 'o', 's', 't', 'I', 'P'};

struct Export {
  int fd = -1;
  std::size_t bytes = 0;
  IpcHandleBytes handle{};
};

struct State {
  std::mutex mutex;
  std::map<std::uintptr_t, Export> exports;      // by allocation base
  std::map<std::uintptr_t, std::size_t> opened;  // mappings of other processes' memory
};

State& state() {
  static State* s = new State();  // never destroyed: frees may run during exit
  return *s;
}

std::atomic<bool> g_any_export{false};

std::string memfd_name(std::uint64_t nonce) {
  char text[40];
  std::snprintf(text, sizeof(text), "cuhost-ipc-%016llx", static_cast<unsigned long long>(nonce));
  return text;
}

std::string errno_text() { return std::strerror(errno); }

std::uint64_t random_nonce() {
  static std::mutex mutex;
  static std::mt19937_64 engine{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mutex);
  return engine();
}

}  // namespace

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

IpcHandleBytes export_memory(std::uintptr_t base, std::size_t bytes) {
  const std::size_t page = page_size();
  if (base % page != 0 || bytes == 0)
    throw UserError(ErrorKind::ValueError, concat("cannot share memory at ", reinterpret_cast<void*>(base), " (", bytes,
                                                  " bytes) between processes: IPC needs an allocation cuhost made"));
  std::size_t rounded = (bytes + page - 1) / page * page;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.exports.find(base);
  if (found != s.exports.end()) return found->second.handle;
  std::uint64_t nonce = random_nonce();
  int fd = static_cast<int>(memfd_create(memfd_name(nonce).c_str(), MFD_CLOEXEC));
  if (fd < 0) throw UserError(ErrorKind::RuntimeError, "memfd_create failed for IPC: " + errno_text());
  auto fail = [&](const std::string& what) {
    std::string text = what + ": " + errno_text();
    ::close(fd);
    throw UserError(ErrorKind::RuntimeError, text);
  };
  if (ftruncate(fd, static_cast<off_t>(rounded)) != 0) fail("sizing the IPC memory failed");
  const char* src = reinterpret_cast<const char*>(base);
  for (std::size_t done = 0; done < rounded;) {
    ssize_t n = pwrite(fd, src + done, rounded - done, static_cast<off_t>(done));
    if (n <= 0) fail("copying memory for IPC failed");
    done += static_cast<std::size_t>(n);
  }
  void* mapped = mmap(reinterpret_cast<void*>(base), rounded, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (mapped == MAP_FAILED || reinterpret_cast<std::uintptr_t>(mapped) != base) fail("mapping the IPC memory failed");
  Export e;
  e.fd = fd;
  e.bytes = rounded;
  std::memcpy(e.handle.data(), kMagic, 8);
  std::uint32_t pid = static_cast<std::uint32_t>(getpid());
  std::int32_t fd32 = fd;
  std::uint64_t size64 = rounded;
  std::memcpy(e.handle.data() + 8, &pid, 4);
  std::memcpy(e.handle.data() + 12, &fd32, 4);
  std::memcpy(e.handle.data() + 16, &size64, 8);
  std::memcpy(e.handle.data() + 24, &nonce, 8);
  s.exports[base] = e;
  g_any_export.store(true, std::memory_order_release);
  return e.handle;
}

std::uintptr_t open_exported(const IpcHandleBytes& handle, std::size_t* bytes) {
  if (std::memcmp(handle.data(), kMagic, 8) != 0)
    throw UserError(ErrorKind::ValueError, "not an IPC handle of cuhost's CPU backend");
  std::uint32_t pid = 0;
  std::int32_t fd = 0;
  std::uint64_t size = 0, nonce = 0;
  std::memcpy(&pid, handle.data() + 8, 4);
  std::memcpy(&fd, handle.data() + 12, 4);
  std::memcpy(&size, handle.data() + 16, 8);
  std::memcpy(&nonce, handle.data() + 24, 8);
  std::string path = concat("/proc/", pid, "/fd/", fd);
  char target[256] = {};
  ssize_t n = readlink(path.c_str(), target, sizeof(target) - 1);
  if (n <= 0 || std::string(target, static_cast<std::size_t>(n)).find(memfd_name(nonce)) == std::string::npos)
    throw UserError(ErrorKind::CudaAPIError, concat("cannot open the IPC handle: the memory of process ", pid,
                                                    " is no longer shared (the process or the allocation is gone)"));
  int local = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (local < 0) throw UserError(ErrorKind::CudaAPIError, "cannot open the IPC handle: " + errno_text());
  void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, local, 0);
  ::close(local);
  if (mapped == MAP_FAILED) throw UserError(ErrorKind::CudaAPIError, "cannot map the IPC memory: " + errno_text());
  std::uintptr_t address = reinterpret_cast<std::uintptr_t>(mapped);
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.opened[address] = size;
  if (bytes) *bytes = size;
  return address;
}

void close_exported(std::uintptr_t address) {
  State& s = state();
  std::size_t size = 0;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.opened.find(address);
    if (it == s.opened.end())
      throw UserError(ErrorKind::ValueError, "closing IPC memory that was not opened from a handle");
    size = it->second;
    s.opened.erase(it);
  }
  munmap(reinterpret_cast<void*>(address), size);
}

void release_export(std::uintptr_t base) noexcept {
  if (!g_any_export.load(std::memory_order_acquire)) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.exports.find(base);
  if (it == s.exports.end()) return;
  mmap(reinterpret_cast<void*>(base), it->second.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
       -1, 0);
  ::close(it->second.fd);
  s.exports.erase(it);
}

}  // namespace cuhost::cpu
