// The in-memory layer of the compile's cache path: one compiled product per
// specialization for the process, shared by the compile lookup
// (compile_lookup.cpp: kernels and device functions) and host njit
// (host_function.cpp) so both look up and keep their products the same way. An entry remembers the function it was
// compiled from, so a new function at a reused address never finds it.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "model/jit_function.h"

namespace cuhost::runtime {

template <class Key, class Product>
class CompileMemo {
 public:
  // The product kept for `key` from `fn`, or null.
  std::shared_ptr<const Product> find(const Key& key, const std::shared_ptr<model::JitFunction>& fn) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    if (it->second.owner.lock() == fn) return it->second.product;
    entries_.erase(it);  // compiled from a function that is gone
    return nullptr;
  }

  // Keeps `product` for `key`; when another thread kept one for the same
  // function first, that one is returned (and used by both).
  std::shared_ptr<const Product> keep(const Key& key, const std::shared_ptr<model::JitFunction>& fn,
                                      std::shared_ptr<const Product> product) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = entries_.emplace(key, Entry{fn, product});
    if (!inserted && it->second.owner.lock() != fn) it->second = Entry{fn, product};
    return it->second.product;
  }

 private:
  struct Entry {
    std::weak_ptr<model::JitFunction> owner;
    std::shared_ptr<const Product> product;
  };
  std::mutex mutex_;
  std::map<Key, Entry> entries_;
};

}  // namespace cuhost::runtime
