// The small JSON reader and writer of the export manifest (manifest.json).
// The aot runtime may link nothing but the C++ standard library, so it
// carries its own: objects keep their keys' order, numbers are doubles
// (every integer the manifest holds fits in 53 bits).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cuhost::aot {

class Json {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Json() = default;
  Json(bool b) : kind_(Kind::Bool), bool_(b) {}                        // NOLINT: a JSON literal reads as its value
  Json(double n) : kind_(Kind::Number), number_(n) {}                  // NOLINT
  Json(long long n) : Json(static_cast<double>(n)) {}                  // NOLINT
  Json(int n) : Json(static_cast<double>(n)) {}                        // NOLINT
  Json(unsigned long n) : Json(static_cast<double>(n)) {}              // NOLINT
  Json(unsigned n) : Json(static_cast<double>(n)) {}                   // NOLINT
  Json(std::string s) : kind_(Kind::String), string_(std::move(s)) {}  // NOLINT
  Json(const char* s) : Json(std::string(s)) {}                        // NOLINT
  static Json array() { return Json(Kind::Array); }
  static Json object() { return Json(Kind::Object); }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  // Typed reads; each throws std::runtime_error naming `what` when the value has another kind.
  bool as_bool(const std::string& what) const;
  double as_number(const std::string& what) const;
  long long as_int(const std::string& what) const;
  const std::string& as_string(const std::string& what) const;
  const std::vector<Json>& items(const std::string& what) const;
  const std::vector<std::pair<std::string, Json>>& members(const std::string& what) const;
  // An object's member; null Json when absent (or when this is not an object).
  const Json& operator[](const std::string& key) const;

  // Building.
  Json& push(Json value);                         // arrays
  Json& set(const std::string& key, Json value);  // objects: replaces or appends

  // Compact text with two-space indentation per level.
  std::string dump(int indent = 0) const;
  // Throws std::runtime_error with the byte offset of the first error.
  static Json parse(const std::string& text);

 private:
  explicit Json(Kind k) : kind_(k) {}
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

}  // namespace cuhost::aot
