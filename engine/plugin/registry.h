// Plugin discovery and trust. Only folders on the search path are loaded:
// --plugin-path / Runtime::add_plugin_path entries, then CUHOST_PLUGIN_PATH,
// then the installed plugins folder (<data folder>/plugins, support/install_layout.h). A search entry is
// either a plugin folder (it holds plugin.toml) or a folder of plugin
// folders. Names and symbols may not shadow each other: the first plugin
// found keeps them and a later one is refused with the reason. A refused
// plugin never stops the others.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "plugin/manifest.h"

namespace cuhost::plugin {

struct PluginRecord {
  std::string directory;  // the plugin folder
  std::string name;       // from the manifest, or the folder name when it could not be read
  bool loaded = false;
  std::string reason;  // why it was refused
  Manifest manifest;   // valid when loaded
};

// The folders searched, in order.
std::vector<std::string> search_path();

// The folders searched before CUHOST_PLUGIN_PATH (RuntimeOptions::plugin_paths,
// then folders added at run time). The runtime sets them; scripts add to them.
void set_configured_folders(std::vector<std::string> folders);
void add_configured_folder(const std::string& folder);

// Scans the search path (and in-memory plugins) and returns every plugin
// found, loaded or refused, in search order.
std::vector<PluginRecord> scan();

// Registers a plugin given as data by an embedding application: the manifest
// text and its files (relative name -> contents). The files are written to a
// private folder under the cache directory, and the plugin joins the scan
// before any folder on the search path. Throws UserError(PluginError) for a
// bad manifest.
void register_in_memory(const std::string& manifest_text, const std::map<std::string, std::string>& files,
                        const std::string& origin);

}  // namespace cuhost::plugin
