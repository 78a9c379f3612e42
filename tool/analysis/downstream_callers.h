// Callers in downstream checkouts (python/downstream.h): which checkout each site of a
// `callers` answer is in, and the one question a public-API decision asks of the whole program:
// every caller of a def, in the tree and in every downstream checkout given, each named by
// where it is, and where calls are not seen (values handed on).
#pragma once

#include "analysis/callers.h"
#include "index/inventory.h"

#include <string>

namespace gridlock::analysis {

// The downstream checkout (as named) `file` lies in; "" for a file of the tree.
std::string downstreamOf(const index::Inventory& inv, const std::string& file);

// Sets each site's and each escape's `downstream`.
void nameDownstream(const index::Inventory& inv, CallersResult& result);

// Every caller of `function`'s `param` that the whole program shows, the tree's and the
// downstream checkouts': callers() over the inventory's program, each site and escape named by
// its checkout. A site (downstream "" or not) is a call the scan saw, its argument bound; the
// escapes are the places whose calls are not seen, and complete() says there are none. A
// downstream site is seen only: never edited (it lies outside the root). With no downstream
// checkout given, this is callers() exactly. Throws CallersError as callers() does.
CallersResult everyCaller(const index::Inventory& inv, const std::string& function,
                          const std::string& param);

}  // namespace gridlock::analysis
