// Guarded loop narrowing (codegen/cpu_guard_narrowing.h) on hand-written
// loops: a loop whose effects are all under `i < b` stops at min(n, b), runs
// the guarded code unconditionally, and is skipped when no iteration keeps
// the guard; loops whose unguarded part has effects, whose values live after
// the loop, or whose guard is not a prefix of the iterations are left alone.
// (tests/scripts/cpu/test_fission_narrowing.py checks narrowed kernels'
// results.)
#include <catch2/catch.hpp>

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

#include <memory>
#include <string>

#include "codegen/cpu_guard_narrowing.h"

using cuhost::codegen::GuardNarrowingPass;

namespace {

// Parses `ir`, runs the pass on every loop and returns the printed module.
std::string narrowed(const std::string& ir) {
  llvm::LLVMContext c;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, err, c);
  if (!m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    err.print("test", os);
    FAIL(os.str());
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::createFunctionToLoopPassAdaptor(GuardNarrowingPass(), /*UseMemorySSA=*/false));
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(*m, mam);
  std::string text;
  llvm::raw_string_ostream os(text);
  REQUIRE_FALSE(llvm::verifyModule(*m, &os));
  m->print(os, nullptr);
  return os.str();
}

// for (i = 0; i < n; ++i) if (i PRED b) a[i] += 1.0   (n >= 1)
std::string guarded_loop(const std::string& pred, const std::string& extra_in_latch = "",
                         const std::string& ret = "ret void", const std::string& ret_type = "void") {
  return R"(
define )" +
         ret_type +
         R"( @f(ptr noalias %a, i64 %n, i64 %b) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %g = icmp )" +
         pred + R"( i64 %i, %b
  br i1 %g, label %body, label %latch
body:
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %v = load double, ptr %p
  %w = fadd double %v, 1.0
  store double %w, ptr %p
  br label %latch
latch:
)" + extra_in_latch +
         R"(
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  )" + ret +
         R"(
}
)";
}

}  // namespace

TEST_CASE("guard narrowing: a loop guarded by i < b stops at min(n, b)", "[codegen][narrowing]") {
  std::string ir = narrowed(guarded_loop("ult"));
  CHECK(ir.find("narrow.none") != std::string::npos);              // skipped when no iteration keeps the guard
  CHECK(ir.find("@llvm.umin.i64") != std::string::npos);           // min(trip count, b)
  CHECK(ir.find("br i1 true, label %body") != std::string::npos);  // the guard always holds now
  CHECK(ir.find("narrow.more") != std::string::npos);
}

TEST_CASE("guard narrowing: signed guards and guards written the other way round", "[codegen][narrowing]") {
  CHECK(narrowed(guarded_loop("slt")).find("narrow.more") != std::string::npos);
  // i >= b leaves the loop's effects on the false side: the guard is i < b.
  std::string ir = R"(
define void @f(ptr noalias %a, i64 %n, i64 %b) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %g = icmp ugt i64 %b, %i
  br i1 %g, label %body, label %latch
body:
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 7, ptr %p
  br label %latch
latch:
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
)";
  CHECK(narrowed(ir).find("narrow.more") != std::string::npos);
}

TEST_CASE("guard narrowing: loops it cannot narrow are left alone", "[codegen][narrowing]") {
  // An effect outside the guard: every iteration matters.
  std::string effect = narrowed(guarded_loop("ult", "  store i64 %i, ptr %a"));
  CHECK(effect.find("narrow") == std::string::npos);
  // A value of the loop used after it.
  std::string live = narrowed(guarded_loop("ult", "", "ret i64 %i", "i64"));
  CHECK(live.find("narrow") == std::string::npos);
  // i > b holds on a suffix of the iterations, not a prefix.
  CHECK(narrowed(guarded_loop("ugt")).find("narrow") == std::string::npos);
  // i == b: not a range.
  CHECK(narrowed(guarded_loop("eq")).find("narrow") == std::string::npos);
}
