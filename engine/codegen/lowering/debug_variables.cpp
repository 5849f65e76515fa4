// debug=True: the slots and DWARF declarations of source variables. cuhost
// types each SSA version of a variable on its own; the debugger sees one
// variable per source name (see debug_variable_slot).
#include "codegen/debug_info.h"
#include "codegen/lowering/lowerer.h"
#include "frontend/ssa_versions.h"

namespace cuhost::codegen {

// debug=True: a source variable is one slot, whatever its versions. cuhost
// types each SSA version of a variable on its own, as numba does ("x" an
// int64, "x.1" a float64 after `x = 2.5`); a slot per version would show a
// debugger "x" frozen at its first value and "x.1" beside it. One slot,
// large and aligned enough for every version, holds whichever version was
// assigned last (versions of one variable are never live together: a read
// uses the version that reaches it, which is the last one written), and
// the debugger's one "x" has the union of the versions' types, as in
// numba-cuda. Loads and stores keep their version's own type.
llvm::AllocaInst* Lowerer::debug_variable_slot(const std::string& name) {
  // "x.2" is a version of x; only digits follow the dot of a version.
  auto versioned = [](const std::string& id) {
    auto dot = id.find('.');
    return dot != std::string::npos && dot + 1 < id.size() &&
           id.find_first_not_of("0123456789", dot + 1) == std::string::npos;
  };
  const std::string user = versioned(name) ? frontend::source_variable_name(name) : name;
  auto found = debug_slots_.find(user);
  if (found != debug_slots_.end()) return found->second;
  const llvm::DataLayout& layout = state_.module->getDataLayout();
  std::vector<const ir::Type*> types;
  llvm::Type* largest = nullptr;
  llvm::Align align(1);
  for (const auto& [local, t] : tf_.locals) {
    if (local != user && !(versioned(local) && frontend::source_variable_name(local) == user)) continue;
    types.push_back(t);
    llvm::Type* lt = llvm_type(t);
    align = std::max(align, layout.getABITypeAlign(lt));
    if (!largest || layout.getTypeAllocSize(lt) > layout.getTypeAllocSize(largest)) largest = lt;
  }
  llvm::AllocaInst* slot = entry_alloca(largest, slot_name(user));
  slot->setAlignment(std::max(slot->getAlign(), align));
  debug_slots_[user] = slot;
  declare_in_debug_info(user, slot, types);
  return slot;
}

// debug=True: the variable's DWARF description; a parameter is numbered
// (arg: N) and declared on the def line, a local where it is first used.
void Lowerer::declare_in_debug_info(const std::string& name, llvm::AllocaInst* slot,
                                    const std::vector<const ir::Type*>& types) {
  const ast::FunctionDef& def = *tf_.captured->def;
  unsigned arg_no = 0;
  for (size_t p = 0; p < def.params.size(); ++p)
    if (def.params[p].name == name) arg_no = unsigned(p + 1);
  int line = def.loc.line;
  if (!arg_no)
    if (const llvm::DebugLoc& at = builder_.getCurrentDebugLocation()) line = int(at.getLine());
  state_.debug_info->declare_variable(fn_, slot, name, types, arg_no, line);
}

}  // namespace cuhost::codegen
