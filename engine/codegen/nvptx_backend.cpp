// The NVPTX half of stage 7. libdevice is read once per process and parsed
// lazily into each module's context, so linking with LinkOnlyNeeded only
// materializes the functions a kernel calls (compile time stays in the
// milliseconds). The optimizer is the stock O3 pipeline built by a
// PassBuilder that knows the NVPTX TargetMachine, so NVPTX's own passes
// (NVVMReflect, address-space inference) take part.
#include "codegen/nvptx_backend.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/InductiveRangeCheckElimination.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <cstdlib>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>
#include <utility>

#include "codegen/cpu_check_hoisting.h"
#include "codegen/cpu_guard_narrowing.h"
#include "codegen/libdevice_bitcode.h"
#include "codegen/module.h"
#include "codegen/negated_products.h"
#include "codegen/nvptx_conversions.h"
#include "codegen/nvptx_error_record.h"
#include "support/diagnostics.h"

namespace cuhost::codegen {
namespace {

void init_nvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

}  // namespace

std::string nvptx_triple() { return "nvptx64-nvidia-cuda"; }

std::vector<std::pair<int, int>> supported_ccs() {
  static const std::vector<std::pair<int, int>> ccs = [] {
    init_nvptx();
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(nvptx_triple(), error);
    std::vector<std::pair<int, int>> out;
    if (!target) return out;
    std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(nvptx_triple(), "sm_50", ""));
    for (const llvm::SubtargetSubTypeKV& p : sti->getAllProcessorDescriptions()) {
      llvm::StringRef name(p.Key);
      unsigned cc = 0;
      if (!name.consume_front("sm_") || name.getAsInteger(10, cc) || cc < 50) continue;
      out.emplace_back(int(cc / 10), int(cc % 10));
    }
    std::sort(out.begin(), out.end());
    return out;
  }();
  return ccs;
}

namespace {

// Targets newer than LLVM's NVPTX backend knows, with the PTX ISA version
// each first appears in. PTX written for an older chip is valid PTX for these
// (architecture- and family-specific targets add features, never remove
// baseline ones), so code is generated for the newest chip LLVM knows and the
// text's .target/.version are raised (retarget_ptx). nvJitLink/ptxas then
// compile it for the requested target.
struct NewerTarget {
  const char* name;
  int ptx_major, ptx_minor;
};
constexpr NewerTarget kNewerTargets[] = {
    {"sm_100", 8, 6}, {"sm_100a", 8, 6}, {"sm_100f", 8, 8}, {"sm_101", 8, 6}, {"sm_101a", 8, 6}, {"sm_101f", 8, 8},
    {"sm_103", 8, 8}, {"sm_103a", 8, 8}, {"sm_103f", 8, 8}, {"sm_110", 9, 0}, {"sm_110a", 9, 0}, {"sm_110f", 9, 0},
    {"sm_120", 8, 7}, {"sm_120a", 8, 7}, {"sm_120f", 8, 8}, {"sm_121", 8, 8}, {"sm_121a", 8, 8}, {"sm_121f", 8, 8},
};

const NewerTarget* newer_target(const std::string& name) {
  for (const NewerTarget& t : kNewerTargets)
    if (name == t.name) return &t;
  return nullptr;
}

bool llvm_knows_cpu(const std::string& cpu) {
  init_nvptx();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(nvptx_triple(), error);
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target ? target->createMCSubtargetInfo(nvptx_triple(), "sm_50", "")
                                                    : nullptr);
  return sti && sti->isCPUStringValid(cpu);
}

std::string specific_target(int cc_major, int cc_minor, const std::string& suffix) {
  return concat("sm_", cc_major, cc_minor, suffix);
}

}  // namespace

std::string nvptx_cpu(int cc_major, int cc_minor, const std::string& suffix) {
  const auto& ccs = supported_ccs();
  std::pair<int, int> chosen = ccs.empty() ? std::pair<int, int>(9, 0) : ccs.front();
  for (const auto& cc : ccs)
    if (cc <= std::pair<int, int>(cc_major, cc_minor)) chosen = cc;
  std::string cpu = concat("sm_", chosen.first, chosen.second);
  if (suffix.empty()) return cpu;
  // An architecture- or family-specific target is for exactly that chip (or
  // family): no fallback to an older one, unless retarget_ptx relabels it.
  std::string specific = specific_target(cc_major, cc_minor, suffix);
  if (llvm_knows_cpu(specific)) return specific;
  if (newer_target(specific)) return cpu;
  throw UserError(ErrorKind::NotImplementedError,
                  concat("cc=(", cc_major, ", ", cc_minor, ", '", suffix, "'): LLVM ", LLVM_VERSION_STRING,
                         "'s NVPTX backend has no ", specific, " target"));
}

std::string retarget_ptx(std::string ptx, int cc_major, int cc_minor, const std::string& suffix) {
  if (suffix.empty()) return ptx;
  std::string specific = specific_target(cc_major, cc_minor, suffix);
  const NewerTarget* t = newer_target(specific);
  if (!t || llvm_knows_cpu(specific)) return ptx;
  auto replace_line_value = [&ptx](const std::string& directive, const std::string& value) {
    std::size_t at = ptx.find("\n" + directive + " ");
    if (at == std::string::npos) return;
    at += directive.size() + 2;
    std::size_t end = ptx.find('\n', at);
    ptx.replace(at, end - at, value);
  };
  replace_line_value(".target", specific);
  std::size_t at = ptx.find("\n.version ");
  if (at != std::string::npos) {
    // ".version MAJOR.MINOR"
    char* end = nullptr;
    const char* digits = ptx.c_str() + at + 10;
    const long major = std::strtol(digits, &end, 10);
    const bool has_minor = end != digits && *end == '.';
    const long minor = has_minor ? std::strtol(end + 1, nullptr, 10) : 0;
    if (has_minor && std::pair<long, long>(major, minor) < std::pair<long, long>(t->ptx_major, t->ptx_minor))
      replace_line_value(".version", concat(t->ptx_major, ".", t->ptx_minor));
  }
  return ptx;
}

std::unique_ptr<llvm::TargetMachine> make_nvptx_target_machine(int cc_major, int cc_minor, bool fastmath,
                                                               const std::string& suffix, int opt) {
  init_nvptx();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(nvptx_triple(), error);
  if (!target) throw UserError(ErrorKind::CompileError, "NVPTX target unavailable: " + error);
  llvm::TargetOptions options;
  // a * b + c may become one fma, as nvcc's and NVVM's default (--fmad=true)
  // and so numba-cuda do: without it LLVM emits mul.rn/add.rn, which ptxas
  // must not fuse, and a foreign multiply inlined into a sum costs two
  // instructions where CUDA C spends one (P8).
  options.AllowFPOpFusion = opt > 0 ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  if (fastmath) {
    options.UnsafeFPMath = true;
    options.NoInfsFPMath = true;
    options.NoNaNsFPMath = true;
  }
  // The PTX version is LLVM's default for the chip (7.8 for sm_90).
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      nvptx_triple(), nvptx_cpu(cc_major, cc_minor, suffix), "", options, std::nullopt, std::nullopt,
      opt > 0 ? llvm::CodeGenOptLevel::Aggressive : llvm::CodeGenOptLevel::None));
  if (!tm) throw UserError(ErrorKind::CompileError, "cannot create the NVPTX target machine");
  return tm;
}

void link_libdevice(llvm::Module& m, const std::vector<std::string>& keep, bool fastmath) {
  bool needs = false;
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) needs = true;
  if (needs) {
    auto lib = llvm::getLazyBitcodeModule(libdevice_bitcode().getMemBufferRef(), m.getContext());
    if (!lib) throw UserError(ErrorKind::CompileError, "cannot parse libdevice: " + llvm::toString(lib.takeError()));
    (*lib)->setTargetTriple(m.getTargetTriple());
    (*lib)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
      throw UserError(ErrorKind::CompileError, "linking libdevice failed");
    // NVVMReflect answers __CUDA_FTZ and __CUDA_ARCH but reads
    // __CUDA_PREC_SQRT as 0 (approximate sqrt): numba-cuda's NVVM rounds
    // sqrt correctly unless fastmath.
    resolve_nvvm_reflect(m, fastmath, /*all=*/false, 0);
    lower_nvvm_intrinsics_unknown_to_llvm(m);
  }
  std::set<std::string> kept(keep.begin(), keep.end());
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && !kept.count(f.getName().str())) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  // LLVM's own globals (llvm.used, llvm.compiler.used: appending linkage)
  // keep theirs: internal, they would be deleted with what they keep.
  for (llvm::GlobalVariable& g : m.globals())
    if (!g.isDeclaration() && !kept.count(g.getName().str()) && !is_error_record_global(g.getName().str()) &&
        !g.getName().starts_with("llvm."))
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", fastmath ? 1 : 0);
  // fastmath for every function of the module (kernels, device functions,
  // libdevice's), read per function by NVPTX: float32 denormals flush to
  // zero, division and sqrt are approximate (div.approx.ftz.f32), as NVVM's
  // -ftz=1 -prec-div=0 -prec-sqrt=0 under numba-cuda's fastmath.
  if (fastmath) {
    for (llvm::Function& f : m) {
      if (f.isDeclaration()) continue;
      f.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
      f.addFnAttr("unsafe-fp-math", "true");
    }
  }
}

void optimize_module(llvm::Module& m, llvm::TargetMachine& tm, int opt, LoopSplitting splitting) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopVectorization = opt >= 2;
  pto.SLPVectorization = opt >= 2;
  llvm::PassBuilder pb(&tm, pto);
  if (splitting == LoopSplitting::LoopBounds && opt >= 2) {
    // A region loop of loop fission runs every thread of the block through
    // the region, even where a guard on the thread index (`if t < s`, a
    // block-uniform s) leaves most of them nothing to do: the loop is
    // narrowed to the guarded threads (cpu_guard_narrowing.h).
    pb.registerScalarOptimizerLateEPCallback([](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) {
      fpm.addPass(llvm::createFunctionToLoopPassAdaptor(GuardNarrowingPass(), /*UseMemorySSA=*/false));
    });
  }
  if (splitting != LoopSplitting::None && opt >= 2) {
    // CPU kernels check every array access by default: checks implied by a
    // guard go, the others are tested once per loop where they can be
    // (cpu_check_hoisting.h), after the region loops are narrowed and before
    // IRCE splits off the guarded iterations.
    pb.registerScalarOptimizerLateEPCallback(
        [](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) { fpm.addPass(CheckHoistingPass()); });
  }
  if (splitting == LoopSplitting::GuardedLoops && opt >= 2) {
    // A block's loop over its threads usually guards the body with `if i <
    // n` (i = the global index): vectorized as is, every access is a masked
    // load or store, which some x86 chips (AMD Zen) run many times slower
    // than plain ones. Inductive range check elimination splits the loop
    // into the part where the guard holds (plain vector code) and the rest.
    static std::once_flag once;
    std::call_once(once, [] {
      auto& options = llvm::cl::getRegisteredOptions();
      auto it = options.find("irce-skip-profitability-checks");
      if (it != options.end())
        if (auto* skip = static_cast<llvm::cl::opt<bool>*>(it->second)) *skip = true;
    });
    // At the end of the scalar simplification (not just before the
    // vectorizer, where the split main loop's trip count is no longer
    // computable and it stays scalar).
    pb.registerScalarOptimizerLateEPCallback(
        [](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) { fpm.addPass(llvm::IRCEPass()); });
  }
  if (opt >= 1) {
    // Once variables are SSA values (both products then read the same
    // value), with a common-subexpression elimination after it to merge the
    // rewritten products with their twins (negated_products.h).
    pb.registerScalarOptimizerLateEPCallback([](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) {
      fpm.addPass(NegatedProductSharingPass());
      fpm.addPass(llvm::EarlyCSEPass());
    });
  }
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = opt <= 0   ? llvm::OptimizationLevel::O0
                                  : opt == 1 ? llvm::OptimizationLevel::O1
                                  : opt == 2 ? llvm::OptimizationLevel::O2
                                             : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm =
      level == llvm::OptimizationLevel::O0 ? pb.buildO0DefaultPipeline(level) : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(m, mam);
}

std::string emit_ptx(llvm::Module& m, llvm::TargetMachine& tm) {
  llvm::SmallString<0> out;
  llvm::raw_svector_ostream os(out);
  rewrite_conversions_for_nvptx(m);  // around the backend's defects (nvptx_conversions.h)
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    throw UserError(ErrorKind::CompileError, "the NVPTX backend cannot emit PTX");
  pm.run(m);
  // LLVM prints ".func  (" with two spaces before a return parameter; the
  // spelling nvcc and numba users grep for has one.
  std::string ptx(out.str());
  for (std::size_t at = ptx.find(".func  ("); at != std::string::npos; at = ptx.find(".func  (", at))
    ptx.erase(at + 5, 1);
  // Inline PTX that needs a newer ISA than LLVM's default for the chip (fp8
  // mma.sync needs 8.4) asks for it with this module flag (major * 10 + minor):
  // the .version line is raised, never lowered.
  if (auto* flag = llvm::mdconst::extract_or_null<llvm::ConstantInt>(m.getModuleFlag(kPtxVersionFlag))) {
    const std::int64_t want = flag->getSExtValue();
    const std::size_t at = ptx.find("\n.version ");
    if (at != std::string::npos) {
      const std::size_t end = ptx.find('\n', at + 1);
      const std::string current = ptx.substr(at + 10, end - at - 10);
      const std::size_t dot = current.find('.');
      const std::int64_t have =
          dot == std::string::npos ? 0 : std::stoll(current.substr(0, dot)) * 10 + std::stoll(current.substr(dot + 1));
      if (want > have) ptx.replace(at + 10, end - at - 10, concat(want / 10, ".", want % 10));
    }
  }
  return ptx;
}

std::string module_text(const llvm::Module& m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  return os.str();
}

}  // namespace cuhost::codegen
