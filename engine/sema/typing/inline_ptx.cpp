// Typing of cuda.inline_ptx(ptx, constraints, *inputs, result=None,
// volatile=True): CUDA C's `asm volatile(ptx : outputs : inputs : clobbers)`
// for PTX instructions the cuda module has no function for. The template and
// the constraint string must be string constants (the compiler reads them);
// each input must fit its constraint letter the way CUDA C's operand must
// (r: a 32-bit integer, f: a float32, ...); the outputs are the call's value
// (none, one value, or a tuple), typed by their letters or by `result=`.
#include "sema/typer.h"
#include "sema/typing/inline_ptx_spec.h"

namespace cuhost::sema {

namespace {

const char* letter_meaning(char letter) {
  switch (letter) {
    case 'h': return "a 16-bit integer or float16/bfloat16 (PTX .b16 register)";
    case 'r': return "a 32-bit integer, int32 or uint32 (PTX .b32 register)";
    case 'l': return "a 64-bit integer or a pointer (PTX .b64 register)";
    case 'f': return "a float32 (PTX .f32 register)";
    case 'd': return "a float64 (PTX .f64 register)";
    case 'n': return "an integer constant (a PTX immediate)";
    default: return "?";
  }
}

const ir::Type* default_output_type(char letter) {
  switch (letter) {
    case 'h': return ir::int16();
    case 'r': return ir::int32();
    case 'l': return ir::int64();
    case 'f': return ir::float32();
    default: return ir::float64();
  }
}

// Whether a value of type `t` travels in a register of class `letter` as it is.
bool fits(char letter, const ir::Type* t) {
  switch (letter) {
    case 'h': return (t->is_integer() && t->bits == 16) || (t->is_float() && t->bits == 16 && !ir::is_storage_float(t));
    case 'r': return t->is_integer() && t->bits == 32;
    case 'l': return (t->is_integer() && t->bits == 64) || t->kind == ir::TypeKind::CPointer;
    case 'f': return t == ir::float32();
    case 'd': return t == ir::float64();
    default: return false;
  }
}

// The type a constant operand (a Python literal, typed int64 or float64)
// is converted to for `letter`, or null when it does not fit.
const ir::Type* constant_operand_type(char letter, const ir::ConstValue& c) {
  const bool is_int = c.kind == ir::ConstValue::Kind::Int || c.kind == ir::ConstValue::Kind::UInt;
  const bool is_float = c.kind == ir::ConstValue::Kind::Float;
  const std::int64_t i = c.kind == ir::ConstValue::Kind::UInt ? std::int64_t(c.u) : c.i;
  if (letter == 'r' && is_int && c.kind == ir::ConstValue::Kind::Int && i >= INT32_MIN && i <= INT32_MAX)
    return ir::int32();
  if (letter == 'r' && is_int && i >= 0 && std::uint64_t(i) <= UINT32_MAX) return ir::uint32();
  if (letter == 'h' && c.kind == ir::ConstValue::Kind::Int && i >= INT16_MIN && i <= INT16_MAX) return ir::int16();
  if (letter == 'l' && is_int) return c.kind == ir::ConstValue::Kind::UInt ? ir::uint64() : ir::int64();
  if (letter == 'f' && (is_float || is_int)) return ir::float32();
  if (letter == 'd' && (is_float || is_int)) return ir::float64();
  return nullptr;
}

const std::string& string_argument(Typer& t, const ast::Expr* e, const char* what) {
  const ir::Type* ty = t.type_of(e);
  if (ty->kind != ir::TypeKind::StringLiteral)
    t.typing_error(e, concat("cuda.inline_ptx()'s ", what, " must be a string constant, not ", display(ty)));
  return ty->key;
}

std::vector<const ir::Type*> result_types(Typer& t, const ast::Expr* result, const std::vector<char>& outputs) {
  std::vector<const ir::Type*> types;
  if (!result) {
    for (char letter : outputs) types.push_back(default_output_type(letter));
    return types;
  }
  const ir::Type* rt = t.type_of(result);
  if (rt->kind == ir::TypeKind::TypeRef) {
    types.push_back(rt->pointee);
  } else if (rt->is_tuple()) {
    for (const ir::Type* e : rt->elements) {
      if (e->kind != ir::TypeKind::TypeRef)
        t.typing_error(result,
                       concat("cuda.inline_ptx()'s result= must be a type or a tuple of types, not ", display(rt)));
      types.push_back(e->pointee);
    }
  } else {
    t.typing_error(result, concat("cuda.inline_ptx()'s result= must be a type or a tuple of types, not ", display(rt)));
  }
  if (types.size() != outputs.size())
    t.typing_error(result,
                   concat("cuda.inline_ptx()'s result= names ", types.size(), " type", types.size() == 1 ? "" : "s",
                          " but the constraints have ", outputs.size(), " output", outputs.size() == 1 ? "" : "s"));
  for (size_t i = 0; i < types.size(); ++i) {
    if (!fits(outputs[i], types[i]))
      t.typing_error(result, concat("cuda.inline_ptx() output ", i, " has constraint '=", outputs[i], "', which needs ",
                                    letter_meaning(outputs[i]), ", but result= gives ", display(types[i])));
  }
  return types;
}

}  // namespace

const ir::Type* type_inline_ptx_call(Typer& t, const ast::Call& c, const std::string& key, ExprInfo& info) {
  if (key != "cuda.inline_ptx") return nullptr;
  if (c.args.size() < 2)
    t.fail(ErrorKind::TypingError, c.loc,
           "cuda.inline_ptx() needs the PTX template and the constraint string (\"=r : r, r\") before the inputs");
  const ast::Expr* result = nullptr;
  const ast::Expr* volatile_arg = nullptr;
  for (const ast::Keyword& k : c.keywords) {
    if (k.name == "result") {
      result = k.value.get();
    } else if (k.name == "volatile") {
      volatile_arg = k.value.get();
      if (t.type_of(volatile_arg) != ir::boolean() || !t.constant(volatile_arg))
        t.typing_error(volatile_arg, "cuda.inline_ptx()'s volatile= must be the constant True or False");
    } else {
      t.fail(ErrorKind::TypingError, k.loc,
             concat("cuda.inline_ptx() got an unexpected keyword argument '", k.name,
                    "' (it takes result= and volatile=)"));
    }
  }
  const std::string& ptx = string_argument(t, c.args[0].get(), "PTX template");
  const std::string& constraints = string_argument(t, c.args[1].get(), "constraint string");
  InlinePtxSpec spec;
  if (std::string why = parse_inline_ptx_constraints(constraints, &spec); !why.empty())
    t.typing_error(c.args[1].get(), concat("cuda.inline_ptx() constraint string \"", constraints, "\" ", why));
  const size_t given = c.args.size() - 2;
  if (given != spec.inputs.size())
    t.fail(ErrorKind::TypingError, c.loc,
           concat("cuda.inline_ptx() constraint string \"", constraints, "\" has ", spec.inputs.size(), " input",
                  spec.inputs.size() == 1 ? "" : "s", " but ", given, " operand", given == 1 ? " was" : "s were",
                  " given"));
  std::string translated;
  if (std::string why = translate_inline_ptx_template(ptx, spec.outputs.size() + spec.inputs.size(), &translated);
      !why.empty())
    t.typing_error(c.args[0].get(), concat("cuda.inline_ptx() template ", why));

  info.ordered_args = {c.args[0].get(), c.args[1].get(), volatile_arg};
  info.param_types = {nullptr, nullptr, nullptr};
  for (size_t i = 0; i < given; ++i) {
    const ast::Expr* arg = c.args[2 + i].get();
    const char letter = spec.inputs[i];
    const ir::Type* at = t.type_of(arg);
    const auto& constant = t.constant(arg);
    const ir::Type* param = nullptr;
    if (letter == 'n') {
      if (!constant || !at->is_integer())
        t.typing_error(arg,
                       concat("cuda.inline_ptx() input ", i, " has constraint 'n', which needs ", letter_meaning('n'),
                              ", got ", display(at), constant ? "" : " computed at run time"));
    } else if (fits(letter, at)) {
      param = at;
    } else if (constant) {
      param = constant_operand_type(letter, *constant);
    }
    if (letter != 'n' && !param) {
      t.typing_error(arg, concat("cuda.inline_ptx() input ", i, " has constraint '", letter, "', which needs ",
                                 letter_meaning(letter), ", got ", display(at)));
    }
    info.ordered_args.push_back(arg);
    info.param_types.push_back(param);
  }
  std::vector<const ir::Type*> outs = result_types(t, result, spec.outputs);
  if (outs.empty()) return ir::none_type();
  if (outs.size() == 1) return outs[0];
  return ir::tuple(outs);
}

}  // namespace cuhost::sema
