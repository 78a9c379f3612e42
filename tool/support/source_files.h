// What names a C, C++, CUDA or Python source file: the gate's walk for files no unit covers and
// the rewriter's search of files outside the compile database look for the same C++ ones; the
// Python frontend's walk, the gate's advice and the rewriter's file sets the same Python ones.
#pragma once

#include <string>

namespace gridlock::support {

// Whether the name ends as a C, C++ or CUDA source or header does (.c .cc .cpp .cxx .c++ .C
// .cu .cuh .h .hh .hpp .hxx .h++ .H .inl .ipp .tpp .tcc). A Python file is not one.
bool isCxxSource(const std::string& path);

// Whether the name ends as a Python source the frontend scans does: `.py`. Not a stub (`.pyi`:
// it declares, it runs nothing, so nothing in it reads a global), not bytecode (`.pyc`), not a
// backup (`x.py.bak`), not a file named `.py` alone (a dot file, as std::filesystem reads it).
bool isPythonSource(const std::string& path);

}  // namespace gridlock::support
