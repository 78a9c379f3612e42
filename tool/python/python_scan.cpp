#include "python/python_scan.h"

#include "cache/key.h"
#include "cache/sealed.h"
#include "cache/stamp_table.h"
#include "cache/store.h"
#include "facts/facts_codec.h"
#include "python/module_codec.h"
#include "python/module_index.h"
#include "python/parallel.h"
#include "rules/rules_codec.h"
#include "support/file_io.h"
#include "support/mapped_file.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace gridlock::python {
namespace {

namespace fs = std::filesystem;

// The literal directory a glob starts in: its components before the first with a wildcard.
std::string literalPrefix(const std::string& glob) {
  std::string out;
  size_t start = 0;
  while (start <= glob.size()) {
    size_t slash = glob.find('/', start);
    std::string part = glob.substr(start, slash == std::string::npos ? slash : slash - start);
    if (part.find_first_of("*?[{") != std::string::npos) return out;
    if (slash == std::string::npos) return out;  // a file name: its directory
    out += (out.empty() ? "" : "/") + part;
    start = slash + 1;
  }
  return out;
}

bool under(const std::string& file, const std::string& dir) {
  return dir.empty() || file == dir ||
         (file.size() > dir.size() && file[dir.size()] == '/' &&
          file.compare(0, dir.size(), dir) == 0);
}

// Step one through the cache: a module's facts depend on its path and bytes alone, and on the
// gridlock build that made them. All of a root's modules are one cache entry (one write, one
// sync, however many files), and the resolved program another. A third records each file's
// stamp beside its key, so that an unchanged file is stat'ed, not read (stamp_table.h).
// Each entry is sealed (cache/sealed.h): a damaged one is discarded with a warning, never
// decoded into facts.
class ModuleCache {
 public:
  explicit ModuleCache(const PythonScan& scan) {
    if (scan.cacheDir.empty()) return;
    try {
      store_.emplace(scan.cacheDir, scan.cacheBytes);
      build_ = cache::gridlockBuildId();
    } catch (const std::exception& e) {
      store_.reset();  // no cache directory: every module is parsed, as the C++ frontend says
      warnings_.push_back(std::string("cache: ") + e.what() + "; scanning without the cache");
      return;
    }
    slot_ = support::md5Hex(build_ + '\0' + "python-modules" + '\0' + scan.options.root + '\0' +
                            scan.options.packageRoot);
    stampsSlot_ = support::md5Hex(build_ + '\0' + "python-stamps" + '\0' + scan.options.root +
                                  '\0' + scan.options.packageRoot);
  }
  cache::StampTable stamps() {
    std::optional<std::string> bytes = read(stampsSlot_);
    if (!bytes) return {};
    std::optional<std::string_view> table =
        unsealed(kStamps, stampsSlot_, *bytes, "the Python files' stamps", "reading every file");
    return table ? cache::StampTable::decode(*table) : cache::StampTable();
  }
  void writeStamps(const cache::StampTable& table) const {
    write(stampsSlot_, cache::seal(kStamps, table.encode()));
  }
  // Reads the modules' entry (not needed when the program's entry answers).
  void open() {
    std::optional<std::string> bytes = read(slot_);
    if (!bytes) return;
    if (std::optional<std::string_view> records =
            unsealed(kModules, slot_, *bytes, "the Python modules' facts", "parsing every module"))
      unpack(*records);
  }
  // The program's units, unsealed; nothing (with a warning) when the entry is damaged.
  std::optional<std::string_view> unsealProgram(const std::string& slot, std::string_view bytes) {
    return unsealed(kProgram, slot, bytes, "the Python program", "resolving the modules");
  }
  std::string sealProgram(const std::string& units) const { return cache::seal(kProgram, units); }
  std::string keyOf(const std::string& file, const std::string& text) const {
    return support::md5Hex(build_ + '\0' + "python-module" + '\0' + file + '\0' + text);
  }
  std::optional<std::string> read(const std::string& slot) const {
    if (!store_) return std::nullopt;
    std::optional<std::string> bytes = store_->read(slot);
    if (bytes) store_->touch(slot);
    return bytes;
  }
  // The same, mapped: the program's entry (megatron/core's is 4 MB) is decoded where it lies,
  // not copied into a string first.
  std::optional<support::MappedFile> map(const std::string& slot) const {
    if (!store_) return std::nullopt;
    std::optional<support::MappedFile> bytes = store_->map(slot);
    if (bytes) store_->touch(slot);
    return bytes;
  }
  void write(const std::string& slot, const std::string& bytes) const {
    if (!store_) return;
    try {
      store_->write(slot, bytes);
    } catch (const std::exception&) {
      // A full disk or a read-only cache costs speed, never a result.
    }
  }
  // Facts that name another file are never taken for this one's.
  std::optional<ModuleFacts> load(const std::string& key, const std::string& file) const {
    auto it = old_.find(key);
    if (it == old_.end()) return std::nullopt;
    try {
      ModuleFacts m = decodeModuleFacts(it->second);
      if (m.file == file) return m;
    } catch (const std::exception&) {
      // damaged: parsed again and written over
    }
    return std::nullopt;
  }
  // The entry as this run leaves it: the modules it read, each once.
  void keep(const std::string& key, const ModuleFacts* parsed) {
    if (!store_ || key.empty()) return;
    auto it = old_.find(key);
    if (!parsed && it == old_.end()) return;
    fresh_[key] = parsed ? encodeModuleFacts(*parsed) : it->second;
    changed_ = changed_ || parsed;
  }
  void flush() {
    if (!store_ || (!changed_ && fresh_.size() == old_.size())) return;
    std::string out;
    for (const auto& [key, bytes] : fresh_)
      out += key + '\n' + std::to_string(bytes.size()) + '\n' + bytes;
    write(slot_, cache::seal(kModules, out));
  }
  bool on() const { return store_.has_value(); }
  const std::string& build() const { return build_; }
  // What the run should say of the cache: a directory it could not make, damaged entries.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  static constexpr std::string_view kModules = "python-modules", kProgram = "python-program",
                                    kStamps = "python-stamps";

  // The payload of entry `slot`, or nothing, with one warning naming it and what happens
  // instead ("parsing every module") when it is damaged.
  std::optional<std::string_view> unsealed(std::string_view kind, const std::string& slot,
                                           std::string_view bytes, const std::string& what,
                                           const std::string& instead) {
    std::string problem;
    std::optional<std::string_view> payload = cache::unseal(kind, bytes, problem);
    if (!payload)
      warnings_.push_back("cache: entry " + store_->pathOf(slot) + " (" + what + ") is corrupt (" +
                          problem + "); " + instead + " again");
    return payload;
  }

  void unpack(std::string_view bytes) {
    while (!bytes.empty()) {
      size_t a = bytes.find('\n'), b = a == std::string_view::npos ? a : bytes.find('\n', a + 1);
      if (b == std::string_view::npos) break;
      size_t n = std::strtoul(std::string(bytes.substr(a + 1, b - a - 1)).c_str(), nullptr, 10);
      if (n > bytes.size() - b - 1) break;  // damaged: what came before is kept
      old_.emplace(std::string(bytes.substr(0, a)), std::string(bytes.substr(b + 1, n)));
      bytes.remove_prefix(b + 1 + n);
    }
  }

  std::optional<cache::Store> store_;
  std::string build_, slot_, stampsSlot_;
  std::map<std::string, std::string> old_, fresh_;
  bool changed_ = false;
  std::vector<std::string> warnings_;
};

// Each file's cache key (its path and bytes), "" for a file that cannot be read. A file whose
// stamp is the one recorded with its key, not racy, is not read; the others are, and their
// stamps (taken before the read) recorded for the next run. `read` counts the files read.
std::vector<std::string> keysOf(const std::vector<std::string>& files, const PythonScan& scan,
                                ModuleCache& cache, size_t& read) {
  auto start = std::chrono::system_clock::now();
  const cache::StampTable old = cache.stamps();
  std::vector<std::string> keys(files.size());
  std::vector<std::optional<cache::Stamp>> stamps(files.size());
  std::vector<char> trusted(files.size(), 0);
  parallel(files.size(), scan.options.jobs, [&](size_t i) {
    std::optional<std::string> text;
    if (auto o = scan.options.overlay.find(files[i]); o != scan.options.overlay.end()) {
      text = o->second;
    } else {
      std::string path = (fs::path(scan.options.root) / files[i]).string();
      stamps[i] = cache::statFile(path);
      if (const std::string* key = stamps[i] ? old.trusted(files[i], *stamps[i]) : nullptr) {
        keys[i] = *key;
        trusted[i] = 1;
        return;
      }
      text = support::readFile(path);
    }
    if (text) keys[i] = cache.keyOf(files[i], *text);
  });
  cache::StampTable fresh;
  read = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    if (trusted[i])
      fresh.keep(files[i], *old.find(files[i]));
    else if (stamps[i] && !keys[i].empty())
      fresh.record(files[i], *stamps[i], keys[i], start);
    else if (const cache::StampedKey* kept = old.find(files[i]))
      fresh.keep(files[i], *kept);  // an overlay: the file on disk is as recorded or not
    read += !trusted[i];
  }
  if (!(fresh == old)) cache.writeStamps(fresh);
  return keys;
}

// Each file's facts, from the cache (`hit`) or parsed and kept there; `settled` turns false
// when CPython's parse gave no answer for a file, which is kept out of the cache.
std::vector<ModuleFacts> readModules(const std::vector<std::string>& files,
                                     const std::vector<std::string>& keys, const PythonScan& scan,
                                     ModuleCache& cache, PythonUnits& out, std::vector<char>& hit,
                                     bool& settled) {
  std::vector<ModuleFacts> modules(files.size());
  hit.assign(files.size(), 0);
  cache.open();
  parallel(keys.size(), scan.options.jobs, [&](size_t i) {
    if (keys[i].empty()) return;  // extractModules names it
    if (auto m = cache.load(keys[i], files[i])) {
      modules[i] = std::move(*m);
      hit[i] = 1;
    }
  });
  std::vector<std::string> missed;
  for (size_t i = 0; i < files.size(); ++i)
    if (!hit[i]) missed.push_back(files[i]);
  std::vector<char> unsettled;  // CPython's parse gave no answer: never cached
  std::vector<ModuleFacts> parsed = extractModules(missed, scan.options, &unsettled);
  settled = std::find(unsettled.begin(), unsettled.end(), 1) == unsettled.end();
  for (size_t i = 0, k = 0; i < files.size(); ++i) {
    if (i < keys.size() && (hit[i] || !unsettled[k]))
      cache.keep(keys[i], hit[i] ? nullptr : &parsed[k]);
    if (!hit[i]) modules[i] = std::move(parsed[k++]);
  }
  cache.flush();
  out.cacheHits = files.size() - missed.size();
  out.cacheMisses = cache.on() ? missed.size() : 0;
  return modules;
}

// The whole program's units, cached under one key: every module's key, the packs, the package
// root. A rescan with nothing changed reads them back instead of resolving again.
std::string programKey(const std::vector<std::string>& keys, const rules::RuleSet& rules,
                       const PythonScan& scan, const ModuleCache& cache) {
  std::string all = cache.build() + '\0' + "python-program" + '\0' + rules::digestOf(rules) + '\0' +
                    scan.options.packageRoot;
  for (const std::string& k : keys) {
    if (k.empty()) return "";  // a file that cannot be read is named again each time
    all += '\0' + k;
  }
  return support::md5Hex(all);
}

std::string encodeUnits(const std::vector<facts::UnitFacts>& units) {
  std::string out;
  for (const auto& u : units) {
    std::string bytes = facts::encodeTuFactsBinary(facts::wholeFacts(u));
    out += std::to_string(bytes.size()) + '\n' + bytes;
  }
  return out;
}

// The program's units, one per file in order, decoded on the scan's threads; units that name
// other files are refused.
std::optional<std::vector<facts::UnitFacts>> decodeUnits(std::string_view bytes,
                                                         const std::vector<std::string>& files,
                                                         unsigned jobs) {
  std::vector<std::string_view> parts;
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos || parts.size() == files.size()) return std::nullopt;
    size_t n = 0;
    auto [end, ec] = std::from_chars(bytes.data(), bytes.data() + nl, n);
    if (ec != std::errc() || end != bytes.data() + nl || n > bytes.size() - nl - 1)
      return std::nullopt;
    parts.push_back(bytes.substr(nl + 1, n));
    bytes.remove_prefix(nl + 1 + n);
  }
  if (parts.size() != files.size()) return std::nullopt;
  std::vector<facts::UnitFacts> units(parts.size());
  std::atomic<bool> bad{false};
  parallel(parts.size(), jobs, [&](size_t i) {
    try {
      units[i].tu = facts::decodeTuFactsBinary(parts[i]);
      if (units[i].tu.mainFile != files[i]) bad = true;
    } catch (const std::exception&) {
      bad = true;
    }
  });
  if (bad) return std::nullopt;
  return units;
}

}  // namespace

bool hasPythonRules(const rules::RuleSet& rules) {
  for (const auto& p : rules.packs())
    if (!p.pythonAccessors.empty() || !p.pythonGlobals.empty()) return true;
  return false;
}

std::vector<std::string> pythonDirs(const rules::RuleSet& rules) {
  std::set<std::string> dirs;
  for (const auto& p : rules.packs()) {
    for (const auto& g : p.scope.include) dirs.insert(literalPrefix(g));
    for (const auto& g : p.scope.edges) dirs.insert(literalPrefix(g));
  }
  std::vector<std::string> out;
  for (const std::string& d : dirs)  // sorted: a directory comes before those below it
    if (std::none_of(out.begin(), out.end(), [&](const std::string& o) { return under(d, o); }))
      out.push_back(d);
  return out;
}

PythonUnits scanPython(const PythonScan& scan, const rules::RuleSet& rules) {
  std::vector<std::string> dirs = scan.roots.empty() ? pythonDirs(rules) : scan.roots;
  std::vector<std::string> present;
  for (const std::string& d : dirs) {
    std::error_code ec;
    if (fs::exists(fs::path(scan.options.root) / d, ec)) present.push_back(d);
  }
  std::vector<std::string> files =
      present.empty() ? std::vector<std::string>{} : findPythonFiles(scan.options, present);
  if (files.empty()) {
    std::string where;
    for (const std::string& d : dirs) where += (where.empty() ? "" : ", ") + (d.empty() ? "." : d);
    throw InputError("no .py file under " + where + " in " + scan.options.root +
                     (scan.roots.empty() ? " (the rule packs' scope)" : " (the Python roots)"));
  }
  std::vector<std::string> only;
  for (const std::string& p : scan.only) {
    checkPythonPath(scan.options, p);  // throws naming a path that is not there
    std::string n = fs::path(p).lexically_normal().generic_string();
    while (!n.empty() && n.back() == '/') n.pop_back();
    only.push_back(n == "." ? "" : n);
  }

  PythonUnits out;
  out.modules = files.size();
  const size_t treeFiles = files.size();
  PythonOptions options = scan.options;
  if (!scan.downstream.empty()) {
    std::map<std::string, std::string> treeModules;
    for (const std::string& f : files) treeModules.emplace(moduleName(f, options.packageRoot), f);
    DownstreamModules seen = findDownstreamModules(scan.downstream, options.root, treeModules);
    files.insert(files.end(), seen.files.begin(), seen.files.end());
    options.moduleNames = std::move(seen.names);
    out.vendored = std::move(seen.vendored);
  }
  ModuleCache cache(scan);
  std::vector<std::string> keys =
      cache.on() ? keysOf(files, scan, cache, out.filesRead) : std::vector<std::string>{};
  std::string program = cache.on() ? programKey(keys, rules, scan, cache) : "";
  // A downstream module's name comes from its checkout's layout, not from the package root.
  if (!program.empty() && !options.moduleNames.empty()) {
    std::string named = program;
    for (const auto& [file, name] : options.moduleNames) named += '\0' + file + '\0' + name;
    program = support::md5Hex(named);
  }
  std::optional<std::vector<facts::UnitFacts>> cached;
  if (!program.empty())
    if (std::optional<support::MappedFile> bytes = cache.map(program))
      if (std::optional<std::string_view> sealed = cache.unsealProgram(program, bytes->bytes()))
        cached = decodeUnits(*sealed, files, scan.options.jobs);
  std::vector<facts::UnitFacts> units;
  std::vector<char> hit(files.size(), 1);  // whether each module's facts came from the cache
  if (cached) {
    units = std::move(*cached);
    out.cacheHits = files.size();
  } else {
    bool settled = true;
    std::vector<ModuleFacts> modules = readModules(files, keys, scan, cache, out, hit, settled);
    units = resolveModules(modules, rules, options);
    if (!program.empty() && settled) cache.write(program, cache.sealProgram(encodeUnits(units)));
  }
  for (size_t i = treeFiles; i < units.size(); ++i) {
    std::string warning = seenOnly(units[i]);
    if (!warning.empty()) out.downstreamWarnings.push_back(std::move(warning));
    out.downstream.push_back(std::move(units[i]));
  }
  units.resize(treeFiles);
  std::set<std::string> seen;
  for (size_t i = 0; i < units.size(); ++i) {
    facts::UnitFacts& u = units[i];
    seen.insert(u.tu.rulesSeen.begin(), u.tu.rulesSeen.end());
    bool wanted = only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& p) {
                    return under(u.tu.mainFile, p);
                  });
    if (!wanted) {
      out.context.push_back(std::move(u));
      continue;
    }
    out.fromCache.push_back(cache.on() && hit[i]);
    out.units.push_back(std::move(u));
  }
  out.warnings = unmatchedPythonRules(rules, seen, treeFiles);
  out.cacheWarnings = cache.warnings();
  return out;
}

}  // namespace gridlock::python
