// Registry of exception classes named by kernels (see exception_classes.h).
#include "frontend/exception_classes.h"

#include <map>
#include <mutex>
#include <vector>

#include "frontend/py_ref.h"

namespace cuhost::frontend {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<PyObject*> classes;  // strong references, never released
  std::vector<std::string> names;
};

Registry& registry() {
  static Registry* r = new Registry();
  return *r;
}

}  // namespace

std::string exception_key(PyObject* cls) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < r.classes.size(); ++i)
    if (r.classes[i] == cls) return "exception." + std::to_string(i);
  Py_INCREF(cls);
  r.classes.push_back(cls);
  r.names.push_back(reinterpret_cast<PyTypeObject*>(cls)->tp_name);
  return "exception." + std::to_string(r.classes.size() - 1);
}

static long index_of(const std::string& key) {
  if (key.rfind("exception.", 0) != 0) return -1;
  try {
    return std::stol(key.substr(10));
  } catch (...) {
    return -1;
  }
}

PyObject* exception_class_of(const std::string& key) {
  if (key.rfind("builtins.", 0) == 0) {         // a built-in class named by the compiler (IndexError, ...)
    PyObject* builtins = PyEval_GetBuiltins();  // borrowed
    PyObject* cls = builtins ? PyDict_GetItemString(builtins, key.substr(9).c_str()) : nullptr;
    return cls && PyExceptionClass_Check(cls) ? cls : nullptr;
  }
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  long i = index_of(key);
  return i >= 0 && size_t(i) < r.classes.size() ? r.classes[i] : nullptr;
}

std::string exception_name_of(const std::string& key) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  long i = index_of(key);
  if (i < 0 || size_t(i) >= r.names.size()) return "";
  std::string n = r.names[i];
  size_t dot = n.rfind('.');
  return dot == std::string::npos ? n : n.substr(dot + 1);
}

}  // namespace cuhost::frontend
