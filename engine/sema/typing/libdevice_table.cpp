// Reads the generated libdevice table once (libdevice_table.inc).
#include "sema/typing/libdevice_table.h"

#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace cuhost::sema {
namespace {

const char kTable[] =
#include "sema/typing/libdevice_table.inc"
    ;

const ir::Type* type_named(const std::string& n) {
  static const std::map<std::string, const ir::Type*> types = {
      {"void", ir::void_type()}, {"i16", ir::int16()},   {"u16", ir::uint16()},
      {"i32", ir::int32()},      {"u32", ir::uint32()},  {"i64", ir::int64()},
      {"u64", ir::uint64()},     {"f32", ir::float32()}, {"f64", ir::float64()}};
  auto it = types.find(n);
  if (it == types.end()) throw std::logic_error("libdevice table: unknown type " + n);
  return it->second;
}

struct Table {
  std::vector<LibdeviceFunction> list;
  std::map<std::string, size_t> index;
};

const Table& table() {
  static const Table t = [] {
    Table out;
    std::istringstream lines(kTable);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      LibdeviceFunction f;
      std::string result, word;
      if (!(words >> f.name >> result)) continue;
      f.result = type_named(result);
      while (words >> word) {
        LibdeviceParam p;
        p.out = word[0] == '*';
        std::size_t colon = word.find(':');
        p.name = word.substr(p.out ? 1 : 0, colon - (p.out ? 1 : 0));
        p.type = type_named(word.substr(colon + 1));
        f.params.push_back(std::move(p));
      }
      out.index[f.name] = out.list.size();
      out.list.push_back(std::move(f));
    }
    return out;
  }();
  return t;
}

}  // namespace

bool LibdeviceFunction::has_outputs() const {
  for (const LibdeviceParam& p : params)
    if (p.out) return true;
  return false;
}

const ir::Type* LibdeviceFunction::python_result() const {
  if (!has_outputs()) return result;
  std::vector<const ir::Type*> elements;
  if (result != ir::void_type()) elements.push_back(result);
  for (const LibdeviceParam& p : params)
    if (p.out) elements.push_back(p.type);
  return ir::tuple(elements);
}

const LibdeviceFunction* libdevice_function(const std::string& name) {
  const Table& t = table();
  auto it = t.index.find(name);
  return it == t.index.end() ? nullptr : &t.list[it->second];
}

const std::vector<LibdeviceFunction>& libdevice_functions() { return table().list; }

}  // namespace cuhost::sema
