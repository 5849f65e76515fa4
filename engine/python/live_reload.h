// Live kernels, the engine side (README "Live kernels", docs/LIVE.md): the
// reload of a changed script file. The watch thread (runtime/script_watch.h)
// calls reload_changed_file; it asks pylib which @cuda.jit functions changed
// (the live_reload hook), captures them from the new text, compiles them and
// the kernels that call them for every signature their dispatchers hold,
// loads the new products where the old ones were loaded, then swaps: the
// dispatchers' specializations and launch plans under the GIL, the C++
// Kernel handles through their atomic slots (runtime/live_kernels.h).
// Nothing is swapped unless every compile succeeded.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <cuhost/live.h>

namespace cuhost::python {

using ReloadCallback = std::function<void(const ReloadEvent&)>;

// Follows `path` and, from then on, the modules scripts import from the
// user's folders; starts the watch thread at the first call.
void live_watch(const std::string& path);
// The callback of later reloads (null: reports go to stderr).
void live_on_reload(ReloadCallback callback);
// Stops the watch thread; returns once no reload runs (the GIL is released
// while waiting, when the caller holds it).
void live_stop();

// The GIL for a call of the host into Python (the Runtime facade's run_*
// calls): the thread that started the interpreter gives the GIL up once it
// follows scripts (live_watch), so the reload thread can take it between
// such calls. Re-entrant; a no-op cost when the thread holds it already.
class PythonTurn {
 public:
  PythonTurn();
  ~PythonTurn();
  PythonTurn(const PythonTurn&) = delete;
  PythonTurn& operator=(const PythonTurn&) = delete;

 private:
  int state_;  // a PyGILState_STATE
};

// Reloads `path` after its text changed from `old_text` to `new_text`, on
// the calling thread (never a launch thread): the report, or nothing when no
// kernel of a loaded module comes from the file or nothing in them changed.
std::optional<ReloadEvent> reload_changed_file(const std::string& path, const std::string& old_text,
                                               const std::string& new_text);

}  // namespace cuhost::python
