// Registry of functions seen as values (see function_values.h).
#include "sema/function_values.h"

#include <map>
#include <mutex>

namespace cuhost::sema {

namespace {

struct Registry {
  std::mutex mutex;
  std::map<const void*, std::weak_ptr<model::JitFunction>> jit;
  std::map<const void*, std::weak_ptr<const ir::ForeignFunction>> foreign;
};

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

}  // namespace

bool is_function_value(const ir::Type* t) {
  return t->kind == ir::TypeKind::Intrinsic || t->kind == ir::TypeKind::Dispatcher || t->kind == ir::TypeKind::Foreign;
}

void remember_function(const std::shared_ptr<model::JitFunction>& fn) {
  if (!fn) return;
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().jit[fn.get()] = fn;
}

void remember_function(const std::shared_ptr<const ir::ForeignFunction>& fn) {
  if (!fn) return;
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().foreign[fn.get()] = fn;
}

std::shared_ptr<model::JitFunction> jit_function_of(const ir::Type* dispatcher) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().jit.find(dispatcher->object);
  return it == registry().jit.end() ? nullptr : it->second.lock();
}

std::shared_ptr<const ir::ForeignFunction> foreign_function_of(const ir::Type* foreign) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().foreign.find(foreign->object);
  return it == registry().foreign.end() ? nullptr : it->second.lock();
}

}  // namespace cuhost::sema
