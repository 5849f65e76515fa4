// `raise` in kernels and device functions (typing/exceptions.cpp): the thread
// ends with an error status, as in numba-cuda. With debug=True the raise is
// reported first, as a report site (support/kernel_error.h) carrying the
// class key, the first argument's text and the raise's location; the host
// raises that exception class with numba-cuda's message
// (python/kernel_error_raise.cpp).
#include "codegen/lowering/lowerer.h"
#include "frontend/captured.h"

namespace cuhost::codegen {

namespace {
constexpr int kStatusRaised = 2;  // a user raise (kStatusNone is 1)
}

KernelErrorSite raise_site(Lowerer& l, const std::string& key, const std::string& text, int line) {
  const auto& captured = *l.typed().captured;
  KernelErrorSite site;
  site.form = KernelErrorForm::Raise;
  site.class_key = key;
  site.message = text;
  site.file = captured.filename;
  site.line = line > 0 ? line : captured.def->loc.line;
  site.function = captured.name;
  return site;
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
  // typing/exceptions.cpp: the constant is the tuple (class key, first argument's text).
  const ir::ConstValue& spec = *l.info(r->exc.get()).constant;
  CUHOST_CHECK(spec.kind == ir::ConstValue::Kind::Tuple && spec.items.size() == 2) << "a raise without its class";
  const KernelErrorSite site = raise_site(l, spec.items[0].s, spec.items[1].s, r->loc.line);
  l.raise_error(l.b().getInt32(kStatusRaised), &site);
}

}  // namespace cuhost::codegen
