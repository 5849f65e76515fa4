// The per-thread NRT typing switch (see nrt_scope.h).
#include "sema/nrt_scope.h"

namespace cuhost::sema {

namespace {
thread_local bool t_nrt = false;
}

bool typing_with_nrt() { return t_nrt; }
NrtTypingScope::NrtTypingScope(bool enabled) : previous_(t_nrt) { t_nrt = enabled; }
NrtTypingScope::~NrtTypingScope() { t_nrt = previous_; }

}  // namespace cuhost::sema
