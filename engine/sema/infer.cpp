// Entry points of type inference: one TypedFunction per (function, argument
// types), cached under a mutex; device callees are typed on demand and
// recursion between jitted functions is detected and reported.
#include "sema/infer.h"

#include <map>
#include <mutex>

#include "frontend/ssa_versions.h"
#include "sema/extension_hooks.h"
#include "sema/nrt_scope.h"
#include "sema/typer.h"
#include "sema/unroll.h"

namespace cuhost::sema {

namespace {

struct CacheKey {
  const model::JitFunction* fn;
  const frontend::CapturedFunction* captured;
  std::vector<const ir::Type*> args;
  const ir::Type* declared;
  bool kernel;
  std::string constants;  // literal arguments (constants_key)
  bool host;              // typed for numba.njit (extension implementations differ by target)
  bool nrt;               // heap arrays allowed (sema/nrt_scope.h)
  bool operator<(const CacheKey& o) const {
    return std::tie(fn, captured, args, declared, kernel, constants, host, nrt) <
           std::tie(o.fn, o.captured, o.args, o.declared, o.kernel, o.constants, o.host, o.nrt);
  }
};

struct Cache {
  std::mutex mutex;
  std::map<CacheKey, std::shared_ptr<const TypedFunction>> entries;
};

Cache& cache() {
  static Cache* c = new Cache();
  return *c;
}

// The specializations being typed on this thread, innermost last: a call
// back into one of them is recursion.
struct Frame {
  const model::JitFunction* fn;
  CacheKey key;
  std::shared_ptr<TypedFunction> out;  // filled in while typing
  Typer* typer = nullptr;
  // Typed against the provisional return type of a function further out
  // (mutual recursion): not cached, the outer function retypes it as that
  // type settles.
  bool provisional = false;
};
thread_local std::vector<Frame> t_stack;

std::string sanitize(const std::string& name) {
  std::string out;
  for (unsigned char ch : name) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_') {
      out += static_cast<char>(ch);
    } else {
      out += '_';
    }
  }
  return out.empty() ? std::string("fn") : out;
}

// A C-ABI function is named after the Python function; characters no PTX
// identifier may hold are escaped as numba does ("<lambda>" -> "_3clambda_3e").
std::string escape_symbol(const std::string& name) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char ch : name) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '$') {
      out += static_cast<char>(ch);
    } else {
      out += '_';
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
  }
  return out;
}

std::string constants_key(const std::vector<std::optional<ir::ConstValue>>& constants) {
  std::string out;
  for (const auto& c : constants) out += (c ? c->repr() + ":" + (c->type ? c->type->str() : "") : "-") + ";";
  return out;
}

std::shared_ptr<const TypedFunction> infer(const std::shared_ptr<model::JitFunction>& fn,
                                           const std::vector<const ir::Type*>& arg_types,
                                           const ir::Type* declared_return, bool kernel,
                                           const std::vector<std::optional<ir::ConstValue>>& arg_constants = {}) {
  CUHOST_CHECK(fn) << "inference of a null function";
  if (!fn->captured || !fn->captured->def) {
    throw UserError(ErrorKind::RuntimeError, concat("the source of '", fn->name, "' has not been captured"));
  }
  bool any_constant = false;
  for (const auto& c : arg_constants) any_constant = any_constant || c.has_value();
  const std::string ckey = any_constant ? constants_key(arg_constants) : std::string();
  CacheKey key{fn.get(), fn->captured.get(), arg_types,        declared_return, kernel,
               ckey,     typing_for_host(),  typing_with_nrt()};
  {
    std::lock_guard<std::mutex> lock(cache().mutex);
    auto it = cache().entries.find(key);
    if (it != cache().entries.end()) return it->second;
  }
  for (size_t depth = 0; depth < t_stack.size(); ++depth) {
    const Frame& frame = t_stack[depth];
    if (frame.fn != fn.get()) continue;
    // Recursion (numba's rules): the call's type is the function's return
    // type, declared by an explicit signature or, without one, inferred from
    // the return statements that do not recurse (the caller's statement is
    // retried until one gave a type).
    bool same = !(frame.key < key) && !(key < frame.key);
    // A specialization on literal arguments calling the plain one: not recursion yet.
    if (!same && frame.key.args == key.args && frame.key.constants != key.constants) continue;
    if (same && frame.typer && !kernel) {
      if (frame.out->return_type) {
        frame.typer->note_recursion();
        for (size_t inner = depth + 1; inner < t_stack.size(); ++inner) t_stack[inner].provisional = true;
        return frame.out;
      }
      if (!frame.typer->strict()) throw Pending{fn->name, fn->captured->def->loc, fn.get()};
      throw UserError(ErrorKind::TypingError,
                      concat("cannot type infer runaway recursion: no return statement of '", fn->name,
                             "' gives a type without calling it again"),
                      fn->captured->where(fn->captured->def->loc), fn->name);
    }
    std::string chain;
    for (const auto& f : t_stack) chain += f.fn->name + " -> ";
    chain += fn->name;
    throw UserError(ErrorKind::TypingError,
                    concat("recursive calls with changing argument types are not supported in kernels (", chain,
                           "): give the function an explicit signature"),
                    fn->captured->where(fn->captured->def->loc), fn->name);
  }
  auto out = std::make_shared<TypedFunction>();
  out->captured = fn->captured;
  out->function = fn;
  out->is_kernel = kernel;
  out->abi = kernel ? ir::Abi::Numba : fn->options.abi;
  out->arg_types = arg_types;
  if (any_constant) out->arg_constants = arg_constants;
  for (const ir::Type* a : arg_types) {
    CUHOST_CHECK(a) << "null argument type for " << fn->name;
  }
  if (kernel && !fn->captured->def->params.empty() && fn->captured->def->params.back().vararg) {
    throw UserError(ErrorKind::UnsupportedError,
                    concat("kernel '", fn->name, "' takes *", fn->captured->def->params.back().name,
                           ": kernels cannot take *args (call it from another jitted function instead)"),
                    fn->captured->where(fn->captured->def->loc), fn->name);
  }
  if (kernel && fn->options.abi == ir::Abi::C) {
    throw UserError(ErrorKind::NotImplementedError, "kernels cannot use the C ABI",
                    fn->captured->where(fn->captured->def->loc), fn->name);
  }
  // An explicit return type is known before typing (recursive calls use it).
  if (!kernel && declared_return && declared_return->kind != ir::TypeKind::Void) out->return_type = declared_return;
  t_stack.push_back(Frame{fn.get(), key, out, nullptr});
  struct Pop {
    ~Pop() { t_stack.pop_back(); }
  } pop;
  // Typing restarts on a rewritten copy of the AST: a loop over
  // literal_unroll of a heterogeneous tuple is unrolled (sema/unroll.h;
  // copies of nested loops are found and unrolled in later rounds), and a
  // function whose variables take values of several types is typed per
  // version of each variable, as numba types it (frontend/ssa_versions.h).
  // Functions whose every assignment has its variable's type type the same
  // either way and keep their AST (the common case, and the cheaper one).
  auto restart = [&](std::shared_ptr<const frontend::CapturedFunction> captured) {
    auto retry = std::make_shared<TypedFunction>();
    retry->captured = std::move(captured);
    retry->function = out->function;
    retry->is_kernel = out->is_kernel;
    retry->abi = out->abi;
    retry->arg_types = out->arg_types;
    retry->arg_constants = out->arg_constants;
    if (!kernel && declared_return && declared_return->kind != ir::TypeKind::Void) retry->return_type = declared_return;
    out = retry;
    t_stack.back().out = out;
  };
  bool versioned = false;
  auto restart_versioned = [&] {
    versioned = true;
    auto def = frontend::version_variables(*out->captured->def);
    if (!def) return false;
    restart(frontend::with_definition(*out->captured, std::move(def)));
    return true;
  };
  for (int round = 0;; ++round) {
    Typer typer(out);
    t_stack.back().typer = &typer;
    try {
      typer.run();
      if (!versioned && !typer.widened().empty() && restart_versioned()) continue;
      break;
    } catch (const UnrollRequest& request) {
      if (round >= 64)
        throw UserError(ErrorKind::UnsupportedError, "too many literal_unroll loops in one function",
                        fn->captured->where(request.loop->loc), fn->name);
      restart(unroll_loop(*out->captured, request));
    } catch (const UserError&) {
      // An error may come from giving a variable one type (a unification
      // numba never makes): the versioned typing decides.
      if (versioned || !restart_versioned()) throw;
    }
  }
  if (!kernel && declared_return && declared_return->kind != ir::TypeKind::Void) {
    if (!can_convert(out->return_type, declared_return)) {
      throw UserError(ErrorKind::TypingError,
                      concat("the return value of type ", display(out->return_type),
                             " cannot be converted to the declared return type ", display(declared_return)),
                      fn->captured->where(fn->captured->def->loc), fn->name);
    }
    // A None reaching a declared non-Optional return ends the thread.
    if (out->return_type->kind == ir::TypeKind::Optional && declared_return->kind != ir::TypeKind::Optional &&
        out->abi == ir::Abi::Numba)
      out->raises = true;
    out->return_type = declared_return;
  } else if (!kernel && declared_return && declared_return->kind == ir::TypeKind::Void &&
             out->return_type->kind != ir::TypeKind::NoneType) {
    throw UserError(ErrorKind::TypingError,
                    concat("function declared to return void returns a value of type ", display(out->return_type)),
                    fn->captured->where(fn->captured->def->loc), fn->name);
  }
  if (!kernel && out->abi == ir::Abi::C) {
    out->symbol = c_abi_symbol(*fn);
  } else {
    out->symbol = mangle(fn->name, arg_types, kernel);
    if (any_constant) out->symbol = mangle(fn->name + "/" + ckey, arg_types, kernel);
  }
  if (t_stack.back().provisional) return out;
  std::lock_guard<std::mutex> lock(cache().mutex);
  auto [it, inserted] = cache().entries.emplace(key, out);
  return it->second;
}

}  // namespace

std::string mangle(const std::string& name, const std::vector<const ir::Type*>& args, bool kernel) {
  std::string text = name + (kernel ? "/kernel(" : "/device(");
  for (const ir::Type* a : args) {
    text += a->str();
    // A function passed as a value: the identity of the function (its type's
    // name does not tell two dispatchers apart).
    if (a->object) text += concat("@", reinterpret_cast<std::uintptr_t>(a->object));
    text += ",";
  }
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  static const char* hex = "0123456789abcdef";
  std::string hs;
  for (int i = 15; i >= 0; --i) hs += hex[(h >> (i * 4)) & 0xf];
  return "_cuhost_" + sanitize(name) + "_" + hs;
}

std::string c_abi_symbol(const model::JitFunction& fn) {
  return fn.options.abi_name.empty() ? escape_symbol(fn.name) : fn.options.abi_name;
}

std::shared_ptr<const TypedFunction> infer_kernel(const std::shared_ptr<model::JitFunction>& fn,
                                                  const std::vector<const ir::Type*>& arg_types) {
  return infer(fn, arg_types, nullptr, true);
}

std::shared_ptr<const TypedFunction> infer_device(const std::shared_ptr<model::JitFunction>& fn,
                                                  const std::vector<const ir::Type*>& arg_types,
                                                  const ir::Type* declared_return,
                                                  const std::vector<std::optional<ir::ConstValue>>& arg_constants) {
  return infer(fn, arg_types, declared_return, false, arg_constants);
}

}  // namespace cuhost::sema
