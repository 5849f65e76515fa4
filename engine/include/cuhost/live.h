// Live kernels in the embedding API: what a host learns when a script it
// follows (Runtime::watch) changes on disk. Each change of a followed file
// that touches kernels gives one ReloadEvent, on the reload thread (never
// a launch thread): the kernels swapped, or the error or refusal that kept
// the old code running.
#pragma once

#include <string>
#include <vector>

namespace cuhost {

struct ReloadEvent {
  enum class Outcome {
    Swapped,  // later launches run the new code of `swapped`
    Error,    // a syntax or typing error: the old code keeps running
    Refused,  // a change the engine will not swap under a running host (a signature, module-level state)
  };
  Outcome outcome = Outcome::Swapped;
  std::string file;  // the changed file (absolute)
  // Where the error or refused change is (0: not known), with the source
  // line and a caret line under the column, as tracebacks show them.
  int line = 0;
  int column = 0;
  std::string source_line;
  std::string caret;
  std::string message;               // the error or refusal; empty when swapped
  std::vector<std::string> swapped;  // kernels and device functions whose new code runs now
  std::vector<std::string> refused;  // kernels kept on their old code (Error, Refused)
  double seconds = 0;                // from the change seen to the swap (or the error)

  // A multi-line report: "file:line:column: message", the line and caret.
  std::string describe() const;
};

}  // namespace cuhost
