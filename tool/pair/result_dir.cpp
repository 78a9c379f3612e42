#include "pair/result_dir.h"

#include "pair/command_end.h"
#include "pair/gtest_json_reader.h"
#include "pair/junit_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace gridlock::pair {
namespace fs = std::filesystem;

RankedPath splitRank(const std::string& relativePath) {
  static const std::regex dirRank(R"((^|/)rank(\d+)/)");
  static const std::regex fileRank(R"([._-]rank(\d+)(\.[A-Za-z]+)$)");
  RankedPath r{relativePath, 0};
  std::smatch m;
  if (std::regex_search(relativePath, m, dirRank)) {
    r.rank = std::stoi(m[2]);
    r.source = m.prefix().str() + m[1].str() + m.suffix().str();
  } else if (std::regex_search(relativePath, m, fileRank)) {
    r.rank = std::stoi(m[1]);
    r.source = m.prefix().str() + m[2].str();
  }
  return r;
}

namespace {

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError(p.string() + ": cannot read result file");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw InputError(p.string() + ": error while reading result file");
  return s.str();
}

}  // namespace

RunResults readResultDir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir + ": not a results directory");
  RunResults run;
  run.dir = dir;
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::string ext = it->path().extension().string();
    if (it->is_regular_file() && (ext == ".json" || ext == ".xml")) paths.push_back(it->path());
  }
  if (ec) throw InputError(dir + ": cannot list results directory: " + ec.message());
  std::sort(paths.begin(), paths.end());
  for (const fs::path& p : paths) {
    RankedPath rp = splitRank(fs::relative(p, dir).generic_string());
    ResultFile file{p.string(), rp.source, rp.rank, false, {}, {}};
    std::string text = readText(p);
    if (p.extension() == ".json")
      readGTestJson(text, file);
    else
      readJUnitXml(text, file);
    run.files.push_back(std::move(file));
  }
  return run;
}

TreeResults readTreeResults(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir + ": not a results directory");
  TreeResults tree;
  if (!fs::is_directory(fs::path(dir) / "run0", ec)) {
    tree.first = readResultDir(dir);
    return tree;
  }
  auto readRun = [&](int k) {
    std::string run = (fs::path(dir) / ("run" + std::to_string(k))).string();
    RunResults r = readResultDir(run);
    if (fs::is_regular_file(run + ".end", ec))
      r.end = parseEnd(readText(run + ".end"), run + ".end");
    return r;
  };
  tree.first = readRun(0);
  for (int k = 1; fs::is_directory(fs::path(dir) / ("run" + std::to_string(k)), ec); ++k)
    tree.reruns.push_back(readRun(k));
  return tree;
}

}  // namespace gridlock::pair
