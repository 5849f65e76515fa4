// A minimal owning reference to a PyObject and helpers for reading Python
// objects during capture. Only the frontend (with the GIL held) uses it.
#pragma once

#include <Python.h>

#include <string>

namespace cuhost::frontend {

class PyRef {
 public:
  PyRef() = default;
  explicit PyRef(PyObject* owned) : p_(owned) {}
  static PyRef borrow(PyObject* b) {
    Py_XINCREF(b);
    return PyRef(b);
  }
  PyRef(const PyRef& o) : p_(o.p_) { Py_XINCREF(p_); }
  PyRef(PyRef&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  PyRef& operator=(PyRef o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~PyRef() { Py_XDECREF(p_); }
  PyObject* get() const { return p_; }
  PyObject* release() {
    PyObject* r = p_;
    p_ = nullptr;
    return r;
  }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  PyObject* p_ = nullptr;
};

// getattr(obj, name), or an empty ref (with the Python error cleared).
inline PyRef py_attr(PyObject* obj, const char* name) {
  PyObject* r = PyObject_GetAttrString(obj, name);
  if (!r) PyErr_Clear();
  return PyRef(r);
}

// str(obj) / repr(obj) as UTF-8 ("" on failure).
inline std::string py_str(PyObject* obj) {
  if (!obj) return {};
  if (PyUnicode_Check(obj)) {
    const char* s = PyUnicode_AsUTF8(obj);
    if (!s) {
      PyErr_Clear();
      return {};
    }
    return s;
  }
  PyRef s(PyObject_Str(obj));
  if (!s) {
    PyErr_Clear();
    return {};
  }
  return py_str(s.get());
}

inline std::string py_repr(PyObject* obj) {
  PyRef s(PyObject_Repr(obj));
  if (!s) {
    PyErr_Clear();
    return "<object>";
  }
  return py_str(s.get());
}

// The class name of an object ("FunctionDef", "FFI", ...).
inline std::string py_type_name(PyObject* obj) {
  std::string n = Py_TYPE(obj)->tp_name ? Py_TYPE(obj)->tp_name : "";
  size_t dot = n.rfind('.');
  return dot == std::string::npos ? n : n.substr(dot + 1);
}

// The current Python exception as "Type: message" (and clears it).
std::string fetch_python_error();

}  // namespace cuhost::frontend
