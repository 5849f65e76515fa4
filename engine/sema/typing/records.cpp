// Typing of record (structured dtype) values: field reads and writes by
// attribute (`r.x`), by literal name (`r['x']`) and by literal index
// (`r[0]`); a scalar field is a value, a record field a nested record (a
// reference), an array field a C-ordered array view of the record's bytes.
// Writing a whole array field copies an array of the same shape into it.
// numba-cuda's strict alignment rule applies: a field whose offset is not a
// multiple of its type's alignment is a TypeError.
#include "ir/records.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

// The type a read of field `f` produces.
const ir::Type* field_value_type(const ir::Type* record, const ir::RecordField& f) {
  // A packed record's nested array may sit at any byte: its view is unaligned (numba's aligned=False).
  if (f.type->kind == ir::TypeKind::NestedArray)
    return ir::array(f.type->dtype, f.type->ndim, ir::Layout::C, false, !ir::record_layout(record).aligned);
  return f.type;
}

const ir::RecordField& check_aligned(Typer& t, const ir::Type* rec, const ir::RecordField& f,
                                     const ast::SourceLoc& loc) {
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

// Marks `e` as a field access of `f` (lowering finds the field again by the
// index stored in shape[0]).
const ir::Type* mark_field(Typer& t, const ast::Expr* e, const ir::Type* rec, const ir::RecordField& f, bool store) {
  ExprInfo& inf = t.info(e);
  const auto& fields = ir::record_layout(rec).fields;
  inf.intrinsic = "record.field";
  inf.shape = {static_cast<std::int64_t>(&f - fields.data())};
  if (store && f.type->kind == ir::TypeKind::NestedArray) inf.intrinsic = "record.setarray";
  if (store && f.type->kind == ir::TypeKind::Record) inf.intrinsic = "record.setrecord";
  return field_value_type(rec, f);
}

}  // namespace

const ir::Type* type_record_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, bool store) {
  if (base->kind != ir::TypeKind::Record) return nullptr;
  const ir::RecordField& f = field_by_name(t, base, a.attr, a.loc);
  return mark_field(t, &a, base, f, store);
}

const ir::Type* type_record_subscript(Typer& t, const ast::Subscript& s, const ir::Type* base, bool store) {
  const ast::Expr* idx = s.index.get();
  const ir::Type* it = t.type_of(idx);
  const auto& c = t.constant(idx);
  if (it->kind == ir::TypeKind::StringLiteral) {
    const ir::RecordField& f = field_by_name(t, base, it->key, s.loc);
    return mark_field(t, &s, base, f, store);
  }
  if (c && (c->kind == ir::ConstValue::Kind::Int || c->kind == ir::ConstValue::Kind::UInt)) {
    const auto& fields = ir::record_layout(base).fields;
    std::int64_t n = static_cast<std::int64_t>(fields.size());
    std::int64_t i = c->kind == ir::ConstValue::Kind::UInt ? static_cast<std::int64_t>(c->u) : c->i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) t.fail(ErrorKind::IndexError, s.loc, concat("record index ", i, " out of range"));
    const ir::RecordField& f = check_aligned(t, base, fields[static_cast<size_t>(i)], s.loc);
    return mark_field(t, &s, base, f, store);
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
