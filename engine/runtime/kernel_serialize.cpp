// Kernels as bytes (see kernel_serialize.h): a version tag, then
// length-prefixed fields.
#include "runtime/kernel_serialize.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include <cstring>

#include "cpu/jit.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {

namespace {

constexpr const char* kFormat = "cuhost-compiled-kernel-2";

void put(std::string& out, const std::string& s) {
  std::uint64_t n = s.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof(n));
  out += s;
}
void put(std::string& out, std::uint64_t v) { put(out, std::to_string(v)); }

struct Reader {
  const std::string& in;
  std::size_t pos = 0;
  bool ok = true;
  std::string str() {
    std::uint64_t n = 0;
    if (!ok || pos + sizeof(n) > in.size()) {
      ok = false;
      return {};
    }
    std::memcpy(&n, in.data() + pos, sizeof(n));
    pos += sizeof(n);
    if (pos + n > in.size()) {
      ok = false;
      return {};
    }
    std::string s = in.substr(pos, n);
    pos += n;
    return s;
  }
  std::uint64_t num() {
    std::string s = str();
    if (!ok || s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) {
      ok = false;
      return 0;
    }
    return std::stoull(s);
  }
};

// JIT-compiles a CPU kernel's IR and fills its entry points.
void jit_cpu_kernel(CompiledKernel& k) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(k.llvm_ir, diag, *context);
  if (!module)
    throw UserError(ErrorKind::CompileError,
                    concat("cannot read the cached kernel '", k.name, "': ", diag.getMessage().str()));
  std::vector<std::string> symbols = {k.cpu_thread_symbol};
  if (!k.cpu_block_symbol.empty()) symbols.push_back(k.cpu_block_symbol);
  std::vector<void*> addrs = cpu::add_module(std::move(module), std::move(context), symbols);
  k.cpu_thread_fn = addrs.at(0);
  if (!k.cpu_block_symbol.empty()) k.cpu_block_fn = addrs.at(1);
}

}  // namespace

bool serializable(const CompiledKernel& kernel) {
  if (!kernel.link.empty()) return false;
  if (kernel.target == Target::CPU) return !kernel.llvm_ir.empty() && !kernel.cpu_thread_symbol.empty();
  return !kernel.ptx.empty();
}

std::string serialize_kernel(const CompiledKernel& k) {
  std::string out;
  put(out, kFormat);
  put(out, std::uint64_t(k.target));
  put(out, k.symbol);
  put(out, std::uint64_t(k.static_shared_bytes));
  put(out, std::uint64_t(k.dynamic_shared_padding));
  put(out, std::uint64_t(k.uses_barriers));
  put(out, std::uint64_t(k.uses_warp_ops));
  put(out, std::uint64_t(k.use_cooperative));
  put(out, k.ptx);
  put(out, k.llvm_ir);
  put(out, k.llvm_ir_unoptimized);
  put(out, k.cpu_thread_symbol);
  put(out, k.cpu_block_symbol);
  put(out, std::uint64_t(k.link.size()));
  for (const auto& item : k.link) {
    put(out, std::uint64_t(item.kind));
    put(out, item.path);
    put(out, item.name);
    put(out, item.data);
    put(out, std::uint64_t(item.include_dirs.size()));
    for (const auto& d : item.include_dirs) put(out, d);
    put(out, item.plugin_dir);
  }
  return out;
}

std::shared_ptr<CompiledKernel> deserialize_kernel(const std::string& data, const std::string& name) {
  Reader r{data};
  if (r.str() != kFormat) return nullptr;
  auto k = std::make_shared<CompiledKernel>();
  k->name = name;
  std::uint64_t target = r.num();
  if (target != std::uint64_t(Target::CPU) && target != std::uint64_t(Target::NVPTX)) return nullptr;
  k->target = Target(target);
  k->symbol = r.str();
  k->static_shared_bytes = r.num();
  k->dynamic_shared_padding = r.num();
  k->uses_barriers = r.num() != 0;
  k->uses_warp_ops = r.num() != 0;
  k->use_cooperative = r.num() != 0;
  k->ptx = r.str();
  k->llvm_ir = r.str();
  k->llvm_ir_unoptimized = r.str();
  k->cpu_thread_symbol = r.str();
  k->cpu_block_symbol = r.str();
  std::uint64_t items = r.num();
  for (std::uint64_t i = 0; r.ok && i < items; ++i) {
    ir::LinkItem item;
    item.kind = static_cast<ir::LinkKind>(r.num());
    item.path = r.str();
    item.name = r.str();
    item.data = r.str();
    std::uint64_t dirs = r.num();
    for (std::uint64_t d = 0; r.ok && d < dirs; ++d) item.include_dirs.push_back(r.str());
    item.plugin_dir = r.str();
    k->link.push_back(std::move(item));
  }
  if (!r.ok || k->symbol.empty()) return nullptr;
  if (k->target == Target::NVPTX && k->ptx.empty()) return nullptr;
  if (k->target == Target::CPU) {
    if (k->llvm_ir.empty() || k->cpu_thread_symbol.empty()) return nullptr;
    jit_cpu_kernel(*k);
  }
  return k;
}

}  // namespace cuhost::runtime
