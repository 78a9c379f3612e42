// One translation unit through the facts cache (tool/cache): a fresh entry's facts, else a
// parse whose dependencies are recorded and stored.
#pragma once

#include "cache/check.h"
#include "cache/recording_fs.h"
#include "frontend/compile_db.h"
#include "frontend/frontend.h"

#include <functional>
#include <string>

namespace gridlock::frontend {

// `parse` parses the TU, recording its dependencies with the recorder it is given.
// A hit's facts come split by file (facts/by_file.h), a parse's whole.
facts::UnitFacts scanCached(const ScanDatabase& db, const std::string& file,
                            const FrontendOptions& options, cache::FileView& view,
                            const std::function<facts::TuFacts(cache::Recorder*)>& parse);

}  // namespace gridlock::frontend
