// Typing of calls to other jitted functions (specialized recursively on the
// argument types), to declared foreign functions (numba's implicit argument
// conversions, arity and array/scalar checks) and of ffi.from_buffer.
#include <algorithm>

#include "sema/conversions.h"
#include "sema/function_values.h"
#include "sema/infer.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

std::string type_list(const std::vector<const ir::Type*>& types) {
  std::string out = "(";
  for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + display(types[i]);
  return out + ")";
}

std::string signature_list(const std::vector<ir::Signature>& signatures) {
  std::string out;
  for (size_t i = 0; i < signatures.size(); ++i) out += (i ? ", " : "") + type_list(signatures[i].args);
  return out;
}

bool foreign_arg_ok(const ir::Type* actual, const ir::Type* declared) {
  if (declared->kind == ir::TypeKind::CPointer) {
    if (actual->kind == ir::TypeKind::CPointer) {
      return actual->pointee == declared->pointee || declared->pointee->kind == ir::TypeKind::Void ||
             declared->pointee->kind == ir::TypeKind::NoneType;
    }
    return false;
  }
  if (declared->is_array()) {
    return actual->is_array() && actual->dtype == declared->dtype && actual->ndim == declared->ndim &&
           (declared->layout == ir::Layout::A || actual->layout == declared->layout);
  }
  if (declared->is_scalar()) return (actual->is_scalar()) && can_convert(actual, declared);
  return can_convert(actual, declared);
}

// numba types integer, boolean and tuple-of-those literals as Literal
// arguments; the callee is specialized on their values.
bool literal_argument(const ir::ConstValue& c) {
  using K = ir::ConstValue::Kind;
  if (c.kind == K::Int || c.kind == K::UInt || c.kind == K::Bool) return true;
  if (c.kind != K::Tuple || c.items.empty()) return false;
  for (const auto& item : c.items)
    if (!literal_argument(item)) return false;
  return true;
}

// Literal typing stops at arithmetic (numba: Literal[int](3) - 1 is int64):
// a literal, a name or attribute bound to one, or a tuple of those.
bool literal_expression(const ast::Expr* e) {
  switch (e->kind) {
    case ast::ExprKind::Constant:
    case ast::ExprKind::Name:
    case ast::ExprKind::Attribute: return true;
    case ast::ExprKind::Tuple:
      for (const auto& el : static_cast<const ast::Tuple*>(e)->elts)
        if (!literal_expression(el.get())) return false;
      return true;
    case ast::ExprKind::UnaryOp: return static_cast<const ast::UnaryOp*>(e)->operand->kind == ast::ExprKind::Constant;
    default: return false;
  }
}

// One argument of a jitted call: an expression's value, or an element of a
// tuple expression unpacked with `*`; null for an omitted parameter.
struct BoundArg {
  const ast::Expr* expr = nullptr;
  int element = -1;
  const ir::Type* type = nullptr;
};

struct CallBinding {
  std::vector<BoundArg> named;  // one per parameter before *args
  std::vector<BoundArg> extra;  // what *args receives
  bool has_vararg = false;
};

// Python's argument binding for a call of `fn`: positional arguments (a
// `*tuple` contributing its elements) fill the parameters, the rest go to
// *args when there is one; keywords fill parameters by name; omitted
// parameters need a default.
CallBinding bind_call(Typer& t, const ast::Call& c, const model::JitFunction& fn) {
  const auto& params = fn.captured->def->params;
  CallBinding out;
  out.has_vararg = !params.empty() && params.back().vararg;
  const size_t n = params.size() - (out.has_vararg ? 1 : 0);
  out.named.resize(n);
  std::vector<BoundArg> positional;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const ast::Expr* a = c.args[i].get();
    if (!c.is_starred(i)) {
      // An Optional argument specializes the callee on OptionalType (numba).
      positional.push_back({a, -1, t.type_of_optional(a)});
      continue;
    }
    const ir::Type* tt = t.type_of(a);
    if (!tt->is_tuple()) t.typing_error(a, concat("*arguments of a call must be a tuple, not ", display(tt)));
    for (size_t k = 0; k < tt->elements.size(); ++k) positional.push_back({a, int(k), tt->elements[k]});
  }
  for (size_t i = 0; i < positional.size(); ++i) {
    if (i < n) {
      out.named[i] = positional[i];
    } else if (out.has_vararg) {
      out.extra.push_back(positional[i]);
    } else {
      t.typing_error(&c, concat(fn.name, "() takes ", n, " positional argument", n == 1 ? "" : "s", " but ",
                                positional.size(), " were given"));
    }
  }
  for (const auto& kw : c.keywords) {
    size_t k = 0;
    while (k < n && params[k].name != kw.name) ++k;
    if (k == n)
      t.fail(ErrorKind::TypingError, kw.loc, concat(fn.name, "() got an unexpected keyword argument '", kw.name, "'"));
    if (out.named[k].expr)
      t.fail(ErrorKind::TypingError, kw.loc, concat(fn.name, "() got multiple values for argument '", kw.name, "'"));
    out.named[k] = {kw.value.get(), -1, t.type_of_optional(kw.value.get())};
  }
  // The function object's defaults belong to its last positional parameters.
  const auto& defaults = fn.captured->defaults;
  const size_t first_default = n - std::min(n, defaults.size());
  for (size_t i = 0; i < n; ++i) {
    if (out.named[i].expr || params[i].default_value) continue;
    if (i >= first_default)  // a default that is not a constant (an array, an object...)
      t.typing_error(&c, concat("the default value ", defaults[i - first_default].repr, " of parameter '",
                                params[i].name, "' of '", fn.name, "' cannot be used in kernels"));
    t.typing_error(&c, concat(fn.name, "() missing required argument '", params[i].name, "'"));
  }
  return out;
}

}  // namespace

std::optional<ir::ConstValue> literal_argument_of(Typer& t, const ast::Expr* a, const ir::Type* type) {
  const auto& k = t.info(a).constant;
  if (k && literal_expression(a) && literal_argument(*k) && k->type == type) return k;
  return std::nullopt;
}

const ir::Type* type_device_call(Typer& t, const ast::Call& c, const ir::Type* callee, ExprInfo& info) {
  (void)info;
  std::shared_ptr<model::JitFunction> fn;
  for (const auto& [name, g] : t.captured().globals) {
    if (g.kind == frontend::GlobalValue::Kind::JitFunction && g.function.get() == callee->object) fn = g.function;
  }
  if (!fn) fn = jit_function_of(callee);  // a function passed in as an argument
  if (!fn) t.typing_error(&c, "cannot resolve the jitted function called here");
  if (!fn->captured || !fn->captured->def) {
    t.typing_error(&c, concat("the source of device function '", fn->name, "' was not captured"));
  }
  ExprInfo& call_info = t.info(&c);
  CallBinding binding = bind_call(t, c, *fn);
  std::vector<const ir::Type*> arg_types;
  std::vector<std::optional<ir::ConstValue>> arg_constants;
  std::vector<bool> arg_literal;  // numba types the argument as a Literal (rates a promotion at best)
  const auto& def_params = fn->captured->def->params;
  for (size_t i = 0; i < binding.named.size(); ++i) {
    const BoundArg& b = binding.named[i];
    if (!b.expr) {  // omitted: the parameter's default, as a constant argument
      arg_types.push_back(def_params[i].default_value->type);
      arg_constants.push_back(def_params[i].default_value);
      arg_literal.push_back(false);
      continue;
    }
    const ir::Type* at = b.type;
    // Functions pass as values: the callee is specialized on the function
    // (function_values.h); modules and nothing-values do not.
    if (at->kind == ir::TypeKind::Module || at->kind == ir::TypeKind::Void) {
      t.typing_error(b.expr, concat("cannot pass ", display(at), " to device function '", fn->name, "'"));
    }
    arg_types.push_back(at);
    const auto& k = t.info(b.expr).constant;
    // Functions with an explicit signature or the C ABI (one fixed symbol)
    // are compiled once, never per literal.
    const bool literal = b.element < 0 && k && literal_expression(b.expr) && literal_argument(*k) && k->type == at;
    arg_literal.push_back(literal);
    bool by_literal = !fn->options.return_type && fn->options.abi != ir::Abi::C;
    arg_constants.push_back(by_literal && literal ? k : std::nullopt);
  }
  if (binding.has_vararg) {
    std::vector<const ir::Type*> extra;
    for (const BoundArg& b : binding.extra) extra.push_back(b.type);
    arg_types.push_back(ir::tuple(extra));
    arg_constants.push_back(std::nullopt);
  }
  call_info.ordered_args.clear();
  call_info.arg_elements.clear();
  for (const BoundArg& b : binding.named) {
    call_info.ordered_args.push_back(b.expr);
    call_info.arg_elements.push_back(b.element);
  }
  call_info.packed_from = binding.has_vararg ? int(binding.named.size()) : -1;
  for (const BoundArg& b : binding.extra) {
    call_info.ordered_args.push_back(b.expr);
    call_info.arg_elements.push_back(b.element);
  }
  // Explicit signatures: the arguments convert to the best one (numba's
  // overload resolution, unsafe conversions included).
  const ir::Type* declared = fn->options.return_type;
  const auto& signatures = fn->options.device_signatures;
  if (!signatures.empty()) {
    std::optional<size_t> chosen = best_signature(arg_types, signatures, arg_literal);
    if (!chosen)
      t.typing_error(&c, concat("Invalid use of type(CUDADispatcher(<function ", fn->name, ">)) with parameters ",
                                type_list(arg_types), "; its signatures are ", signature_list(signatures)));
    arg_types = signatures[*chosen].args;
    declared = signatures[*chosen].return_type;
    for (size_t i = 0; i < arg_constants.size(); ++i)
      if (i >= binding.named.size() || binding.named[i].expr) arg_constants[i].reset();
  }
  std::shared_ptr<const TypedFunction> typed;
  try {
    // An explicit signature fixes the return type.
    typed = infer_device(fn, arg_types, declared, arg_constants);
  } catch (UserError& e) {
    std::string context = concat("while typing call to device function '", fn->name, "' with argument types ",
                                 type_list(arg_types), " (", t.captured().filename, ":", c.loc.line,
                                 "), resolving callee type: type(CUDADispatcher(<function ", fn->name, ">))");
    // An undefined name in the callee makes the call untypable: a
    // TypingError for the caller, as numba reports it.
    if (e.kind() == ErrorKind::NameError) {
      UserError typing(ErrorKind::TypingError, concat("NameError: ", e.message()), e.location(), e.function());
      for (const std::string& n : e.notes()) typing.add_note(n);
      typing.add_note(context);
      throw typing;
    }
    e.add_note(context);
    throw;
  }
  ExprInfo& inf = call_info;
  inf.callee = typed;
  inf.param_types = typed->arg_types;
  t.add_callee(typed);
  fn->note_call(typed->arg_types);
  return typed->return_type;
}

const ir::Type* type_foreign_call(Typer& t, const ast::Call& c, const ir::Type* callee, ExprInfo& info) {
  (void)info;
  std::shared_ptr<const ir::ForeignFunction> ff;
  for (const auto& [name, g] : t.captured().globals) {
    if (g.kind == frontend::GlobalValue::Kind::Foreign && g.foreign.get() == callee->object) ff = g.foreign;
  }
  if (!ff) ff = foreign_function_of(callee);  // passed in as an argument
  if (!ff) t.typing_error(&c, "cannot resolve the foreign function called here");
  std::string name = ff->python_name.empty() ? ff->name : ff->python_name;
  if (!c.keywords.empty()) {
    t.fail(ErrorKind::TypingError, c.keywords[0].loc,
           concat("foreign function '", name, "' takes no keyword arguments"));
  }
  std::vector<const ir::Type*> actual;
  std::vector<const ast::Expr*> ordered;
  for (const auto& a : c.args) {
    actual.push_back(t.type_of(a.get()));
    ordered.push_back(a.get());
  }
  bool ok = actual.size() == ff->sig.args.size();
  for (size_t i = 0; ok && i < actual.size(); ++i) ok = foreign_arg_ok(actual[i], ff->sig.args[i]);
  if (!ok) {
    t.typing_error(&c, concat("invalid call of foreign function '", name, "' with argument types ", type_list(actual),
                              ": it is declared ", ff->sig.str()));
  }
  ExprInfo& inf = t.info(&c);
  inf.foreign = ff;
  inf.ordered_args = ordered;
  inf.param_types = ff->sig.args;
  t.add_foreign(ff);
  const ir::Type* rt = ff->sig.return_type ? ff->sig.return_type : ir::void_type();
  if (rt->kind == ir::TypeKind::Void) return ir::none_type();
  return rt;
}

const ir::Type* type_ffi_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  (void)info;
  if (key != "ffi.from_buffer") return nullptr;
  auto args = t.bind(c, "from_buffer", {"obj"}, 1, t.info(&c));
  const ir::Type* a = t.type_of(args[0]);
  if (!a->is_array()) t.typing_error(args[0], concat("ffi.from_buffer() needs an array, not ", display(a)));
  if (a->layout == ir::Layout::A) {
    t.typing_error(args[0], concat("ffi.from_buffer() needs a C- or F-contiguous array, got ", display(a)));
  }
  t.info(&c).param_types = {a};
  return ir::cpointer(a->dtype);
}

}  // namespace cuhost::sema
