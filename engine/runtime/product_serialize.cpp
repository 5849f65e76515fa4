// compile*() text and host functions as bytes (see product_serialize.h): a
// format line, then one line per field (the return type's spelling, the
// entry symbol, the slot counts) and the code itself to the end. Spellings and symbols hold
// no line breaks.
#include "runtime/product_serialize.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>

#include "codegen/host_entry.h"
#include "cpu/jit.h"
#include "ir/type_parser.h"
#include "support/diagnostics.h"

namespace cuhost::runtime {
namespace {

constexpr const char* kTextFormat = "cuhost-compiled-text-1";
constexpr const char* kHostFormat = "cuhost-host-function-2";

// The spelling of `t` when the type parser reads it back as `t` itself.
std::optional<std::string> portable_spelling(const ir::Type* t) {
  std::string spelling = t->str();
  try {
    if (ir::parse_type(spelling) == t && spelling.find('\n') == std::string::npos) return spelling;
  } catch (const UserError&) {
  }
  return std::nullopt;
}

// Splits `data` into `n` lines and the rest; false when it has fewer.
bool split_lines(const std::string& data, std::size_t n, std::vector<std::string>& lines, std::string& rest) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t end = data.find('\n', pos);
    if (end == std::string::npos) return false;
    lines.push_back(data.substr(pos, end - pos));
    pos = end + 1;
  }
  rest = data.substr(pos);
  return true;
}

// "<argument slots> <result slots>", both small non-negative numbers.
bool read_slot_counts(const std::string& line, int& args, int& result) {
  std::size_t space = line.find(' ');
  auto number = [](const std::string& digits, int& out) {
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
      return false;
    out = std::stoi(digits);
    return true;
  };
  return space != std::string::npos && number(line.substr(0, space), args) && number(line.substr(space + 1), result);
}

const ir::Type* type_of(const std::string& spelling) {
  try {
    return ir::parse_type(spelling);
  } catch (const UserError&) {
    return nullptr;
  }
}

}  // namespace

std::optional<std::string> serialize_text(const CompiledText& text) {
  std::optional<std::string> ret = portable_spelling(text.return_type ? text.return_type : ir::none_type());
  if (!ret) return std::nullopt;
  return concat(kTextFormat, "\n", *ret, "\n", text.text);
}

std::optional<CompiledText> deserialize_text(const std::string& data) {
  std::vector<std::string> lines;
  CompiledText out;
  if (!split_lines(data, 2, lines, out.text) || lines[0] != kTextFormat) return std::nullopt;
  if (!(out.return_type = type_of(lines[1]))) return std::nullopt;
  return out;
}

std::optional<std::string> serialize_host_function(const CompiledHostFunction& compiled) {
  CUHOST_CHECK(compiled.serializable) << "host function '" << compiled.name << "' cannot be kept between processes";
  std::optional<std::string> ret = portable_spelling(compiled.return_type);
  if (!ret || compiled.symbol.find('\n') != std::string::npos) return std::nullopt;
  return concat(kHostFormat, "\n", *ret, "\n", compiled.symbol, "\n", compiled.arg_slots, " ", compiled.result_slots,
                "\n", compiled.llvm_ir);
}

std::shared_ptr<CompiledHostFunction> deserialize_host_function(const std::string& data, const std::string& name) {
  std::vector<std::string> lines;
  auto out = std::make_shared<CompiledHostFunction>();
  if (!split_lines(data, 4, lines, out->llvm_ir) || lines[0] != kHostFormat) return nullptr;
  out->name = name;
  out->return_type = type_of(lines[1]);
  out->symbol = lines[2];
  if (!read_slot_counts(lines[3], out->arg_slots, out->result_slots)) return nullptr;
  if (!out->return_type || out->symbol.empty() || out->llvm_ir.empty() || out->arg_slots < 0 ||
      out->result_slots != codegen::host_slot_count(out->return_type))
    return nullptr;
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(out->llvm_ir, diag, *context);
  if (!module)
    throw UserError(ErrorKind::CompileError,
                    concat("cannot read the cached host function '", name, "': ", diag.getMessage().str()));
  std::vector<void*> addresses = cpu::add_module(std::move(module), std::move(context), {out->symbol});
  out->entry = reinterpret_cast<CompiledHostFunction::Entry>(addresses.at(0));
  out->serializable = true;
  return out;
}

}  // namespace cuhost::runtime
