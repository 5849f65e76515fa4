// GPU cancellation points (codegen/nvptx_cancellation.h) on hand-written
// loop shapes: the module stays valid IR (the countdown's phis dominate
// their uses however loops nest or share blocks), each loop that may run
// long gets exactly one point, short constant loops get none, and a module
// without loops is left as it was.
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "codegen/nvptx_cancellation.h"

using namespace cuhost;

namespace {

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext& ctx, const std::string& ir) {
  llvm::SMDiagnostic diag;
  auto m = llvm::parseAssemblyString("target triple = \"nvptx64-nvidia-cuda\"\n" + ir, diag, ctx);
  if (!m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print("test", os);
    FAIL(text);
  }
  return m;
}

std::string verify(const llvm::Module& m) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  llvm::verifyModule(m, &os);
  return errors;
}

unsigned count_volatile_loads(const llvm::Module& m) {
  unsigned n = 0;
  for (const llvm::Function& f : m)
    for (const llvm::BasicBlock& bb : f)
      for (const llvm::Instruction& i : bb)
        if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) n += load->isVolatile();
  return n;
}

// A nest whose outer latch is the inner loop's exiting header, a loop with
// two latches, and a loop of 8 iterations.
const char* kLoops = R"(
define void @nest(ptr %out, i64 %n, i64 %m) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %inner ]
  %i.next = add i64 %i, 1
  %again = icmp slt i64 %i, %n
  br i1 %again, label %inner, label %done
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner.body ]
  %more = icmp slt i64 %j, %m
  br i1 %more, label %inner.body, label %outer
inner.body:
  %j.next = add i64 %j, 1
  store volatile i64 %j, ptr %out
  br label %inner
done:
  ret void
}

define i64 @two_latches(ptr %flags, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %odd ], [ %k2, %even ]
  %bit = and i64 %k, 1
  %is_odd = icmp ne i64 %bit, 0
  br i1 %is_odd, label %odd, label %even
odd:
  %k1 = add i64 %k, 3
  %f = load volatile i32, ptr %flags
  %stop1 = icmp ne i32 %f, 0
  br i1 %stop1, label %exit, label %loop
even:
  %k2 = add i64 %k, 1
  %stop2 = icmp sge i64 %k2, %n
  br i1 %stop2, label %exit, label %loop
exit:
  ret i64 %k
}

define void @short(ptr %out) {
entry:
  br label %loop
loop:
  %t = phi i32 [ 0, %entry ], [ %t.next, %loop ]
  store volatile i32 %t, ptr %out
  %t.next = add i32 %t, 1
  %more = icmp ult i32 %t.next, 8
  br i1 %more, label %loop, label %done
done:
  ret void
}
)";

}  // namespace

TEST_CASE("nvptx cancellation: one point per long loop, valid IR", "[codegen]") {
  llvm::LLVMContext ctx;
  auto m = parse(ctx, kLoops);
  unsigned volatile_before = count_volatile_loads(*m);
  CHECK(codegen::insert_gpu_cancellation_points(*m) == 3);  // outer, inner, two_latches; not short
  CHECK(verify(*m) == "");
  CHECK(count_volatile_loads(*m) == volatile_before + 3);
  auto* flag = m->getNamedGlobal(codegen::kGpuCancelFlagSymbol);
  REQUIRE(flag);
  CHECK(flag->getAddressSpace() == 1);
  CHECK(flag->hasWeakLinkage());
  CHECK(flag->isExternallyInitialized());
  // Each countdown restarts at the interval on entry and after a check.
  unsigned countdowns = 0;
  for (llvm::Function& f : *m)
    for (llvm::BasicBlock& bb : f)
      for (llvm::PHINode& phi : bb.phis())
        if (phi.getName().starts_with("cancel.count")) {
          ++countdowns;
          bool restarts = false;
          for (llvm::Value* v : phi.incoming_values())
            if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v))
              restarts |= c->getZExtValue() == codegen::kCancellationInterval;
          CHECK(restarts);
        }
  CHECK(countdowns == 6);                       // per loop: the header's count and the count after the check
  CHECK(m->getFunction("short")->size() == 3);  // untouched
}

TEST_CASE("nvptx cancellation: a module without loops is unchanged", "[codegen]") {
  llvm::LLVMContext ctx;
  auto m = parse(ctx, R"(
define float @axpb(float %a, float %x, float %b) {
  %p = fmul float %a, %x
  %s = fadd float %p, %b
  ret float %s
}
)");
  std::string before;
  llvm::raw_string_ostream(before) << *m;
  CHECK(codegen::insert_gpu_cancellation_points(*m) == 0);
  std::string after;
  llvm::raw_string_ostream(after) << *m;
  CHECK(after == before);
  CHECK(m->getNamedGlobal(codegen::kGpuCancelFlagSymbol) == nullptr);
}

TEST_CASE("nvptx cancellation: a grid sync becomes a barrier whose wait can be stopped", "[codegen]") {
  llvm::LLVMContext ctx;
  auto m = parse(ctx, R"(
declare i64 @cudaCGGetIntrinsicHandle(i32)
declare i32 @cudaCGSynchronize(i64, i32)

define void @k(ptr %out) {
entry:
  %h = call i64 @cudaCGGetIntrinsicHandle(i32 1)
  %r = call i32 @cudaCGSynchronize(i64 %h, i32 0)
  store i32 %r, ptr %out
  ret void
}
)");
  // The wait for the other blocks is the one loop: it gets the only point.
  CHECK(codegen::insert_gpu_cancellation_points(*m) == 1);
  CHECK(verify(*m) == "");
  unsigned syncs = 0, atomics = 0, barriers = 0, envregs = 0;
  for (const llvm::BasicBlock& bb : *m->getFunction("k"))
    for (const llvm::Instruction& i : bb) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
        if (const llvm::Function* f = call->getCalledFunction()) {
          syncs += f->getName() == "cudaCGSynchronize";
          barriers += f->getName() == "llvm.nvvm.barrier0";
        }
        if (auto* ia = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
          envregs += ia->getAsmString().find("%envreg") != std::string::npos;
      }
      atomics += llvm::isa<llvm::AtomicRMWInst>(&i);
    }
  CHECK(syncs == 0);     // cudadevrt's wait, which has no check, is gone
  CHECK(barriers == 1);  // the block arrives together
  CHECK(atomics == 1);   // its first thread adds the block's arrival
  CHECK(envregs == 2);   // the driver's grid workspace, as cooperative_groups.h reads it
}
