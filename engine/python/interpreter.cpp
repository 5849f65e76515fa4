// Embedding of CPython (see interpreter.h): configuration, sys.argv and
// sys.path, and the translation of a script's end into an exit code.
#include "python/interpreter.h"

#include <Python.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "python/main_command.h"
#include "python/module.h"
#include "python/py_api.h"
#include "python/python_env.h"
#include "support/diagnostics.h"

namespace cuhost::python {

namespace {

bool g_initialized = false;

void set_argv(const std::vector<std::string>& argv) {
  PyRef list(PyList_New(static_cast<Py_ssize_t>(argv.size())));
  for (size_t i = 0; i < argv.size(); ++i)
    PyList_SET_ITEM(list.get(), static_cast<Py_ssize_t>(i), PyUnicode_DecodeFSDefault(argv[i].c_str()));
  PySys_SetObject("argv", list.get());
}

// The pending exception, taken (PyErr_Fetch is deprecated from 3.12 on).
PyObject* raised_exception() {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyRef type_ref(type), tb_ref(tb);
  return value;
#endif
}

// Converts the pending exception into an exit code the way `python3` does.
int exit_code_from_exception() {
  if (!PyErr_Occurred()) return 0;
  if (!PyErr_ExceptionMatches(PyExc_SystemExit)) {
    PyErr_Print();
    return 1;
  }
  PyRef value(raised_exception());
  int code = 0;
  PyRef arg(value ? PyObject_GetAttrString(value.get(), "code") : nullptr);
  if (!arg) PyErr_Clear();
  if (!arg || arg.get() == Py_None) {
    code = 0;
  } else if (PyLong_Check(arg.get())) {
    code = static_cast<int>(PyLong_AsLong(arg.get()));
  } else {  // sys.exit("message"): print it, exit 1
    if (PyRef text{PyObject_Str(arg.get())}) PySys_WriteStderr("%s\n", PyUnicode_AsUTF8(text.get()));
    PyErr_Clear();
    code = 1;
  }
  return code;
}

}  // namespace

void flush_std_streams() {
  for (const char* name : {"stdout", "stderr"}) {
    PyObject* stream = PySys_GetObject(name);  // borrowed
    if (stream && stream != Py_None && !PyRef(PyObject_CallMethod(stream, "flush", nullptr))) PyErr_Clear();
  }
}

int finish(PyObject* result) {
  int code = 0;
  {
    PyRef owned(result);  // dropped before the streams are flushed, as its finalizers may print
    code = result ? 0 : exit_code_from_exception();
  }
  flush_std_streams();
  return code;
}

PyObject* fresh_main_dict(const std::string& file) {
  PyObject* main_module = PyImport_AddModule("__main__");  // borrowed
  PyObject* globals = PyModule_GetDict(main_module);       // borrowed
  PyObject* builtins = PyEval_GetBuiltins();
  PyDict_SetItemString(globals, "__builtins__", builtins);
  if (!file.empty()) {
    PyRef f(PyUnicode_DecodeFSDefault(file.c_str()));
    PyDict_SetItemString(globals, "__file__", f.get());
  }
  return globals;
}

MainCommand& main_command() {
  static MainCommand command;
  return command;
}

namespace {

std::string from_wide(const wchar_t* text) {
  if (!text) return {};
  char* bytes = Py_EncodeLocale(text, nullptr);
  if (!bytes) throw UserError(ErrorKind::RuntimeError, "cannot encode a command-line argument");
  std::string out(bytes);
  PyMem_Free(bytes);
  return out;
}

void check(PyStatus status, const char* what) {
  if (PyStatus_IsExit(status)) Py_ExitStatusException(status);  // --help of python3, a bad option: as python3 exits
  if (PyStatus_Exception(status))
    throw UserError(ErrorKind::RuntimeError, concat("cannot initialize the embedded Python (", what,
                                                    "): ", status.err_msg ? status.err_msg : "?"));
}

// A python3-style command line: CPython's own parser reads it (so -u, -W, -X,
// -E, -I, -O, -B ... mean exactly what they mean to python3), and what it
// names to run is kept for run_python_main.
std::vector<char*> argv_of(const std::vector<std::string>& command_line) {
  std::vector<char*> argv;
  for (const std::string& arg : command_line) argv.push_back(const_cast<char*>(arg.c_str()));
  return argv;
}

// -X utf8, -X dev, -E and -I belong to the pre-initialization, which reads
// them first, before anything decodes a string.
void preinitialize(const std::vector<std::string>& command_line) {
  std::vector<char*> argv = argv_of(command_line);
  PyPreConfig preconfig;
  PyPreConfig_InitPythonConfig(&preconfig);
  preconfig.parse_argv = 1;
  check(Py_PreInitializeFromBytesArgs(&preconfig, static_cast<Py_ssize_t>(argv.size()), argv.data()), "preconfig");
}

// What it names to run is returned as CPython's wide text: it is encoded
// once the interpreter runs (Python 3.12's allocator needs one).
std::wstring read_command_line(PyConfig& config, const std::vector<std::string>& command_line) {
  std::vector<char*> argv = argv_of(command_line);
  config.parse_argv = 1;
  check(PyConfig_SetBytesArgv(&config, static_cast<Py_ssize_t>(argv.size()), argv.data()), "argv");
  check(PyConfig_Read(&config), "command line");
  std::wstring named;
  MainCommand& command = main_command();
  if (config.run_command) {
    command.kind = MainCommand::Kind::Code;
    named = config.run_command;
  } else if (config.run_module) {
    command.kind = MainCommand::Kind::Module;
    named = config.run_module;
  } else if (config.run_filename) {
    command.kind = MainCommand::Kind::File;
    named = config.run_filename;
  } else {
    command.kind = MainCommand::Kind::Stdin;
  }
  command.inspect = config.inspect != 0;
#if PY_VERSION_HEX >= 0x030B0000  // -P and PyConfig.safe_path are Python 3.11's
  command.safe_path = config.safe_path != 0;
#else
  command.safe_path = config.isolated != 0;
#endif
  return named;
}

}  // namespace

void initialize_interpreter(const InterpreterConfig& options) {
  if (g_initialized) return;
  const PythonEnv env = inspect_python_env(options.python_env);  // refused before anything starts
  register_builtin_module();                                     // must precede Py_Initialize
  if (!options.command_line.empty()) preinitialize(options.command_line);

  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.parse_argv = 0;
  config.install_signal_handlers = 1;
  if (env.kind != PythonEnv::Kind::None) {
    // The environment's python3 as sys.executable while site.py runs: site
    // finds pyvenv.cfg beside it (a venv) or takes the prefix (home), and
    // sets sys.prefix and site-packages as that python3 has them. home keeps
    // the standard library the embedded Python's own (for a venv).
    check(PyConfig_SetBytesString(&config, &config.home, env.stdlib_home.c_str()), "home");
    check(PyConfig_SetBytesString(&config, &config.executable, env.python.c_str()), "executable");
  } else {
    // A bundle ships its own standard library: CUHOST_PYTHONHOME points at it.
    if (const char* home = std::getenv("CUHOST_PYTHONHOME")) {
      PyStatus s = PyConfig_SetBytesString(&config, &config.home, home);
      if (PyStatus_Exception(s)) throw UserError(ErrorKind::RuntimeError, "invalid CUHOST_PYTHONHOME");
    }
    if (!options.executable.empty())
      check(PyConfig_SetBytesString(&config, &config.executable, options.executable.c_str()), "executable");
  }
  std::wstring named;
  if (!options.command_line.empty()) named = read_command_line(config, options.command_line);
  PyStatus status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status))
    throw UserError(ErrorKind::RuntimeError,
                    std::string("cannot initialize the embedded Python: ") + (status.err_msg ? status.err_msg : "?"));
  g_initialized = true;
  if (!named.empty()) main_command().text = from_wide(named.c_str());
  if (env.kind != PythonEnv::Kind::None && !options.executable.empty()) {
    // Then the host itself is sys.executable again, so that subprocesses and
    // multiprocessing children start it (and find the environment too).
    PyRef exe(PyUnicode_DecodeFSDefault(options.executable.c_str()));
    PySys_SetObject("executable", exe.get());
  }

  PyObject* sys_path = PySys_GetObject("path");  // borrowed
  PyRef dir(PyUnicode_DecodeFSDefault(options.pylib_dir.c_str()));
  PyList_Insert(sys_path, 0, dir.get());
  // A bundle's third-party packages (NumPy, cffi for 3.11) sit in <home>/site;
  // they are added here rather than through PYTHONPATH, which would leak into
  // other Pythons on the machine.
  if (const char* home = std::getenv("CUHOST_PYTHONHOME")) {
    PyRef site(PyUnicode_DecodeFSDefault((std::string(home) + "/site").c_str()));
    PyList_Append(sys_path, site.get());
  }
}

int run_file(const std::string& path, const std::vector<std::string>& args) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cuhost: error: cannot read script '%s'\n", path.c_str());
    return 2;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::vector<std::string> argv{path};
  argv.insert(argv.end(), args.begin(), args.end());
  set_argv(argv);

  // Like `python3 script.py`: the script's folder comes first on sys.path,
  // right after cuhost's own packages.
  std::string folder = ".";
  if (auto slash = path.find_last_of('/'); slash != std::string::npos) folder = path.substr(0, slash);
  PyObject* sys_path = PySys_GetObject("path");
  PyRef f(PyUnicode_DecodeFSDefault(folder.c_str()));
  PyList_Insert(sys_path, 1, f.get());

  PyObject* globals = fresh_main_dict(path);
  PyRef code(Py_CompileStringExFlags(buffer.str().c_str(), path.c_str(), Py_file_input, nullptr, -1));
  if (!code) return finish(nullptr);
  PyObject* result = PyEval_EvalCode(code.get(), globals, globals);
  code = PyRef();
  return finish(result);
}

// Makes source text given as a string visible to inspect.getsource (which
// kernels compiled from it need) by entering it into linecache.
void remember_source(const std::string& source, const std::string& filename) {
  PyRef linecache(PyImport_ImportModule("linecache"));
  if (!linecache) {
    PyErr_Clear();
    return;
  }
  PyRef cache(PyObject_GetAttrString(linecache.get(), "cache"));
  PyRef text(PyUnicode_FromStringAndSize(source.data(), static_cast<Py_ssize_t>(source.size())));
  PyRef lines(text ? PyObject_CallMethod(text.get(), "splitlines", "O", Py_True) : nullptr);
  if (cache && lines) {
    PyRef entry(
        Py_BuildValue("(nOOs)", static_cast<Py_ssize_t>(source.size()), Py_None, lines.get(), filename.c_str()));
    if (entry) PyDict_SetItemString(cache.get(), filename.c_str(), entry.get());
  }
  if (PyErr_Occurred()) PyErr_Clear();
}

int run_string(const std::string& source, const std::string& filename) {
  remember_source(source, filename);
  PyObject* globals = fresh_main_dict(filename);
  PyRef code(Py_CompileStringExFlags(source.c_str(), filename.c_str(), Py_file_input, nullptr, -1));
  if (!code) return finish(nullptr);
  PyObject* result = PyEval_EvalCode(code.get(), globals, globals);
  code = PyRef();
  return finish(result);
}

int run_module_main(const std::string& module, const std::vector<std::string>& args) {
  std::vector<std::string> argv{module};
  argv.insert(argv.end(), args.begin(), args.end());
  set_argv(argv);
  PyRef runpy(PyImport_ImportModule("runpy"));
  if (!runpy) return finish(nullptr);
  PyObject* result = PyObject_CallMethod(runpy.get(), "run_module", "(sOs)", module.c_str(), Py_None, "__main__");
  runpy = PyRef();
  return finish(result);
}

std::string python_version() { return Py_GetVersion(); }

}  // namespace cuhost::python
