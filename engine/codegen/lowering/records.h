// Record values in lowering (lowering/records.cpp): a record's register value
// is the address of its bytes. Used by the visitor (field reads and writes)
// and by arrays of records (elements are addresses; element stores copy).
#pragma once

#include "codegen/lowering/lowerer.h"
#include "ir/records.h"

namespace cuhost::codegen {

llvm::Value* record_field_address(Lowerer& l, llvm::Value* record, const ir::RecordField& f);
// The value of type `t` stored at `address`: a scalar load, a record (the
// address itself) or a nested array's C-ordered view.
// `view`: the array type of a nested array's view (default: unaligned when `align` is 1).
Val load_record_value(Lowerer& l, llvm::Value* address, const ir::Type* t, int align = 0,
                      const ir::Type* view = nullptr);
// Stores `value` as a `t` at `address` (records and nested arrays are copied).
// `align`: of the scalar access (0: the type's ABI alignment).
void store_record_value(Lowerer& l, llvm::Value* address, const ir::Type* t, Val value, int align = 0);
// `align` (0: the record's own): no wider than this, for a record nested in a packed one.
void copy_record(Lowerer& l, llvm::Value* dst, llvm::Value* src, const ir::Type* rec, int align = 0);
// A field read (r.x, r['x'], r[0]) and a field write.
Val lower_record_field(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf);
void store_record_field(Lowerer& l, const ast::Expr* target, Val value);
// `r.x op= v` / `r['x'] op= v` on a scalar field: the record operand is
// evaluated once, the field loaded and stored at the same address.
void augassign_record_field(Lowerer& l, const ast::AugAssign* s);
// a.x / a['x'] of a structured array ("array.record_field"): field x of every
// element, the array's shape and byte strides, then an array field's own
// C-ordered dimensions.
Val lower_record_array_field(Lowerer& l, const ast::Expr* e, const sema::ExprInfo& inf);
void register_records(std::map<std::string, IntrinsicFn>& table);

}  // namespace cuhost::codegen
