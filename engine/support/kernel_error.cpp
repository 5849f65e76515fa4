// The kernel error record's encoding and messages (see kernel_error.h): one
// place for both backends and for calls from the host, so a failure reads
// the same wherever it happened.
#include "support/kernel_error.h"

#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>

#include "support/python_repr.h"

namespace cuhost {
namespace {

// Header fields, each a little-endian 64-bit value.
enum HeaderField : std::size_t {
  kTotal,
  kForm,
  kLine,
  kKeySize,
  kMessageSize,
  kFileSize,
  kFunctionSize,
  kArgsSize,
  kFields
};
constexpr std::size_t kHeaderBytes = kFields * 8;

void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_u64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

bool valid_form(std::uint64_t form) {
  return form >= std::uint64_t(KernelErrorForm::Raise) && form <= std::uint64_t(KernelErrorForm::Index);
}

std::uint64_t bits_of(double d) {
  std::uint64_t v;
  std::memcpy(&v, &d, sizeof v);
  return v;
}

double double_of(std::uint64_t v) {
  double d;
  std::memcpy(&d, &v, sizeof d);
  return d;
}

using ArgKind = KernelErrorArg::Kind;

// An argument: its kind byte, then its value.
void put_arg(std::string& out, const KernelErrorArg& a) {
  out.push_back(static_cast<char>(a.kind));
  switch (a.kind) {
    case ArgKind::None: break;
    case ArgKind::Bool:
    case ArgKind::Int: put_u64(out, static_cast<std::uint64_t>(a.i)); break;
    case ArgKind::UInt: put_u64(out, a.u); break;
    case ArgKind::Float: put_u64(out, bits_of(a.real)); break;
    case ArgKind::Complex:
      put_u64(out, bits_of(a.real));
      put_u64(out, bits_of(a.imag));
      break;
    case ArgKind::String:
    case ArgKind::Bytes:
      put_u64(out, a.text.size());
      out += a.text;
      break;
    case ArgKind::Tuple:
      put_u64(out, a.items.size());
      for (const KernelErrorArg& item : a.items) put_arg(out, item);
      break;
  }
}

// Reads arguments from [p, end); false when the bytes are not arguments.
class ArgReader {
 public:
  ArgReader(const unsigned char* p, const unsigned char* end) : p_(p), end_(end) {}

  bool read_all(std::vector<KernelErrorArg>* args) {
    while (p_ < end_) {
      KernelErrorArg a;
      if (!read(&a, 0)) return false;
      args->push_back(std::move(a));
    }
    return true;
  }

 private:
  bool u64(std::uint64_t* v) {
    if (end_ - p_ < 8) return false;
    *v = get_u64(p_);
    p_ += 8;
    return true;
  }

  bool read(KernelErrorArg* a, int depth) {
    if (p_ >= end_ || depth > 32 || *p_ > static_cast<unsigned char>(ArgKind::Tuple)) return false;
    a->kind = static_cast<ArgKind>(*p_++);
    std::uint64_t v = 0, n = 0;
    switch (a->kind) {
      case ArgKind::None: return true;
      case ArgKind::Bool:
      case ArgKind::Int:
        if (!u64(&v)) return false;
        a->i = static_cast<std::int64_t>(v);
        return true;
      case ArgKind::UInt: return u64(&a->u);
      case ArgKind::Float:
        if (!u64(&v)) return false;
        a->real = double_of(v);
        return true;
      case ArgKind::Complex:
        if (!u64(&v)) return false;
        a->real = double_of(v);
        if (!u64(&v)) return false;
        a->imag = double_of(v);
        return true;
      case ArgKind::String:
      case ArgKind::Bytes:
        if (!u64(&n) || n > static_cast<std::uint64_t>(end_ - p_)) return false;
        a->text.assign(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return true;
      case ArgKind::Tuple:
        if (!u64(&n) || n > static_cast<std::uint64_t>(end_ - p_)) return false;
        a->items.resize(n);
        for (KernelErrorArg& item : a->items)
          if (!read(&item, depth + 1)) return false;
        return true;
    }
    return false;
  }

  const unsigned char* p_;
  const unsigned char* end_;
};

std::string bytes_repr(const std::string& text) {
  std::string out = "b'";
  for (unsigned char ch : text) {
    if (ch == '\'' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch >= 0x20 && ch < 0x7f) {
      out += static_cast<char>(ch);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
  }
  return out + "'";
}

// repr(str): single quotes unless the text holds a single quote and no
// double quote, as Python chooses.
std::string string_repr(const std::string& text) {
  const bool double_quotes = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  std::string out(1, quote);
  for (char ch : text) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (ch == quote) out += '\\';
        out += ch;
    }
  }
  return out + quote;
}

std::string complex_part(double v) {
  // Python writes integral parts of a complex without ".0": (1+2j).
  std::string s = python_float_repr(v);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

}  // namespace

KernelErrorArg KernelErrorArg::string(std::string text) {
  KernelErrorArg a;
  a.kind = Kind::String;
  a.text = std::move(text);
  return a;
}

std::string python_repr(const KernelErrorArg& a) {
  switch (a.kind) {
    case ArgKind::None: return "None";
    case ArgKind::Bool: return a.i ? "True" : "False";
    case ArgKind::Int: return std::to_string(a.i);
    case ArgKind::UInt: return std::to_string(a.u);
    case ArgKind::Float: return python_float_repr(a.real);
    case ArgKind::Complex: {
      std::string imag = complex_part(a.imag);
      if (a.real == 0 && !std::signbit(a.real)) return imag + "j";
      return concat("(", complex_part(a.real), imag[0] == '-' ? "" : "+", imag, "j)");
    }
    case ArgKind::String: return string_repr(a.text);
    case ArgKind::Bytes: return bytes_repr(a.text);
    case ArgKind::Tuple: {
      std::string out = "(";
      for (size_t k = 0; k < a.items.size(); ++k) out += (k ? ", " : "") + python_repr(a.items[k]);
      if (a.items.size() == 1) out += ",";
      return out + ")";
    }
  }
  return "?";
}

std::string python_str(const KernelErrorArg& a) { return a.kind == ArgKind::String ? a.text : python_repr(a); }

std::string encode_site(const KernelErrorSite& site) {
  const std::string* strings[] = {&site.class_key, &site.message, &site.file, &site.function};
  std::string args;
  for (const KernelErrorArg& a : site.args) put_arg(args, a);
  std::uint64_t total = kHeaderBytes + args.size();
  for (const std::string* s : strings) total += s->size();
  std::string out;
  out.reserve(total);
  put_u64(out, total);
  put_u64(out, static_cast<std::uint64_t>(site.form));
  put_u64(out, static_cast<std::uint64_t>(site.line));
  for (const std::string* s : strings) put_u64(out, s->size());
  put_u64(out, args.size());
  for (const std::string* s : strings) out += *s;
  out += args;
  return out;
}

bool decode_site(const void* bytes, std::size_t size, KernelErrorSite* site) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  if (!p || size < kHeaderBytes) return false;
  std::uint64_t header[kFields];
  for (std::size_t i = 0; i < kFields; ++i) header[i] = get_u64(p + 8 * i);
  if (header[kTotal] > size || header[kTotal] < kHeaderBytes || !valid_form(header[kForm])) return false;
  std::uint64_t strings = 0;
  for (std::size_t i = kKeySize; i <= kArgsSize; ++i) {
    if (header[i] > header[kTotal]) return false;
    strings += header[i];
  }
  if (strings != header[kTotal] - kHeaderBytes) return false;
  const char* text = reinterpret_cast<const char*>(p + kHeaderBytes);
  auto take = [&](std::size_t field, std::string* out) {
    out->assign(text, header[field]);
    text += header[field];
  };
  site->form = static_cast<KernelErrorForm>(header[kForm]);
  site->line = static_cast<std::int64_t>(header[kLine]);
  take(kKeySize, &site->class_key);
  take(kMessageSize, &site->message);
  take(kFileSize, &site->file);
  take(kFunctionSize, &site->function);
  site->args.clear();
  const auto* args = reinterpret_cast<const unsigned char*>(text);
  return ArgReader(args, args + header[kArgsSize]).read_all(&site->args);
}

bool decode_site(const void* bytes, KernelErrorSite* site) {
  if (!bytes) return false;
  const std::uint64_t total = get_u64(static_cast<const unsigned char*>(bytes));
  return decode_site(bytes, static_cast<std::size_t>(total), site);
}

std::string thread_place(const std::int64_t tid[3], const std::int64_t bid[3]) {
  return concat("thread (", tid[0], ",", tid[1], ",", tid[2], "), block (", bid[0], ",", bid[1], ",", bid[2], ")");
}

std::string builtin_class_name(const std::string& class_key) {
  static constexpr std::string_view kBuiltins = "builtins.";
  if (class_key.size() <= kBuiltins.size() || class_key.compare(0, kBuiltins.size(), kBuiltins) != 0) return "";
  return class_key.substr(kBuiltins.size());
}

std::string kernel_error_message(const KernelErrorReport& r) {
  const KernelErrorSite& s = r.site;
  switch (s.form) {
    case KernelErrorForm::Raise: {
      if (!r.in_launch) return s.message;
      // numba-cuda's message: the raise's location, then the thread's.
      return concat("In function '", s.function, "', file ", s.file, ", line ", s.line, ", tid=[", r.tid[0], ", ",
                    r.tid[1], ", ", r.tid[2], "] ctaid=[", r.bid[0], ", ", r.bid[1], ", ", r.bid[2], "]",
                    s.message.empty() ? "" : ": ", s.message);
    }
    case KernelErrorForm::Index:
      if (!r.in_launch)
        return concat("index ", r.code, " is out of bounds for axis ", r.dim, " with size ", r.extent, " (array '",
                      s.message, "' in '", r.kernel, "')");
      return concat("index ", r.code, " is out of bounds for axis ", r.dim, " with size ", r.extent, " (array '",
                    s.message, "' in kernel '", r.kernel, "', ", thread_place(r.tid, r.bid), ")");
    case KernelErrorForm::Check:
    case KernelErrorForm::Fault: {
      const std::string builtin = s.form == KernelErrorForm::Check ? builtin_class_name(s.class_key) : "";
      if (!r.in_launch) {
        if (s.form == KernelErrorForm::Check || !s.class_key.empty()) return s.message;
        return concat("error in '", r.kernel, "': ", s.message, " (code ", r.code, ")");
      }
      return concat("error in kernel '", r.kernel, "': ", builtin, builtin.empty() ? "" : ": ", s.message, " (code ",
                    r.code, ", ", thread_place(r.tid, r.bid), ")");
    }
  }
  return s.message;
}

ErrorKind kernel_error_kind(const KernelErrorReport& report) {
  return report.site.form == KernelErrorForm::Index ? ErrorKind::IndexError : ErrorKind::KernelError;
}

KernelErrorRaised::KernelErrorRaised(KernelErrorReport report)
    : UserError(kernel_error_kind(report), kernel_error_message(report)), report_(std::move(report)) {}

}  // namespace cuhost
