// Reads GoogleTest's JSON report (--gtest_output=json / GTEST_OUTPUT=json:...).
#pragma once

#include "pair/results.h"

#include <string>

namespace gridlock::pair {

// Fills `file.tests` from `text`. A document cut off at its end (the binary died while writing,
// or the file is empty) sets `file.truncated`; anything else that is not a GoogleTest report
// throws InputError naming `file.path`.
void readGTestJson(const std::string& text, ResultFile& file);

}  // namespace gridlock::pair
