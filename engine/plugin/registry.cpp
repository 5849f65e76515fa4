// Plugin discovery, conflict checks and in-memory plugins (see registry.h).
#include "plugin/registry.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <sstream>

#include "support/cache_files.h"
#include "support/diagnostics.h"
#include "support/folder_trust.h"
#include "support/hash.h"
#include "support/install_layout.h"

namespace cuhost::plugin {

namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A clean absolute path (symbolic links and ".." resolved) when the folder
// exists, so messages name plugins the same way however they were found.
std::string absolute(const std::string& p) {
  char resolved[PATH_MAX];
  if (realpath(p.c_str(), resolved)) return resolved;
  if (!p.empty() && p[0] == '/') return p;
  char buf[4096];
  if (!getcwd(buf, sizeof(buf))) return p;
  return std::string(buf) + "/" + p;
}

std::vector<std::string> split_colon(const char* text) {
  std::vector<std::string> out;
  if (!text) return out;
  std::istringstream parts(text);
  std::string part;
  while (std::getline(parts, part, ':'))
    if (!part.empty()) out.push_back(part);
  return out;
}

// The plugin folders one search entry contributes, sorted by name.
std::vector<std::string> plugin_dirs_in(const std::string& entry) {
  if (is_file(entry + "/plugin.toml")) return {entry};
  std::vector<std::string> out;
  DIR* d = opendir(entry.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string sub = entry + "/" + name;
    if (is_dir(sub) && is_file(sub + "/plugin.toml")) out.push_back(sub);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::mutex g_mutex;
std::vector<std::string> g_in_memory_dirs;
std::vector<std::string> g_configured_dirs;

}  // namespace

void set_configured_folders(std::vector<std::string> folders) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_configured_dirs = std::move(folders);
}

void add_configured_folder(const std::string& folder) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_configured_dirs.push_back(folder);
}

std::vector<std::string> search_path() {
  std::vector<std::string> out;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const auto& p : g_configured_dirs) out.push_back(absolute(p));
  }
  for (const auto& p : split_colon(std::getenv("CUHOST_PLUGIN_PATH"))) out.push_back(absolute(p));
  std::string installed = support::installed_plugins_dir();
  if (!installed.empty() && is_dir(installed)) out.push_back(installed);
  return out;
}

std::vector<PluginRecord> scan() {
  std::vector<std::string> dirs;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    dirs = g_in_memory_dirs;
  }
  for (const auto& entry : search_path())
    for (const auto& d : plugin_dirs_in(entry))
      if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);

  std::vector<PluginRecord> out;
  std::map<std::string, std::string> name_owner;    // plugin name -> folder
  std::map<std::string, std::string> symbol_owner;  // symbol -> plugin name
  for (const auto& dir : dirs) {
    PluginRecord r;
    r.directory = dir;
    r.name = dir.substr(dir.find_last_of('/') + 1);
    try {
      // A plugin folder someone else can write could hand cuhost their library.
      if (std::string why = support::untrusted_folder_reason(dir, support::OwnerRule::CurrentUserOrRoot);
          !why.empty()) {
        support::warn_untrusted_folder("the plugin folder", dir, why, "its plugin is not loaded");
        throw UserError(ErrorKind::PluginError, concat("plugin folder ", dir, " is not trusted: ", why));
      }
      r.manifest = load_manifest(dir);
      r.name = r.manifest.name;
      if (auto it = name_owner.find(r.name); it != name_owner.end())
        throw UserError(ErrorKind::PluginError, concat("plugin '", r.name, "' (", dir,
                                                       "): the name is already taken by the plugin in ", it->second));
      for (const auto& f : r.manifest.functions)
        if (auto it = symbol_owner.find(f.symbol); it != symbol_owner.end())
          throw UserError(ErrorKind::PluginError,
                          concat("plugin '", r.name, "' (", r.manifest.manifest_path, "): symbol '", f.symbol,
                                 "' is already defined by plugin '", it->second, "'"));
      name_owner[r.name] = dir;
      for (const auto& f : r.manifest.functions) symbol_owner[f.symbol] = r.name;
      r.loaded = true;
    } catch (const UserError& e) {
      r.loaded = false;
      r.reason = e.what();
    }
    out.push_back(std::move(r));
  }
  return out;
}

void register_in_memory(const std::string& manifest_text, const std::map<std::string, std::string>& files,
                        const std::string& origin) {
  Hasher h;
  h.add(manifest_text);
  for (const auto& [name, data] : files) {
    h.add(name);
    h.add(data);
  }
  // In the private cache folder (or a fresh private temporary one): a
  // predictable name in a shared folder could be planted by another user.
  std::string base = cache_folder("plugins");
  if (base.empty()) {
    char tmpl[] = "/tmp/cuhost-plugins-XXXXXX";
    if (!mkdtemp(tmpl))
      throw UserError(ErrorKind::PluginError, concat("in-memory plugin ", origin, ": cannot create a private folder"));
    base = tmpl;
  }
  std::string dir = base + "/" + h.hex();
  mkdir(dir.c_str(), 0700);
  for (const auto& [name, data] : files) {
    if (name.find("..") != std::string::npos || name.empty() || name[0] == '/')
      throw UserError(ErrorKind::PluginError, concat("in-memory plugin ", origin, ": invalid file name '", name, "'"));
    std::string path = dir + "/" + name;
    for (size_t pos = path.find('/', dir.size() + 1); pos != std::string::npos; pos = path.find('/', pos + 1))
      mkdir(path.substr(0, pos).c_str(), 0700);
    write_file_atomically(path, data);
  }
  write_file_atomically(dir + "/plugin.toml", manifest_text);
  parse_manifest(manifest_text, origin, dir);  // validate now: the embedder hears of errors at once
  std::lock_guard<std::mutex> lock(g_mutex);
  if (std::find(g_in_memory_dirs.begin(), g_in_memory_dirs.end(), dir) == g_in_memory_dirs.end())
    g_in_memory_dirs.push_back(dir);
}

}  // namespace cuhost::plugin
