// How the dispatchers choose among explicit signatures, as numba's do: the
// kernel launcher (dispatcher.cpp, numba-cuda's _cuda_call) and numba.njit
// host calls (host_dispatcher.cpp, numba's dispatcher call). Conversions
// themselves are sema/conversions.h's one relation; this layer adds numba's
// type manager (the conversions a dispatcher already knows), its two-round
// selection and the messages of its failures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/types.h"

namespace cuhost::python {

// numba keeps one type manager for its CPU dispatchers and numba-cuda
// another for its kernels; each learns conversions on its own.
enum class TypeManager { Kernels, HostCalls };

struct SignatureChoice {
  enum class Outcome {
    Chosen,
    NoMatch,
    // Ties: `tied` lists the signatures the typing context rates best (numba's
    // "Ambiguous overloading" TypeError lists them).
    Ambiguous,
    // The type manager saw a tie the typing context does not: numba raises
    // RuntimeError("_explain_ambiguous must raise an exception").
    Unexplained,
  };
  Outcome outcome = Outcome::NoMatch;
  size_t index = 0;    // Chosen: the signature
  bool exact = false;  // Chosen: the arguments' own types (a choice no later call changes)
  std::vector<size_t> tied;
};

// numba's choice among `signatures` for arguments of types `actual`, when
// the dispatcher compiles nothing new (explicit signatures): the type
// manager's selectOverload over the conversions it knows (the casting table
// and those learned by earlier calls), unsafe ones allowed: the fewest
// unsafe, then safe, then promoting conversions; a tie is ambiguous. Only
// when no signature fits does it learn the conversions the relation allows
// for each signature (numba's _search_new_conversions) and choose again.
SignatureChoice choose_signature(TypeManager manager, const std::vector<const ir::Type*>& actual,
                                 const std::vector<std::vector<const ir::Type*>>& signatures);

// Counts the conversions `manager` has learned; a choice made by conversion
// is made again when this has changed since, as numba's can then differ.
std::uint64_t learned_conversions(TypeManager manager);

// Whether a choice made when learned_conversions was `learned_then` must be
// made again (only choices made by conversion can change).
bool choice_outdated(TypeManager manager, bool by_conversion, std::uint64_t learned_then);

// "float32, int64": argument types as the dispatchers' messages list them.
std::string type_list(const std::vector<const ir::Type*>& types);

// numba's repr of a type and "(a, b)" of a type tuple, as the "Ambiguous
// overloading" messages print them.
std::string numba_repr(const ir::Type* t);
std::string numba_reprs(const std::vector<const ir::Type*>& types);

}  // namespace cuhost::python
