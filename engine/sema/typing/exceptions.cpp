// Typing of `raise` (and of `assert`, which the frontend turns into a raise
// of AssertionError): the exception is a class captured as "exception.<id>"
// (frontend/exception_classes.h), raised bare or called with compile-time
// constant arguments, as numba requires. The raise's ExprInfo constant is
// the tuple (class key, (arguments...)); the function can end the thread
// (TypedFunction::raises). Lowering: lowering/exceptions.cpp.
#include "sema/typer.h"

namespace cuhost::sema {

void type_raise(Typer& t, const ast::Raise& r) {
  const ast::Expr* exc = r.exc.get();
  const ast::Expr* cls = exc;
  const ast::Call* call = exc->kind == ast::ExprKind::Call ? static_cast<const ast::Call*>(exc) : nullptr;
  if (call) cls = call->func.get();
  const ir::Type* ct = t.type_of(cls);
  if (ct->kind != ir::TypeKind::Intrinsic || ct->key.rfind("exception.", 0) != 0)
    t.typing_error(exc, concat("cannot raise ", display(ct), ": kernels raise exception classes"));
  std::vector<ir::ConstValue> args;
  if (call) {
    if (!call->keywords.empty())
      t.fail(ErrorKind::UnsupportedError, call->keywords[0].loc,
             "keyword arguments of a raised exception are not supported in kernels");
    for (size_t i = 0; i < call->args.size(); ++i) {
      const ast::Expr* a = call->args[i].get();
      t.type_of(a);
      const auto& c = t.constant(a);
      if (!c)
        t.fail(ErrorKind::UnsupportedError, a->loc,
               "the arguments of an exception raised in a kernel must be compile-time constants");
      args.push_back(*c);
    }
    t.set_typed(call, ir::none_type());
  }
  ExprInfo& inf = t.info(exc);
  inf.intrinsic = "exception.raise";
  inf.constant = ir::ConstValue::tuple({ir::ConstValue::string(ct->key), ir::ConstValue::tuple(std::move(args))});
  t.note_unwrap();  // the function can end the thread
}

}  // namespace cuhost::sema
