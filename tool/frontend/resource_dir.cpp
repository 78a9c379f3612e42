#include "frontend/resource_dir.h"

#include <clang/Basic/Version.h>

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

#ifndef GRIDLOCK_CLANG_RESOURCE_DIR
#define GRIDLOCK_CLANG_RESOURCE_DIR ""
#endif

namespace gridlock::frontend {
namespace {

namespace fs = std::filesystem;

// The file the dynamic loader took libclang-cpp from, found through one of its functions.
std::string loadedLibclangCpp() {
  Dl_info info{};
  auto fn = &clang::getClangFullVersion;
  if (dladdr(reinterpret_cast<void*>(fn), &info) == 0 || !info.dli_fname) return "";
  return info.dli_fname;
}

}  // namespace

std::vector<ResourceDirCandidate> resourceDirCandidates() {
  std::vector<ResourceDirCandidate> out;
  if (*GRIDLOCK_CLANG_RESOURCE_DIR) out.push_back({GRIDLOCK_CLANG_RESOURCE_DIR, "built with"});
  if (std::string lib = loadedLibclangCpp(); !lib.empty())
    out.push_back({(fs::path(lib).parent_path() / "clang" / CLANG_VERSION_MAJOR_STRING).string(),
                   "beside libclang-cpp"});
  return out;
}

std::string findResourceDir(const std::vector<ResourceDirCandidate>& candidates) {
  std::string looked;
  for (const auto& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(c.dir) / "include" / "stddef.h", ec)) return c.dir;
    looked += (looked.empty() ? "" : ", ") + c.dir + " (" + c.why + ")";
  }
  throw std::runtime_error(
      "the Clang resource directory (Clang's own headers) was not found: no include/stddef.h in " +
      (looked.empty() ? std::string("(no candidates)") : looked) +
      "; install libclang-common-" CLANG_VERSION_MAJOR_STRING "-dev or pass --resource-dir DIR");
}

std::string clangResourceDir() { return findResourceDir(resourceDirCandidates()); }

}  // namespace gridlock::frontend
