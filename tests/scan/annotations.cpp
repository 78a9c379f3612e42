#include "scan/annotations.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace gridlock::test {

std::string canonical(const facts::Read& r) {
  std::string s = facts::str(r.kind);
  if (!r.group.empty()) s += " " + r.group;
  if (r.guard != facts::Guard::None) s += " guard=" + facts::str(r.guard);
  if (r.macro) s += " macro=" + *r.macro;
  if (r.kind != facts::ReadKind::GlobalWrite) s += " fix=" + facts::str(r.hint.fix);
  if (r.edge) s += " edge";
  if (r.suppressed) s += " suppressed";
  if (r.mutated && r.kind != facts::ReadKind::GlobalWrite) s += " mutates";
  return s;
}

std::string canonical(const analysis::CallerSite& s) {
  std::string out = "via=" + facts::str(s.via) + " supplied=" + facts::str(s.supplied);
  if (s.passed != facts::Passed::Unknown) out += " passed=" + facts::str(s.passed);
  if (!s.className.empty()) out += " class=" + s.className;
  if (!s.forwardedFrom.empty()) out += " from=" + s.forwardedFrom;
  return out;
}

Expectations expectationsOf(const std::vector<facts::Read>& reads) {
  Expectations out;
  for (const auto& r : reads) out[{r.file, r.line}].insert(canonical(r));
  return out;
}

Expectations expectationsOf(const std::vector<analysis::CallerSite>& sites) {
  Expectations out;
  for (const auto& s : sites) out[{s.file, s.line}].insert(canonical(s));
  return out;
}

Expectations expectationsOf(const std::vector<analysis::Escape>& escapes) {
  Expectations out;
  for (const auto& e : escapes) out[{e.file, e.line}].insert(e.value + " " + e.how);
  return out;
}

namespace {

// `via=direct supplied=default class=X from=Y` in a fixed order.
std::string siteAnnotation(const std::string& text, const std::string& where) {
  std::istringstream words(text);
  std::map<std::string, std::string> kv;
  std::string w;
  while (words >> w) {
    size_t eq = w.find('=');
    if (eq == std::string::npos)
      throw std::runtime_error(where + ": bad site annotation word " + w);
    kv[w.substr(0, eq)] = w.substr(eq + 1);
  }
  std::optional<facts::Via> via = facts::parse<facts::Via>(kv["via"]);
  std::optional<facts::Supplied> supplied = facts::parse<facts::Supplied>(kv["supplied"]);
  std::optional<facts::Passed> passed =
      facts::parse<facts::Passed>(kv.count("passed") ? kv["passed"] : "unknown");
  if (!via || !supplied || !passed)
    throw std::runtime_error(where + ": needs via= and supplied= (and passed=) with known values");
  analysis::CallerSite s;
  s.via = *via;
  s.supplied = *supplied;
  s.passed = *passed;
  s.className = kv["class"];
  s.forwardedFrom = kv["from"];
  return canonical(s);
}

// The Python scan's hint where the migration makes `move` ("" for no move it knows).
std::string scanHintOfMove(const std::string& move) {
  if (move == "require" || move == "none") return move;
  if (move == "substitute" || move == "thread" || move == "store") return "thread";
  return "";
}

}  // namespace

Expectations parseAnnotations(const std::string& root, const std::string& tag, FixWords fixWords) {
  namespace fs = std::filesystem;
  const std::regex re(tag + R"((@([+-]\d+))?:\s*(.*)$)");
  Expectations out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".cu" && ext != ".py"))
      continue;
    // A Python annotation is a `#` comment and ends at the next one.
    const std::string comment = ext == ".py" ? "#" : "//";
    std::string rel = fs::relative(entry.path(), root).string();
    std::ifstream in(entry.path());
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
      // A CHECK-FIXES line spells what the rewrite writes: its expect-read is that line's.
      size_t fixes = line.find("// CHECK-FIXES");
      if (fixes != std::string::npos && line.find_first_not_of(" \t") == fixes) continue;
      std::smatch m;
      if (!std::regex_search(line, m, re)) continue;
      unsigned target = n + (m[2].matched ? std::stoi(m[2].str()) : 0);
      std::string text = m[3].str();
      text = text.substr(0, text.find(comment));
      std::string where = rel + ":" + std::to_string(n);
      if (tag.ends_with("-escape")) {
        text.erase(text.find_last_not_of(" \t") + 1);
        out[{rel, target}].insert(text);
        continue;
      }
      if (tag != "expect-read") {
        out[{rel, target}].insert(siteAnnotation(text, where));
        continue;
      }
      std::istringstream words(text);
      std::string kind, w, group, guard, macro, fix;
      bool edge = false, suppressed = false, mutates = false;
      unsigned times = 1;
      words >> kind;
      while (words >> w) {
        if (w.rfind("guard=", 0) == 0)
          guard = w.substr(6);
        else if (w.rfind("macro=", 0) == 0)
          macro = w.substr(6);
        else if (w.rfind("fix=", 0) == 0)
          fix = w.substr(4);
        else if (w == "edge")
          edge = true;
        else if (w == "suppressed")
          suppressed = true;
        else if (w == "mutates")
          mutates = true;
        else if (w.size() > 1 && w[0] == 'x' && std::isdigit(static_cast<unsigned char>(w[1])))
          times = std::stoi(w.substr(1));
        else if (group.empty() && w.find('=') == std::string::npos)
          group = w;
        else
          throw std::runtime_error(rel + ":" + std::to_string(n) + ": bad annotation word " + w);
      }
      if (kind != "global_write" && fix.empty())
        throw std::runtime_error(rel + ":" + std::to_string(n) + ": annotation needs fix=");
      std::optional<facts::ReadKind> k = facts::parse<facts::ReadKind>(kind);
      std::optional<facts::Guard> g = facts::parse<facts::Guard>(guard.empty() ? "none" : guard);
      std::optional<facts::Hint> f =
          facts::parse<facts::Hint>(fixWords == FixWords::Move ? scanHintOfMove(fix) : fix);
      if (!k || !g || !f)
        throw std::runtime_error(rel + ":" + std::to_string(n) + ": unknown kind, guard or fix");
      facts::Read r;
      r.kind = *k;
      r.group = group;
      r.guard = *g;
      if (!macro.empty()) r.macro = macro;
      r.hint.fix = *f;
      r.edge = edge;
      if (suppressed) r.suppressed = "";
      r.mutated = mutates;
      for (unsigned i = 0; i < times; ++i) out[{rel, target}].insert(canonical(r));
    }
  }
  return out;
}

unsigned lineOf(const std::string& root, const std::string& file, const std::string& marker) {
  std::ifstream in(root + "/" + file);
  if (!in) throw std::runtime_error(file + ": cannot read");
  std::string line;
  unsigned found = 0;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (line.find(marker) == std::string::npos) continue;
    if (found) throw std::runtime_error(file + ": \"" + marker + "\" appears more than once");
    found = n;
  }
  if (!found) throw std::runtime_error(file + ": no line holds \"" + marker + "\"");
  return found;
}

std::string diff(const Expectations& expected, const Expectations& actual) {
  std::ostringstream out;
  std::set<LineKey> keys;
  for (const auto& [k, v] : expected) keys.insert(k);
  for (const auto& [k, v] : actual) keys.insert(k);
  auto join = [](const std::multiset<std::string>* s) {
    if (!s) return std::string("(nothing)");
    std::string j;
    for (const auto& x : *s) j += (j.empty() ? "" : "; ") + x;
    return j;
  };
  for (const auto& k : keys) {
    auto e = expected.find(k), a = actual.find(k);
    const auto* es = e == expected.end() ? nullptr : &e->second;
    const auto* as = a == actual.end() ? nullptr : &a->second;
    if (es && as && *es == *as) continue;
    out << k.first << ":" << k.second << ": expected [" << join(es) << "], scanned [" << join(as)
        << "]\n";
  }
  return out.str();
}

}  // namespace gridlock::test
