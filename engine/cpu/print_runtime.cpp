// The CPU backend's printf (cpu/print_output.h): a small vprintf that walks
// the format, reads each argument from the packed buffer at its natural
// alignment and formats it with the C library, so the text matches what
// CUDA's device printf produces for the same format.
#include <cstdio>
#include <cstring>
#include <mutex>

#include "cpu/print_output.h"
#include "model/cpu_abi.h"

namespace cuhost::cpu {
namespace {

std::mutex& output_mutex() {
  static std::mutex m;
  return m;
}
std::string& output() {
  static std::string s;
  return s;
}

template <typename T>
T read_arg(const unsigned char* base, std::size_t& offset) {
  offset = (offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  T v;
  std::memcpy(&v, base + offset, sizeof(T));
  offset += sizeof(T);
  return v;
}

}  // namespace

std::string format_vprintf(const char* format, const void* args) {
  std::string out;
  const auto* base = static_cast<const unsigned char*>(args);
  std::size_t offset = 0;
  char buf[512];
  for (const char* p = format; *p; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    // One conversion: flags, width, precision and length, then the letter.
    const char* start = p++;
    while (*p && std::strchr("-+ #0123456789.", *p)) ++p;
    int longs = 0;
    while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 'j' || *p == 't') {
      if (*p == 'l' || *p == 'z' || *p == 'j' || *p == 't') ++longs;
      ++p;
    }
    if (!*p) {
      out.append(start);
      break;
    }
    std::string spec(start, std::size_t(p - start + 1));
    char conv = *p;
    int n = 0;
    if (!base && conv != '%') {
      out += spec;  // no arguments: print the conversion as written
      continue;
    }
    switch (conv) {
      case 'd':
      case 'i':
        n = longs ? std::snprintf(buf, sizeof buf, spec.c_str(), read_arg<long long>(base, offset))
                  : std::snprintf(buf, sizeof buf, spec.c_str(), read_arg<int>(base, offset));
        break;
      case 'u':
      case 'o':
      case 'x':
      case 'X':
      case 'c':
        n = longs ? std::snprintf(buf, sizeof buf, spec.c_str(), read_arg<unsigned long long>(base, offset))
                  : std::snprintf(buf, sizeof buf, spec.c_str(), read_arg<unsigned>(base, offset));
        break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': n = std::snprintf(buf, sizeof buf, spec.c_str(), read_arg<double>(base, offset)); break;
      case 's': {
        const char* s = read_arg<const char*>(base, offset);
        out += s ? s : "(null)";
        continue;
      }
      case 'p': n = std::snprintf(buf, sizeof buf, "%p", read_arg<void*>(base, offset)); break;
      default: out += spec; continue;
    }
    if (n > 0) out.append(buf, std::size_t(n) < sizeof buf ? std::size_t(n) : sizeof buf - 1);
  }
  return out;
}

std::string take_printed_output() {
  std::lock_guard<std::mutex> lock(output_mutex());
  std::string s;
  s.swap(output());
  return s;
}

}  // namespace cuhost::cpu

extern "C" std::int32_t cuhost_cpu_vprintf(const char* format, const void* args) {
  try {
    std::string line = cuhost::cpu::format_vprintf(format ? format : "", args);
    std::lock_guard<std::mutex> lock(cuhost::cpu::output_mutex());
    cuhost::cpu::output() += line;
    return static_cast<std::int32_t>(line.size());
  } catch (...) {
    return -1;
  }
}
