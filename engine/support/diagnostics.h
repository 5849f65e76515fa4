// The two check channels of the engine. User errors (a bad script, signature,
// foreign file, manifest or launch) become Python exceptions of a named class
// carrying the source location and a caret under the offending column.
// Internal errors name the C++ file, line and failed condition. Messages are
// built only on failure.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuhost {

// The Python exception class a user error turns into. The translation point
// (python/errors.cpp) maps each to cuda.<Name> (TypingError derives from
// Exception; the builtin ones map to Python's builtins).
enum class ErrorKind {
  TypingError,          // cuda.TypingError (numba.core.errors.TypingError)
  UnsupportedError,     // cuda.UnsupportedError (a construct the language rejects)
  NameError,            // builtins.NameError
  TypeError,            // builtins.TypeError
  ValueError,           // builtins.ValueError
  IndexError,           // builtins.IndexError
  SyntaxError,          // builtins.SyntaxError
  NotImplementedError,  // builtins.NotImplementedError
  FileNotFoundError,    // builtins.FileNotFoundError
  RuntimeError,         // builtins.RuntimeError
  CompileError,         // cuda.CompileError (LLVM/NVPTX failures on valid input)
  NvrtcError,           // cuda.NvrtcError (carries the NVRTC log)
  LinkerError,          // cuda.LinkerError (carries the nvJitLink log)
  LinkFileNotFound,     // cuda.LinkFileNotFoundError: a LinkerError and a FileNotFoundError (a missing link file)
  CudaAPIError,         // cuda.CudaAPIError (names the driver function and error)
  CudaSupportError,     // cuda.CudaSupportError (no driver / no device)
  KernelError,          // cuda.KernelError (a fault or trap inside a kernel)
  PluginError,          // cuda.PluginError
  NcclError,            // cuhost.nccl.NcclError (a collective library call failed: NCCL, or MPI on the CPU)
  PicklingError,        // pickle.PicklingError (what cannot go into the on-disk cache)
  GraphCaptureError,    // cuda.GraphCaptureError (an operation a graph capture cannot record)
  LoweringError,        // numba.core.errors.LoweringError (extension-API code generation failed)
};

const char* error_kind_name(ErrorKind kind);

// Why an error was raised, where a caller decides on it rather than on the
// message's words: compile_ptx() turns the TypingError of a kernel that
// returns a value into numba-cuda's TypeError.
enum class ErrorCause { Unspecified, KernelReturnsValue };

// Where in a Python source file an error points.
struct SourceLocation {
  std::string file;
  int line = 0;             // 1-based; 0 = unknown
  int column = 0;           // 1-based; 0 = unknown
  std::string source_line;  // the text of that line, for the caret display
};

// A user-facing error. what() is the full message: a header naming the
// function and location, the source line with a caret, the plain-words
// problem, then stacked context notes ("while resolving call to f").
class UserError : public std::runtime_error {
 public:
  UserError(ErrorKind kind, std::string message);
  UserError(ErrorKind kind, std::string message, SourceLocation where, std::string function = {});

  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  const SourceLocation& location() const { return where_; }
  const std::string& function() const { return function_; }
  const std::vector<std::string>& notes() const { return notes_; }
  ErrorCause cause() const { return cause_; }

  // Records why the error was raised; returns *this for throw.
  UserError& set_cause(ErrorCause cause) {
    cause_ = cause;
    return *this;
  }

  // Adds a context line shown under the message; returns *this for rethrow.
  UserError& add_note(std::string note);
  // Sets the location only if none is known yet (inner errors win).
  UserError& set_location_if_unknown(const SourceLocation& where, const std::string& function);

  const char* what() const noexcept override { return rendered_.c_str(); }

 private:
  void render();
  ErrorKind kind_;
  std::string message_;
  SourceLocation where_;
  std::string function_;
  std::vector<std::string> notes_;
  std::string rendered_;
  ErrorCause cause_ = ErrorCause::Unspecified;
};

// A broken invariant of the engine itself.
class InternalError : public std::logic_error {
 public:
  InternalError(const char* file, int line, const std::string& condition, const std::string& detail);
};

// Streams the arguments into one string (used to build messages lazily).
template <typename... Args>
std::string concat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

}  // namespace cuhost

// CUHOST_CHECK(cond) << "detail": internal invariant; the detail is only
// formatted when the condition fails.
#define CUHOST_CHECK(cond) \
  if (cond) {              \
  } else                   \
    ::cuhost::detail::InternalFailure(__FILE__, __LINE__, #cond)

// CUHOST_USER_ERROR(kind, where, function) << "message": throws a UserError.
#define CUHOST_USER_ERROR(kind, where, function) \
  ::cuhost::detail::UserFailure(::cuhost::ErrorKind::kind, where, function)

namespace cuhost::detail {

class InternalFailure {
 public:
  InternalFailure(const char* file, int line, const char* condition)
      : file_(file), line_(line), condition_(condition) {}
  template <typename T>
  InternalFailure& operator<<(const T& v) {
    out_ << v;
    return *this;
  }
  [[noreturn]] ~InternalFailure() noexcept(false) { throw InternalError(file_, line_, condition_, out_.str()); }

 private:
  const char* file_;
  int line_;
  const char* condition_;
  std::ostringstream out_;
};

class UserFailure {
 public:
  UserFailure(ErrorKind kind, SourceLocation where, std::string function)
      : kind_(kind), where_(std::move(where)), function_(std::move(function)) {}
  template <typename T>
  UserFailure& operator<<(const T& v) {
    out_ << v;
    return *this;
  }
  [[noreturn]] ~UserFailure() noexcept(false) { throw UserError(kind_, out_.str(), where_, function_); }

 private:
  ErrorKind kind_;
  SourceLocation where_;
  std::string function_;
  std::ostringstream out_;
};

}  // namespace cuhost::detail
