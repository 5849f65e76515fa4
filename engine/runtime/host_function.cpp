// Jitted functions compiled for calls from the host (host_function.h): the
// host composition of the compile pipeline (runtime/pipeline.h: typing as a
// device function, the CPU lowering with a host entry, the host foreign code
// and libdevice, O3, the ORC JIT) with the host's refusals after typing.
// Its cache path is compile_lookup.cpp's.
#include "runtime/host_function.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "codegen/cpu_backend.h"
#include "codegen/host_entry.h"
#include "codegen/module.h"
#include "ffi/host_link.h"
#include "frontend/captured.h"
#include "runtime/pipeline.h"
#include "sema/typed_function.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {
namespace {

// numba's CPU target knows none of the CUDA kernel API: a function that uses
// it (directly or through a callee) cannot run on the host. Reported at the
// first use, with its source location.
void refuse_cuda_features(const sema::TypedFunction& root) {
  std::set<const sema::TypedFunction*> seen;
  std::vector<const sema::TypedFunction*> todo = {&root};
  while (!todo.empty()) {
    const sema::TypedFunction* tf = todo.back();
    todo.pop_back();
    if (!seen.insert(tf).second) continue;
    const ast::Expr* first = nullptr;
    std::string key;
    for (const auto& [expr, info] : tf->exprs) {
      if (info.intrinsic.rfind("cuda.", 0) != 0) continue;
      if (!first || std::tie(expr->loc.line, expr->loc.column) < std::tie(first->loc.line, first->loc.column)) {
        first = expr;
        key = info.intrinsic;
      }
    }
    if (first)
      throw UserError(ErrorKind::TypingError,
                      concat(key,
                             " is part of the CUDA kernel API: a function called on the host (numba.njit) "
                             "cannot use it; call the function from a kernel instead"),
                      tf->captured->where(first->loc), tf->captured->name);
    for (const auto& callee : tf->callees) todo.push_back(callee.get());
  }
}

void refuse_boundary_types(const JitFunction& fn, const std::vector<const ir::Type*>& args, const ir::Type* ret) {
  for (size_t i = 0; i < args.size(); ++i)
    if (codegen::host_slot_count(args[i]) < 0)
      throw UserError(ErrorKind::NotImplementedError,
                      concat("argument ", i, " of '", fn.name,
                             "' cannot be passed from the host: ", codegen::host_boundary_refusal(args[i])));
  if (codegen::host_slot_count(ret) < 0)
    throw UserError(
        ErrorKind::NotImplementedError,
        concat("the result of '", fn.name, "' cannot be returned to the host: ", codegen::host_boundary_refusal(ret)));
}

}  // namespace

std::shared_ptr<CompiledHostFunction> build_host_function(CompileJob& job) {
  const std::shared_ptr<JitFunction>& fn = job.fn;
  CUHOST_CHECK(fn && fn->captured) << "host functions are compiled after capture";
  CUHOST_CHECK(job.product == Product::HostFunction && job.target.target == Target::CPU)
      << "build_host_function compiles host functions for the CPU";
  if (fn->options.abi == ir::Abi::C)
    throw UserError(ErrorKind::NotImplementedError, concat("'", fn->name, "' uses the C ABI, which host calls do not"));
  const std::vector<Stage> stages = host_function_stages();
  // Typed first: what the host cannot run is refused before anything is lowered.
  auto lowering = std::find(stages.begin(), stages.end(), Stage::Lowering);
  run_pipeline(job, {stages.begin(), lowering});
  refuse_cuda_features(*job.typed);
  const ir::Type* ret = job.typed->return_type ? job.typed->return_type : ir::none_type();
  refuse_boundary_types(*fn, job.arg_types, ret);
  run_pipeline(job, {lowering, stages.end()});

  auto out = std::make_shared<CompiledHostFunction>();
  out->name = fn->name;
  out->arg_types = job.arg_types;
  out->return_type = ret;
  out->typed = job.typed;
  for (const ir::Type* a : job.arg_types) out->arg_slots += codegen::host_slot_count(a);
  out->result_slots = codegen::host_slot_count(ret);
  out->llvm_ir = std::move(job.llvm_ir);
  out->symbol = job.lowered->entry_symbol;
  out->serializable = job.link.empty() && job.lowered->foreign.empty();
  out->entry = reinterpret_cast<CompiledHostFunction::Entry>(job.addresses.at(0));
  return out;
}

std::string host_assembly(const CompiledHostFunction& compiled) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(compiled.llvm_ir, diagnostic, context);
  if (!m) throw UserError(ErrorKind::CompileError, "cannot read back the LLVM IR of '" + compiled.name + "'");
  auto tm = codegen::make_host_target_machine();
  m->setDataLayout(tm->createDataLayout());
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    throw UserError(ErrorKind::CompileError, "the host target cannot emit assembly");
  pm.run(*m);
  return std::string(text.str());
}

}  // namespace cuhost::runtime
