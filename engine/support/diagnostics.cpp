// Rendering of user and internal errors: one place decides how a located
// error reads, so every stage reports the same way.
#include "support/diagnostics.h"

namespace cuhost {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::TypingError: return "TypingError";
    case ErrorKind::UnsupportedError: return "UnsupportedError";
    case ErrorKind::NameError: return "NameError";
    case ErrorKind::TypeError: return "TypeError";
    case ErrorKind::ValueError: return "ValueError";
    case ErrorKind::IndexError: return "IndexError";
    case ErrorKind::SyntaxError: return "SyntaxError";
    case ErrorKind::NotImplementedError: return "NotImplementedError";
    case ErrorKind::FileNotFoundError: return "FileNotFoundError";
    case ErrorKind::RuntimeError: return "RuntimeError";
    case ErrorKind::CompileError: return "CompileError";
    case ErrorKind::NvrtcError: return "NvrtcError";
    case ErrorKind::LinkerError: return "LinkerError";
    case ErrorKind::LinkFileNotFound: return "LinkFileNotFoundError";
    case ErrorKind::CudaAPIError: return "CudaAPIError";
    case ErrorKind::CudaSupportError: return "CudaSupportError";
    case ErrorKind::KernelError: return "KernelError";
    case ErrorKind::PluginError: return "PluginError";
    case ErrorKind::NcclError: return "NcclError";
    case ErrorKind::PicklingError: return "PicklingError";
    case ErrorKind::GraphCaptureError: return "GraphCaptureError";
    case ErrorKind::LoweringError: return "LoweringError";
  }
  return "Error";
}

UserError::UserError(ErrorKind kind, std::string message) : UserError(kind, std::move(message), SourceLocation{}, {}) {}

UserError::UserError(ErrorKind kind, std::string message, SourceLocation where, std::string function)
    : std::runtime_error(message),
      kind_(kind),
      message_(std::move(message)),
      where_(std::move(where)),
      function_(std::move(function)) {
  render();
}

UserError& UserError::add_note(std::string note) {
  notes_.push_back(std::move(note));
  render();
  return *this;
}

UserError& UserError::set_location_if_unknown(const SourceLocation& where, const std::string& function) {
  if (where_.line == 0 && where.line != 0) where_ = where;
  if (function_.empty()) function_ = function;
  render();
  return *this;
}

// Layout:
//   in kernel 'saxpy' at saxpy.py:12:8
//       o[i] = a * x[i] + "s"
//              ^
//   cannot add float32 and str
//   (while resolving call to f)
void UserError::render() {
  std::ostringstream out;
  bool header = false;
  if (!function_.empty() || where_.line > 0) {
    out << "in ";
    if (!function_.empty()) out << "'" << function_ << "'";
    if (where_.line > 0) {
      if (!function_.empty()) out << " ";
      out << "at " << where_.file << ":" << where_.line;
      if (where_.column > 0) out << ":" << where_.column;
    }
    out << "\n";
    header = true;
  }
  if (!where_.source_line.empty()) {
    out << "    " << where_.source_line << "\n";
    if (where_.column > 0) out << "    " << std::string(static_cast<size_t>(where_.column - 1), ' ') << "^\n";
  }
  out << message_;
  for (const auto& note : notes_) out << "\n(" << note << ")";
  rendered_ = header ? out.str() : out.str();
}

InternalError::InternalError(const char* file, int line, const std::string& condition, const std::string& detail)
    : std::logic_error(concat("internal error at ", file, ":", line, ": check '", condition, "' failed",
                              detail.empty() ? "" : ": ", detail)) {}

}  // namespace cuhost
