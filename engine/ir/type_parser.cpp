// A small recursive-descent parser for numba's type and signature spellings:
// the decorator syntax ("float32[:, ::1]", "UniTuple(int64, 2)") and the
// canonical names the Python type objects carry ("array(float32, 1d, C)",
// "readonly array(...)", "UniTuple(int64 x 2)"). Used by cuda.jit signatures,
// declare_device and the frontend's freezing of type objects.
#include "ir/type_parser.h"

#include <cctype>

#include "ir/extension_types.h"
#include "ir/records.h"
#include "ir/vector_types.h"
#include "support/diagnostics.h"

namespace cuhost::ir {

namespace {

struct Token {
  enum Kind { Ident, Number, Punct, Extension, End } kind;
  std::string text;
  size_t pos;
};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) { tokenize(); }

  const Type* type() {
    bool unaligned = false, readonly = false;
    if (peek().kind == Token::Ident && peek().text == "unaligned") {
      next();
      unaligned = true;
    }
    if (peek().kind == Token::Ident && peek().text == "readonly") {
      next();
      readonly = true;
    }
    const Type* t = primary(readonly);
    if (unaligned) {
      if (t->kind != TypeKind::Array) syntax_error();
      t = array(t->dtype, t->ndim, t->layout, t->readonly, true);
    }
    while (is_punct("[")) t = array_suffix(t);
    return t;
  }

  Signature signature() {
    Signature sig;
    if (is_punct("(")) {
      sig.args = arg_list();
      return sig;
    }
    const Type* first = type();
    if (is_punct("(")) {
      sig.return_type = first;
      sig.args = arg_list();
      return sig;
    }
    // A bare argument list "a, b, c".
    sig.args.push_back(first);
    while (is_punct(",")) {
      next();
      sig.args.push_back(type());
    }
    return sig;
  }

  void expect_end() {
    if (peek().kind != Token::End) syntax_error();
  }

  [[noreturn]] void syntax_error() const {
    throw UserError(ErrorKind::SyntaxError, concat("invalid type syntax: '", text_, "'"));
  }

 private:
  void tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::string ext = extension_spelling_at(text_, i); !ext.empty()) {
        // An extension type's spelling may hold any characters ("MyType(float32)").
        tokens_.push_back({Token::Extension, ext, i});
        i += ext.size();
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_' || text_[j] == '.'))
          ++j;
        tokens_.push_back({Token::Ident, text_.substr(i, j - i), i});
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t j = i;
        while (j < text_.size() && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        tokens_.push_back({Token::Number, text_.substr(i, j - i), i});
        i = j;
      } else if (std::string("()[],:=;").find(c) != std::string::npos) {
        tokens_.push_back({Token::Punct, std::string(1, c), i});
        ++i;
      } else {
        syntax_error();
      }
    }
    tokens_.push_back({Token::End, "", text_.size()});
  }

  const Token& peek(size_t ahead = 0) const {
    size_t k = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[k];
  }
  const Token& next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool is_punct(const char* p) const { return peek().kind == Token::Punct && peek().text == p; }
  void expect(const char* p) {
    if (!is_punct(p)) syntax_error();
    next();
  }
  std::string ident() {
    if (peek().kind != Token::Ident) syntax_error();
    return next().text;
  }
  long number() {
    if (peek().kind != Token::Number) syntax_error();
    return std::stol(next().text);
  }

  std::vector<const Type*> arg_list() {
    expect("(");
    std::vector<const Type*> args;
    if (!is_punct(")")) {
      args.push_back(type());
      while (is_punct(",")) {
        next();
        if (is_punct(")")) break;  // a trailing comma, as in Python's "(float32,)"
        args.push_back(type());
      }
    }
    expect(")");
    return args;
  }

  static std::string strip_module(const std::string& name) {
    // "types.float32", "numba.float32", "np.float32" -> "float32"
    size_t dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
  }

  const Type* primary(bool readonly) {
    if (peek().kind == Token::Extension) {
      if (readonly) syntax_error();
      return extension_type_named(next().text);
    }
    // Fixed-width strings: "[char x 12]" (NumPy S12), "[unichr x 12]" (U12).
    if (is_punct("[") && peek(1).kind == Token::Ident && (peek(1).text == "char" || peek(1).text == "unichr")) {
      next();
      bool unicode = ident() == "unichr";
      if (peek().kind != Token::Ident || peek().text != "x") syntax_error();
      next();
      long n = number();
      expect("]");
      if (readonly || n <= 0) syntax_error();
      return char_seq(static_cast<int>(n), unicode);
    }
    std::string name = strip_module(ident());
    // datetime64[D], timedelta64[ns]: a unit in brackets (not an array suffix).
    if ((name == "datetime64" || name == "timedelta64") && is_punct("[") && peek(1).kind == Token::Ident &&
        peek(2).kind == Token::Punct && peek(2).text == "]") {
      next();
      std::string unit = ident();
      expect("]");
      const Type* t = name == "datetime64" ? datetime64(unit) : timedelta64(unit);
      if (!t) throw UserError(ErrorKind::ValueError, concat("unknown datetime unit '", unit, "'"));
      if (readonly) syntax_error();
      return t;
    }
    if (name == "array" && is_punct("(")) {
      next();
      const Type* dtype = type();
      expect(",");
      long ndim = number();
      if (peek().kind != Token::Ident || peek().text != "d") syntax_error();
      next();
      expect(",");
      std::string layout = ident();
      expect(")");
      Layout l;
      if (layout == "C")
        l = Layout::C;
      else if (layout == "F")
        l = Layout::F;
      else if (layout == "A")
        l = Layout::A;
      else
        syntax_error();
      if (!is_array_dtype(dtype)) syntax_error();
      return array(dtype, static_cast<int>(ndim), l, readonly);
    }
    if (readonly) syntax_error();
    if (name == "Record" && is_punct("(")) return record_spelling();
    if (name == "nestedarray" && is_punct("(")) return nested_spelling();
    if (name == "class" && is_punct("(")) {  // a scalar type as a value (numba's NumberClass)
      next();
      const Type* instance = type();
      expect(")");
      return type_ref(instance);
    }
    if (name == "UniTuple" && is_punct("(")) {
      next();
      const Type* elem = type();
      if (peek().kind == Token::Ident && peek().text == "x") {
        next();
      } else {
        expect(",");
      }
      long n = number();
      expect(")");
      return tuple(std::vector<const Type*>(static_cast<size_t>(n), elem));
    }
    if (name == "Tuple" && is_punct("(")) {
      next();
      std::vector<const Type*> elems;
      // Tuple((a, b)) and Tuple(a, b) both read as the same tuple.
      bool nested = is_punct("(");
      if (nested) next();
      if (!is_punct(")")) {
        elems.push_back(type());
        while (is_punct(",")) {
          next();
          if (is_punct(")")) break;
          elems.push_back(type());
        }
      }
      expect(")");
      if (nested) expect(")");
      return tuple(elems);
    }
    if (name == "CPointer" && is_punct("(")) {
      next();
      const Type* p = type();
      expect(")");
      return cpointer(p);
    }
    if ((name == "OptionalType" || name == "Optional") && is_punct("(")) {
      next();
      const Type* p = type();
      expect(")");
      return optional(p);
    }
    if (name == "voidptr") return cpointer(void_type());  // numba's types.voidptr, "void*"
    const Type* t = scalar_by_name(name);
    if (!t) t = vector_type_by_name(name);
    if (!t) {
      if (name == "UniTuple" || name == "Tuple" || name == "CPointer" || name == "OptionalType" || name == "Optional" ||
          name == "array")
        syntax_error();
      throw UserError(ErrorKind::NameError, concat("name '", name, "' is not defined"));
    }
    return t;
  }

  // numba's Record spelling: "Record(a[type=float64;offset=0],...;SIZE;True)".
  const Type* record_spelling() {
    expect("(");
    std::vector<RecordField> fields;
    while (peek().kind == Token::Ident) {
      RecordField f;
      f.name = ident();
      expect("[");
      if (ident() != "type") syntax_error();
      expect("=");
      f.type = type();
      expect(";");
      if (ident() != "offset") syntax_error();
      expect("=");
      f.offset = number();
      expect("]");
      fields.push_back(f);
      if (is_punct(",")) next();
    }
    expect(";");
    long size = number();
    expect(";");
    std::string aligned = ident();
    if (aligned != "True" && aligned != "False") syntax_error();
    expect(")");
    return record(std::move(fields), size, aligned == "True");
  }

  // "nestedarray(float32, (3, 2))".
  const Type* nested_spelling() {
    expect("(");
    const Type* dtype = type();
    expect(",");
    expect("(");
    std::vector<std::int64_t> shape;
    while (peek().kind == Token::Number) {
      shape.push_back(number());
      if (is_punct(",")) next();
    }
    expect(")");
    expect(")");
    if (shape.empty() || !is_array_dtype(dtype)) syntax_error();
    return nested_array(dtype, shape);
  }

  // "[:]", "[::1]", "[:, ::1]" (C), "[::1, :]" (F), "[:, :]" (A).
  const Type* array_suffix(const Type* dtype) {
    if (!is_array_dtype(dtype)) syntax_error();
    expect("[");
    std::vector<bool> unit_step;
    for (;;) {
      expect(":");
      bool unit = false;
      if (is_punct(":")) {
        next();
        if (peek().kind == Token::Number) {
          if (number() != 1) syntax_error();
          unit = true;
        }
      }
      unit_step.push_back(unit);
      if (is_punct(",")) {
        next();
        continue;
      }
      break;
    }
    expect("]");
    size_t n = unit_step.size();
    int units = 0;
    for (bool u : unit_step) units += u;
    Layout layout = Layout::A;
    if (units == 1 && unit_step[n - 1])
      layout = Layout::C;
    else if (units == 1 && unit_step[0])
      layout = Layout::F;
    else if (units > 1)
      syntax_error();
    return array(dtype, static_cast<int>(n), layout);
  }

  std::string text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace

const Type* parse_type(const std::string& text) {
  Parser p(text);
  const Type* t = p.type();
  p.expect_end();
  return t;
}

Signature parse_signature(const std::string& text) {
  Parser p(text);
  Signature sig = p.signature();
  p.expect_end();
  return sig;
}

}  // namespace cuhost::ir
