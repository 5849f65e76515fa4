// The reload of a changed script file for live kernels (live_reload.h), in
// three steps: with the GIL, the diff (pylib), the captures of the changed
// functions and the list of the kernels that depend on them; without it, the
// compiles and the loads; with it again, the swap. A product compiled by an
// earlier reload for the same content is reused (an undo swaps at once).
#include "python/live_reload.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "frontend/ast_clone.h"
#include "frontend/capture.h"
#include "frontend/captured.h"
#include "python/dispatcher.h"
#include "python/py_api.h"
#include "python/python_hooks.h"
#include "runtime/live_kernels.h"
#include "runtime/script_watch.h"
#include "support/diagnostics.h"
#include "support/hash.h"

namespace cuhost {

std::string ReloadEvent::describe() const {
  std::string out = file;
  if (line > 0) out += concat(":", line, column > 0 ? concat(":", column) : std::string());
  switch (outcome) {
    case Outcome::Swapped: {
      out += ": reloaded";
      for (std::size_t i = 0; i < swapped.size(); ++i) out += (i ? ", " : " ") + swapped[i];
      out += concat(" (", static_cast<long>(seconds * 1000 + 0.5), " ms)");
      return out + "\n";
    }
    case Outcome::Error: out += ": error: "; break;
    case Outcome::Refused: out += ": not reloaded: "; break;
  }
  out += message + "\n";
  if (!source_line.empty()) out += "    " + source_line + "\n" + (caret.empty() ? "" : "    " + caret + "\n");
  if (!refused.empty()) {
    out += "  the old code keeps running:";
    for (std::size_t i = 0; i < refused.size(); ++i) out += (i ? ", " : " ") + refused[i];
    out += "\n";
  }
  return out;
}

namespace python {
namespace {

using FnMap = std::map<const model::JitFunction*, std::shared_ptr<model::JitFunction>>;
using Product = std::shared_ptr<const runtime::CompiledKernel>;
using Types = std::vector<const ir::Type*>;

// One dispatcher a reload changes: its function and products, old and new.
struct Work {
  PyRef dispatcher;
  PyRef new_func;  // the new Python function of a changed one; null for a dependent
  std::shared_ptr<model::JitFunction> old_fn, new_fn;
  std::vector<Types> signatures;
  std::vector<Product> old_products, new_products;
};

DispatcherObject* as_dispatcher(PyObject* o) { return reinterpret_cast<DispatcherObject*>(o); }

void remap(frontend::GlobalValue& g, const FnMap& replaced) {
  if (g.kind == frontend::GlobalValue::Kind::JitFunction && g.function) {
    auto it = replaced.find(g.function.get());
    if (it != replaced.end()) g.function = it->second;
  }
  for (auto& item : g.items) remap(item, replaced);
}

bool refers_to(const frontend::GlobalValue& g, const FnMap& replaced) {
  if (g.kind == frontend::GlobalValue::Kind::JitFunction && g.function && replaced.count(g.function.get())) return true;
  for (const auto& item : g.items)
    if (refers_to(item, replaced)) return true;
  return false;
}

bool refers_to(const frontend::CapturedFunction& c, const FnMap& replaced) {
  for (const auto& [name, g] : c.globals)
    if (refers_to(g, replaced)) return true;
  for (const auto& g : c.defaults)
    if (refers_to(g, replaced)) return true;
  return false;
}

// `c` with every reference to a replaced function pointing at its successor.
std::shared_ptr<const frontend::CapturedFunction> remapped(const frontend::CapturedFunction& c, const FnMap& replaced) {
  auto copy = frontend::with_definition(c, ast::clone(*c.def));
  for (auto& [name, g] : copy->globals) remap(g, replaced);
  for (auto& g : copy->defaults) remap(g, replaced);
  return copy;
}

// The content of a kernel: its source and those of the jitted functions it
// reaches (module-level state is the same, or the reload was refused).
void add_content(Hasher& h, const model::JitFunction& fn, std::set<const model::JitFunction*>& seen) {
  if (!seen.insert(&fn).second) return;
  h.add(fn.name);
  if (!fn.captured) return;
  h.add(fn.captured->filename);
  h.add(fn.captured->source);
  for (const auto& [name, g] : fn.captured->globals)
    if (g.kind == frontend::GlobalValue::Kind::JitFunction && g.function) add_content(h, *g.function, seen);
}

std::string content_key(const PyObject* dispatcher, const model::JitFunction& fn, const Types& types,
                        const runtime::TargetOptions& target) {
  Hasher h;
  h.add(static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(dispatcher)));
  std::set<const model::JitFunction*> seen;
  add_content(h, fn, seen);
  for (const ir::Type* t : types) h.add(t->str());
  h.add(static_cast<std::uint64_t>(target.target));
  h.add(static_cast<std::uint64_t>(target.cc_major * 100 + target.cc_minor));
  h.add(static_cast<std::uint64_t>(target.bounds_check));
  h.add(static_cast<std::uint64_t>(target.cancellation_points));
  h.add(static_cast<std::uint64_t>(target.nrt));
  return h.hex();
}

std::string caret_under(const std::string& line, int column) {
  if (column <= 0) return "";
  std::string caret;
  for (int i = 0; i + 1 < column && i < static_cast<int>(line.size()); ++i) caret += line[i] == '\t' ? '\t' : ' ';
  return caret + "^";
}

void set_location(ReloadEvent& ev, int line, int column, const std::string& text) {
  ev.line = line;
  ev.column = column;
  ev.source_line = text;
  ev.caret = caret_under(text, column);
}

// The state of the live kernels of this process.
struct Live {
  std::mutex mutex;  // the callback, the watch
  ReloadCallback callback;
  std::unique_ptr<runtime::ScriptWatch> watch;
  bool main_gil_released = false;
  // Reload thread only: the text each file's loaded state comes from (moves
  // on with each swap), and the products of earlier reloads by content.
  std::map<std::string, std::string> baseline;
  std::map<std::string, Product> products;
};

Live& live() {
  static Live* l = new Live();  // the watch thread may outlive static destruction
  return *l;
}

std::string text_of(PyObject* o) {
  if (!o || !PyUnicode_Check(o)) return "";
  const char* s = PyUnicode_AsUTF8(o);
  if (!s) PyErr_Clear();
  return s ? s : "";
}

int int_of(PyObject* o) {
  const long v = o && PyLong_Check(o) ? PyLong_AsLong(o) : 0;
  if (PyErr_Occurred()) PyErr_Clear();
  return static_cast<int>(v);
}

// Reads a (message, line, column, source line[, names]) tuple into `ev`.
void read_report(PyObject* t, ReloadEvent& ev) {
  ev.message = text_of(PyTuple_GetItem(t, 0));
  set_location(ev, int_of(PyTuple_GetItem(t, 1)), int_of(PyTuple_GetItem(t, 2)), text_of(PyTuple_GetItem(t, 3)));
  if (PyTuple_GET_SIZE(t) > 4) {
    PyObject* names = PyTuple_GetItem(t, 4);
    for (Py_ssize_t i = 0; names && PyList_Check(names) && i < PyList_GET_SIZE(names); ++i)
      ev.refused.push_back(text_of(PyList_GET_ITEM(names, i)));
  }
  PyErr_Clear();
}

void error_from(ReloadEvent& ev, const UserError& e) {
  ev.outcome = ReloadEvent::Outcome::Error;
  ev.message = concat(error_kind_name(e.kind()), ": ", e.message());
  const SourceLocation& where = e.location();
  if (!where.file.empty()) ev.file = runtime::absolute_script_path(where.file);
  set_location(ev, where.line, where.column, where.source_line);
}

// Step 1 (GIL held): the diff, the captures and the dependents. Returns
// false when the event is complete (an error, a refusal, nothing to do).
bool plan_reload(const std::string& path, const std::string& old_text, const std::string& new_text, ReloadEvent& ev,
                 std::vector<Work>& work) {
  PyRef diff = hook_attr(Hook::LiveReload, "diff");
  if (!diff) {  // no script imported cuda yet: no kernel to reload
    PyErr_Clear();
    return false;
  }
  PyRef result(PyObject_CallFunction(diff.get(), "sss", path.c_str(), old_text.c_str(), new_text.c_str()));
  if (!result) {
    ev.outcome = ReloadEvent::Outcome::Error;
    ev.message = "the source diff failed: " + fetch_python_error();
    return false;
  }
  if (result.get() == Py_None) return false;
  PyObject* error = PyDict_GetItemString(result.get(), "error");
  PyObject* refusal = PyDict_GetItemString(result.get(), "refusal");
  PyObject* changed = PyDict_GetItemString(result.get(), "changed");
  if (error && PyTuple_Check(error)) {
    ev.outcome = ReloadEvent::Outcome::Error;
    read_report(error, ev);
    return false;
  }
  if (refusal && PyTuple_Check(refusal)) {
    ev.outcome = ReloadEvent::Outcome::Refused;
    read_report(refusal, ev);
    return false;
  }
  if (!changed || !PyList_Check(changed) || PyList_GET_SIZE(changed) == 0) return false;

  FnMap replaced;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(changed); ++i) {
    PyObject* pair = PyList_GET_ITEM(changed, i);
    Work w;
    if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
      w.dispatcher = borrowed(PyTuple_GET_ITEM(pair, 0));
      w.new_func = borrowed(PyTuple_GET_ITEM(pair, 1));
    }
    if (!w.dispatcher || !is_dispatcher(w.dispatcher.get()) || !w.new_func || !PyFunction_Check(w.new_func.get()))
      throw UserError(ErrorKind::RuntimeError, "the live_reload hook's diff returned a malformed change");
    DispatcherState* st = as_dispatcher(w.dispatcher.get())->state;
    w.old_fn = st->fn;
    w.new_fn = std::make_shared<model::JitFunction>(*st->fn);
    if (st->fn->captured) w.new_fn->captured = frontend::capture(w.new_func.get());  // throws UserError
    replaced[w.old_fn.get()] = w.new_fn;
    work.push_back(std::move(w));
  }
  // Kernels and device functions that call a replaced function, to a fixed point.
  PyRef all = hook_attr(Hook::LiveReload, "all_dispatchers");
  PyRef list = all ? PyRef(PyObject_CallNoArgs(all.get())) : PyRef();
  if (!list || !PyList_Check(list.get())) {
    PyErr_Clear();
    list = PyRef(PyList_New(0));
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list.get()); ++i) {
      PyObject* obj = PyList_GET_ITEM(list.get(), i);
      if (!is_dispatcher(obj)) continue;
      const auto& fn = as_dispatcher(obj)->state->fn;
      if (!fn->captured || replaced.count(fn.get()) || !refers_to(*fn->captured, replaced)) continue;
      Work w;
      w.dispatcher = borrowed(obj);
      w.old_fn = fn;
      w.new_fn = std::make_shared<model::JitFunction>(*fn);
      replaced[fn.get()] = w.new_fn;
      work.push_back(std::move(w));
      grew = true;
    }
  }
  for (Work& w : work) {
    if (w.new_fn->captured) w.new_fn->captured = remapped(*w.new_fn->captured, replaced);
    DispatcherState* st = as_dispatcher(w.dispatcher.get())->state;
    if (!w.old_fn->options.device)
      for (const auto& [types, product] : st->compiled) {
        w.signatures.push_back(types);
        w.old_products.push_back(product);
      }
  }
  return true;
}

// Step 2 (no GIL): compiles every signature, or reuses an earlier reload's
// product of the same content; loads them where the old ones are loaded.
void compile_all(std::vector<Work>& work, std::map<std::string, Product>& products) {
  for (Work& w : work) {
    runtime::TargetOptions target = session_target(w.new_fn->options);
    for (std::size_t i = 0; i < w.signatures.size(); ++i) {
      // The variant the old product was (a plan's other variant follows at its next launch under a deadline).
      target.cancellation_points = w.old_products[i]->cancellation_points;
      target.nrt = w.old_products[i]->compiled_for.nrt;  // and the NRT setting it was compiled with
      const std::string key = content_key(w.dispatcher.get(), *w.new_fn, w.signatures[i], target);
      auto found = products.find(key);
      Product p = found != products.end() ? found->second : runtime::compile_kernel(w.new_fn, w.signatures[i], target);
      products[key] = p;
      w.new_products.push_back(p);
    }
  }
  for (Work& w : work)
    for (std::size_t i = 0; i < w.new_products.size(); ++i)
      runtime::prepare_live_kernel(w.old_products[i], w.new_products[i]);
}

// Step 3 (GIL held): the swap, dispatcher by dispatcher. A dispatcher's
// compile mutex is taken (without the GIL, the order its compiles take them
// in) so that no compile of it reads its function meanwhile.
void swap_all(std::vector<Work>& work, ReloadEvent& ev) {
  for (Work& w : work) {
    auto* d = as_dispatcher(w.dispatcher.get());
    DispatcherState* st = d->state;
    std::unique_lock<std::mutex> lock(st->compile_mutex, std::defer_lock);
    without_gil([&] { lock.lock(); });
    st->fn = w.new_fn;
    if (w.new_func) {
      PyRef old_func(d->py_func);  // released at the end of this scope
      d->py_func = w.new_func.release();
    }
    for (std::size_t i = 0; i < w.signatures.size(); ++i) {
      const Product& old_product = w.old_products[i];
      const Product& new_product = w.new_products[i];
      st->compiled[w.signatures[i]] = new_product;
      for (auto& plan : st->plans)
        if (plan->kernel == old_product) {
          plan->kernel = new_product;
          plan->loaded = runtime::LoadedKernel();
          plan->forall_block = 0;
        }
      runtime::swap_live_kernel(old_product, new_product);
    }
    ev.swapped.push_back(w.new_fn->name);
  }
}

void report(const ReloadEvent& ev) {
  ReloadCallback callback;
  {
    std::lock_guard<std::mutex> lock(live().mutex);
    callback = live().callback;
  }
  if (callback) {
    try {
      callback(ev);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cuhost: the reload callback threw: %s\n", e.what());
    }
    return;
  }
  std::fprintf(stderr, "cuhost: %s", ev.describe().c_str());
  std::fflush(stderr);
}

void on_file_changed(const std::string& path, const std::string& old_text, const std::string& new_text) {
  if (!Py_IsInitialized()) return;
  std::optional<ReloadEvent> ev;
  try {
    ev = reload_changed_file(path, old_text, new_text);
  } catch (const std::exception& e) {  // an engine failure: reported, and the watch goes on
    ev = ReloadEvent();
    ev->outcome = ReloadEvent::Outcome::Error;
    ev->file = path;
    ev->message = concat("internal error during the reload: ", e.what());
  }
  if (ev) report(*ev);
}

// Follows the user modules imported since the last look (watch thread).
void refresh_files() {
  if (!Py_IsInitialized()) return;
  std::vector<std::string> files;
  try {
    GilHold gil;
    PyRef user_files = hook_attr(Hook::LiveReload, "user_files");
    PyRef list = user_files ? PyRef(PyObject_CallNoArgs(user_files.get())) : PyRef();
    if (list && PyList_Check(list.get()))
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list.get()); ++i)
        files.push_back(text_of(PyList_GET_ITEM(list.get(), i)));
    PyErr_Clear();
  } catch (const std::exception&) {
    return;  // looked at again at the next refresh
  }
  std::lock_guard<std::mutex> lock(live().mutex);
  if (live().watch)
    for (const std::string& f : files)
      if (!f.empty()) live().watch->add(f);
}

}  // namespace

std::optional<ReloadEvent> reload_changed_file(const std::string& path, const std::string& changed_from,
                                               const std::string& new_text) {
  const auto start = std::chrono::steady_clock::now();
  Live& l = live();
  // The diff starts from the text the loaded state comes from: a refused or
  // failed edit leaves it where it was.
  const std::string old_text = l.baseline.emplace(path, changed_from).first->second;
  ReloadEvent ev;
  ev.file = path;
  std::vector<Work> work;
  bool proceed = false;
  {
    GilHold gil;
    try {
      proceed = plan_reload(path, old_text, new_text, ev, work);
    } catch (const UserError& e) {
      error_from(ev, e);
    }
    if (PyErr_Occurred()) PyErr_Clear();
    if (!proceed) {
      for (Work& w : work) ev.refused.push_back(w.old_fn->name);
      work.clear();  // its references are released with the GIL held
    }
  }
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  if (!proceed) {
    if (ev.outcome == ReloadEvent::Outcome::Swapped) {  // nothing of a kernel changed (comments, blank lines)
      l.baseline[path] = new_text;
      return std::nullopt;
    }
    ev.seconds = seconds();
    return ev;
  }
  try {
    compile_all(work, l.products);
  } catch (const UserError& e) {
    error_from(ev, e);
  } catch (const std::exception& e) {
    ev.outcome = ReloadEvent::Outcome::Error;
    ev.message = e.what();
  }
  {
    GilHold gil;
    if (ev.outcome == ReloadEvent::Outcome::Swapped) {
      swap_all(work, ev);
      l.baseline[path] = new_text;
    } else {
      for (Work& w : work) ev.refused.push_back(w.old_fn->name);
    }
    work.clear();
  }
  ev.seconds = seconds();
  return ev;
}

PythonTurn::PythonTurn() : state_(static_cast<int>(PyGILState_Ensure())) {}
PythonTurn::~PythonTurn() {
  // A python3-style run ends by finalizing the interpreter (interpreter_end.h):
  // there is no GIL left to give back.
  if (Py_IsInitialized()) PyGILState_Release(static_cast<PyGILState_STATE>(state_));
}

void live_watch(const std::string& path) {
  Live& l = live();
  std::lock_guard<std::mutex> lock(l.mutex);
  if (!l.main_gil_released && Py_IsInitialized() && PyGILState_Check()) {
    // The thread that started the interpreter holds the GIL from then on;
    // the reload thread needs it between the host's own calls into Python,
    // which take it for their duration (the Runtime facade's calls do).
    PyEval_SaveThread();
    l.main_gil_released = true;
  }
  if (!l.watch) l.watch = std::make_unique<runtime::ScriptWatch>(on_file_changed, refresh_files);
  l.watch->add(path);
}

void live_on_reload(ReloadCallback callback) {
  std::lock_guard<std::mutex> lock(live().mutex);
  live().callback = std::move(callback);
}

void live_stop() {
  std::unique_ptr<runtime::ScriptWatch> watch;
  {
    std::lock_guard<std::mutex> lock(live().mutex);
    watch = std::move(live().watch);
  }
  if (!watch) return;
  if (Py_IsInitialized() && PyGILState_Check()) {
    GilRelease unlocked;  // a reload in progress may be waiting for the GIL
    watch.reset();
  } else {
    watch.reset();
  }
}

}  // namespace python
}  // namespace cuhost
