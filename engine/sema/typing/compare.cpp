// Typing of comparisons (chained, `is None`) and of `and`/`or`: comparisons
// convert both sides to numba's common arithmetic type and give bool;
// boolean operators give the unified type of their operands.
#include "sema/branch_pruning.h"
#include "sema/extension_typing.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool num_or_bool(const ir::Type* t) { return t->kind == ir::TypeKind::Boolean || t->is_number(); }
bool is_optional(const ir::Type* t) { return t->kind == ir::TypeKind::Optional; }

// `x in tup` / `x not in tup`: x == item for each item of the tuple, each
// compared in the common type of x and that item (param_types, one per item).
const ir::Type* type_tuple_contains(Typer& t, const ast::Compare& e, const ir::Type* left) {
  const ir::Type* tup = t.type_of(e.comparators[0].get());
  if (!tup->is_tuple()) t.typing_error(&e, concat("'in' in kernels needs a tuple on the right, not ", display(tup)));
  if (is_optional(left)) {
    left = left->pointee;
    t.note_unwrap();
  }
  std::vector<const ir::Type*> common;
  for (const ir::Type* item : tup->elements) {
    if (!num_or_bool(left) || !num_or_bool(item))
      t.typing_error(&e, concat("cannot compare ", display(left), " and ", display(item), " with 'in'"));
    common.push_back(left->kind == ir::TypeKind::Boolean && item->kind == ir::TypeKind::Boolean ? ir::boolean()
                                                                                                : arith(left, item));
  }
  ExprInfo& inf = t.info(&e);
  inf.intrinsic = "tuple.contains";
  inf.operand_types = {left};
  inf.param_types = common;
  return ir::boolean();
}

// Enum members (numba's EnumMember/IntEnumMember): `is`, `==` and their
// negations between members of one class compare the members' values (the
// operand type is the class's member type); between different classes
// `is` is false (as in Python), and so is `==` unless both are IntEnum
// members, which otherwise compare as integers (nullptr: not handled here).
// A folded link gives none_type and records its value in `folded`.
const ir::Type* type_enum_compare(Typer& t, const ast::Compare& e, ast::CompareOpKind op, const ir::Type* left,
                                  const ir::Type* right, bool& folded) {
  using Op = ast::CompareOpKind;
  bool le = left->kind == ir::TypeKind::EnumMember, re = right->kind == ir::TypeKind::EnumMember;
  if (!le && !re) return nullptr;
  bool identity = op == Op::Is || op == Op::IsNot;
  bool equality = identity || op == Op::Eq || op == Op::NotEq;
  bool negated = op == Op::IsNot || op == Op::NotEq;
  if (left == right && equality) return left;
  bool numeric = (!le || ir::is_int_enum(left)) && (!re || ir::is_int_enum(right));
  if (numeric && !identity) return nullptr;  // IntEnum members (or one with a number): as integers
  if (left->kind == ir::TypeKind::NoneType || right->kind == ir::TypeKind::NoneType ||
      left->kind == ir::TypeKind::Optional || right->kind == ir::TypeKind::Optional)
    return nullptr;  // `is None` rules
  if (!equality)
    t.typing_error(
        &e, concat("cannot compare ", display(left), " and ", display(right), " with '", ast::to_string(op), "'"));
  folded = folded && negated;  // different types: never identical nor equal
  return ir::none_type();
}

}  // namespace

const ir::Type* type_compare(Typer& t, const ast::Compare& e, ExprInfo& info) {
  (void)info;
  // Operands keep OptionalType for `is None` tests; other comparisons use
  // the payload (converted with a None check, as numba does).
  const ir::Type* left = t.type_of_optional(e.left.get());
  // A comparison of extension-type values comes from the extension API (@overload(operator.eq)).
  if (e.ops.size() == 1 && e.ops[0] != ast::CompareOpKind::In && e.ops[0] != ast::CompareOpKind::NotIn) {
    const ir::Type* right = t.type_of_optional(e.comparators[0].get());
    if (has_extension_operand({left, right})) {
      std::string key = "operator." + operator_name(e.ops[0]);
      if (const ir::Type* x = type_builtin_extension(t, &e, key, {e.left.get(), e.comparators[0].get()})) return x;
    }
  }
  for (auto op : e.ops) {
    if (op != ast::CompareOpKind::In && op != ast::CompareOpKind::NotIn) continue;
    if (e.ops.size() != 1) t.typing_error(&e, "'in' inside a chained comparison is not supported in kernels");
    return type_tuple_contains(t, e, left);
  }
  std::vector<const ir::Type*> operands;
  bool foldable = true;
  bool folded = true;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    const ir::Type* right = t.type_of_optional(e.comparators[i].get());
    ast::CompareOpKind op = e.ops[i];
    if (const ir::Type* member = type_enum_compare(t, e, op, left, right, folded)) {
      operands.push_back(member);
      if (member->kind != ir::TypeKind::NoneType) foldable = false;
      left = right;
      continue;
    }
    if (ir::is_int_enum(left)) left = left->pointee;  // compared as its integer
    if (ir::is_int_enum(right)) right = right->pointee;
    if (op == ast::CompareOpKind::Is || op == ast::CompareOpKind::IsNot) {
      bool ln = left->kind == ir::TypeKind::NoneType, rn = right->kind == ir::TypeKind::NoneType;
      if (!ln && !rn) {
        t.typing_error(&e, concat("'", ast::to_string(op), "' comparisons in kernels are only supported with None"));
      }
      if (is_optional(left) || is_optional(right)) {
        // Known only at run time: the Optional's valid bit.
        operands.push_back(is_optional(left) ? left : right);
        foldable = false;
        left = right;
        continue;
      }
      bool same = ln && rn;
      bool value = op == ast::CompareOpKind::Is ? same : !same;
      folded = folded && value;
      operands.push_back(ir::none_type());
    } else {
      if (is_optional(left) || is_optional(right)) t.note_unwrap();
      if (is_optional(left)) left = left->pointee;
      if (is_optional(right)) right = right->pointee;
      if (left->kind == ir::TypeKind::StringLiteral && right->kind == ir::TypeKind::StringLiteral) {
        // Two string constants (a literal, or a literal argument the callee
        // is specialized on): compared while typing, like numba's literals.
        int order = left->key.compare(right->key);
        bool value = op == ast::CompareOpKind::Eq      ? order == 0
                     : op == ast::CompareOpKind::NotEq ? order != 0
                     : op == ast::CompareOpKind::Lt    ? order < 0
                     : op == ast::CompareOpKind::LtE   ? order <= 0
                     : op == ast::CompareOpKind::Gt    ? order > 0
                                                       : order >= 0;
        folded = folded && value;
        operands.push_back(left);
        left = right;
        continue;
      }
      if (ir::is_datetime_like(left) || ir::is_datetime_like(right)) {
        operands.push_back(type_datetime_compare(t, left, right, op, &e));
        foldable = false;
        left = right;
        continue;
      }
      if (!num_or_bool(left) || !num_or_bool(right) || ir::is_storage_float(left) || ir::is_storage_float(right)) {
        t.typing_error(
            &e, concat("cannot compare ", display(left), " and ", display(right), " with '", ast::to_string(op), "'"));
      }
      bool complex = left->kind == ir::TypeKind::Complex || right->kind == ir::TypeKind::Complex;
      if (complex && op != ast::CompareOpKind::Eq && op != ast::CompareOpKind::NotEq) {
        t.typing_error(&e, concat("cannot order complex values (", display(left), " and ", display(right), ")"));
      }
      // numba's comparison cases pair each type with itself: uint64 against
      // a signed integer converts both to float64 (the one safe choice),
      // unlike arithmetic, which is int64.
      auto u64 = [](const ir::Type* x) { return x->is_integer() && !x->is_signed && x->bits >= 64; };
      auto sint = [](const ir::Type* x) { return x->is_integer() && x->is_signed; };
      bool mixed64 = (u64(left) && sint(right)) || (u64(right) && sint(left));
      const ir::Type* common = (left->kind == ir::TypeKind::Boolean && right->kind == ir::TypeKind::Boolean)
                                   ? ir::boolean()
                               : mixed64 ? ir::float64()
                                         : arith(left, right);
      operands.push_back(common);
      foldable = false;
    }
    left = right;
  }
  ExprInfo& inf = t.info(&e);
  inf.operand_types = operands;
  if (foldable) inf.constant = ir::ConstValue::boolean(folded);
  return ir::boolean();
}

const ir::Type* type_boolop(Typer& t, const ast::BoolOp& e, ExprInfo& info) {
  (void)info;
  const bool is_and = e.op == ast::BoolOpKind::And;
  const ir::Type* u = nullptr;
  for (size_t i = 0; i < e.values.size(); ++i) {
    const ast::Expr* v = e.values[i].get();
    const ir::Type* vt = t.type_of_optional(v);
    const ir::Type* payload = is_optional(vt) ? vt->pointee : vt;
    if (!num_or_bool(payload) && vt->kind != ir::TypeKind::NoneType) {
      t.typing_error(v, concat("cannot use a value of type ", display(vt), " in '", is_and ? "and" : "or", "'"));
    }
    // numba branches on each operand but the last before typing
    // (sema/branch_pruning.h): a constant one that passes the value on
    // (truthy in `and`, falsy in `or`) is no result, and one that stops
    // there is the only result from then on; the rest are not typed.
    std::optional<bool> known = i + 1 < e.values.size() ? pruned_operand(t, v) : std::nullopt;
    if (known && *known == is_and) continue;
    if (u) {
      const ir::Type* n = unify(u, vt);
      if (!n) t.typing_error(&e, concat("cannot unify ", display(u), " and ", display(vt), " in a boolean expression"));
      u = n;
    } else {
      u = vt;
    }
    if (known) break;
  }
  ExprInfo& inf = t.info(&e);
  inf.operand_types.assign(e.values.size(), u);
  return u;
}

}  // namespace cuhost::sema
