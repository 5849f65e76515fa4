// Typing of cuhost's own operators and functions applied to extension-type
// values (sema/typing/extension.cpp): `a + b`, `a == b`, `-a`, `len(a)`,
// `math.sqrt(a)` where the extension API overloads that builtin
// (@overload(operator.add), ...). The node's ExprInfo becomes an
// "extension.call" / "extension.codegen" with ordered_args = `operands`.
#pragma once

#include <string>
#include <vector>

#include "sema/typer.h"

namespace cuhost::sema {

// True when one of `types` is an extension type (or holds one).
bool has_extension_operand(const std::vector<const ir::Type*>& types);

// The type of builtin `key` ("operator.add", "builtins.len") applied to
// `operands` through its extension-API overloads; nullptr when the extension
// API overloads no such builtin. Errors (no overload matches) are TypingErrors at `node`.
const ir::Type* type_builtin_extension(Typer& t, const ast::Expr* node, const std::string& key,
                                       const std::vector<const ast::Expr*>& operands);

// The `operator` module function of a binary, comparison or unary operator ("add", "eq", "neg", ...).
std::string operator_name(ast::BinOpKind op);
std::string operator_name(ast::CompareOpKind op);
std::string operator_name(ast::UnaryOpKind op);

}  // namespace cuhost::sema
