// The end of a python3-style run (run_python_main): the steps python3 takes
// at its end, without freeing the interpreter (interpreter_end.cpp says why).
#pragma once

namespace cuhost::python {

// Before the run's code: registers the engine's last atexit handler, which
// ends the engine's own Python work (the live-reload thread, the teardown
// callbacks of loaded modules) after every handler of the script ran.
void prepare_interpreter_end();

// After the run: joins the non-daemon threads, runs threading's exit
// callbacks and the atexit handlers, flushes the standard streams. Returns
// the run's exit code, or 120 when the streams could not be flushed, as
// python3 does. The interpreter is not freed.
int end_interpreter(int code);

}  // namespace cuhost::python
