#include "cache/fixture_copy.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace gridlock::test {
namespace {

namespace fs = std::filesystem;

const std::string kSrc = GRIDLOCK_SOURCE_DIR;
const std::string kBinDir = GRIDLOCK_BINARY_DIR;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
    text.replace(pos, from.size(), to);
  return text;
}

}  // namespace

FixtureCopy::FixtureCopy() {
  dir = makeTempDir("cache-fixture");
  root = dir + "/fixtures/scan";
  build = dir + "/build";
  rules = root + "/gridlock.json";
  fs::create_directories(root);
  fs::copy(kSrc + "/fixtures/scan", root, fs::copy_options::recursive);
  fs::copy(kSrc + "/rules", dir + "/rules", fs::copy_options::recursive);
  auto place = [&](std::string text) {
    text = replaced(text, kBinDir + "/fixtures/scan", build);
    return replaced(text, kSrc + "/fixtures/scan", root);
  };
  writeFile(build + "/compile_commands.json",
            place(readFile(kBinDir + "/fixtures/scan/compile_commands.json")));
  writeFile(build + "/CMakeFiles/includes_CUDA.rsp",
            place(readFile(kBinDir + "/fixtures/scan/CMakeFiles/includes_CUDA.rsp")));
  auto past = fs::file_time_type::clock::now() - std::chrono::minutes(1);
  for (const auto& e : fs::recursive_directory_iterator(dir)) fs::last_write_time(e.path(), past);
  fs::last_write_time(dir, past);
}

FixtureCopy::~FixtureCopy() { fs::remove_all(dir); }

std::string FixtureCopy::args() const {
  return " -p " + build + " --rules " + rules + " --root " + root;
}

void FixtureCopy::write(const std::string& path, const std::string& text) const {
  writeFile(root + "/" + path, text);
}

std::string FixtureCopy::read(const std::string& path) const { return readFile(root + "/" + path); }

void FixtureCopy::editDatabase(const std::string& from, const std::string& to) const {
  std::string db = readFile(build + "/compile_commands.json");
  size_t pos = db.find(from);
  if (pos == std::string::npos) throw std::runtime_error("not in the database: " + from);
  db.replace(pos, from.size(), to);
  writeFile(build + "/compile_commands.json", db);
}

CommandResult gridlock(const std::string& arguments, const std::string& env) {
  return runCommand(env + (env.empty() ? "" : " ") + GRIDLOCK_BIN + " " + arguments);
}

std::string withoutCacheCounts(const std::string& json) {
  auto j = nlohmann::ordered_json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.contains("summary")) return "(not a JSON report) " + json;
  j["summary"].erase("cache");
  return j.dump(2);
}

}  // namespace gridlock::test
