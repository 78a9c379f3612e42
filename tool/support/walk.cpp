#include "support/walk.h"

#include "support/crash_point.h"

#include <vector>

namespace gridlock::support {

namespace fs = std::filesystem;

WalkError::WalkError(std::string dir, std::string reason)
    : std::runtime_error(dir + ": cannot read the directory: " + reason),
      dir_(std::move(dir)),
      reason_(std::move(reason)) {}

void walkTree(const std::string& dir, const WalkVisit& visit, const WalkFailure& failed) {
  std::vector<fs::path> pending{fs::path(dir)};
  while (!pending.empty()) {
    fs::path d = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(d, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      const fs::directory_entry& e = *it;
      std::error_code kind;
      bool enter = e.is_directory(kind) && !e.is_symlink(kind);
      if (visit(e) && enter) pending.push_back(e.path());
    }
    if (ec) {
      WalkError error(d.string(), ec.message());
      if (!failed) throw error;
      failed(error);
    }
    stopPoint(kWalkListedStep);
  }
}

}  // namespace gridlock::support
