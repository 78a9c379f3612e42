#pragma once

// What every output says of an allow comment that gives no reason: written by the frontends
// (frontend/suppressions.cpp) and said by each report when a fact carries no problem of its own.
namespace gridlock::facts {
inline constexpr const char* kSuppressionWithoutReason =
    "suppression without a reason is ignored: write // gridlock: allow(why this read is "
    "deliberate)";
}  // namespace gridlock::facts
