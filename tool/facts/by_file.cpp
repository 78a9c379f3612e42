#include "facts/by_file.h"

#include <map>

namespace gridlock::facts {
namespace {

// Every located list: its member in TuFacts and its runs, one call of `f` each.
template <typename F>
void eachLocatedList(F&& f) {
  f(&TuFacts::reads, &Runs::reads);
  f(&TuFacts::badSuppressions, &Runs::badSuppressions);
  f(&TuFacts::exemptReads, &Runs::exemptReads);
  f(&TuFacts::functions, &Runs::functions);
  f(&TuFacts::classes, &Runs::classes);
  f(&TuFacts::sites, &Runs::sites);
  f(&TuFacts::values, &Runs::values);
  f(&TuFacts::paramLists, &Runs::paramLists);
  f(&TuFacts::calls, &Runs::calls);
  f(&TuFacts::dependentCalls, &Runs::dependentCalls);
  f(&TuFacts::classBodies, &Runs::classBodies);
  f(&TuFacts::allows, &Runs::allows);
}

}  // namespace

ByFile splitByFile(TuFacts& tu) {
  ByFile out;
  std::vector<std::shared_ptr<TuFacts>> files;
  std::map<std::string, std::uint32_t> index;
  auto indexOf = [&](const std::string& name) {
    auto [it, fresh] = index.emplace(name, static_cast<std::uint32_t>(files.size()));
    if (fresh) files.push_back(std::make_shared<TuFacts>());
    return it->second;
  };
  eachLocatedList([&](auto member, auto runsOf) {
    std::vector<std::uint32_t>& runs = out.runs.*runsOf;
    for (auto& x : tu.*member) {
      std::uint32_t g = indexOf(x.file);
      (files[g].get()->*member).push_back(std::move(x));
      if (!runs.empty() && runs[runs.size() - 2] == g)
        ++runs.back();
      else
        runs.insert(runs.end(), {g, 1});
    }
    (tu.*member).clear();
  });
  for (auto& [file, digest] : tu.digests)
    files[indexOf(file)]->digests.emplace(file, std::move(digest));
  tu.digests.clear();
  for (auto& f : files) out.files.push_back({"", std::move(f)});
  return out;
}

void joinByFile(TuFacts& tu, const ByFile& byFile, const std::function<bool(size_t)>& skip) {
  std::vector<bool> left(byFile.files.size(), false);
  for (size_t g = 0; g < left.size(); ++g) left[g] = skip && skip(g);
  eachLocatedList([&](auto member, auto runsOf) {
    const std::vector<std::uint32_t>& runs = byFile.runs.*runsOf;
    std::vector<size_t> next(byFile.files.size(), 0);
    auto& to = tu.*member;
    for (size_t i = 0; i + 1 < runs.size(); i += 2) {
      std::uint32_t g = runs[i], n = runs[i + 1];
      const auto& from = byFile.files[g].facts.get()->*member;
      if (!left[g]) to.insert(to.end(), from.begin() + next[g], from.begin() + next[g] + n);
      next[g] += n;
    }
  });
  for (size_t g = 0; g < left.size(); ++g)
    if (!left[g])
      tu.digests.insert(byFile.files[g].facts->digests.begin(),
                        byFile.files[g].facts->digests.end());
}

TuFacts wholeFacts(const UnitFacts& unit) {
  TuFacts tu = unit.tu;
  if (unit.byFile) joinByFile(tu, *unit.byFile);
  return tu;
}

std::string checkRuns(const ByFile& byFile) {
  std::string problem;
  for (const auto& f : byFile.files)
    if (!f.facts) return "a file's facts are missing";
  eachLocatedList([&](auto member, auto runsOf) {
    if (!problem.empty()) return;
    const std::vector<std::uint32_t>& runs = byFile.runs.*runsOf;
    if (runs.size() % 2) {
      problem = "runs of odd length";
      return;
    }
    std::vector<std::uint64_t> taken(byFile.files.size(), 0);
    for (size_t i = 0; i < runs.size(); i += 2) {
      if (runs[i] >= byFile.files.size()) {
        problem = "a run names no file";
        return;
      }
      taken[runs[i]] += runs[i + 1];
    }
    for (size_t g = 0; g < taken.size(); ++g)
      if (taken[g] != (byFile.files[g].facts.get()->*member).size()) {
        problem = "runs do not cover a file's facts";
        return;
      }
  });
  return problem;
}

void putRuns(codec::bin::Writer& w, const Runs& runs) {
  eachLocatedList([&](auto, auto runsOf) {
    const std::vector<std::uint32_t>& v = runs.*runsOf;
    w.varint(v.size());
    for (std::uint32_t x : v) w.varint(x);
  });
}

void getRuns(codec::bin::Reader& r, Runs& runs) {
  eachLocatedList([&](auto, auto runsOf) {
    std::vector<std::uint32_t>& v = runs.*runsOf;
    v.resize(r.count());
    for (auto& x : v) {
      std::uint64_t n = r.varint();
      if (n > 0xffffffffu) r.fail("a run out of range");
      x = static_cast<std::uint32_t>(n);
    }
  });
}

}  // namespace gridlock::facts
