// Paths as the tool names them: real paths, absolute paths with dots folded, the parent of a
// path, what a path is on disk. POSIX only, no LLVM, so that the parts without Clang (the
// pipeline, cli, the Python build) name every file as the Clang frontend does: each function
// gives what llvm::sys gave for it (tests/unit/paths_test.cpp compares them).
#pragma once

#include <string>

namespace gridlock::support {

// Real path of `path` (symlinks and dots resolved), or, when it does not resolve (missing, a
// symlink loop), absolute(path).
std::string realPath(const std::string& path);

// `path` made absolute against the working directory ($PWD when it names the working
// directory, as a shell shows it, else getcwd), then `.` and `..` folded without asking the
// disk (`..` above the root stays at the root), separators collapsed, no trailing `/`.
std::string absolute(const std::string& path);
// `path` made absolute as it is: the working directory prepended to a relative one, nothing
// folded (llvm::sys::fs::make_absolute).
std::string absoluteAsIs(const std::string& path);
// `.` and `..` folded, separators collapsed (llvm::sys::path::remove_dots(path, true)).
std::string removeDots(const std::string& path);

// `dir` and `name` joined by one `/` (llvm::sys::path::append): `name` as it is when `dir` is
// empty; a `name` that starts with `/` is appended after `dir`, not put in its place.
std::string join(const std::string& dir, const std::string& name);
// `path` without its last component: "a/b" -> "a", "/a" -> "/", "a" -> "", "/" -> "".
std::string parentPath(const std::string& path);
// The last component: "a/b" -> "b", "a/" -> ".", "/" -> "/".
std::string fileName(const std::string& path);
// "/" for an absolute path ("//host/" for a network one), else "".
std::string rootPath(const std::string& path);
bool isAbsolute(const std::string& path);

// What `path` is, following symlinks (a dangling one is nothing); isSymlink does not follow.
bool exists(const std::string& path);
bool isDirectory(const std::string& path);
bool isRegularFile(const std::string& path);
bool isSymlink(const std::string& path);

}  // namespace gridlock::support
