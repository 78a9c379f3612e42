#include "cache/key.h"

#include "facts/binary_codec.h"
#include "support/file_io.h"

#include <elf.h>
#include <link.h>

#include <cctype>
#include <cstring>

namespace gridlock::cache {
namespace {

// The NT_GNU_BUILD_ID note of the main program, as hex; "" when it has none.
std::string elfBuildId() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) -> int {
        // The first object is the main program.
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
          const char* end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const char* name = p + sizeof(ElfW(Nhdr));
            const char* desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              static const char* hex = "0123456789abcdef";
              auto* s = static_cast<std::string*>(out);
              for (unsigned k = 0; k < note->n_descsz; ++k) {
                unsigned char c = static_cast<unsigned char>(desc[k]);
                *s += hex[c >> 4];
                *s += hex[c & 15];
              }
              return 1;
            }
            p = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &id);
  return id;
}

}  // namespace

std::string gridlockBuildId() {
  static const std::string id = [] {
    std::string elf = elfBuildId();
    if (!elf.empty()) return "build-id " + elf;
    std::optional<std::string> exe = support::fileDigest("/proc/self/exe");
    return "md5 " + exe.value_or("unknown");
  }();
  return id;
}

std::string slotOf(const std::string& root, const std::string& file, bool rewriteFacts) {
  return support::md5Hex(root + '\0' + file + '\0' + (rewriteFacts ? "rewrite" : "scan"));
}

// Keys hold paths and arguments as the bytes they are (not always UTF-8, which JSON text would
// refuse): each piece with its length before it.
std::string commandKey(const std::vector<Command>& commands) {
  codec::bin::Writer w;
  w.varint(commands.size());
  for (const auto& c : commands) {
    w.bytes(c.directory);
    w.bytes(c.file);
    w.varint(c.args.size());
    for (const auto& a : c.args) w.bytes(a);
  }
  return std::move(w.out);
}

std::string linksKey(const std::map<std::string, std::string>& links) {
  codec::bin::Writer w;
  w.varint(links.size());
  for (const auto& [real, rel] : links) {
    w.bytes(real);
    w.bytes(rel);
  }
  return std::move(w.out);
}

std::optional<std::uint64_t> parseSize(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
  size_t end = 0;
  std::uint64_t n = 0;
  try {
    n = std::stoull(text, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit = text.substr(end);
  if (unit == "") return n;
  const std::string units = "KMGT";
  if (unit.size() != 1 || units.find(unit[0]) == std::string::npos) return std::nullopt;
  for (size_t i = 0; i <= units.find(unit[0]); ++i) n *= 1024;
  return n;
}

}  // namespace gridlock::cache
