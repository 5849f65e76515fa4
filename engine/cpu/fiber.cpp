// Fiber context switch and stack arena (see fiber.h). The x86-64 switch saves
// the callee-saved integer registers (rbx, rbp, r12-r15) and the stack
// pointer. MXCSR and the x87 control word are callee-saved too, but every
// fiber of a worker runs with the worker's floating-point environment and
// generated code never changes it, so they are not switched (ldmxcsr/fldcw
// would double the cost). swapcontext, the fallback elsewhere, also makes a
// sigprocmask syscall on every switch.
#include "cpu/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "support/diagnostics.h"

#if defined(__x86_64__)
extern "C" void cuhost_fiber_start_x86_64();

// rdi: where to save the current stack pointer; rsi: the stack pointer to resume.
// A fresh fiber starts in cuhost_fiber_start_x86_64 with r12 = arg, r13 = entry.
asm(R"(
  .pushsection .text
  .p2align 4
  .globl cuhost_fiber_switch_x86_64
  .hidden cuhost_fiber_switch_x86_64
  .type cuhost_fiber_switch_x86_64, @function
cuhost_fiber_switch_x86_64:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size cuhost_fiber_switch_x86_64, .-cuhost_fiber_switch_x86_64

  .p2align 4
  .globl cuhost_fiber_start_x86_64
  .hidden cuhost_fiber_start_x86_64
  .type cuhost_fiber_start_x86_64, @function
cuhost_fiber_start_x86_64:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size cuhost_fiber_start_x86_64, .-cuhost_fiber_start_x86_64
  .popsection
)");
#endif

namespace cuhost::cpu {

#if defined(__x86_64__)

void fiber_init(FiberContext& fiber, char* stack, std::size_t size, FiberEntry entry, void* arg) {
  auto top = (reinterpret_cast<std::uintptr_t>(stack) + size) & ~std::uintptr_t(15);
  // The return slot sits at top - 24 so that after `ret` the stack pointer is
  // 16-byte aligned, as the start stub's `call` expects.
  auto* frame = reinterpret_cast<std::uint64_t*>(top - 72);
  frame[0] = 0;                                       // r15
  frame[1] = 0;                                       // r14
  frame[2] = reinterpret_cast<std::uint64_t>(entry);  // r13
  frame[3] = reinterpret_cast<std::uint64_t>(arg);    // r12
  frame[4] = 0;                                       // rbx
  frame[5] = 0;                                       // rbp
  frame[6] = reinterpret_cast<std::uint64_t>(&cuhost_fiber_start_x86_64);
  fiber.sp = frame;
}

#else

namespace {
void ucontext_trampoline(unsigned hi, unsigned lo, unsigned ehi, unsigned elo) {
  auto arg = reinterpret_cast<void*>((std::uintptr_t(hi) << 32) | lo);
  auto entry = reinterpret_cast<FiberEntry>((std::uintptr_t(ehi) << 32) | elo);
  entry(arg);
}
}  // namespace

void fiber_init(FiberContext& fiber, char* stack, std::size_t size, FiberEntry entry, void* arg) {
  getcontext(&fiber.uc);
  fiber.uc.uc_stack.ss_sp = stack;
  fiber.uc.uc_stack.ss_size = size;
  fiber.uc.uc_link = nullptr;
  auto a = reinterpret_cast<std::uintptr_t>(arg);
  auto e = reinterpret_cast<std::uintptr_t>(entry);
  makecontext(&fiber.uc, reinterpret_cast<void (*)()>(&ucontext_trampoline), 4, unsigned(a >> 32), unsigned(a),
              unsigned(e >> 32), unsigned(e));
}

void fiber_switch(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

#endif

StackArena::~StackArena() {
  if (base_) munmap(base_, mapped_);
}

void StackArena::reserve(std::size_t count, std::size_t size) {
  std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  size = (size + page - 1) / page * page;
  if (count <= count_ && size + page == stride_) return;
  if (base_) munmap(base_, mapped_);
  base_ = nullptr;
  count_ = 0;
  guard_ = page;
  stride_ = size + page;
  mapped_ = stride_ * count;
  void* p =
      mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  CUHOST_CHECK(p != MAP_FAILED) << "cannot map " << mapped_ << " bytes of fiber stacks: " << std::strerror(errno);
  base_ = static_cast<char*>(p);
  for (std::size_t i = 0; i < count; ++i) mprotect(base_ + i * stride_, page, PROT_NONE);
  count_ = count;
}

std::size_t fiber_stack_size() {
  static const std::size_t size = [] {
    std::size_t bytes = 64 * 1024;
    if (const char* env = std::getenv("CUHOST_CPU_FIBER_STACK")) {
      char* end = nullptr;
      unsigned long long v = std::strtoull(env, &end, 10);
      if (end && (*end == 'k' || *end == 'K')) v *= 1024;
      if (end && (*end == 'm' || *end == 'M')) v *= 1024 * 1024;
      if (v >= 16 * 1024) bytes = static_cast<std::size_t>(v);
    }
    return bytes;
  }();
  return size;
}

}  // namespace cuhost::cpu
