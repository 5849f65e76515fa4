// The kernel error record's encoding and messages (see kernel_error.h): one
// place for both backends and for calls from the host, so a failure reads
// the same wherever it happened.
#include "support/kernel_error.h"

#include <string_view>
#include <utility>

namespace cuhost {
namespace {

// Header fields, each a little-endian 64-bit value.
enum HeaderField : std::size_t { kTotal, kForm, kLine, kKeySize, kMessageSize, kFileSize, kFunctionSize, kFields };
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

}  // namespace

std::string encode_site(const KernelErrorSite& site) {
  const std::string* strings[] = {&site.class_key, &site.message, &site.file, &site.function};
  std::uint64_t total = kHeaderBytes;
  for (const std::string* s : strings) total += s->size();
  std::string out;
  out.reserve(total);
  put_u64(out, total);
  put_u64(out, static_cast<std::uint64_t>(site.form));
  put_u64(out, static_cast<std::uint64_t>(site.line));
  for (const std::string* s : strings) put_u64(out, s->size());
  for (const std::string* s : strings) out += *s;
  return out;
}

bool decode_site(const void* bytes, std::size_t size, KernelErrorSite* site) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  if (!p || size < kHeaderBytes) return false;
  std::uint64_t header[kFields];
  for (std::size_t i = 0; i < kFields; ++i) header[i] = get_u64(p + 8 * i);
  if (header[kTotal] > size || !valid_form(header[kForm])) return false;
  std::uint64_t strings = 0;
  for (std::size_t i = kKeySize; i <= kFunctionSize; ++i) strings += header[i];
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
  return true;
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
