// The C++ frontend of the pipeline: the translation units of the request's compile database
// (-p) and of its extra databases (rewrite --extra-db), parsed with Clang (tool/frontend),
// through the facts cache (pipeline/facts_cache.h), one shard of them with --shard.
#pragma once

#include "pipeline/frontend.h"
#include "pipeline/shard.h"

#include <string>
#include <vector>

namespace gridlock::pipeline {

class CppFrontend : public Frontend {
 public:
  // `request` must outlive the frontend. `pythonToo`: the scan reads Python as well, so
  // positional paths that select no C++ unit are no error here.
  CppFrontend(const ScanRequest& request, bool pythonToo)
      : request_(request), pythonToo_(pythonToo) {}
  // A file two databases list is scanned once, as the first says. Positional paths may select
  // only the first database's files; an extra database is parsed, not cached.
  Units scan(const Scope& scope) override;
  // Warns of the --remove-arg patterns that removed nothing.
  void finish(const Scope& scope, const Units& scanned) override;

 private:
  const ScanRequest& request_;
  bool pythonToo_;
  std::vector<std::string> unusedRemovals_;
};

}  // namespace gridlock::pipeline
