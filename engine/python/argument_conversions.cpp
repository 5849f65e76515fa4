// Argument conversions for explicit signatures (see argument_conversions.h).
#include "python/argument_conversions.h"

namespace cuhost::python {

namespace {

constexpr int kPromote = 1;
constexpr int kSafe = 100;
constexpr int kUnsafe = 10000;

int scalar_conversion(const ir::Type* actual, const ir::Type* param, ConversionRules rules) {
  using K = ir::TypeKind;
  if (actual->kind == K::Complex && param->kind != K::Complex) return -1;
  if (actual->kind == K::Float && (param->kind == K::Integer || param->kind == K::Boolean))
    return rules == ConversionRules::HostCall ? kUnsafe : -1;
  if (actual->kind == param->kind) {
    if (actual->kind == K::Integer && actual->is_signed != param->is_signed)
      return !actual->is_signed && param->bits > actual->bits ? kSafe : kUnsafe;
    return param->bits >= actual->bits ? kPromote : kUnsafe;
  }
  if (actual->kind == K::Boolean) return kSafe;
  if (actual->kind == K::Integer && param->kind == K::Float)
    return actual->bits < (param->bits == 64 ? 53 : 24) ? kSafe : kUnsafe;
  if (actual->kind == K::Integer && param->kind == K::Complex)
    return actual->bits < (param->bits == 128 ? 53 : 24) ? kSafe : kUnsafe;
  if (actual->kind == K::Float && param->kind == K::Complex) return param->bits >= 2 * actual->bits ? kSafe : kUnsafe;
  return kUnsafe;
}

}  // namespace

int conversion_cost(const ir::Type* actual, const ir::Type* param, ConversionRules rules) {
  using K = ir::TypeKind;
  if (actual == param) return 0;
  if (param->is_scalar() && actual->is_scalar()) return scalar_conversion(actual, param, rules);
  if (rules == ConversionRules::Launch && param->kind == K::CPointer) {
    if (actual->kind == K::Integer) return kPromote;
    if (actual->is_array() && actual->dtype == param->pointee) return kPromote;
    return -1;
  }
  if (param->is_array() && actual->is_array()) {
    if (param->dtype != actual->dtype || param->ndim != actual->ndim) return -1;
    if (actual->readonly && !param->readonly) return -1;
    if (param->layout != ir::Layout::A && param->layout != actual->layout) return -1;
    return kPromote;
  }
  if (param->is_tuple() && actual->is_tuple()) return signature_cost(actual->elements, param->elements, rules);
  if (rules == ConversionRules::HostCall && param->kind == K::Optional)
    return actual->kind == K::NoneType ? kSafe : conversion_cost(actual, param->pointee, rules);
  return -1;
}

int signature_cost(const std::vector<const ir::Type*>& actual, const std::vector<const ir::Type*>& params,
                   ConversionRules rules) {
  if (actual.size() != params.size()) return -1;
  int total = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    int c = conversion_cost(actual[i], params[i], rules);
    if (c < 0) return -1;
    total += c;
  }
  return total;
}

std::string type_list(const std::vector<const ir::Type*>& types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i]->str();
  return s;
}

}  // namespace cuhost::python
