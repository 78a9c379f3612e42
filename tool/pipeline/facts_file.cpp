#include "pipeline/facts_file.h"

#include "cache/packed.h"
#include "facts/facts_codec.h"
#include "rules/rules_codec.h"
#include "support/file_io.h"

#include <stdexcept>

namespace gridlock::pipeline {
namespace {

using json = nlohmann::json;

const std::string kMagic = "gridlock-facts 3";

// The facts are in the binary form (facts/binary_codec.h); a file written in another layout
// is refused, never misread.
std::string layoutDigest() {
  static const std::string digest = support::md5Hex(facts::binaryLayout());
  return digest;
}

}  // namespace

FactsFile factsFileFor(const std::string& root, const rules::RuleSet& rules) {
  FactsFile f;
  f.root = root;
  f.rules = rules::toJson(rules);
  f.rulesDigest = rules::digestOf(rules);
  return f;
}

std::string encodeFactsFile(const FactsFile& f) {
  json j;
  j["root"] = f.root;
  j["rules"] = f.rules;
  j["rules_digest"] = f.rulesDigest;
  j["plan"] = f.plan;
  j["allow_parse_errors"] = f.allowParseErrors;
  j["subset"] = f.subset;
  j["units"] = f.units;
  j["shard"] = f.shard;
  j["shards"] = f.shards;
  j["positions"] = f.positions;
  j["cache"] = {{"hits", f.cache.hits}, {"misses", f.cache.misses}};
  std::vector<std::uint8_t> head = json::to_cbor(j);
  codec::bin::Writer w;
  w.bytes(layoutDigest());
  w.bytes({reinterpret_cast<const char*>(head.data()), head.size()});
  w.varint(f.tus.size());
  for (const auto& tu : f.tus) facts::putTuFacts(w, tu);
  return kMagic + "\n" + cache::pack(w.out);
}

FactsFile readFactsFile(const std::string& path) {
  auto fail = [&](const std::string& why) { throw std::runtime_error(path + ": " + why); };
  std::optional<std::string> bytes = support::readFile(path);
  if (!bytes) fail("cannot read");
  size_t nl = bytes->find('\n');
  std::string magic = bytes->substr(0, nl == std::string::npos ? bytes->size() : nl);
  if (magic.rfind("gridlock-facts ", 0) != 0) fail("not a gridlock facts file");
  if (magic != kMagic)
    fail("facts file format '" + magic + "'; this gridlock reads '" + kMagic + "'");
  cache::Unpacked u = cache::unpack(std::string_view(*bytes).substr(nl + 1));
  if (!u.ok) fail("damaged facts file (" + u.problem + ")");
  FactsFile f;
  bool otherLayout = false;
  try {
    codec::bin::Reader r(u.raw, "facts file");
    otherLayout = r.bytes() != layoutDigest();
    if (!otherLayout) {
      json j = json::from_cbor(r.bytes(), /*strict=*/true, /*allow_exceptions=*/false);
      if (j.is_discarded()) throw codec::Error("not valid CBOR");
      f.root = j.at("root").get<std::string>();
      f.rules = j.at("rules");
      f.rulesDigest = j.at("rules_digest").get<std::string>();
      f.plan = j.at("plan").get<bool>();
      f.allowParseErrors = j.at("allow_parse_errors").get<bool>();
      f.subset = j.at("subset").get<bool>();
      f.units = j.at("units").get<std::vector<std::string>>();
      f.shard = j.at("shard").get<size_t>();
      f.shards = j.at("shards").get<size_t>();
      f.positions = j.at("positions").get<std::vector<size_t>>();
      f.cache.hits = j.at("cache").at("hits").get<size_t>();
      f.cache.misses = j.at("cache").at("misses").get<size_t>();
      f.tus.resize(r.count());
      for (auto& tu : f.tus) facts::getTuFacts(r, tu);
      if (!r.atEnd()) r.fail("trailing bytes");
    }
  } catch (const std::exception& e) {
    fail(std::string("damaged facts file (") + e.what() + ")");
  }
  if (otherLayout)
    fail(
        "written by a gridlock whose facts are laid out differently; scan every shard and "
        "merge with one gridlock version");
  if (f.positions.size() != f.tus.size()) fail("damaged facts file (positions and facts differ)");
  for (size_t p : f.positions)
    if (p >= f.units.size()) fail("damaged facts file (a position past the units)");
  return f;
}

}  // namespace gridlock::pipeline
