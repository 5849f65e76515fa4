// Whether a folder cuhost reads code from (the compile caches, plugin
// folders) can be changed by anyone but the user running cuhost. A cache or
// plugin folder another user can write lets that user make cuhost load
// their machine code, so such folders are refused, with one warning each,
// as pip and ccache refuse theirs.
#pragma once

#include <string>

namespace cuhost::support {

enum class OwnerRule {
  CurrentUser,        // the folder must belong to the user running cuhost (caches)
  CurrentUserOrRoot,  // root's folders are trusted too (installed plugins)
};

// Why `dir` is not trusted, or "" when it is: the folder must exist, be a
// folder, belong to the owner `rule` allows, and be writable by no one else
// (no group or other write permission); each folder above it must belong to
// the current user or root and, when others may write it, carry the sticky
// bit (as /tmp does), so no one else can rename the folder away.
std::string untrusted_folder_reason(const std::string& dir, OwnerRule rule);

// Prints "cuhost: warning: not using <what> <dir>: <reason>; <consequence>"
// on stderr, once per folder and process.
void warn_untrusted_folder(const std::string& what, const std::string& dir, const std::string& reason,
                           const std::string& consequence);

}  // namespace cuhost::support
