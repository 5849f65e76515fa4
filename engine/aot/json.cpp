// JSON reading and writing for the manifest (see json.h).
#include "aot/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace cuhost::aot {
namespace {

const char* kind_name(Json::Kind k) {
  switch (k) {
    case Json::Kind::Null: return "null";
    case Json::Kind::Bool: return "a boolean";
    case Json::Kind::Number: return "a number";
    case Json::Kind::String: return "a string";
    case Json::Kind::Array: return "an array";
    case Json::Kind::Object: return "an object";
  }
  return "?";
}

[[noreturn]] void wrong_kind(const std::string& what, Json::Kind want, Json::Kind got) {
  throw std::runtime_error(what + " must be " + kind_name(want) + ", not " + kind_name(got));
}

void quote(std::string& out, const std::string& s) {
  out.push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}
  Json document() {
    Json v = value();
    space();
    if (i_ != s_.size()) fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("invalid JSON at byte " + std::to_string(i_) + ": " + why);
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool take(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    std::size_t n = std::char_traits<char>::length(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return out;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': {
          if (i_ + 4 > s_.size()) fail("short \\u escape");
          unsigned code = static_cast<unsigned>(std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16));
          i_ += 4;
          if (code < 0x80) {
            out.push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out.push_back(static_cast<char>(0xc0 | (code >> 6)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
          } else {
            out.push_back(static_cast<char>(0xe0 | (code >> 12)));
            out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
            out.push_back(static_cast<char>(0x80 | (code & 0x3f)));
          }
          break;
        }
        default: out.push_back(e);
      }
    }
  }
  Json value() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    char c = s_[i_];
    if (c == '{') {
      ++i_;
      Json obj = Json::object();
      if (take('}')) return obj;
      do {
        space();
        std::string key = string();
        expect(':');
        obj.set(key, value());
      } while (take(','));
      expect('}');
      return obj;
    }
    if (c == '[') {
      ++i_;
      Json arr = Json::array();
      if (take(']')) return arr;
      do arr.push(value());
      while (take(','));
      expect(']');
      return arr;
    }
    if (c == '"') return Json(string());
    if (word("true")) return Json(true);
    if (word("false")) return Json(false);
    if (word("null")) return Json();
    const char* start = s_.c_str() + i_;
    char* end = nullptr;
    double n = std::strtod(start, &end);
    if (end == start) fail("unexpected character");
    i_ += static_cast<std::size_t>(end - start);
    return Json(n);
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

void write(std::string& out, const Json& v, int indent, int depth) {
  auto newline = [&](int d) {
    if (!indent) return;
    out.push_back('\n');
    out.append(static_cast<std::size_t>(indent * d), ' ');
  };
  switch (v.kind()) {
    case Json::Kind::Null: out += "null"; break;
    case Json::Kind::Bool: out += v.as_bool("") ? "true" : "false"; break;
    case Json::Kind::Number: {
      double n = v.as_number("");
      char buf[32];
      if (std::floor(n) == n && std::fabs(n) < 9.0e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(n));
      else
        std::snprintf(buf, sizeof buf, "%.17g", n);
      out += buf;
      break;
    }
    case Json::Kind::String: quote(out, v.as_string("")); break;
    case Json::Kind::Array: {
      const auto& items = v.items("");
      out.push_back('[');
      for (std::size_t k = 0; k < items.size(); ++k) {
        if (k) out.push_back(',');
        newline(depth + 1);
        write(out, items[k], indent, depth + 1);
      }
      if (!items.empty()) newline(depth);
      out.push_back(']');
      break;
    }
    case Json::Kind::Object: {
      const auto& members = v.members("");
      out.push_back('{');
      for (std::size_t k = 0; k < members.size(); ++k) {
        if (k) out.push_back(',');
        newline(depth + 1);
        quote(out, members[k].first);
        out += indent ? ": " : ":";
        write(out, members[k].second, indent, depth + 1);
      }
      if (!members.empty()) newline(depth);
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

bool Json::as_bool(const std::string& what) const {
  if (kind_ != Kind::Bool) wrong_kind(what, Kind::Bool, kind_);
  return bool_;
}
double Json::as_number(const std::string& what) const {
  if (kind_ != Kind::Number) wrong_kind(what, Kind::Number, kind_);
  return number_;
}
long long Json::as_int(const std::string& what) const {
  double n = as_number(what);
  if (std::floor(n) != n) throw std::runtime_error(what + " must be an integer");
  return static_cast<long long>(n);
}
const std::string& Json::as_string(const std::string& what) const {
  if (kind_ != Kind::String) wrong_kind(what, Kind::String, kind_);
  return string_;
}
const std::vector<Json>& Json::items(const std::string& what) const {
  if (kind_ != Kind::Array) wrong_kind(what, Kind::Array, kind_);
  return items_;
}
const std::vector<std::pair<std::string, Json>>& Json::members(const std::string& what) const {
  if (kind_ != Kind::Object) wrong_kind(what, Kind::Object, kind_);
  return members_;
}
const Json& Json::operator[](const std::string& key) const {
  static const Json null;
  for (const auto& m : members_)
    if (m.first == key) return m.second;
  return null;
}
Json& Json::push(Json value) {
  items_.push_back(std::move(value));
  return items_.back();
}
Json& Json::set(const std::string& key, Json value) {
  for (auto& m : members_)
    if (m.first == key) return m.second = std::move(value);
  members_.emplace_back(key, std::move(value));
  return members_.back().second;
}
std::string Json::dump(int indent) const {
  std::string out;
  write(out, *this, indent, 0);
  return out;
}
Json Json::parse(const std::string& text) { return Parser(text).document(); }

}  // namespace cuhost::aot
