// The C++ AST of a kernel or device function: a faithful, Python-free copy of
// the subset of Python's ast that the kernel language accepts. Every node
// keeps its source location (1-based line in the file, 1-based column).
// The AST is immutable once built: typing results live in side tables
// (sema::TypedFunction), so one AST serves every specialization.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/constant.h"

namespace cuhost::ast {

struct SourceLoc {
  int line = 0;    // 1-based line in the file
  int column = 0;  // 1-based column
  int end_line = 0;
  int end_column = 0;
};

enum class ExprKind {
  Name,
  Constant,
  Attribute,
  Subscript,
  Call,
  BinOp,
  UnaryOp,
  BoolOp,
  Compare,
  IfExp,
  Tuple,
  Slice
};
enum class BinOpKind { Add, Sub, Mult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd, MatMult };
enum class UnaryOpKind { UAdd, USub, Not, Invert };
enum class BoolOpKind { And, Or };
enum class CompareOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char* to_string(BinOpKind op);      // "+", "-", ...
const char* to_string(UnaryOpKind op);    // "-", "not", "~", "+"
const char* to_string(CompareOpKind op);  // "<", "==", "is", ...

struct Expr {
  ExprKind kind;
  SourceLoc loc;
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
};
using ExprPtr = std::unique_ptr<Expr>;

struct Name : Expr {
  std::string id;
  Name() : Expr(ExprKind::Name) {}
};
struct Constant : Expr {
  ir::ConstValue value;
  Constant() : Expr(ExprKind::Constant) {}
};
struct Attribute : Expr {
  ExprPtr value;
  std::string attr;
  Attribute() : Expr(ExprKind::Attribute) {}
};
struct Subscript : Expr {
  ExprPtr value;
  ExprPtr index;  // a Tuple for a[i, j]
  Subscript() : Expr(ExprKind::Subscript) {}
};
struct Keyword {
  std::string name;
  ExprPtr value;
  SourceLoc loc;
};
struct Call : Expr {
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
  // Per positional argument: written `*arg` (a tuple unpacked into arguments;
  // calls of jitted functions only). Empty when there is none.
  std::vector<bool> starred;
  bool is_starred(size_t i) const { return i < starred.size() && starred[i]; }
  Call() : Expr(ExprKind::Call) {}
};
struct BinOp : Expr {
  BinOpKind op;
  ExprPtr left, right;
  BinOp() : Expr(ExprKind::BinOp) {}
};
struct UnaryOp : Expr {
  UnaryOpKind op;
  ExprPtr operand;
  UnaryOp() : Expr(ExprKind::UnaryOp) {}
};
struct BoolOp : Expr {
  BoolOpKind op;
  std::vector<ExprPtr> values;
  BoolOp() : Expr(ExprKind::BoolOp) {}
};
struct Compare : Expr {
  ExprPtr left;
  std::vector<CompareOpKind> ops;
  std::vector<ExprPtr> comparators;
  Compare() : Expr(ExprKind::Compare) {}
};
struct IfExp : Expr {
  ExprPtr test, body, orelse;
  IfExp() : Expr(ExprKind::IfExp) {}
};
struct Tuple : Expr {
  std::vector<ExprPtr> elts;  // also used for list displays: [2, 3]
  bool is_list = false;       // written [..]: refused where numba refuses lists (array shapes)
  Tuple() : Expr(ExprKind::Tuple) {}
};
struct Slice : Expr {
  ExprPtr lower, upper, step;  // each may be null
  Slice() : Expr(ExprKind::Slice) {}
};

enum class StmtKind { Assign, AugAssign, If, While, For, Break, Continue, Return, Pass, ExprStmt, Raise };

struct Stmt {
  StmtKind kind;
  SourceLoc loc;
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct Assign : Stmt {
  std::vector<ExprPtr> targets;  // a = b = v gives two targets; each a Name, Subscript or Tuple of those
  ExprPtr value;
  Assign() : Stmt(StmtKind::Assign) {}
};
struct AugAssign : Stmt {
  ExprPtr target;  // Name or Subscript
  BinOpKind op;
  ExprPtr value;
  AugAssign() : Stmt(StmtKind::AugAssign) {}
};
struct If : Stmt {
  ExprPtr test;
  Body body, orelse;
  If() : Stmt(StmtKind::If) {}
};
struct While : Stmt {
  ExprPtr test;
  Body body;
  While() : Stmt(StmtKind::While) {}
};
struct For : Stmt {
  ExprPtr target;  // a Name (or Tuple of Names)
  ExprPtr iter;    // range(...) call
  Body body;
  For() : Stmt(StmtKind::For) {}
};
struct Break : Stmt {
  Break() : Stmt(StmtKind::Break) {}
};
struct Continue : Stmt {
  Continue() : Stmt(StmtKind::Continue) {}
};
struct Return : Stmt {
  ExprPtr value;  // may be null
  Return() : Stmt(StmtKind::Return) {}
};
struct Pass : Stmt {
  Pass() : Stmt(StmtKind::Pass) {}
};
struct ExprStmt : Stmt {
  ExprPtr value;
  ExprStmt() : Stmt(StmtKind::ExprStmt) {}
};
// `raise E` / `raise E(constant args)`; `assert t, msg` becomes
// `if not t: raise AssertionError(msg)` in the frontend.
struct Raise : Stmt {
  ExprPtr exc;
  Raise() : Stmt(StmtKind::Raise) {}
};

struct Param {
  Param() = default;
  Param(std::string n, SourceLoc l) : name(std::move(n)), loc(l) {}
  std::string name;
  SourceLoc loc;
  // `*name`: the extra positional arguments, as one tuple (always last).
  bool vararg = false;
  // The default value callers may omit this parameter for (a constant).
  std::optional<ir::ConstValue> default_value;
};

struct FunctionDef {
  std::string name;
  std::vector<Param> params;
  Body body;
  SourceLoc loc;
};

}  // namespace cuhost::ast
