// What names a C, C++ or CUDA file: the gate's walk for files no unit covers and the
// rewriter's search of files outside the compile database look for the same ones.
#pragma once

#include <string>

namespace gridlock::support {

// Whether the name ends as a C, C++ or CUDA source or header does (.c .cc .cpp .cxx .c++ .C
// .cu .cuh .h .hh .hpp .hxx .h++ .H .inl .ipp .tpp .tcc). A Python file is not one.
bool isCxxSource(const std::string& path);

}  // namespace gridlock::support
