// plugin.toml parsing and validation (see manifest.h), with toml++ from
// Debian. Validation is strict: unknown keys are errors too, so a typo in a
// vendor's manifest is reported instead of silently ignored.
#include "plugin/manifest.h"

#include <sys/stat.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

#include "ir/type_parser.h"
#include "support/diagnostics.h"

namespace cuhost::plugin {

namespace {

class Validator {
 public:
  Validator(std::string origin, std::string directory) : origin_(std::move(origin)), directory_(std::move(directory)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    std::string who = plugin_name_.empty() ? "plugin" : "plugin '" + plugin_name_ + "'";
    throw UserError(ErrorKind::PluginError, concat(who, " (", origin_, "): field '", field, "': ", problem));
  }

  void set_name(const std::string& n) { plugin_name_ = n; }

  std::string required_string(const toml::table& t, const std::string& key, const std::string& field) const {
    const toml::node* n = t.get(key);
    if (!n) fail(field, "missing (a string is required)");
    auto v = n->value<std::string>();
    if (!v || !n->is_string()) fail(field, "must be a string");
    if (v->empty()) fail(field, "must not be empty");
    return *v;
  }

  std::string optional_string(const toml::table& t, const std::string& key, const std::string& field) const {
    const toml::node* n = t.get(key);
    if (!n) return "";
    if (!n->is_string()) fail(field, "must be a string");
    return *n->value<std::string>();
  }

  std::vector<std::string> string_list(const toml::table& t, const std::string& key, const std::string& field) const {
    std::vector<std::string> out;
    const toml::node* n = t.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) fail(field, "must be a list of strings");
    for (size_t i = 0; i < a->size(); ++i) {
      const toml::node& e = *a->get(i);
      if (!e.is_string()) fail(concat(field, "[", i, "]"), "must be a string");
      out.push_back(*e.value<std::string>());
    }
    return out;
  }

  void only_keys(const toml::table& t, const std::set<std::string>& allowed, const std::string& where) const {
    for (const auto& [k, v] : t) {
      std::string key(k.str());
      if (!allowed.count(key)) fail(where.empty() ? key : where + "." + key, "unknown key");
    }
  }

  std::string existing_path(const std::string& rel, const std::string& field, bool directory) const {
    std::string path = !rel.empty() && rel[0] == '/' ? rel : directory_ + "/" + rel;
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) fail(field, concat("file not found: '", rel, "' (looked in ", directory_, ")"));
    if (directory != S_ISDIR(st.st_mode))
      fail(field, concat("'", rel, "' is ", directory ? "not a folder" : "a folder"));
    return path;
  }

 private:
  std::string origin_;
  std::string directory_;
  std::string plugin_name_;
};

const std::regex kIdentifier("^[A-Za-z_][A-Za-z0-9_]*$");

}  // namespace

Manifest parse_manifest(const std::string& text, const std::string& origin, const std::string& directory) {
  Validator v(origin, directory);
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw UserError(ErrorKind::PluginError, concat("plugin manifest ", origin, ":", where.line, ":", where.column,
                                                   ": invalid TOML: ", e.description()));
  }
  v.only_keys(root, {"plugin", "build", "functions"}, "");

  Manifest m;
  m.directory = directory;
  m.manifest_path = origin;
  const toml::table* plugin = root["plugin"].as_table();
  if (!plugin) v.fail("plugin", "missing [plugin] table");
  v.only_keys(*plugin, {"name", "version", "format", "description"}, "plugin");
  m.name = v.required_string(*plugin, "name", "plugin.name");
  if (!std::regex_match(m.name, kIdentifier)) v.fail("plugin.name", "'" + m.name + "' is not a Python identifier");
  v.set_name(m.name);
  m.version = v.required_string(*plugin, "version", "plugin.version");
  const toml::node* fmt = plugin->get("format");
  if (!fmt)
    v.fail("plugin.format", concat("missing (the plugin format version; this cuhost reads ", kFormatVersion, ")"));
  if (!fmt->is_integer()) v.fail("plugin.format", "must be an integer");
  m.format = static_cast<int>(*fmt->value<std::int64_t>());
  if (m.format != kFormatVersion)
    v.fail("plugin.format",
           concat("format ", m.format, " is not supported (this cuhost reads format ", kFormatVersion, ")"));
  m.description = v.optional_string(*plugin, "description", "plugin.description");

  if (const toml::node* b = root.get("build")) {
    const toml::table* build = b->as_table();
    if (!build) v.fail("build", "must be a table");
    v.only_keys(*build, {"link", "include_dirs", "cpu_sources", "host_library", "host_setup", "host_teardown"},
                "build");
    auto link = v.string_list(*build, "link", "build.link");
    for (size_t i = 0; i < link.size(); ++i)
      m.link.push_back(v.existing_path(link[i], concat("build.link[", i, "]"), false));
    auto inc = v.string_list(*build, "include_dirs", "build.include_dirs");
    for (size_t i = 0; i < inc.size(); ++i)
      m.include_dirs.push_back(v.existing_path(inc[i], concat("build.include_dirs[", i, "]"), true));
    auto cpu = v.string_list(*build, "cpu_sources", "build.cpu_sources");
    for (size_t i = 0; i < cpu.size(); ++i)
      m.cpu_sources.push_back(v.existing_path(cpu[i], concat("build.cpu_sources[", i, "]"), false));
    std::string host = v.optional_string(*build, "host_library", "build.host_library");
    if (!host.empty()) m.host_library = v.existing_path(host, "build.host_library", false);
    std::string setup = v.optional_string(*build, "host_setup", "build.host_setup");
    std::string teardown = v.optional_string(*build, "host_teardown", "build.host_teardown");
    for (const char* key : {"host_setup", "host_teardown"}) {
      if (!build->get(key)) continue;
      std::string field = concat("build.", key), value = *build->get(key)->value<std::string>();
      if (host.empty()) v.fail(field, "needs build.host_library (the library to look it up in)");
      if (!std::regex_match(value, kIdentifier)) v.fail(field, "'" + value + "' is not a C symbol name");
    }
    if (!host.empty()) {
      m.host_setup = setup.empty() ? "cuhost_plugin_setup" : setup;
      m.host_teardown = teardown.empty() ? "cuhost_plugin_teardown" : teardown;
      m.host_teardown_required = !teardown.empty();
    }
  }

  const toml::node* fns = root.get("functions");
  if (!fns) v.fail("functions", "missing (declare at least one [[functions]] entry)");
  const toml::array* arr = fns->as_array();
  if (!arr || arr->empty()) v.fail("functions", "must be a non-empty array of tables ([[functions]])");
  std::set<std::string> names, symbols;
  for (size_t i = 0; i < arr->size(); ++i) {
    std::string field = concat("functions[", i, "]");
    const toml::table* t = arr->get(i)->as_table();
    if (!t) v.fail(field, "must be a table");
    v.only_keys(*t, {"name", "symbol", "signature", "abi", "doc"}, field);
    FunctionDecl f;
    f.python_name = v.required_string(*t, "name", field + ".name");
    if (!std::regex_match(f.python_name, kIdentifier))
      v.fail(field + ".name", "'" + f.python_name + "' is not a Python identifier");
    f.symbol = v.optional_string(*t, "symbol", field + ".symbol");
    if (f.symbol.empty()) f.symbol = f.python_name;
    f.signature = v.required_string(*t, "signature", field + ".signature");
    try {
      ir::Signature sig = ir::parse_signature(f.signature);
      if (!sig.return_type)
        v.fail(field + ".signature", "'" + f.signature + "' has no return type (write void(...) for none)");
    } catch (const UserError& e) {
      v.fail(field + ".signature", concat("invalid signature '", f.signature, "': ", e.message()));
    }
    std::string abi = v.optional_string(*t, "abi", field + ".abi");
    if (abi.empty() || abi == "c") {
      f.abi = ir::Abi::C;
    } else if (abi == "numba") {
      f.abi = ir::Abi::Numba;
    } else {
      v.fail(field + ".abi", "unknown ABI '" + abi + "' (expected 'c' or 'numba')");
    }
    f.doc = v.optional_string(*t, "doc", field + ".doc");
    if (!names.insert(f.python_name).second) v.fail(field + ".name", "'" + f.python_name + "' is declared twice");
    if (!symbols.insert(f.symbol).second) v.fail(field + ".symbol", "'" + f.symbol + "' is declared twice");
    m.functions.push_back(std::move(f));
  }
  return m;
}

Manifest load_manifest(const std::string& directory) {
  std::string path = directory + "/plugin.toml";
  std::ifstream in(path);
  if (!in) throw UserError(ErrorKind::PluginError, concat("plugin folder ", directory, " has no readable plugin.toml"));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_manifest(ss.str(), path, directory);
}

}  // namespace cuhost::plugin
