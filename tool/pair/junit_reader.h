// Reads JUnit XML: ctest --output-junit, GoogleTest's --gtest_output=xml, and similar writers.
#pragma once

#include "pair/results.h"

#include <string>

namespace gridlock::pair {

// Fills `file.tests` from `text`; truncation and malformed input as in readGTestJson.
void readJUnitXml(const std::string& text, ResultFile& file);

// The line of captured output or failure text that shows the test process died (a signal, an
// abort, a timeout, an unfinished GoogleTest test), or "" when nothing does.
std::string crashEvidence(const std::string& text);

}  // namespace gridlock::pair
