// The table of builtin_extensions.h: written when Python registers an
// overload of a builtin, read by typing (any thread), never shrunk.
#include "ir/builtin_extensions.h"

#include <map>
#include <mutex>

namespace cuhost::ir {

namespace {

struct Table {
  std::mutex mutex;
  std::map<std::string, const ExtensionObject*> objects;
};

Table& table() {
  static Table* t = new Table();
  return *t;
}

}  // namespace

void register_builtin_extension(const std::string& key, const ExtensionObject* object) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.objects[key] = object;
}

const ExtensionObject* builtin_extension(const std::string& key) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.objects.find(key);
  return it == t.objects.end() ? nullptr : it->second;
}

}  // namespace cuhost::ir
