// `raise` in kernels and device functions (typing/exceptions.cpp): the thread
// ends with an error status, as in numba-cuda. With debug=True the raise is
// reported first; the report carries the class key and numba-cuda's message
// parts ("In function 'f', file F, line N, " then, after the launcher added
// the thread's position, ": <first argument>"), and the host raises that
// exception class (support/kernel_errors.cpp, python/errors.cpp).
#include "codegen/lowering/lowerer.h"
#include "frontend/captured.h"
#include "frontend/exception_classes.h"

namespace cuhost::codegen {

namespace {
constexpr int kStatusRaised = 2;  // a user raise (kStatusNone is 1)
}

std::string raise_message(Lowerer& l, const std::string& key, const std::string& text, int line) {
  const auto& captured = *l.typed().captured;
  return concat(frontend::kRaiseMarker, key, frontend::kRaiseMarker, "In function '", captured.name, "', file ",
                captured.filename, ", line ", line > 0 ? line : captured.def->loc.line, ", ", '\x1f', text);
}

void report_exception(Lowerer& l, const std::string& key, const std::string& text, int line) {
  l.hooks().kernel_error(l, raise_message(l, key, text, line), l.i64(0));
}

void lower_raise(Lowerer& l, const ast::Raise* r) {
  const sema::ExprInfo& inf = l.info(r->exc.get());
  const std::string& spec = inf.constant->s;  // "<key>\x1b<first argument>"
  size_t sep = spec.find('\x1b');
  std::string key = spec.substr(0, sep);
  std::string args = sep == std::string::npos ? "" : spec.substr(sep + 1);
  l.raise_error(l.b().getInt32(kStatusRaised), raise_message(l, key, args, r->loc.line));
}

}  // namespace cuhost::codegen
