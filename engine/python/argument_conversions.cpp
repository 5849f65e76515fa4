// The dispatchers' choice among explicit signatures (see
// argument_conversions.h): numba's typeconv TypeManager.selectOverload and
// the dispatcher's retry after _search_new_conversions, over the relation
// of sema/conversions.h.
#include "python/argument_conversions.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include "sema/conversions.h"
#include "support/diagnostics.h"

namespace cuhost::python {

namespace {

using sema::Conversion;

struct Manager {
  std::mutex mutex;
  // Conversions learned from calls: numba's set_compatible after
  // install_possible_conversions. They stay for the process.
  std::map<std::pair<const ir::Type*, const ir::Type*>, Conversion> learned;
  std::atomic<std::uint64_t> count{0};  // read without the mutex by launches
};

Manager& manager_of(TypeManager which) {
  static Manager kernels, host_calls;
  return which == TypeManager::Kernels ? kernels : host_calls;
}

// What the type manager knows: identity, the casting table, what it learned.
std::optional<Conversion> known(const Manager& m, const ir::Type* from, const ir::Type* to) {
  if (auto k = sema::casting_rule(from, to)) return k;
  auto it = m.learned.find({from, to});
  if (it == m.learned.end()) return std::nullopt;
  return it->second;
}

// selectOverload: the signatures rating best over the known conversions,
// in order (the first is the one selected; more than one is a tie).
std::vector<size_t> select_overload(const Manager& m, const std::vector<const ir::Type*>& actual,
                                    const std::vector<std::vector<const ir::Type*>>& signatures) {
  std::vector<size_t> best;
  sema::Rating best_rating;
  for (size_t s = 0; s < signatures.size(); ++s) {
    const auto& params = signatures[s];
    if (params.size() != actual.size()) continue;
    sema::Rating r;
    bool fits = true;
    for (size_t i = 0; i < actual.size() && fits; ++i) {
      auto k = known(m, actual[i], params[i]);
      if (k) r.add(*k);
      fits = k.has_value();
    }
    if (!fits) continue;
    if (best.empty() || r < best_rating) {
      best.assign(1, s);
      best_rating = r;
    } else if (r == best_rating) {
      best.push_back(s);
    }
  }
  return best;
}

// install_possible_conversions for each signature in turn: the argument
// conversions the type manager lacks are learned until one argument does
// not convert. True when some signature's arguments all convert.
bool learn_conversions(Manager& m, const std::vector<const ir::Type*>& actual,
                       const std::vector<std::vector<const ir::Type*>>& signatures) {
  bool found = false;
  for (const auto& params : signatures) {
    if (params.size() != actual.size()) continue;
    bool all = true;
    for (size_t i = 0; i < actual.size() && all; ++i) {
      if (known(m, actual[i], params[i])) continue;
      auto k = sema::conversion_kind(actual[i], params[i]);
      if (k) {
        m.learned[{actual[i], params[i]}] = *k;
        ++m.count;
      }
      all = k.has_value();
    }
    found = found || all;
  }
  return found;
}

// The typing context's resolve_overload(allow_ambiguous=False), which
// numba's _explain_ambiguous asks: the signatures tied for best by the
// whole relation.
std::vector<size_t> typing_context_ties(const std::vector<const ir::Type*>& actual,
                                        const std::vector<std::vector<const ir::Type*>>& signatures) {
  std::vector<ir::Signature> sigs(signatures.size());
  for (size_t s = 0; s < signatures.size(); ++s) sigs[s].args = signatures[s];
  return sema::best_signatures(actual, sigs);
}

}  // namespace

SignatureChoice choose_signature(TypeManager which, const std::vector<const ir::Type*>& actual,
                                 const std::vector<std::vector<const ir::Type*>>& signatures) {
  Manager& m = manager_of(which);
  std::lock_guard<std::mutex> lock(m.mutex);
  SignatureChoice out;
  std::vector<size_t> best;
  if (actual.empty()) {  // a nullary function: numba takes its first signature
    for (size_t s = 0; s < signatures.size() && best.empty(); ++s)
      if (signatures[s].empty()) best.push_back(s);
  } else {
    best = select_overload(m, actual, signatures);
    if (best.empty() && learn_conversions(m, actual, signatures)) best = select_overload(m, actual, signatures);
  }
  if (best.size() == 1) {
    out.outcome = SignatureChoice::Outcome::Chosen;
    out.index = best.front();
    out.exact = signatures[out.index] == actual;
    return out;
  }
  if (best.empty()) return out;
  out.tied = typing_context_ties(actual, signatures);
  out.outcome = out.tied.size() > 1 ? SignatureChoice::Outcome::Ambiguous : SignatureChoice::Outcome::Unexplained;
  return out;
}

std::uint64_t learned_conversions(TypeManager which) { return manager_of(which).count.load(); }

bool choice_outdated(TypeManager which, bool by_conversion, std::uint64_t learned_then) {
  return by_conversion && manager_of(which).count.load() != learned_then;
}

std::string type_list(const std::vector<const ir::Type*>& types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + types[i]->str();
  return s;
}

std::string numba_repr(const ir::Type* t) {
  if (!t->is_array()) return t->str();
  return concat("Array(", t->dtype->str(), ", ", t->ndim, ", '",
                (t->layout == ir::Layout::C   ? "C"
                 : t->layout == ir::Layout::F ? "F"
                                              : "A"),
                "', ", t->readonly ? "True" : "False", ", aligned=True)");
}

std::string numba_reprs(const std::vector<const ir::Type*>& types) {
  std::string s = "(";
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + numba_repr(types[i]);
  // A one-element tuple prints with its comma, as Python's repr does.
  return s + (types.size() == 1 ? ",)" : ")");
}

}  // namespace cuhost::python
