// Typing of what the extension API adds (sema/extension_hooks.h): calls of
// extension objects (@overload'ed functions, @intrinsic, classes given
// type_callable, register_jitable functions), attributes and methods of
// values that the extension API provides (make_attribute_wrapper,
// AttributeTemplate, @overload_attribute, @overload_method). The Python
// side answers how each one is implemented; this file turns the answer into
// the ExprInfo that codegen/lowering/extension.cpp reads:
//   "extension.call"     a device function: callee, param_types, ordered_args
//                        (null where the callee's parameter takes its default,
//                        whose value is the callee's arg_constants entry)
//   "extension.codegen"  LLVM IR from Python: param_types, ordered_args, extension
//   "extension.member"   a StructModel member: ordered_args {value}, extension->member
#include "ir/builtin_extensions.h"
#include "sema/extension_typing.h"
#include "sema/function_values.h"
#include "sema/infer.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

ExtensionHooks& hooks_or_fail(Typer& t, const ast::Expr* at) {
  ExtensionHooks* h = extension_hooks();
  if (!h) t.typing_error(at, "the extension API is not available in this process");
  return *h;
}

// The arguments of a call in the extension API's order: `receiver` first
// (methods), then the positional ones, then the keyword ones.
struct CallArguments {
  std::vector<const ast::Expr*> exprs;
  ExtensionArgs args;
};

CallArguments collect(Typer& t, const ast::Call& c, const ast::Expr* receiver) {
  CallArguments out;
  auto add = [&](const ast::Expr* e) {
    const ir::Type* type = t.type_of(e);
    out.exprs.push_back(e);
    out.args.types.push_back(type);
    out.args.literals.push_back(literal_argument_of(t, e, type));
  };
  if (receiver) add(receiver);
  for (const auto& a : c.args) add(a.get());
  for (const auto& k : c.keywords) {
    add(k.value.get());
    out.args.keywords.push_back(k.name);
  }
  return out;
}

// Runs a hook, giving its errors the location of `at`.
template <typename F>
auto ask(Typer& t, const ast::Expr* at, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const UserError& e) {
    if (e.location().line) throw;  // an error inside code the hook compiled keeps its own place
    t.fail(e.kind(), at->loc, e.message());
  }
}

const ir::Type* apply(Typer& t, const ast::Expr* node, const std::string& shown, const ExtensionResolution& r,
                      const CallArguments& call) {
  ExprInfo& inf = t.info(node);
  using K = ExtensionResolution::Kind;
  switch (r.kind) {
    case K::DeviceFunction: {
      const auto& fn = r.function;
      CUHOST_CHECK(fn) << "extension resolution without a function";
      if (!fn->captured || !fn->captured->def) {
        t.typing_error(node, concat("the source of the implementation of ", shown, " was not captured"));
      }
      std::vector<const ir::Type*> arg_types;
      std::vector<std::optional<ir::ConstValue>> constants;
      std::vector<const ast::Expr*> ordered;
      // Functions with an explicit signature are compiled once, never per literal.
      bool by_literal = !fn->options.return_type && fn->options.abi != ir::Abi::C;
      int packed_from = -1;
      for (const auto& b : r.binding) {
        if (b.packs) {
          // *args: one tuple parameter, built from its arguments where called.
          std::vector<const ir::Type*> elements;
          packed_from = static_cast<int>(ordered.size());
          for (int k : b.packed) {
            auto i = static_cast<size_t>(k);
            CUHOST_CHECK(k >= 0 && i < call.exprs.size()) << "extension binding out of range";
            elements.push_back(call.args.types[i]);
            ordered.push_back(call.exprs[i]);
          }
          arg_types.push_back(ir::tuple(elements));
          constants.push_back(std::nullopt);
        } else if (b.argument >= 0) {
          auto i = static_cast<size_t>(b.argument);
          CUHOST_CHECK(i < call.exprs.size()) << "extension binding out of range";
          arg_types.push_back(call.args.types[i]);
          constants.push_back(by_literal ? call.args.literals[i] : std::nullopt);
          ordered.push_back(call.exprs[i]);
        } else {
          arg_types.push_back(b.default_value.type);
          constants.push_back(b.default_value);
          ordered.push_back(nullptr);
        }
      }
      std::shared_ptr<const TypedFunction> typed;
      try {
        typed = infer_device(fn, arg_types, fn->options.return_type, constants);
      } catch (UserError& e) {
        std::string types;
        for (size_t i = 0; i < arg_types.size(); ++i) types += (i ? ", " : "") + display(arg_types[i]);
        e.add_note(concat("while typing the implementation of ", shown, " for (", types, ") (", t.captured().filename,
                          ":", node->loc.line, ")"));
        throw;
      }
      ExprInfo& again = t.info(node);
      again.intrinsic = "extension.call";
      again.callee = typed;
      again.param_types = typed->arg_types;
      again.ordered_args = ordered;
      again.packed_from = packed_from;
      t.add_callee(typed);
      return typed->return_type;
    }
    case K::Codegen: {
      auto low = std::make_shared<ExtensionLowering>();
      low->ir_text = r.ir_text;
      low->entry = r.entry;
      for (const auto& ic : r.internal_calls) {
        std::shared_ptr<const TypedFunction> typed;
        try {
          typed = infer_device(ic.function, ic.arg_types, ic.return_type);
        } catch (UserError& e) {
          e.add_note(concat("while compiling a function the implementation of ", shown, " calls (",
                            t.captured().filename, ":", node->loc.line, ")"));
          throw;
        }
        t.add_callee(typed);
        low->internal_calls.emplace_back(ic.placeholder, typed);
      }
      std::vector<const ast::Expr*> ordered;
      for (int i : r.order) {
        CUHOST_CHECK(i >= 0 && static_cast<size_t>(i) < call.exprs.size()) << "extension argument out of range";
        ordered.push_back(call.exprs[static_cast<size_t>(i)]);
      }
      CUHOST_CHECK(ordered.size() == r.param_types.size()) << "extension signature and arguments differ";
      inf.intrinsic = "extension.codegen";
      inf.param_types = r.param_types;
      inf.ordered_args = ordered;
      inf.extension = low;
      return r.return_type;
    }
    case K::Member: {
      auto low = std::make_shared<ExtensionLowering>();
      low->member = r.member;
      inf.intrinsic = "extension.member";
      inf.ordered_args = {call.exprs.at(0)};
      inf.param_types = {call.args.types.at(0)};
      inf.extension = low;
      return r.return_type;
    }
    case K::Method: break;
  }
  CUHOST_CHECK(false) << "unexpected extension resolution for " << shown;
  return nullptr;
}

CallArguments collect_operands(Typer& t, const std::vector<const ast::Expr*>& operands) {
  CallArguments out;
  for (const ast::Expr* e : operands) {
    const ir::Type* type = t.type_of(e);
    out.exprs.push_back(e);
    out.args.types.push_back(type);
    out.args.literals.push_back(literal_argument_of(t, e, type));
  }
  return out;
}

}  // namespace

bool has_extension_operand(const std::vector<const ir::Type*>& types) {
  for (const ir::Type* t : types)
    if (t && ir::contains_extension_type(t)) return true;
  return false;
}

const ir::Type* type_builtin_extension(Typer& t, const ast::Expr* node, const std::string& key,
                                       const std::vector<const ast::Expr*>& operands) {
  const ir::ExtensionObject* object = ir::builtin_extension(key);
  ExtensionHooks* hooks = extension_hooks();
  if (!object || !hooks) return nullptr;
  CallArguments call = collect_operands(t, operands);
  ExtensionResolution r = ask(t, node, [&] { return hooks->call(*object, call.args); });
  if (r.kind == ExtensionResolution::Kind::Method || r.kind == ExtensionResolution::Kind::Member)
    t.typing_error(node, concat("'", object->name, "' is not callable"));
  return apply(t, node, object->name, r, call);
}

std::string operator_name(ast::BinOpKind op) {
  switch (op) {
    case ast::BinOpKind::Add: return "add";
    case ast::BinOpKind::Sub: return "sub";
    case ast::BinOpKind::Mult: return "mul";
    case ast::BinOpKind::Div: return "truediv";
    case ast::BinOpKind::FloorDiv: return "floordiv";
    case ast::BinOpKind::Mod: return "mod";
    case ast::BinOpKind::Pow: return "pow";
    case ast::BinOpKind::LShift: return "lshift";
    case ast::BinOpKind::RShift: return "rshift";
    case ast::BinOpKind::BitOr: return "or_";
    case ast::BinOpKind::BitXor: return "xor";
    case ast::BinOpKind::BitAnd: return "and_";
    case ast::BinOpKind::MatMult: return "matmul";
  }
  return "add";
}

std::string operator_name(ast::CompareOpKind op) {
  switch (op) {
    case ast::CompareOpKind::Eq: return "eq";
    case ast::CompareOpKind::NotEq: return "ne";
    case ast::CompareOpKind::Lt: return "lt";
    case ast::CompareOpKind::LtE: return "le";
    case ast::CompareOpKind::Gt: return "gt";
    case ast::CompareOpKind::GtE: return "ge";
    case ast::CompareOpKind::Is: return "is_";
    case ast::CompareOpKind::IsNot: return "is_not";
    case ast::CompareOpKind::In: return "contains";
    case ast::CompareOpKind::NotIn: return "contains";
  }
  return "eq";
}

std::string operator_name(ast::UnaryOpKind op) {
  switch (op) {
    case ast::UnaryOpKind::UAdd: return "pos";
    case ast::UnaryOpKind::USub: return "neg";
    case ast::UnaryOpKind::Not: return "not_";
    case ast::UnaryOpKind::Invert: return "invert";
  }
  return "neg";
}

const ir::Type* type_extension_call(Typer& t, const ast::Call& c, const ir::Type* callee, ExprInfo& info) {
  (void)info;
  ExtensionHooks& hooks = hooks_or_fail(t, &c);
  const auto* object = static_cast<const ir::ExtensionObject*>(callee->object);
  CallArguments call = collect(t, c, nullptr);
  ExtensionResolution r = ask(t, &c, [&] { return hooks.call(*object, call.args); });
  if (r.kind == ExtensionResolution::Kind::Method || r.kind == ExtensionResolution::Kind::Member)
    t.typing_error(&c, concat("'", object->name, "' is not callable"));
  return apply(t, &c, object->name, r, call);
}

const ir::Type* type_extension_attribute(Typer& t, const ast::Attribute& a, const ir::Type* base, ExprInfo& info) {
  (void)info;
  ExtensionHooks* hooks = extension_hooks();
  if (!hooks) return nullptr;
  std::optional<ExtensionResolution> r = ask(t, &a, [&] { return hooks->attribute(base, a.attr); });
  if (!r) return nullptr;
  if (r->kind == ExtensionResolution::Kind::Method) return ir::extension_method(base, a.attr);
  CallArguments receiver;
  receiver.exprs.push_back(a.value.get());
  receiver.args.types.push_back(base);
  receiver.args.literals.push_back(std::nullopt);
  return apply(t, &a, concat("attribute '", a.attr, "' of ", display(base)), *r, receiver);
}

const ir::Type* type_extension_method_call(Typer& t, const ast::Call& c, const ir::Type* method, ExprInfo& info) {
  (void)info;
  ExtensionHooks& hooks = hooks_or_fail(t, &c);
  CUHOST_CHECK(c.func->kind == ast::ExprKind::Attribute) << "a bound method called through a value";
  const auto& attr = static_cast<const ast::Attribute&>(*c.func);
  CallArguments call = collect(t, c, attr.value.get());
  ExtensionResolution r = ask(t, &c, [&] { return hooks.method(method->dtype, method->key, call.args); });
  if (r.kind == ExtensionResolution::Kind::Method || r.kind == ExtensionResolution::Kind::Member)
    t.typing_error(&c, concat("method '", method->key, "' of ", display(method->dtype), " is not callable"));
  return apply(t, &c, concat("method '", method->key, "' of ", display(method->dtype)), r, call);
}

}  // namespace cuhost::sema
