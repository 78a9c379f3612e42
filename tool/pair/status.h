// Per-test status of a tree after merging ranks, and the category of a baseline/change pair.
#pragma once

#include <array>
#include <string_view>

namespace gridlock::pair {

// Absent: the test does not exist in that tree (or only skipped there, see categorise.cpp).
enum class Status { Pass, Fail, Skip, Invalid, Absent };

enum class Category {
  PassedBoth,
  NewFailure,
  Fixed,
  StillFailing,
  Flaky,
  Added,
  Removed,
  Invalid,
};

inline constexpr std::array<Category, 8> kAllCategories = {
    Category::PassedBoth, Category::NewFailure, Category::Fixed,   Category::StillFailing,
    Category::Flaky,      Category::Added,      Category::Removed, Category::Invalid};

std::string_view name(Status s);
std::string_view name(Category c);

}  // namespace gridlock::pair
