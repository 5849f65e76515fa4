// The on-disk compile caches' files (kernels, cubins, NVRTC and host-C++
// outputs): where they live and how they are written and read so that no
// other user can plant or alter what cuhost loads. Folders are made 0700 and
// refused when another user could write them (folder_trust.h); entries are
// written through an unpredictable temporary file and renamed; no symbolic
// link is followed, at an entry's path or at its temporary path.
#pragma once

#include <string>

namespace cuhost {

// The per-user cache folder for a kind of artifact ("nvrtc", "host-cxx"):
// $CUHOST_CACHE_DIR/<kind>, else $XDG_CACHE_HOME/cuhost/<kind>, else
// ~/.cache/cuhost/<kind>; created on demand with mode 0700. Empty when none
// can be determined, or when the folder is not trusted: then a warning names
// it once and the caller caches in memory only.
std::string cache_folder(const std::string& kind);

// Writes `data` to `path` whole or not at all: a new file with a random name
// beside it (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600), renamed over `path`
// (which replaces a symbolic link there instead of following it). False when
// it could not be written: a cache that cannot be written is only slower.
bool write_file_atomically(const std::string& path, const std::string& data);

// Reads the cache entry at `path` when it is a regular file of the current
// user, opened without following a symbolic link; false otherwise (a miss).
bool read_cache_entry(const std::string& path, std::string& out);

}  // namespace cuhost
