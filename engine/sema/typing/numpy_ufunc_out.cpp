// NumPy ufuncs called inside kernels with their output array:
// `np.sin(x, out)`, `np.greater(a, b, out)`. NumPy writes the element-wise
// result into `out` (inputs: scalars or arrays of out's shape, or of its
// trailing axes); numba-cuda compiles such calls. The typer turns the call
// into a call of a device function synthesized here as C++ AST, the loop
// nest a user would write:
//
//     def np_sin_out(a0, out):
//         for j0 in range(out.shape[0]):
//             for j1 in range(out.shape[1]):
//                 out[j0, j1] = <element-wise np.sin on a0[j0, j1]>
//
// so typing, lowering, the status channel and both backends treat it as any
// device function. One synthesized function per (ufunc, input kinds, output
// ndim) is kept for the process; it is specialized on the argument types like
// a @cuda.jit device function.
#include <cmath>
#include <functional>
#include <map>
#include <mutex>

#include "sema/infer.h"
#include "sema/typer.h"

namespace cuhost::sema {

namespace {

struct UfuncInfo {
  int nin;
  const char* kind;  // "np": the scalar numpy call; otherwise an operator form
};

const std::map<std::string, UfuncInfo>& ufuncs() {
  static const std::map<std::string, UfuncInfo> m = {
      {"sin", {1, "np"}},           {"cos", {1, "np"}},           {"tan", {1, "np"}},
      {"arcsin", {1, "np"}},        {"arccos", {1, "np"}},        {"arctan", {1, "np"}},
      {"arctan2", {2, "np"}},       {"hypot", {2, "np"}},         {"sinh", {1, "np"}},
      {"cosh", {1, "np"}},          {"tanh", {1, "np"}},          {"arcsinh", {1, "np"}},
      {"arccosh", {1, "np"}},       {"arctanh", {1, "np"}},       {"exp", {1, "np"}},
      {"exp2", {1, "np"}},          {"expm1", {1, "np"}},         {"log", {1, "np"}},
      {"log2", {1, "np"}},          {"log10", {1, "np"}},         {"log1p", {1, "np"}},
      {"sqrt", {1, "np"}},          {"fabs", {1, "np"}},          {"copysign", {2, "np"}},
      {"fmod", {2, "np"}},          {"deg2rad", {1, "deg2rad"}},  {"radians", {1, "deg2rad"}},
      {"rad2deg", {1, "rad2deg"}},  {"degrees", {1, "rad2deg"}},  {"greater", {2, "gt"}},
      {"greater_equal", {2, "ge"}}, {"less", {2, "lt"}},          {"less_equal", {2, "le"}},
      {"equal", {2, "eq"}},         {"not_equal", {2, "ne"}},     {"logical_and", {2, "land"}},
      {"logical_or", {2, "lor"}},   {"logical_xor", {2, "lxor"}}, {"logical_not", {1, "lnot"}},
      {"maximum", {2, "maximum"}},  {"minimum", {2, "minimum"}},  {"fmax", {2, "fmax"}},
      {"fmin", {2, "fmin"}},        {"bitwise_and", {2, "and"}},  {"bitwise_or", {2, "or"}},
      {"bitwise_xor", {2, "xor"}},  {"invert", {1, "invert"}},    {"bitwise_not", {1, "invert"}},
      {"add", {2, "add"}},          {"subtract", {2, "sub"}},     {"multiply", {2, "mul"}},
      {"negative", {1, "neg"}},     {"absolute", {1, "abs"}},
  };
  return m;
}

// ---- a tiny AST builder --------------------------------------------------

ast::SourceLoc here() { return ast::SourceLoc{2, 5, 2, 5}; }

template <typename T>
std::unique_ptr<T> node() {
  auto n = std::make_unique<T>();
  n->loc = here();
  return n;
}

ast::ExprPtr name(const std::string& id) {
  auto n = node<ast::Name>();
  n->id = id;
  return n;
}

ast::ExprPtr integer(std::int64_t v) {
  auto n = node<ast::Constant>();
  n->value = ir::ConstValue::integer(v);
  return n;
}

ast::ExprPtr floating(double v) {
  auto n = node<ast::Constant>();
  n->value = ir::ConstValue::floating(v);
  return n;
}

ast::ExprPtr attr(ast::ExprPtr value, const std::string& a) {
  auto n = node<ast::Attribute>();
  n->value = std::move(value);
  n->attr = a;
  return n;
}

ast::ExprPtr call(ast::ExprPtr f, std::vector<ast::ExprPtr> args) {
  auto n = node<ast::Call>();
  n->func = std::move(f);
  n->args = std::move(args);
  return n;
}

ast::ExprPtr subscript(ast::ExprPtr value, std::vector<ast::ExprPtr> idx) {
  auto n = node<ast::Subscript>();
  n->value = std::move(value);
  if (idx.size() == 1) {
    n->index = std::move(idx[0]);
  } else {
    auto t = node<ast::Tuple>();
    t->elts = std::move(idx);
    n->index = std::move(t);
  }
  return n;
}

ast::ExprPtr binop(ast::BinOpKind op, ast::ExprPtr l, ast::ExprPtr r) {
  auto n = node<ast::BinOp>();
  n->op = op;
  n->left = std::move(l);
  n->right = std::move(r);
  return n;
}

ast::ExprPtr compare(ast::CompareOpKind op, ast::ExprPtr l, ast::ExprPtr r) {
  auto n = node<ast::Compare>();
  n->left = std::move(l);
  n->ops.push_back(op);
  n->comparators.push_back(std::move(r));
  return n;
}

ast::ExprPtr boolop(ast::BoolOpKind op, ast::ExprPtr l, ast::ExprPtr r) {
  auto n = node<ast::BoolOp>();
  n->op = op;
  n->values.push_back(std::move(l));
  n->values.push_back(std::move(r));
  return n;
}

ast::ExprPtr unary(ast::UnaryOpKind op, ast::ExprPtr v) {
  auto n = node<ast::UnaryOp>();
  n->op = op;
  n->operand = std::move(v);
  return n;
}

ast::ExprPtr ifexp(ast::ExprPtr test, ast::ExprPtr body, ast::ExprPtr orelse) {
  auto n = node<ast::IfExp>();
  n->test = std::move(test);
  n->body = std::move(body);
  n->orelse = std::move(orelse);
  return n;
}

// The element of input k at the loop indices (scalars are used as they are).
using ElementFn = std::function<ast::ExprPtr(int)>;

// NumPy orders complex numbers lexicographically: by real part, then by
// imaginary part. `strict` compares the imaginary parts with `op` itself.
ast::ExprPtr complex_order(ast::CompareOpKind op, const ElementFn& elem) {
  using C = ast::CompareOpKind;
  C real_op = (op == C::Gt || op == C::GtE) ? C::Gt : C::Lt;
  return boolop(ast::BoolOpKind::Or, compare(real_op, attr(elem(0), "real"), attr(elem(1), "real")),
                boolop(ast::BoolOpKind::And, compare(C::Eq, attr(elem(0), "real"), attr(elem(1), "real")),
                       compare(op, attr(elem(0), "imag"), attr(elem(1), "imag"))));
}

// The element-wise result of the ufunc; `elem(k)` builds a fresh expression
// for input k each time it is called. `complex_args`: some input is complex.
ast::ExprPtr element_result(const std::string& ufunc, const UfuncInfo& u, const ElementFn& elem, bool complex_args) {
  using B = ast::BinOpKind;
  using C = ast::CompareOpKind;
  const std::string kind = u.kind;
  if (kind == "np" && ufunc == "log2" && complex_args) {
    // log2(z) = log(z) / ln 2, part by part (a complex division would turn log(0)'s 0j into nan).
    auto part = [&](const char* which) {
      std::vector<ast::ExprPtr> args;
      args.push_back(elem(0));
      return binop(B::Div, attr(call(attr(name("np"), "log"), std::move(args)), which), floating(M_LN2));
    };
    std::vector<ast::ExprPtr> parts;
    parts.push_back(part("real"));
    parts.push_back(part("imag"));
    return call(name("complex"), std::move(parts));
  }
  if (kind == "np") {
    std::vector<ast::ExprPtr> args;
    for (int k = 0; k < u.nin; ++k) args.push_back(elem(k));
    return call(attr(name("np"), ufunc), std::move(args));
  }
  if (kind == "deg2rad") return binop(B::Mult, elem(0), floating(M_PI / 180.0));
  if (kind == "rad2deg") return binop(B::Mult, elem(0), floating(180.0 / M_PI));
  static const std::map<std::string, C> cmp = {{"gt", C::Gt},  {"ge", C::GtE}, {"lt", C::Lt},
                                               {"le", C::LtE}, {"eq", C::Eq},  {"ne", C::NotEq}};
  if (auto c = cmp.find(kind); c != cmp.end()) {
    if (complex_args && kind != "eq" && kind != "ne") return complex_order(c->second, elem);
    return compare(c->second, elem(0), elem(1));
  }
  auto truth = [&](int k) { return compare(C::NotEq, elem(k), integer(0)); };
  if (kind == "land") return boolop(ast::BoolOpKind::And, truth(0), truth(1));
  if (kind == "lor") return boolop(ast::BoolOpKind::Or, truth(0), truth(1));
  if (kind == "lxor") return compare(C::NotEq, truth(0), truth(1));
  if (kind == "lnot") return compare(C::Eq, elem(0), integer(0));
  // maximum/minimum propagate a NaN from either side; fmax/fmin ignore one.
  if (kind == "maximum" || kind == "minimum") {
    C op = kind == "maximum" ? C::GtE : C::LtE;
    ast::ExprPtr ordered = complex_args ? complex_order(op, elem) : compare(op, elem(0), elem(1));
    return ifexp(boolop(ast::BoolOpKind::Or, std::move(ordered), compare(C::NotEq, elem(0), elem(0))), elem(0),
                 elem(1));
  }
  if (kind == "fmax" || kind == "fmin") {
    C op = kind == "fmax" ? C::GtE : C::LtE;
    ast::ExprPtr ordered = complex_args ? complex_order(op, elem) : compare(op, elem(0), elem(1));
    return ifexp(boolop(ast::BoolOpKind::Or, std::move(ordered), compare(C::NotEq, elem(1), elem(1))), elem(0),
                 elem(1));
  }
  if (kind == "and") return binop(B::BitAnd, elem(0), elem(1));
  if (kind == "or") return binop(B::BitOr, elem(0), elem(1));
  if (kind == "xor") return binop(B::BitXor, elem(0), elem(1));
  if (kind == "invert") return unary(ast::UnaryOpKind::Invert, elem(0));
  if (kind == "add") return binop(B::Add, elem(0), elem(1));
  if (kind == "sub") return binop(B::Sub, elem(0), elem(1));
  if (kind == "mul") return binop(B::Mult, elem(0), elem(1));
  if (kind == "neg") return unary(ast::UnaryOpKind::USub, elem(0));
  if (kind == "abs")
    return call(name("abs"), [&] {
      std::vector<ast::ExprPtr> v;
      v.push_back(elem(0));
      return v;
    }());
  CUHOST_CHECK(false) << "no element-wise form for ufunc " << ufunc;
  return nullptr;
}

// The synthesized function for `ufunc` with inputs of the given kinds
// (ndim per input, -1 for a scalar) and an output of out_ndim dimensions.
std::shared_ptr<model::JitFunction> synthesize(const std::string& ufunc, const UfuncInfo& u,
                                               const std::vector<int>& in_ndims, int out_ndim, bool complex_args) {
  auto def = std::make_unique<ast::FunctionDef>();
  def->name = "np_" + ufunc + "_out";
  def->loc = ast::SourceLoc{1, 1, 1, 1};
  std::string text = "def " + def->name + "(";
  for (int k = 0; k < u.nin; ++k) {
    def->params.push_back({"a" + std::to_string(k), def->loc});
    text += "a" + std::to_string(k) + ", ";
  }
  def->params.push_back({"out", def->loc});
  text += "out):  # numpy." + ufunc + " with an output array, element by element\n";
  ElementFn elem = [&](int k) -> ast::ExprPtr {
    ast::ExprPtr a = name("a" + std::to_string(k));
    if (in_ndims[k] < 0) return a;
    std::vector<ast::ExprPtr> idx;
    for (int ax = out_ndim - in_ndims[k]; ax < out_ndim; ++ax) idx.push_back(name("j" + std::to_string(ax)));
    if (idx.empty()) idx.push_back(integer(0));
    return subscript(std::move(a), std::move(idx));
  };
  auto assign = node<ast::Assign>();
  {
    std::vector<ast::ExprPtr> idx;
    for (int ax = 0; ax < out_ndim; ++ax) idx.push_back(name("j" + std::to_string(ax)));
    if (idx.empty()) idx.push_back(integer(0));
    assign->targets.push_back(subscript(name("out"), std::move(idx)));
  }
  assign->value = element_result(ufunc, u, elem, complex_args);
  ast::Body body;
  body.push_back(std::move(assign));
  for (int ax = out_ndim - 1; ax >= 0; --ax) {
    auto loop = node<ast::For>();
    loop->target = name("j" + std::to_string(ax));
    std::vector<ast::ExprPtr> range_args;
    range_args.push_back(subscript(attr(name("out"), "shape"), [&] {
      std::vector<ast::ExprPtr> v;
      v.push_back(integer(ax));
      return v;
    }()));
    loop->iter = call(name("range"), std::move(range_args));
    loop->body = std::move(body);
    body = ast::Body();
    body.push_back(std::move(loop));
  }
  text += "    out[...] = numpy." + ufunc + "(...)\n";
  def->body = std::move(body);

  auto cap = std::make_shared<frontend::CapturedFunction>();
  cap->name = def->name;
  cap->qualname = def->name;
  cap->filename = "<numpy." + ufunc + ">";
  cap->first_line = 1;
  // The text identifies the function for the compile cache and shows in errors.
  text += "# inputs ndim:";
  for (int d : in_ndims) text += " " + std::to_string(d);
  text += "; out ndim: " + std::to_string(out_ndim) + (complex_args ? "; complex" : "") + "\n";
  cap->source = text;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    cap->file_lines.push_back(text.substr(start, end - start));
    start = end;
  }
  frontend::GlobalValue np;
  np.kind = frontend::GlobalValue::Kind::Module;
  np.key = "numpy";
  np.repr = "<module 'numpy'>";
  cap->globals["np"] = np;
  for (const char* b : {"range", "abs", "complex"}) {
    frontend::GlobalValue g;
    g.kind = frontend::GlobalValue::Kind::Intrinsic;
    g.key = std::string("builtins.") + b;
    g.repr = std::string("<built-in function ") + b + ">";
    cap->globals[b] = g;
  }
  cap->def = std::move(def);

  auto fn = std::make_shared<model::JitFunction>();
  fn->name = cap->name;
  fn->options.device = true;
  fn->captured = std::move(cap);
  return fn;
}

std::shared_ptr<model::JitFunction> function_for(const std::string& ufunc, const UfuncInfo& u,
                                                 const std::vector<int>& in_ndims, int out_ndim, bool complex_args) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<model::JitFunction>> cache;
  std::string key = ufunc + ":" + std::to_string(out_ndim) + (complex_args ? "c" : "r");
  for (int d : in_ndims) key += "," + std::to_string(d);
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  return cache[key] = synthesize(ufunc, u, in_ndims, out_ndim, complex_args);
}

// The numpy function name when the call is `np.<name>(...)`, else "".
std::string numpy_callee(Typer& t, const ast::Call& c) {
  if (c.func->kind != ast::ExprKind::Attribute) return "";
  const auto& a = static_cast<const ast::Attribute&>(*c.func);
  const ir::Type* base = t.type_of(a.value.get());
  if (base->kind != ir::TypeKind::Module || base->key != "numpy") return "";
  return a.attr;
}

}  // namespace

const ir::Type* type_numpy_ufunc_out(Typer& t, const ast::Call& c, ExprInfo& inf) {
  std::string ufunc = numpy_callee(t, c);
  if (ufunc.empty()) return nullptr;
  auto u = ufuncs().find(ufunc);
  if (u == ufuncs().end()) return nullptr;
  const int nin = u->second.nin;
  if (static_cast<int>(c.args.size()) <= nin) return nullptr;  // the scalar form: the math rules type it
  if (!c.keywords.empty()) {
    t.fail(ErrorKind::TypingError, c.keywords[0].loc,
           concat("np.", ufunc, "() in a kernel takes its output array positionally (no keyword arguments)"));
  }
  if (static_cast<int>(c.args.size()) != nin + 1) {
    t.typing_error(&c, concat("np.", ufunc, "() takes ", nin, " input", nin == 1 ? "" : "s", " and one output array (",
                              c.args.size(), " arguments given)"));
  }
  std::vector<const ir::Type*> arg_types;
  std::vector<int> in_ndims;
  std::vector<const ast::Expr*> ordered;
  bool complex_args = false;
  for (int k = 0; k <= nin; ++k) {
    const ast::Expr* a = c.args[k].get();
    const ir::Type* at = t.type_of(a);
    ordered.push_back(a);
    arg_types.push_back(at);
    if (k == nin) {
      if (!at->is_array())
        t.typing_error(a, concat("the output of np.", ufunc, "() must be an array, not ", display(at)));
      if (at->readonly) t.typing_error(a, concat("the output of np.", ufunc, "() is a read-only array"));
      break;
    }
    complex_args |= (at->is_array() ? at->dtype : at)->kind == ir::TypeKind::Complex;
    if (at->is_array()) {
      in_ndims.push_back(at->ndim);
    } else if (at->is_scalar()) {
      in_ndims.push_back(-1);
    } else {
      t.typing_error(a, concat("np.", ufunc, "() takes numbers or arrays, not ", display(at)));
    }
  }
  const int out_ndim = arg_types.back()->ndim;
  for (int k = 0; k < nin; ++k) {
    if (in_ndims[k] > out_ndim) {
      t.typing_error(c.args[k].get(), concat("input ", k + 1, " of np.", ufunc, "() has ", in_ndims[k],
                                             " dimensions, more than the output's ", out_ndim));
    }
  }
  auto fn = function_for(ufunc, u->second, in_ndims, out_ndim, complex_args);
  std::shared_ptr<const TypedFunction> typed;
  try {
    typed = infer_device(fn, arg_types, nullptr);
  } catch (UserError& e) {
    e.add_note(
        concat("while typing np.", ufunc, "() with an output array (", t.captured().filename, ":", c.loc.line, ")"));
    throw;
  }
  inf.ordered_args = ordered;
  inf.callee = typed;
  inf.param_types = typed->arg_types;
  t.add_callee(typed);
  return ir::none_type();
}

}  // namespace cuhost::sema
