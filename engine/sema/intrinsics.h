// The contract between typing (sema/typing/*) and lowering
// (codegen/lowering/*): every intrinsic key typing can put into
// ExprInfo::intrinsic, how its arguments and result are typed, and the
// ExprInfo conventions of every AST node. Lowering mirrors this file; a change
// here is a change of the contract and must be made in both places.
//
// ============================================================================
// General ExprInfo conventions (TypedFunction::exprs, keyed by ast::Expr*)
// ============================================================================
// Every expression node that is evaluated has an entry; `type` is its value
// type. Conversions: wherever a *_types list names a type, lowering converts
// the corresponding value from its own `type` to that type with numba's
// cast rules (int<->int trunc/ext by the source's signedness, int->float
// sitofp/uitofp, float->int fptosi/fptoui, float<->float, bool->number 0/1,
// number->bool `!= 0`).
//
// Name      local variable: type = the local's (unified) type; a local
//           assigned exactly once with a constant value also has `constant`.
//           frozen global: Constant -> `constant` set (scalars and tuples);
//           Array -> type array(dtype, ndim, C, readonly=true), intrinsic
//           "global.array" (the bytes are captured->globals[id].array);
//           Tuple (arrays and constants) -> a tuple type of those (arrays
//           read-only C), intrinsic "global.tuple";
//           Module -> type module(key); Intrinsic -> type intrinsic(key);
//           TypeObject -> type type_ref(T); JitFunction -> dispatcher(fn);
//           Foreign -> foreign(ff); Ffi -> ffi(). Non-values emit no code.
//           An attribute of a user module (`mod.CONST`, `mod.helper`) is
//           frozen by capture as captured->globals["mod.CONST"] and typed
//           like a Name global on the Attribute node (a "global.array" there
//           finds its bytes under that dotted key).
// Constant  type = value.type, `constant` = the value.
// Attribute intrinsic set for values computed at run time (see the cuda and
//           array keys below); folded constants (math.pi, a.ndim, shapes of
//           const arrays) have `constant`; module/function references have a
//           Module/Intrinsic/TypeRef type and emit nothing.
// Subscript see "array.getitem" / "tuple.getitem" / "array.setitem".
// Call      intrinsic (a key below, or "cast"), or callee (a jitted device
//           function), or foreign (a declared function). ordered_args holds
//           the argument expressions in parameter order after keywords were
//           matched (null for omitted optional parameters); param_types[i] is
//           the type ordered_args[i] is converted to (null entry = no
//           conversion / not a value, e.g. a dtype or shape argument).
// BinOp     operand_types = {L, R}: both operands are converted to these,
//           then the operation is done; result = type. For `/` on ints
//           operand_types are float64.
//           Int `//` floors toward -inf, int `%` takes the sign of the
//           divisor, float `//` is floor(a / b) computed like Python
//           (fmod based), float `%` takes the sign of the divisor. Integer
//           division by zero: no trap required (numba raises
//           ZeroDivisionError on the host only; in kernels the result is 0).
//           `**`: int ** int -> int64 (uint64 when both unsigned; operands
//           converted to it; repeated squaring; a negative exponent gives 0
//           unless the base is +-1, and 0 ** negative gives INT64_MIN --
//           numba's numpy error model -- or a ZeroDivisionError report with
//           debug). float ** int -> the float type F (float32 stays float32,
//           numba's BinOpPower) with operand_types {F, E}, E = int32 for
//           signed ints up to 32 bits and uint8/uint16, int64 for int64 and
//           bool, uint64 for uint32/uint64: lowering computes by repeated
//           squaring in F (numba's int_power, bit-exact with it), negative
//           exponents as 1 / x**-n, math.pow in float64 past |n| > 65536.
//           Otherwise both operands are the float result type F and
//           lowering calls pow. Literal int ** non-negative int folds.
//           `<<` `>>`: result int64, or uint64 when the LEFT operand is an
//           unsigned integer; operand_types = {result, result}.
// UnaryOp   operand_types = {T}: operand converted to T first. `-x` and `+x`
//           on bool give int64; `~x` on bool gives bool (logical not, numba);
//           `not x` gives bool (operand_types = {operand type}, lowering
//           tests truthiness).
// BoolOp    type = unified type of all values; operand_types has one entry per
//           value = type. Short-circuit: truthiness of each value in its own
//           type; the produced value is that value converted to `type`.
// Compare   type = bool; operand_types has one entry per comparison: both
//           sides of that comparison are converted to it before comparing
//           (chained comparisons evaluate each middle operand once).
//           `is`/`is not` with None on both sides fold to a `constant`.
// IfExp     type = unified(body, orelse); operand_types = {type, type}.
// Tuple     type = Tuple of element types (UniTuple when equal).
// Slice     not a value: only inside a subscript ("array.view",
//           "array.setslice", "tuple.slice"); elsewhere rejected.
//
// Statements (no ExprInfo of their own; information is on their exprs):
// Assign    each target: Name -> ExprInfo.type = the local's type, the value
//           is converted to it. Subscript -> intrinsic "array.setitem" (below).
//           Tuple target -> type = the value's tuple type; each element
//           target has its own entry and takes element i converted.
// AugAssign target entry: type = the storage type (local or array dtype);
//           operand_types = {L, R} of the binary operation (as for BinOp);
//           param_types = {R'} where R' is the operation's result type, which
//           is then converted to `type` and stored. For a Subscript target
//           intrinsic = "array.setitem" and the index is evaluated once. The
//           value expression has its own entry.
// For       target Name: type = loop variable type: the range index type
//           I (numba's range signatures: int32 when every argument fits
//           int32 -- int literals are int64 --, uint64 when any argument is
//           uint64, else int64), unified with other assignments.
//           iter Call: intrinsic "builtins.range", type range(I),
//           ordered_args = {start|null, stop, step|null}, param_types =
//           {I, I, I} (defaults: start 0, step 1; step may be negative; a
//           literal 0 step is a ValueError at typing).
//           iter of tuple type (homogeneous, non-empty; typing/tuples.cpp):
//           no intrinsic; the target takes each element in order (any
//           assignable target, e.g. `for i, j in ((1, 2), (3, 4))`).
//           iter of array type: no intrinsic; the target takes a[i] for i
//           in 0..shape[0]-1: the dtype for a 1-d array, else a view
//           array(dtype, ndim - 1, A) (numba's array iterator).
// If/While  test: truthiness of the test value in its own type.
// Return    device functions: the value is converted to return_type.
//           Kernels: return_type none; a bare `return` only.
//
// ============================================================================
// Intrinsic keys
// ============================================================================
// --- casts -----------------------------------------------------------------
// "cast"            T(x): float32(x), np.float32(x), numba.types.int32(x),
//                   int(x) (-> int64, or x's type when x is an integer),
//                   float(x) (-> float64, or x's type when x is a float),
//                   bool(x) (-> bool), complex(x). ordered_args = {x},
//                   param_types = {type of x} (no pre-conversion), type = T.
//                   float->int truncates toward zero.
// --- builtins --------------------------------------------------------------
// "builtins.abs"    abs(x): int -> same int type, float -> same float, bool
//                   -> int64 (param_types {int64}), complex64/128 ->
//                   float32/64 magnitude (param_types {x's type}).
//                   param_types = {the operand type after conversion}.
// "builtins.min" / "builtins.max"
//                   2+ scalar args: type = NumPy promotion of all args
//                   (int32 with float32 -> float64, int8 with uint8 ->
//                   int16, int32 with int32 -> int32; bool with an int -> the
//                   int), param_types all = type; ordered_args = the args. NaN
//                   handling: like Python's (compare `<`/`>` pairwise from
//                   the left), except min/max of exactly two floats, which are
//                   numba-cuda's fmin/fmax (a NaN operand yields the other).
// "builtins.pow"    pow(a, b): typed and lowered as a ** b (param_types the
//                   operand types of the power); no three-argument form.
// "operator.<f>"    add sub mul truediv floordiv mod pow lshift rshift and_
//                   or_ xor: operator.f(a, b) typed and lowered as the binary
//                   operator (param_types its operand types).
// "builtins.round"  round(x): float -> int64 (round half to even),
//                   param_types {F}; int -> int64, param_types {int64}.
//                   round(x, n): float x -> x's type, param_types {F, int64};
//                   int x -> int64, param_types {int64, int64}.
// "builtins.len"    len(array) -> int64 (shape[0], param_types {array});
//                   len(tuple) folds to `constant`.
// "builtins.range"  only as a For iterable (see For above).
// "builtins.print"  print(*items) -> none; ordered_args = the items;
//                   param_types[i]: int64 (signed ints), uint64 (unsigned),
//                   float64 (floats), bool, or null for a string constant
//                   (type StringLiteral, text in type->key) and for
//                   cuda.threadIdx/blockIdx/blockDim/gridDim used as a value
//                   (type intrinsic(key), printed "(x, y, z)"). Other types and
//                   keyword arguments are TypingErrors (sema/typing/print.cpp).
// --- math (libdevice on the GPU, libm on the CPU) ---------------------------
// Unary float functions: sqrt sin cos tan asin acos atan sinh cosh tanh asinh
// acosh atanh exp expm1 exp2 log log1p log2 log10 fabs erf erfc gamma lgamma
//   "math.<f>": float32 -> float32, float64 -> float64, int/bool -> float64.
//   param_types = {F}, type = F.
// Binary float functions: atan2 pow fmod hypot copysign
//   "math.<f>": F = float32 if both are float32 else float64;
//   param_types = {F, F}, type = F.
// "math.floor" "math.ceil" "math.trunc": float -> int64 (param_types {F});
//   uint64 -> uint64 (param_types {uint64}); other ints -> int64
//   (param_types {int64}).
// "math.nextafter" "math.remainder": binary float functions as above;
//   "math.degrees" "math.radians": unary float functions as above.
// "math.frexp": F -> Tuple(F, int32); "math.modf": F -> UniTuple(F x 2)
//   (fraction, integral part); "math.ldexp": (F, int) -> F, param_types
//   {F, int32}: libdevice's frexp/modf/ldexp on both targets.
// "number.bit_count"  i.bit_count() on an integer: ones in |i|, int64;
//   ordered_args = {receiver}, param_types = {its type}.
// "math.isnan" "math.isinf" "math.isfinite": type bool; float -> param_types
//   {F}; int argument folds to a `constant` (False/False/True).
// math.pi math.e math.inf math.nan math.tau: Attribute with `constant`
//   (float64).
// --- cuda: thread indexing --------------------------------------------------
// "cuda.threadIdx.x" (.y .z), "cuda.blockIdx.*", "cuda.blockDim.*",
// "cuda.gridDim.*": on the outer Attribute node, type int32.
// "cuda.laneid", "cuda.warpsize": Attribute nodes, type int32.
// "cuda.grid"       cuda.grid(n), n a literal 1..3: n == 1 -> int64, else
//                   UniTuple(int64 x n). ordered_args = {n}, param_types =
//                   {null}; `shape` = {n}. Values: threadIdx + blockIdx *
//                   blockDim per axis, in 64-bit.
// "cuda.gridsize"   like cuda.grid: blockDim * gridDim per axis.
// --- cuda: barriers and fences (set uses_barriers / uses_warp_ops) ----------
// "cuda.syncthreads"        () -> none (uses_barriers)
// "cuda.syncthreads_count"  (pred) -> int32; param_types {int32} (uses_barriers)
// "cuda.syncthreads_and"    (pred) -> int32; param_types {int32} (uses_barriers)
// "cuda.syncthreads_or"     (pred) -> int32; param_types {int32} (uses_barriers)
// "cuda.syncwarp"           (mask=0xffffffff) -> none; param_types {uint32};
//                           ordered_args {mask|null} (uses_warp_ops)
// "cuda.threadfence" "cuda.threadfence_block" "cuda.threadfence_system"
//                           () -> none
// --- cuda: memory -----------------------------------------------------------
// "cuda.shared.array"  (shape, dtype): shape a literal int or tuple of
//                      literal ints (list displays too), dtype a type object,
//                      a NumPy dtype class or a dtype name string. type =
//                      array(dtype, len(shape), C); `shape` = the extents
//                      (a 1-d shape {0} = dynamic shared memory, sized at
//                      launch). ordered_args {shape, dtype}, param_types
//                      {null, null}. Each call site is its own allocation.
// "cuda.local.array"   same, thread-local.
// "cuda.const.array_like" (arr): arr a Name of a frozen global array
//                      (GlobalValue::Kind::Array); type = array(dtype, ndim,
//                      C); `shape` = its shape; ordered_args {arr}.
// "global.array"       a frozen global NumPy array read as a value (Name):
//                      readonly array(dtype, ndim, C).
// "global.device_array" a captured device array (Name, GlobalValue::Kind::
//                      DeviceArray): array(dtype, ndim, layout of its
//                      strides), writable unless its interface says readonly.
// --- cuda: atomics (return the old value) -----------------------------------
// "cuda.atomic.<op>"   op in add sub max min nanmax nanmin and_ or_ xor exch
//                      inc dec: (ary, idx, val) -> dtype. ordered_args
//                      {ary, idx, val}; param_types {array type, I, dtype}
//                      where I = int64 for a scalar index or UniTuple(int64 x
//                      n) for a tuple index (each component converted to
//                      int64). dtypes: add sub max min exch: int32 uint32
//                      int64 uint64 float32 float64; nanmax nanmin: float32
//                      float64 (and the ints); and_ or_ xor: int32 uint32
//                      int64 uint64; inc dec: uint32 uint64 (CUDA wraparound
//                      semantics: inc: old >= val ? 0 : old+1; dec: (old == 0
//                      || old > val) ? val : old-1).
// "cuda.atomic.cas"    (ary, idx, old, new) -> dtype; param_types {array, I,
//                      dtype, dtype}; dtypes int32 uint32 int64 uint64.
// --- cuda: warp (set uses_warp_ops) -----------------------------------------
// "cuda.shfl_sync"       (mask, value, src_lane) -> T; param_types {uint32, T, int32}
// "cuda.shfl_up_sync"    (mask, value, delta) -> T; param_types {uint32, T, uint32}
// "cuda.shfl_down_sync"  (mask, value, delta) -> T; param_types {uint32, T, uint32}
// "cuda.shfl_xor_sync"   (mask, value, lane_mask) -> T; param_types {uint32, T, int32}
//                        T in int32 uint32 int64 uint64 float32 float64
//                        (bool and smaller ints are widened to int32 first:
//                        T = int32).
// "cuda.all_sync" "cuda.any_sync" "cuda.eq_sync"
//                        (mask, pred) -> bool; param_types {uint32, bool}
// "cuda.ballot_sync"     (mask, pred) -> uint32; param_types {uint32, bool}
// "cuda.activemask"      () -> uint32
// "cuda.lanemask_lt"     () -> uint32
// --- cuda: arithmetic intrinsics --------------------------------------------
// "cuda.fma"    (a, b, c) -> F (float32 if all float32 else float64); param_types {F, F, F}
// "cuda.cbrt"   (x) -> float32 for float32 else float64; param_types {F}
// "cuda.brev"   (x) -> uint32 for <= 32-bit ints, uint64 for 64-bit; param_types {same}
// "cuda.clz"    (x) -> int32; param_types {x's int type (32- or 64-bit: smaller widen to int32)}
// "cuda.ffs"    (x) -> uint32; param_types as clz (1-based index of the lowest set bit, 0 if none)
// "cuda.popc"   (x) -> int32; param_types as clz
// "cuda.selp"   (cond, a, b) -> unified(a, b); param_types {bool, T, T}
// "cuda.nanosleep"  (ns) -> none; param_types {uint32}
// --- cuda: cache-hinted memory access (typing/cache_hints.cpp) ---------------
// "cuda.ldca" "cuda.ldcg" "cuda.ldcs" "cuda.ldlu" "cuda.ldcv"
//               (array or CPointer, index) -> its element type (8- to 64-bit
//               int or float); the index is an int, or a tuple of ndim ints
// "cuda.stcg" "cuda.stcs" "cuda.stwb" "cuda.stwt"
//               (array or CPointer, index, value) -> none; param_types {-, -, dtype}
// --- cuda: inline PTX (typing/inline_ptx.cpp, sema/typing/inline_ptx_spec.h) ---
// "cuda.inline_ptx"  (ptx, constraints, *inputs, result=, volatile=True):
//               ptx and constraints are StringLiteral arguments (their text
//               in type->key). ordered_args {ptx, constraints, volatile|null,
//               inputs...}; param_types {-, -, -, one per input: the type
//               it is converted to (null for an 'n' immediate: its
//               `constant` is emitted)}. type = none, the output's type, or
//               a Tuple of the outputs' types. GPU only.
// --- thread-block clusters (typing/clusters.cpp) ------------------------------------
// "cuda.cg.this_cluster"  () -> intrinsic("cuda.cg.ClusterGroup") (no bits)
// "cuda.cg.ClusterGroup.sync"  () -> none (a barrier of every thread of the cluster)
// "cuda.cg.ClusterGroup.block_rank" / ".num_blocks"  () -> int32
// "cuda.cg.ClusterGroup.map_shared_rank"  (array, rank) -> the array's type;
//               param_types {array, int32}: the same array in block `rank`'s
//               shared memory. The receiver (the group) is not an argument.
// --- cuda.wmma (typing/wmma.cpp, sema/typing/wmma_fragments.h) -------------------
// Fragments are opaque extension types (wmma_fragment_of() describes them);
// their value is the address of the thread's fragment storage.
// "cuda.wmma.fragment"  (use, m, n, k, dtype, layout=) -> the fragment type;
//               param_types all null (everything is in the type).
// "cuda.wmma.fill_fragment"  (frag, value) -> none; param_types {frag, float32}
// "cuda.wmma.load_matrix_sync"  (frag, array, offset, ldm, layout|null) -> none;
//               param_types {frag, array, int64, int32, null}; layout (an
//               accumulator's) is a marker expression typed
//               intrinsic("cuda.wmma.mem_row_major"/"mem_col_major").
// "cuda.wmma.store_matrix_sync"  (array, offset, frag, ldm, layout) -> none;
//               param_types {array, int64, frag, int32, null}
// "cuda.wmma.mma_sync"  (d, a, b, c) -> none; param_types the four fragments.
// --- cuda.mma (typing/mma.cpp, sema/typing/mma_kinds.h) ----------------------
// Fragments are tuples of the lane's registers, laid out as PTX documents.
// "cuda.mma.mma_sync"  (kind, a, b, c) -> UniTuple(float32, 4); param_types
//               {null, UniTuple(uint32, 4), UniTuple(uint32, 2), UniTuple(float32, 4)};
//               kind is a marker typed intrinsic("cuda.mma.m16n8k16_f16") etc.
// "cuda.mma.ldmatrix"  (array, offset, num=4, trans=False) -> UniTuple(uint32, num);
//               param_types {array, int64, null, null}
// "cuda.mma.cp_async"  (dst, dst_offset, src, src_offset) -> none (16 bytes);
//               param_types {array, int64, array, int64}
// "cuda.mma.commit_group" () / "cuda.mma.wait_group" (n literal) -> none
// "cuda.mma.to_tf32"  (x) -> uint32 (the tf32 bits, rounded as cvt.rna); param_types {float32}
// --- cuda.libdevice -----------------------------------------------------------
// "cuda.libdevice.<f>"  every function of libdevice's table
//                       (typing/libdevice_table.h): param_types = its value
//                       parameters; type = its result, or, when it has
//                       out-parameters, Tuple(result unless void, pointed-to
//                       types...). The function called is "__nv_<f>".
// --- arrays and tuples --------------------------------------------------------
// "array.getitem"  Subscript load: type = dtype (an integer index per
//                  dimension, all dimensions indexed). param_types = {I}
//                  with I = int64 (one index) or UniTuple(int64 x ndim)
//                  (tuple expression or tuple-typed value); negative indices
//                  wrap. Also CPointer(T)[i] -> T (no wrapping).
// "array.setitem"  Subscript store (Assign/AugAssign target): type = dtype;
//                  the stored value is converted to dtype; param_types {I}
//                  as for getitem.
// "tuple.getitem"  t[k], k a literal int: type = element type; the index
//                  expression has `constant` (negative literals are already
//                  normalized to k + len). A UniTuple may also be indexed by a
//                  run-time integer (no `constant`): param_types {int64},
//                  lowering wraps a negative index (numba's getitem of a
//                  UniTuple does) and selects the element; with checks on
//                  an out-of-range index reports IndexError.
// "array.view"     Subscript load with a slice or fewer indices than
//                  dimensions (typing/slicing.cpp): type = param_types[0] =
//                  the view array(dtype, ndim - #integers, layout) where the
//                  layout follows numba (C stays C when the outer indices
//                  are integers and the innermost indexed one is an integer
//                  or a literal slice with no step; F mirrored; else A).
//                  The index (a Tuple node, a Slice node, an integer or a
//                  tuple value) is read component by component: integers
//                  wrap and are bounds-checked, Slice bounds (each may be
//                  absent or None; integers) are clamped like Python's
//                  slice.indices(); the Slice and index Tuple nodes have no
//                  ExprInfo of their own, their bound expressions do.
// "array.setslice" Subscript store (Assign target) of a view target: type =
//                  dtype, param_types {view type}. A scalar value is
//                  converted to dtype and stored into every element; a
//                  tuple (1-d views only) or an array (ndim <= the view's,
//                  broadcast like NumPy) is copied element by element with
//                  conversion; a size mismatch or overlapping source memory
//                  is a kernel error. AugAssign on a view is rejected.
// "tuple.slice"    t[lo:hi:step] with literal bounds: type = the tuple of
//                  the elements taken; `shape` = their positions in t, in
//                  order; a constant tuple folds to `constant`.
// "tuple.concat"   BinOp `+` of two tuples: type = Tuple(left elements +
//                  right elements); operand_types empty; constant tuples
//                  fold to `constant`.
// "tuple.repeat"   BinOp `*` of a tuple and a literal integer k (either
//                  side): type = the tuple's elements k times (none for
//                  k <= 0); a constant tuple folds to `constant`.
// "array.shape" / "array.strides": Attribute -> UniTuple(int64 x ndim) (strides
//                  in bytes). "array.size" -> int64. a.ndim folds to a
//                  `constant` int64.
// --- complex numbers -------------------------------------------------------------
// "number.real" / "number.imag"  Attribute z.real / z.imag of a number: complex
//                  -> its component type (float32 for complex64, float64 for
//                  complex128); a real number x -> x / 0 in x's own type.
//                  The base is the Attribute's value expression.
// "number.conjugate"  z.conjugate() (a Call whose func is the Attribute):
//                  ordered_args {z}, param_types {z's type}, type = z's type.
// "builtins.complex"  complex(re, im) with two real arguments: type complex64
//                  when both are float32, else complex128; param_types = the
//                  component type twice. complex(x) is a "cast".
// "builtins.complex.unpacking"  complex() with *tuple arguments: ordered_args
//                  = the arguments as written (each *tuple evaluated once),
//                  operand_types = the items' types (1 or 2).
// "builtins.tuple" tuple() (empty) or tuple(t) of a tuple t: ordered_args
//                  {t}, param_types {t's type}, type = t's type.
// "cmath.<f>"      sqrt exp log log10 sin cos tan sinh cosh tanh asin acos
//                  atan asinh acosh atanh: (z) -> C with
//                  C = complex64 for complex64/float32 z, else complex128;
//                  param_types {C}. log(z, base): param_types {C, C} (promoted).
//                  phase (z) -> F, polar (z) -> UniTuple(F x 2), F = C's
//                  component type; rect (r, phi) -> complex64 when both are
//                  float32 (param_types {F, F}), else complex128.
//                  isnan isinf isfinite (z) -> bool, param_types {z's type};
//                  integer arguments fold to a `constant`.
// NumPy ufuncs on scalars (np.sqrt np.exp ... np.arctanh np.isnan np.isinf
//                  np.isfinite) get "cmath.<f>" for a complex argument and
//                  "math.<f>" otherwise; np.abs/np.absolute get
//                  "builtins.abs"; np.conj/np.conjugate get "number.conjugate"
//                  and np.real/np.imag "number.real"/"number.imag" (on a Call
//                  node: ordered_args {x}); np.angle gets "cmath.phase". No
//                  "numpy.*" key reaches lowering.
// Complex operators: + - * / and ** (BinOp, operand_types both the promoted
// complex type; for `complex ** int` operand_types {C, int64}: repeated
// squaring), unary - and +, == and != (ordering comparisons are a TypingError).
// --- half precision (typing/half.cpp) -------------------------------------------
// "cuda.fp16.<f>"    cuda.fp16 functions: param_types all float16; result
//                    float16 (bool for heq hne hgt hge hlt hle).
// "cuda.bf16.<f>"    numba.cuda.bf16 / _internal.cuda_bf16: the same with
//                    bfloat16, plus _rn/_sat/_relu/_nan variants, hisnan
//                    (bool), hisinf (int32: -1, 0, 1) and the conversions
//                    "<src>_to_bfloat16[_rn|_rz|_rd|_ru]",
//                    "bfloat16_to_<dst>[_mode]" (param_types {source type})
//                    and the bit casts "*_as_bfloat16" / "bfloat16_as_*".
// "half.math.<f>"    math.<f> with a float16/bfloat16 argument (and none
//                    wider): param_types all that type, computed in float,
//                    result rounded to it (isnan/isinf/isfinite: bool).
// "cuda.fp8.<f>"     cuda_fp8.h's raw conversions (typing/fp8.cpp): cvt_float_to_fp8,
//                    cvt_double_to_fp8, cvt_bfloat16raw_to_fp8 -> uint8 and the
//                    *_to_e8m0 forms (param_types {source, int32 saturation,
//                    int32 interpretation or rounding mode}); cvt_e8m0_to_bf16raw
//                    (uint8) -> bfloat16_raw.
// "bfloat16_raw.x"   (Attribute) the uint16 bits of a bfloat16_raw.
// --- FFI ------------------------------------------------------------------------
// "ffi.from_buffer"  ffi.from_buffer(arr) -> CPointer(dtype); arr must be C- or
//                    F-contiguous (layout C or F), else TypingError.
//                    ordered_args {arr}, param_types {array type}.
// --- the extension API (typing/extension.cpp, sema/extension_hooks.h) ----------------
// "extension.call"     a call (Call node) or attribute (Attribute node) the
//                      extension API implements with a Python function
//                      compiled as a device function: callee, param_types =
//                      callee->arg_types, ordered_args = one expression per
//                      callee parameter (the receiver first for methods and
//                      attributes), null where the parameter takes its
//                      default: then the value is callee->arg_constants[i].
// "extension.codegen"  implemented by LLVM IR a Python callback built:
//                      param_types = the signature's arguments, ordered_args
//                      the matching expressions, extension->ir_text holds one
//                      function `extension->entry` taking the converted
//                      arguments (LLVM value types) and returning the value
//                      of `type` (void for none); calls it makes to
//                      extension->internal_calls' placeholders go to those
//                      jitted callees.
// "extension.member"   a StructModel member of an extension-type value
//                      (Attribute node): ordered_args {value}, param_types
//                      {its type}, extension->member = the member's index.
// --- foreign and jitted calls ----------------------------------------------------
// A foreign call sets ExprInfo::foreign; param_types = the declared argument
// types (arguments converted implicitly). A call of a jitted device function
// sets ExprInfo::callee; param_types = callee->arg_types (the specialization
// is chosen from the argument types, literals as int64/float64).
#pragma once

#include <string>
#include <vector>

#include "frontend/ast.h"

namespace cuhost::sema {

// Every key listed above (for tests and for lowering's coverage check).
const std::vector<std::string>& intrinsic_keys();

// The binary operator operator.<name> stands for (typing/builtins.cpp);
// nullptr for other names.
const ast::BinOpKind* operator_binop(const std::string& name);

// The callable device functions of the `cuda` module, without the "cuda."
// prefix ("grid", "syncthreads", "shared.array", ...): the one list typing
// resolves names against and intrinsic_keys() is built from.
const std::vector<std::string>& cuda_function_names();

}  // namespace cuhost::sema
