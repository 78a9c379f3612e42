#include "rewrite/cpp/outside_db.h"

#include "support/file_io.h"
#include "support/source_files.h"
#include "support/walk.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <filesystem>

namespace gridlock::rewrite::cpp {
namespace {

// A directory gridlock should not search: hidden (.git), or a build tree (its generated
// sources are not the user's code, and the compile database is there).
bool skipDirectory(const std::string& dir) {
  llvm::StringRef name = llvm::sys::path::filename(dir);
  if (name.starts_with(".")) return true;
  return llvm::sys::fs::exists(dir + "/CMakeCache.txt") ||
         llvm::sys::fs::exists(dir + "/compile_commands.json");
}

// The last component of a qualified name; a constructor `ns::Foo::Foo` is named `Foo`.
std::string unqualified(const std::string& name) {
  size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

void scanFile(const std::string& text, const std::string& file,
              const std::map<std::string, std::string>& byName, std::vector<OutsideUse>& out) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = true;
  lang.CPlusPlus20 = true;
  clang::Lexer lexer(clang::SourceLocation(), lang, text.data(), text.data(),
                     text.data() + text.size());
  clang::Token tok;
  while (!lexer.LexFromRawLexer(tok)) {
    if (!tok.is(clang::tok::raw_identifier)) continue;
    auto it = byName.find(tok.getRawIdentifier().str());
    if (it == byName.end()) continue;
    size_t offset = tok.getRawIdentifier().data() - text.data();
    unsigned line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
    size_t lineStart = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    unsigned column =
        offset - (lineStart == std::string::npos || offset == 0 ? 0 : lineStart + 1) + 1;
    out.push_back({file, line, column, it->second});
  }
}

}  // namespace

OutsideSearch findOutsideUses(const std::string& root, const std::set<std::string>& seen,
                              const std::map<std::string, std::string>& signatures) {
  OutsideSearch out;
  std::map<std::string, std::string> byName;  // unqualified -> a qualified name it stands for
  for (const auto& [usr, name] : signatures)
    // In an anonymous namespace: only the unit that defines it can name it, and that was seen.
    if (name.find("(anonymous namespace)") == std::string::npos)
      byName.emplace(unqualified(name), name);
  if (byName.empty()) return out;
  auto relative = [&](const std::string& path) {
    llvm::SmallString<256> rel(path);
    llvm::sys::path::replace_path_prefix(rel, root + "/", "");
    return rel.str().str();
  };
  auto visit = [&](const std::filesystem::directory_entry& e) {
    const std::string path = e.path().string();
    std::error_code ec;
    if (e.is_directory(ec)) return !e.is_symlink(ec) && !skipDirectory(path);
    if (!support::isCxxSource(path)) return false;
    std::string file = relative(path);
    if (seen.count(file)) return false;
    std::optional<std::string> text = support::readFile(path);
    if (!text)
      out.unreadable.push_back(file);
    else
      scanFile(*text, file, byName, out.uses);
    return false;
  };
  // A directory not searched is said as a file not read is: its callers would go unseen.
  support::walkTree(root, visit, [&](const support::WalkError& e) {
    out.unreadable.push_back(relative(e.dir()) + "/");
  });
  std::sort(out.unreadable.begin(), out.unreadable.end());
  std::sort(out.uses.begin(), out.uses.end(), [](const OutsideUse& a, const OutsideUse& b) {
    return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
  });
  return out;
}

}  // namespace gridlock::rewrite::cpp
