// Operator spellings of the C++ AST, used by error messages
// ("cannot add float32 and str" names operations by word elsewhere; these give
// the Python symbol).
#include "frontend/ast.h"

namespace cuhost::ast {

const char* to_string(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mult: return "*";
    case BinOpKind::Div: return "/";
    case BinOpKind::FloorDiv: return "//";
    case BinOpKind::Mod: return "%";
    case BinOpKind::Pow: return "**";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
    case BinOpKind::BitAnd: return "&";
    case BinOpKind::MatMult: return "@";
  }
  return "?";
}

const char* to_string(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::UAdd: return "+";
    case UnaryOpKind::USub: return "-";
    case UnaryOpKind::Not: return "not";
    case UnaryOpKind::Invert: return "~";
  }
  return "?";
}

const char* to_string(CompareOpKind op) {
  switch (op) {
    case CompareOpKind::Eq: return "==";
    case CompareOpKind::NotEq: return "!=";
    case CompareOpKind::Lt: return "<";
    case CompareOpKind::LtE: return "<=";
    case CompareOpKind::Gt: return ">";
    case CompareOpKind::GtE: return ">=";
    case CompareOpKind::Is: return "is";
    case CompareOpKind::IsNot: return "is not";
    case CompareOpKind::In: return "in";
    case CompareOpKind::NotIn: return "not in";
  }
  return "?";
}

}  // namespace cuhost::ast
