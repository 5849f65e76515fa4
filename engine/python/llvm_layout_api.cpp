// `_cuhost._llvm_layout(handle)` and `_cuhost._llvm_size_align(description)`:
// the engine's LLVM representation of a type (codegen's llvm_type_of and
// llvm_memory_type_of) and its size and ABI alignment under the target's
// DataLayout, for extension code generation in Python
// (cuda/_ext/llvm_types.py), which builds llvmlite types from the
// description and decides nothing itself. llvmlite cannot parse LLVM's type
// text and still has typed pointers, so a type crosses as nested tuples:
// ("int", bits), ("half",), ("bfloat",), ("float",), ("double",),
// ("ptr", pointee), ("array", n, element), ("vector", n, element),
// ("struct", (elements...), packed) and ("extension", handle, in_memory) for
// an extension type, whose representation is its Python data model's.
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Target/TargetMachine.h>

#include <string>
#include <vector>

#include "codegen/host_target.h"
#include "codegen/lowering/lowerer.h"
#include "codegen/nvptx_backend.h"
#include "python/module.h"
#include "python/py_api.h"
#include "python/type_handle.h"
#include "runtime/session.h"

namespace cuhost::python {

namespace {

// The DataLayout kernels are compiled with on this process's backend, as
// its string: each query builds its own DataLayout, because one caches
// struct layouts by the address of types of a context that dies with the
// query.
const std::string& target_data_layout() {
  if (runtime::session().backend == Backend::Cuda) {
    // nvptx64's layout is the same for every compute capability.
    static const std::string gpu =
        codegen::make_nvptx_target_machine(7, 0, false)->createDataLayout().getStringRepresentation();
    return gpu;
  }
  return codegen::host_target().data_layout;
}

PyObject* describe(llvm::LLVMContext& c, llvm::Type* lt, const ir::Type* t, bool memory);

// What the pointer in `t`'s representation points at: an array's or a
// CPointer's elements as stored in memory; bytes (i8) for a record or a voidptr.
PyObject* pointee(llvm::LLVMContext& c, const ir::Type* t) {
  const ir::Type* element = nullptr;
  if (t && t->kind == ir::TypeKind::Array) element = t->dtype;
  if (t && t->kind == ir::TypeKind::CPointer && t->pointee->kind != ir::TypeKind::Void) element = t->pointee;
  if (!element) return Py_BuildValue("(si)", "int", 8);
  return describe(c, codegen::llvm_memory_type_of(c, element), element, true);
}

// The ir::Type of member `i` of `t`'s struct representation, where a
// pointer inside it needs one (null when the member carries no pointer).
const ir::Type* member_type(const ir::Type* t, unsigned i) {
  if (!t) return nullptr;
  switch (t->kind) {
    case ir::TypeKind::Tuple: return i < t->elements.size() ? t->elements[i] : nullptr;
    case ir::TypeKind::Optional: return i == 1 ? t->pointee : nullptr;
    case ir::TypeKind::Array: return i == 0 ? t : nullptr;  // the data pointer
    default: return nullptr;
  }
}

// `lt`, the engine's LLVM type of `t` (t may be null inside arrays and
// scalars), as a description.
PyObject* describe(llvm::LLVMContext& c, llvm::Type* lt, const ir::Type* t, bool memory) {
  if (t && t->kind == ir::TypeKind::Extension) {
    PyRef handle(new_type_handle(t));
    return Py_BuildValue("(sOO)", "extension", handle.get(), memory ? Py_True : Py_False);
  }
  if (t && (t->kind == ir::TypeKind::Range || t->kind == ir::TypeKind::EnumMember))
    return describe(c, lt, t->pointee, memory);  // represented as their value
  if (lt->isIntegerTy()) return Py_BuildValue("(si)", "int", static_cast<int>(lt->getIntegerBitWidth()));
  if (lt->isHalfTy()) return Py_BuildValue("(s)", "half");
  if (lt->isBFloatTy()) return Py_BuildValue("(s)", "bfloat");
  if (lt->isFloatTy()) return Py_BuildValue("(s)", "float");
  if (lt->isDoubleTy()) return Py_BuildValue("(s)", "double");
  if (lt->isPointerTy()) {
    PyRef target(pointee(c, t));
    if (!target) return nullptr;
    return Py_BuildValue("(sO)", "ptr", target.get());
  }
  if (auto* at = llvm::dyn_cast<llvm::ArrayType>(lt)) {
    PyRef element(describe(c, at->getElementType(), nullptr, memory));
    if (!element) return nullptr;
    return Py_BuildValue("(sKO)", "array", static_cast<unsigned long long>(at->getNumElements()), element.get());
  }
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(lt)) {
    PyRef element(describe(c, vt->getElementType(), nullptr, memory));
    if (!element) return nullptr;
    return Py_BuildValue("(sIO)", "vector", vt->getNumElements(), element.get());
  }
  if (auto* st = llvm::dyn_cast<llvm::StructType>(lt)) {
    PyRef members(PyTuple_New(st->getNumElements()));
    if (!members) return nullptr;
    for (unsigned i = 0; i < st->getNumElements(); ++i) {
      PyObject* m = describe(c, st->getElementType(i), member_type(t, i), false);
      if (!m) return nullptr;
      PyTuple_SET_ITEM(members.get(), i, m);
    }
    return Py_BuildValue("(sOO)", "struct", members.get(), st->isPacked() ? Py_True : Py_False);
  }
  std::string text;
  llvm::raw_string_ostream o(text);
  lt->print(o);
  PyErr_Format(PyExc_NotImplementedError, "no description of the LLVM type %s", o.str().c_str());
  return nullptr;
}

// A description back as an LLVM type (for sizes of llvmlite types).
llvm::Type* build(llvm::LLVMContext& c, PyObject* d) {
  PyObject* tag_obj = PyTuple_Check(d) && PyTuple_GET_SIZE(d) > 0 ? PyTuple_GET_ITEM(d, 0) : nullptr;
  const char* tag = tag_obj && PyUnicode_Check(tag_obj) ? PyUnicode_AsUTF8(tag_obj) : nullptr;
  if (!tag) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "not an LLVM type description: %R", d);
    return nullptr;
  }
  std::string k = tag;
  Py_ssize_t n = PyTuple_GET_SIZE(d);
  auto count = [&](Py_ssize_t i) { return PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(d, i)); };
  if (k == "int" && n == 2) {
    unsigned long long bits = count(1);
    return PyErr_Occurred() ? nullptr : llvm::Type::getIntNTy(c, static_cast<unsigned>(bits));
  }
  if (k == "half") return llvm::Type::getHalfTy(c);
  if (k == "bfloat") return llvm::Type::getBFloatTy(c);
  if (k == "float") return llvm::Type::getFloatTy(c);
  if (k == "double") return llvm::Type::getDoubleTy(c);
  if (k == "ptr") return llvm::PointerType::get(c, 0);
  if ((k == "array" || k == "vector") && n == 3) {
    unsigned long long length = count(1);
    llvm::Type* element = PyErr_Occurred() ? nullptr : build(c, PyTuple_GET_ITEM(d, 2));
    if (!element) return nullptr;
    if (k == "array") return llvm::ArrayType::get(element, length);
    return llvm::FixedVectorType::get(element, static_cast<unsigned>(length));
  }
  if (k == "struct" && n == 3) {
    PyRef members(PySequence_Tuple(PyTuple_GET_ITEM(d, 1)));
    if (!members) return nullptr;
    std::vector<llvm::Type*> types;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(members.get()); ++i) {
      llvm::Type* m = build(c, PyTuple_GET_ITEM(members.get(), i));
      if (!m) return nullptr;
      types.push_back(m);
    }
    int packed = PyObject_IsTrue(PyTuple_GET_ITEM(d, 2));
    if (packed < 0) return nullptr;
    return llvm::StructType::get(c, types, packed != 0);
  }
  PyErr_Format(PyExc_TypeError, "not an LLVM type description: %R", d);
  return nullptr;
}

PyObject* size_align(llvm::Type* lt) {
  const llvm::DataLayout dl(target_data_layout());
  return Py_BuildValue("(KK)", static_cast<unsigned long long>(dl.getTypeAllocSize(lt).getFixedValue()),
                       static_cast<unsigned long long>(dl.getABITypeAlign(lt).value()));
}

// _llvm_layout(handle) -> (value description, memory description, size,
// alignment): size and alignment of the in-memory type.
PyObject* py_llvm_layout(PyObject*, PyObject* arg) {
  const ir::Type* t = type_of_handle(arg);
  if (!t) {
    PyErr_Format(PyExc_TypeError, "_llvm_layout expects a _cuhost.TypeHandle, not %.200s", Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    llvm::LLVMContext c;
    llvm::Type* value = codegen::llvm_type_of(c, t);
    llvm::Type* memory = codegen::llvm_memory_type_of(c, t);
    PyRef value_d(describe(c, value, t, false));
    if (!value_d) return nullptr;
    PyRef memory_d(describe(c, memory, t, true));
    PyRef sa(memory_d ? size_align(memory) : nullptr);
    if (!sa) return nullptr;
    return Py_BuildValue("(OOOO)", value_d.get(), memory_d.get(), PyTuple_GET_ITEM(sa.get(), 0),
                         PyTuple_GET_ITEM(sa.get(), 1));
  });
}

// _llvm_size_align(description) -> (size, ABI alignment) on the target.
PyObject* py_llvm_size_align(PyObject*, PyObject* arg) {
  return guarded<PyObject*>(nullptr, [&]() -> PyObject* {
    llvm::LLVMContext c;
    llvm::Type* lt = build(c, arg);
    return lt ? size_align(lt) : nullptr;
  });
}

PyMethodDef g_methods[] = {
    {"_llvm_layout", py_llvm_layout, METH_O,
     "The engine's LLVM type of a TypeHandle's values (in registers and in memory) as descriptions, with the "
     "in-memory size and ABI alignment."},
    {"_llvm_size_align", py_llvm_size_align, METH_O,
     "Size and ABI alignment of an LLVM type description under the target's DataLayout."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

int add_llvm_layout(PyObject* module) { return PyModule_AddFunctions(module, g_methods); }

}  // namespace cuhost::python
