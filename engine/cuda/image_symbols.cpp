// Global-variable names of PTX and cubin images (see image_symbols.h).
// The cubin reader takes every defined symbol that is not a function,
// section or file: globals are OBJECT symbols (LOCAL binding for
// __device__ and __constant__ variables), and counting a name too many
// only costs a lookup, while one too few would hide a global.
#include "cuda/image_symbols.h"

#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

namespace cuhost::cuda {

namespace {

template <typename T>
bool read_at(const std::string& image, std::uint64_t offset, T* out) {
  if (offset > image.size() || image.size() - offset < sizeof(T)) return false;
  std::memcpy(out, image.data() + offset, sizeof(T));
  return true;
}

// ELF64, little-endian (every cubin nvJitLink and ptxas produce).
std::optional<GlobalNames> elf_globals(const std::string& image) {
  if (image.size() < 64 || image[4] != 2 /* ELFCLASS64 */ || image[5] != 1 /* little-endian */) return std::nullopt;
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0;
  if (!read_at(image, 0x28, &shoff) || !read_at(image, 0x3a, &shentsize) || !read_at(image, 0x3c, &shnum) ||
      shentsize < 64)
    return std::nullopt;
  auto section = [&](std::uint32_t index, std::uint32_t* type, std::uint64_t* offset, std::uint64_t* size,
                     std::uint32_t* link, std::uint64_t* entsize) {
    const std::uint64_t at = shoff + std::uint64_t{index} * shentsize;
    return read_at(image, at + 0x04, type) && read_at(image, at + 0x18, offset) && read_at(image, at + 0x20, size) &&
           read_at(image, at + 0x28, link) && read_at(image, at + 0x38, entsize);
  };
  GlobalNames names;
  bool found_symtab = false;
  for (std::uint32_t i = 0; i < shnum; ++i) {
    std::uint32_t type = 0, link = 0;
    std::uint64_t offset = 0, size = 0, entsize = 0;
    if (!section(i, &type, &offset, &size, &link, &entsize)) return std::nullopt;
    if (type != 2 /* SHT_SYMTAB */) continue;
    found_symtab = true;
    std::uint32_t str_type = 0, str_link = 0;
    std::uint64_t str_offset = 0, str_size = 0, str_entsize = 0;
    if (link >= shnum || !section(link, &str_type, &str_offset, &str_size, &str_link, &str_entsize) ||
        str_offset > image.size() || image.size() - str_offset < str_size)
      return std::nullopt;
    if (entsize < 24 || offset > image.size() || image.size() - offset < size) return std::nullopt;
    for (std::uint64_t at = offset; at + 24 <= offset + size; at += entsize) {
      std::uint32_t name = 0;
      std::uint8_t info = 0;
      std::uint16_t shndx = 0;
      read_at(image, at, &name);
      read_at(image, at + 4, &info);
      read_at(image, at + 6, &shndx);
      const int kind = info & 0xf;  // STT_FUNC 2, STT_SECTION 3, STT_FILE 4
      if (shndx == 0 || kind == 2 || kind == 3 || kind == 4 || name >= str_size) continue;
      const char* text = image.data() + str_offset + name;
      names.insert(std::string(text, strnlen(text, str_size - name)));
    }
  }
  if (!found_symtab) return std::nullopt;
  return names;
}

// `.global` and `.const` declarations at module scope that are not
// `.extern`: "[.visible|.weak|.common] (.global|.const) [.align N] .type
// name[N] [= {...}];".
std::optional<GlobalNames> ptx_globals(const std::string& image) {
  GlobalNames names;
  std::istringstream lines(image);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line.substr(0, line.find('=')));
    std::string word;
    bool state_space = false, external = false;
    std::string last;
    while (words >> word) {
      if (!state_space && word != ".visible" && word != ".weak" && word != ".common" && word != ".extern" &&
          word != ".global" && word != ".const")
        break;  // an instruction, a function, another directive
      if (word == ".extern") external = true;
      if (word == ".global" || word == ".const") state_space = true;
      last = word;
    }
    if (!state_space || external || last.empty() || last[0] == '.') continue;
    std::string name = last.substr(0, last.find_first_of("[;,"));
    if (!name.empty()) names.insert(name);
  }
  return names;
}

struct Registry {
  std::mutex mutex;
  std::map<std::uintptr_t, std::optional<GlobalNames>> libraries;
};
Registry& registry() {
  static auto* r = new Registry();  // never destroyed: libraries are unloaded at exit
  return *r;
}

}  // namespace

std::optional<GlobalNames> defined_globals(const std::string& image) {
  if (image.size() >= 4 && std::memcmp(image.data(),
                                       "\x7f"
                                       "ELF",
                                       4) == 0)
    return elf_globals(image);
  if (image.find(".version") != std::string::npos && image.find(".target") != std::string::npos)
    return ptx_globals(image);
  return std::nullopt;
}

void remember_library_globals(std::uintptr_t library, std::optional<GlobalNames> names) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.libraries[library] = std::move(names);
}

void forget_library_globals(std::uintptr_t library) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.libraries.erase(library);
}

bool library_may_define(std::uintptr_t library, const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.libraries.find(library);
  return it == r.libraries.end() || !it->second || it->second->count(name) > 0;
}

}  // namespace cuhost::cuda
