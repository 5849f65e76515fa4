"""cuhost's implementation of numba's extension API (numba.cuda.extending).

The public modules (cuda/extending.py, typing/templates.py, core/imputils.py,
cudadecl.py, cudaimpl.py, models.py, cgutils.py) are thin: registrations go
into registry.py, and the engine's typing asks bridge.py, whose answers come
from resolve.py (matching templates to argument types) and codegen.py
(running code generation callbacks into llvmlite IR). typeinfo.py registers
extension types with the engine and llvm_types.py builds llvmlite types from
the engine's description of its LLVM representation of cuhost's own types.
"""
