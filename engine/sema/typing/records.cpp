// Typing of record (structured dtype) values: field reads and writes by
// attribute (`r.x`), by literal name (`r['x']`) and by literal index
// (`r[0]`); a scalar field is a value, a record field a nested record (a
// reference), an array field a C-ordered array view of the record's bytes.
// Writing a whole array field copies an array of the same shape into it.
// numba-cuda's strict alignment rule applies: a scalar (or scalar array)
// field whose offset is not a multiple of its type's alignment is a
// TypeError; a nested record may sit at any offset. Each access also records
// the alignment its field's address is known to have, through any chain of
// nested records (`a[i]["pos"]["x"]`), so that lowering never emits an
// access wider than the bytes are aligned for.
#include <algorithm>

#include "ir/records.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

// The alignment the address of record value `e` (of type `rec`) is known to
// have. A packed record may sit at any byte (element i of an array of 9-byte
// records is at 9 * i); an aligned one at a multiple of its widest field,
// unless it is a field of a packed record or an element of an unaligned
// view, where it inherits their (lack of) alignment.
int record_address_alignment(Typer& t, const ast::Expr* e, const ir::Type* rec) {
  const int own = ir::record_layout(rec).aligned ? ir::abi_alignment(rec) : 1;
  const ExprInfo& inf = t.info(e);
  if (inf.record_field >= 0) return std::min(own, inf.record_field_align);
  if (e->kind == ast::ExprKind::Subscript && inf.intrinsic == "array.getitem") {
    const ir::Type* at = t.info(static_cast<const ast::Subscript*>(e)->value.get()).type;
    if (at && at->kind == ir::TypeKind::Array && at->unaligned) return 1;
  }
  return own;
}

// The alignment of a field at `offset` bytes from an address aligned to `base`.
int field_address_alignment(int base, std::int64_t offset) {
  if (offset == 0) return base;
  const std::int64_t low = offset & -offset;  // the largest power of two dividing the offset
  return static_cast<int>(std::min<std::int64_t>(base, low));
}

// The type a read of field `f` produces; `address_align`: the alignment of the field's address.
const ir::Type* field_value_type(const ir::Type* record, const ir::RecordField& f, int address_align) {
  // A packed record's nested array may sit at any byte: its view is
  // unaligned (numba's aligned=False), and so is one whose record sits in a
  // packed record.
  if (f.type->kind == ir::TypeKind::NestedArray) {
    const bool unaligned = !ir::record_layout(record).aligned || address_align < ir::abi_alignment(f.type->dtype);
    return ir::array(f.type->dtype, f.type->ndim, ir::Layout::C, false, unaligned);
  }
  return f.type;
}

const ir::RecordField& check_aligned(Typer& t, const ir::Type* rec, const ir::RecordField& f,
                                     const ast::SourceLoc& loc) {
  // numba-cuda checks the alignment of a field's data type, and a record's
  // (or an array of records') data is bytes: a nested record may sit at any
  // offset. Its own fields are checked where they are read, and accessed no
  // wider than the address they end up at is aligned (mark_field).
  const ir::Type* data = f.type->kind == ir::TypeKind::NestedArray ? f.type->dtype : f.type;
  if (data->kind == ir::TypeKind::Record) return f;
  if (f.offset % ir::abi_alignment(f.type) != 0) {
    const ir::Type* shown = f.type->kind == ir::TypeKind::NestedArray ? f.type->dtype : f.type;
    t.fail(ErrorKind::TypeError, loc, concat(rec->str(), ".", f.name, " of type ", shown->str(), " is not aligned"));
  }
  return f;
}

const ir::RecordField& field_by_name(Typer& t, const ir::Type* rec, const std::string& name,
                                     const ast::SourceLoc& loc) {
  const ir::RecordField* f = ir::record_layout(rec).find(name);
  if (!f) t.fail(ErrorKind::TypingError, loc, concat("Unknown attribute '", name, "' of type ", rec->str()));
  return check_aligned(t, rec, *f, loc);
}

// Field `name` of `rec`, with numba's message for r['name'] naming no field
// (its StaticGetItemRecord).
const ir::RecordField& require_field(Typer& t, const ir::Type* rec, const std::string& name,
                                     const ast::SourceLoc& loc) {
  const ir::RecordLayout& layout = ir::record_layout(rec);
  const ir::RecordField* f = layout.find(name);
  if (!f) {
    std::string names;
    for (const ir::RecordField& g : layout.fields) names += concat(names.empty() ? "" : ", ", "'", g.name, "'");
    if (layout.fields.size() == 1) names += ",";
    t.fail(ErrorKind::TypingError, loc, concat("Field '", name, "' was not found in record with fields (", names, ")"));
  }
  return *f;
}

const ir::RecordField& field_by_key(Typer& t, const ir::Type* rec, const std::string& name, const ast::SourceLoc& loc) {
  return check_aligned(t, rec, require_field(t, rec, name, loc), loc);
}

// Marks `e` (whose record operand is `operand`) as a field access of `f`:
// lowering finds the field again by its index, and accesses it with no more
// than the alignment its address is known to have.
const ir::Type* mark_field(Typer& t, const ast::Expr* e, const ast::Expr* operand, const ir::Type* rec,
                           const ir::RecordField& f, bool store) {
  const int address_align = field_address_alignment(record_address_alignment(t, operand, rec), f.offset);
  ExprInfo& inf = t.info(e);
  const auto& fields = ir::record_layout(rec).fields;
  inf.intrinsic = "record.field";
  inf.record_field = static_cast<int>(&f - fields.data());
  inf.record_field_align = address_align;
  if (store && f.type->kind == ir::TypeKind::NestedArray) inf.intrinsic = "record.setarray";
  if (store && f.type->kind == ir::TypeKind::Record) inf.intrinsic = "record.setrecord";
  return field_value_type(rec, f, address_align);
}

}  // namespace

const ir::Type* type_record_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, bool store) {
  if (base->kind != ir::TypeKind::Record) return nullptr;
  const ir::RecordField& f = field_by_name(t, base, a.attr, a.loc);
  return mark_field(t, &a, a.value.get(), base, f, store);
}

const ir::Type* type_record_subscript(Typer& t, const ast::Subscript& s, const ir::Type* base, bool store) {
  const ast::Expr* idx = s.index.get();
  const ir::Type* it = t.type_of(idx);
  if (base->is_array()) {
    // numba's a['x'] of a structured array: a view of field x of every
    // element, with the array's shape and byte strides; an array field adds
    // its own dimensions (C-ordered inside each element), as a.x
    // (typing/array_methods.cpp). Lowering: codegen/lowering/records.cpp.
    const ir::RecordField& f = require_field(t, base->dtype, it->key, s.loc);
    if (store)
      t.typing_error(&s, concat("cannot assign to field '", f.name, "' of every element of ", display(base),
                                ": index an element first"));
    ExprInfo& inf = t.info(&s);
    inf.intrinsic = "array.record_field";
    inf.record_field = static_cast<int>(&f - ir::record_layout(base->dtype).fields.data());
    // A packed record's fields may sit at any byte (as a.x's view).
    const bool unaligned = base->unaligned || !ir::record_layout(base->dtype).aligned;
    if (f.type->kind == ir::TypeKind::NestedArray)
      return ir::array(f.type->dtype, base->ndim + f.type->ndim, ir::Layout::A, base->readonly, unaligned);
    return ir::array(f.type, base->ndim, ir::Layout::A, base->readonly, unaligned);
  }
  const auto& c = t.constant(idx);
  if (it->kind == ir::TypeKind::StringLiteral) {
    const ir::RecordField& f = field_by_key(t, base, it->key, s.loc);
    return mark_field(t, &s, s.value.get(), base, f, store);
  }
  if (c && (c->kind == ir::ConstValue::Kind::Int || c->kind == ir::ConstValue::Kind::UInt)) {
    const auto& fields = ir::record_layout(base).fields;
    std::int64_t n = static_cast<std::int64_t>(fields.size());
    std::int64_t i = c->kind == ir::ConstValue::Kind::UInt ? static_cast<std::int64_t>(c->u) : c->i;
    // numba's error (a TypingError), and Python's wraparound of a negative index.
    if (i >= n || i < -n) t.fail(ErrorKind::TypingError, s.loc, concat("Requested index ", i, " is out of range"));
    if (i < 0) i += n;
    const ir::RecordField& f = check_aligned(t, base, fields[static_cast<size_t>(i)], s.loc);
    return mark_field(t, &s, s.value.get(), base, f, store);
  }
  t.typing_error(idx, concat("a record is indexed by a literal field name or a literal integer, not ", display(it)));
}

void type_record_store(Typer& t, const ast::Expr* target, const ir::Type* slot, const ir::Type* value) {
  const std::string& key = t.info(target).intrinsic;
  if (key == "record.setarray") {
    // The whole array field: an array (or another record's array field) of the same rank and element type.
    if (!value->is_array() || value->ndim != slot->ndim || !can_convert(value->dtype, slot->dtype)) {
      t.typing_error(target, concat("cannot store a value of type ", display(value), " into a record field of type ",
                                    display(slot)));
    }
    return;
  }
  if (key == "record.setrecord") {
    if (value != slot)
      t.typing_error(target, concat("cannot store a value of type ", display(value), " into a record field of type ",
                                    display(slot)));
    return;
  }
  if (!can_convert(value, slot)) {
    t.typing_error(target, concat("cannot store a value of type ", display(value), " into a record field of type ",
                                  display(slot)));
  }
  if (value->kind == ir::TypeKind::Optional) t.note_unwrap();
}

}  // namespace cuhost::sema
