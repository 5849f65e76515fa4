// Kernel errors as data. What a thread reports when it fails (a `raise`, an
// `assert`, a failed check, an index out of bounds) is described at compile
// time by a KernelErrorSite, stored in the module (a GPU site global, a CPU
// constant) as the bytes of encode_site(); the device or CPU error record
// names the site and adds the value and the thread's position, giving a
// KernelErrorReport on the host; python/kernel_error_raise.cpp raises the
// Python exception numba-cuda gives for it. Nothing on the way is parsed
// from message text: each field travels as itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace cuhost {

// How the host raises a report (numba-cuda's choice for each kind of failure).
enum class KernelErrorForm : std::uint32_t {
  // `raise`/`assert`, and the checks numba-cuda reports as raises (a division
  // by zero, a tuple index): the exception class itself; in a launch the
  // message is numba-cuda's "In function 'f', file F, line N, tid=[..]
  // ctaid=[..]: <first argument>", in a host call the first argument alone.
  Raise = 1,
  // A failed check named after a built-in class (ValueError): in a launch a
  // cuda.KernelError that is also that class, "error in kernel 'k':
  // ValueError: <message> (code C, thread (..), block (..))"; in a host call
  // the built-in class with the message.
  Check,
  // Anything else a kernel reports (a foreign function's error status, None
  // where a value is needed): cuda.KernelError in a launch; in a host call
  // the class of class_key when set (numba raises TypeError for a None),
  // else RuntimeError "error in 'f': <message> (code C)".
  Fault,
  // An index out of bounds: IndexError naming the index, axis, size, array
  // (the site's message) and the kernel or function.
  Index,
};

// One argument of a raised exception: a compile-time constant kept with its
// Python type, so the host raises the class with the same values numba does
// (`raise ValueError("a", 2)` gives args ('a', 2); `ValueError(0.1)` the
// float 0.1, not its text).
struct KernelErrorArg {
  enum class Kind : std::uint8_t { None, Bool, Int, UInt, Float, Complex, String, Bytes, Tuple };
  Kind kind = Kind::None;
  std::int64_t i = 0;                 // Bool (0 or 1), Int
  std::uint64_t u = 0;                // UInt
  double real = 0, imag = 0;          // Float (real), Complex
  std::string text;                   // String, Bytes
  std::vector<KernelErrorArg> items;  // Tuple

  static KernelErrorArg string(std::string text);
  bool operator==(const KernelErrorArg& o) const {
    return kind == o.kind && i == o.i && u == o.u && real == o.real && imag == o.imag && text == o.text &&
           items == o.items;
  }
};

// str(value) and repr(value) as Python spells them.
std::string python_str(const KernelErrorArg& value);
std::string python_repr(const KernelErrorArg& value);

// What the compiler knows of a report site.
struct KernelErrorSite {
  KernelErrorForm form = KernelErrorForm::Fault;
  std::string class_key;  // "exception.<id>" or "builtins.<Name>" (frontend/exception_classes.h); may be empty
  std::string message;    // Raise: str() of the first argument; Check, Fault: the problem; Index: the array's name
  std::vector<KernelErrorArg> args;  // Raise: the exception's arguments (empty for a bare class)
  // Raise: the source location numba-cuda's message names.
  std::string file;
  std::int64_t line = 0;
  std::string function;

  bool operator==(const KernelErrorSite& o) const {
    return form == o.form && class_key == o.class_key && message == o.message && args == o.args && file == o.file &&
           line == o.line && function == o.function;
  }
};

// The site's bytes as stored in a module: a fixed header of little-endian
// 64-bit fields (total size, form, line, then the length of each string and
// of the arguments) followed by the strings and the arguments (each a kind
// byte and its value; strings and tuples length-prefixed), so that a reader
// needs no separator.
std::string encode_site(const KernelErrorSite& site);
// Reads a site back from `size` bytes; false when they are not a site.
bool decode_site(const void* bytes, std::size_t size, KernelErrorSite* site);
// Reads a site from memory of this process holding encode_site()'s bytes
// (the CPU backend's constants), whose header gives their size.
bool decode_site(const void* bytes, KernelErrorSite* site);

// A failure as the host sees it.
struct KernelErrorReport {
  KernelErrorSite site;
  std::string kernel;       // the kernel launched, or the function called from the host
  bool in_launch = true;    // false: a call from the host (numba.njit), which has no thread position
  std::int64_t code = 0;    // the status code; Index: the index
  std::int64_t dim = 0;     // Index: the axis
  std::int64_t extent = 0;  // Index: the axis' size
  std::int64_t tid[3] = {0, 0, 0};
  std::int64_t bid[3] = {0, 0, 0};
};

// "thread (x,y,z), block (x,y,z)"
std::string thread_place(const std::int64_t tid[3], const std::int64_t bid[3]);
// The message of the Python exception for `report` (see KernelErrorForm).
std::string kernel_error_message(const KernelErrorReport& report);
// The C++ class of the error: IndexError for Index, KernelError otherwise.
ErrorKind kernel_error_kind(const KernelErrorReport& report);
// The built-in class a Check names ("ValueError" of "builtins.ValueError"),
// or "" when the key is not a built-in's.
std::string builtin_class_name(const std::string& class_key);

// A launch's kernel error thrown to the host (what() is the message), so
// that python/errors.cpp raises it from the report, not from its text.
class KernelErrorRaised : public UserError {
 public:
  explicit KernelErrorRaised(KernelErrorReport report);
  const KernelErrorReport& report() const { return report_; }

 private:
  KernelErrorReport report_;
};

}  // namespace cuhost
