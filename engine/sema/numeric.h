// numba's numeric typing rules in one place: unification of variable types
// (NumPy promotion), the result types of arithmetic, and which conversions
// are implicit. Feature typing files (sema/typing/*) build on these.
#pragma once

#include <string>

#include "ir/types.h"

namespace cuhost::sema {

// The type two assignments to one variable unify to (numba: NumPy's
// promote_types for scalars; tuples elementwise; arrays of one dtype and
// ndim to layout A); nullptr when they cannot be unified.
const ir::Type* unify(const ir::Type* a, const ir::Type* b);

// Whether OptionalType(t) is a value type cuhost lowers ({i1 valid, t}):
// numbers, booleans, tuples, arrays and C pointers.
bool can_be_optional(const ir::Type* t);

// NumPy's promote_types for two scalars (bool < ints < floats < complex).
const ir::Type* promote(const ir::Type* a, const ir::Type* b);

// The operand type of integer arithmetic (+ - * // % ** & | ^ << >>) on two
// integers or booleans: int64 when both signed (bool counts as signed),
// uint64 when both unsigned, int64 when mixed (uint64 with int64 included:
// numba's integer_binop_cases, unlike NumPy's promotion, which unify() uses).
const ir::Type* int_arith(const ir::Type* a, const ir::Type* b);

// The operand type of arithmetic where at least one side is a float or a
// complex: the NumPy promotion of the two (float32 with int16 stays
// float32, float32 with int32/int64/float64 gives float64), except that
// uint16 with float32 is float64, as numba's casting rules choose.
const ir::Type* float_arith(const ir::Type* a, const ir::Type* b);

// The common operand type for arithmetic (ints by int_arith, otherwise
// float_arith); nullptr when either side is not a number or bool.
const ir::Type* arith(const ir::Type* a, const ir::Type* b);

// Whether a value of type `from` converts to `to` implicitly where numba
// converts (assignment into a typed slot, call arguments, stores).
bool can_convert(const ir::Type* from, const ir::Type* to);

// The name of a type in messages ("str" for string literals).
std::string display(const ir::Type* t);

}  // namespace cuhost::sema
