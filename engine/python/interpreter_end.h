// The end of a python3-style run (run_python_main): the interpreter is
// finalized as python3 finalizes it (interpreter_end.cpp).
#pragma once

namespace cuhost::python {

// Before the run's code: registers the engine's last atexit handler, which
// ends the engine's own Python work (the live-reload thread, the teardown
// callbacks of loaded modules) after every handler of the script ran.
void prepare_interpreter_end();

// After the run: finalizes the interpreter (Py_FinalizeEx), which joins the
// non-daemon threads, runs threading's exit callbacks and the atexit
// handlers. Returns the run's exit code, or 120 when finalizing failed (the
// standard streams could not be flushed), as python3 does. Python is gone
// afterwards: the engine's holders of Python references skip their Python
// work (Py_IsInitialized() is false). When daemon threads of the script were
// still running, the process ends at once after the finalization (_Exit).
int end_interpreter(int code);

}  // namespace cuhost::python
