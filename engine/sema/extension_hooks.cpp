// The installed extension-API hooks (see extension_hooks.h): set once by the
// Python layer when the `cuda` module starts, read by typing.
#include "sema/extension_hooks.h"

#include <atomic>

namespace cuhost::sema {

namespace {
std::atomic<ExtensionHooks*> g_hooks{nullptr};
}

ExtensionHooks* extension_hooks() { return g_hooks.load(std::memory_order_acquire); }

void set_extension_hooks(ExtensionHooks* hooks) { g_hooks.store(hooks, std::memory_order_release); }

namespace {
thread_local bool t_host_typing = false;
}

bool typing_for_host() { return t_host_typing; }
HostTypingScope::HostTypingScope() : previous_(t_host_typing) { t_host_typing = true; }
HostTypingScope::~HostTypingScope() { t_host_typing = previous_; }

}  // namespace cuhost::sema
