// A Python index key (an int, a slice, Ellipsis or a tuple of them) as the
// items of a basic index of the layout arithmetic (ir/array_layout.h):
// DeviceNDArray's subscripts and the dummyarray model read keys alike.
#pragma once

#include <Python.h>

#include <vector>

#include "ir/array_layout.h"

namespace cuhost::python {

// False with IndexError (NumPy's messages, naming `owner`, e.g.
// "DeviceNDArray") for None, booleans and anything else that is not an
// integer, a slice or an ellipsis.
bool index_items_of(PyObject* key, const char* owner, std::vector<ir::IndexItem>* out);

}  // namespace cuhost::python
