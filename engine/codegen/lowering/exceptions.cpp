// `raise` in kernels and device functions (typing/exceptions.cpp): the thread
// ends with an error status, as in numba-cuda. With debug=True the raise is
// reported first, as a report site (support/kernel_error.h) carrying the
// class key, the arguments as typed values and the raise's location; the host
// raises that exception class with numba-cuda's message
// (python/kernel_error_raise.cpp).
#include "codegen/lowering/lowerer.h"
#include "frontend/captured.h"

namespace cuhost::codegen {

namespace {
constexpr int kStatusRaised = 2;  // a user raise (kStatusNone is 1)

// A constant argument as the error record keeps it, with its Python type.
KernelErrorArg error_arg(const ir::ConstValue& c) {
  using K = ir::ConstValue::Kind;
  using A = KernelErrorArg::Kind;
  KernelErrorArg a;
  switch (c.kind) {
    case K::None: a.kind = A::None; break;
    case K::Bool:
      a.kind = A::Bool;
      a.i = c.b ? 1 : 0;
      break;
    case K::Int:
      a.kind = A::Int;
      a.i = c.i;
      break;
    case K::UInt:
      a.kind = A::UInt;
      a.u = c.u;
      break;
    case K::Float:
      a.kind = A::Float;
      a.real = c.f;
      break;
    case K::Complex:
      a.kind = A::Complex;
      a.real = c.c.real();
      a.imag = c.c.imag();
      break;
    case K::String:
      a.kind = c.type && c.type->kind == ir::TypeKind::BytesLiteral ? A::Bytes : A::String;
      a.text = c.s;
      break;
    case K::Tuple:
      a.kind = A::Tuple;
      for (const ir::ConstValue& item : c.items) a.items.push_back(error_arg(item));
      break;
  }
  return a;
}

KernelErrorSite raise_site(Lowerer& l, const std::string& key, std::vector<KernelErrorArg> args, int line) {
  const auto& captured = *l.typed().captured;
  KernelErrorSite site;
  site.form = KernelErrorForm::Raise;
  site.class_key = key;
  site.message = args.empty() ? std::string() : python_str(args[0]);
  site.args = std::move(args);
  site.file = captured.filename;
  site.line = line > 0 ? line : captured.def->loc.line;
  site.function = captured.name;
  return site;
}

}  // namespace

KernelErrorSite raise_site(Lowerer& l, const std::string& key, const std::string& text, int line) {
  std::vector<KernelErrorArg> args;
  if (!text.empty()) args.push_back(KernelErrorArg::string(text));
  return raise_site(l, key, std::move(args), line);
}

KernelErrorSite check_site(const std::string& builtin_key, const std::string& message) {
  KernelErrorSite site;
  site.form = KernelErrorForm::Check;
  site.class_key = builtin_key;
  site.message = message;
  return site;
}

KernelErrorSite fault_site(const std::string& message, const std::string& host_class_key) {
  KernelErrorSite site;
  site.form = KernelErrorForm::Fault;
  site.class_key = host_class_key;
  site.message = message;
  return site;
}

void report_exception(Lowerer& l, const std::string& key, const std::string& text, int line) {
  l.hooks().kernel_error(l, raise_site(l, key, text, line), l.i64(0));
}

void lower_raise(Lowerer& l, const ast::Raise* r) {
  // typing/exceptions.cpp: the constant is the tuple (class key, (arguments...)).
  const ir::ConstValue& spec = *l.info(r->exc.get()).constant;
  CUHOST_CHECK(spec.kind == ir::ConstValue::Kind::Tuple && spec.items.size() == 2) << "a raise without its class";
  std::vector<KernelErrorArg> args;
  for (const ir::ConstValue& c : spec.items[1].items) args.push_back(error_arg(c));
  const KernelErrorSite site = raise_site(l, spec.items[0].s, std::move(args), r->loc.line);
  l.raise_error(l.b().getInt32(kStatusRaised), &site);
}

}  // namespace cuhost::codegen
