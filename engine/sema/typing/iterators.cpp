// Typing of the iterators `for` loops accept besides a plain range, array or
// tuple: enumerate(seq[, start]) and zip(seq, ...), nested in any way
// (`for i, (a, b) in enumerate(zip(x, y))`). The call itself is typed as the
// item it yields; lowering (lowering/iterators.cpp) evaluates each sequence
// once and counts to the shortest length, as Python does.
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

bool is_iterator_call(Typer& t, const ast::Expr* e, std::string* key) {
  if (e->kind != ast::ExprKind::Call) return false;
  const ir::Type* ft = t.type_of(static_cast<const ast::Call*>(e)->func.get());
  if (ft->kind != ir::TypeKind::Intrinsic) return false;
  if (ft->key != "builtins.enumerate" && ft->key != "builtins.zip") return false;
  *key = ft->key;
  return true;
}

}  // namespace

bool is_sequence_iterator(const std::string& intrinsic) {
  return intrinsic == "builtins.enumerate" || intrinsic == "builtins.zip";
}

const ir::Type* iteration_item_type(Typer& t, const ast::Expr* seq) {
  std::string key;
  if (!is_iterator_call(t, seq, &key)) {
    const ir::Type* st = t.type_of(seq);
    if (st->kind == ir::TypeKind::Range) return st->pointee;
    if (st->is_array()) return array_iter_type(st);
    if (st->is_tuple()) return tuple_iter_type(t, seq, st);
    t.fail(ErrorKind::UnsupportedError, seq->loc,
           concat("cannot iterate over a value of type ", display(st),
                  " in a kernel (range(...), arrays, homogeneous tuples, enumerate and zip of those)"));
  }
  const auto& c = static_cast<const ast::Call&>(*seq);
  ExprInfo& inf = t.info(&c);
  const ir::Type* item = nullptr;
  if (key == "builtins.enumerate") {
    auto args = t.bind(c, "enumerate", {"iterable", "start"}, 1, inf);
    const ir::Type* inner = iteration_item_type(t, args[0]);
    if (args[1]) {
      const ir::Type* st = t.type_of(args[1]);
      if (!st->is_integer() && st->kind != ir::TypeKind::Boolean)
        t.typing_error(args[1], concat("enumerate() start must be an integer, not ", display(st)));
    }
    item = ir::tuple({ir::int64(), inner});
  } else {
    if (!c.keywords.empty())
      t.fail(ErrorKind::TypingError, c.keywords[0].loc, "zip() takes no keyword arguments in kernels");
    if (c.args.empty()) t.typing_error(&c, "zip() needs at least one iterable in a kernel");
    std::vector<const ir::Type*> items;
    std::vector<const ast::Expr*> ordered;
    for (const auto& a : c.args) {
      items.push_back(iteration_item_type(t, a.get()));
      ordered.push_back(a.get());
    }
    t.info(&c).ordered_args = ordered;
    item = ir::tuple(items);
  }
  ExprInfo& again = t.info(&c);
  again.intrinsic = key;
  t.set_typed(&c, item);
  return item;
}

}  // namespace cuhost::sema
