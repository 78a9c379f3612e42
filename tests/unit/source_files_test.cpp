// Which names are C, C++ or CUDA sources and which are Python sources (support/source_files.h):
// by the name's last extension only, so a backup or a bytecode file is neither.
#include "support/source_files.h"

#include <gtest/gtest.h>

namespace gridlock::support {
namespace {

TEST(SourceFiles, PythonSourceIsAPyFileTheFrontendScans) {
  EXPECT_TRUE(isPythonSource("m.py"));
  EXPECT_TRUE(isPythonSource("megatron/core/__init__.py"));
  EXPECT_TRUE(isPythonSource("/abs/dir.d/x.py"));
  EXPECT_FALSE(isPythonSource("m.pyi"));  // a stub runs nothing: no read in it is a read
  EXPECT_FALSE(isPythonSource("m.pyc"));
  EXPECT_FALSE(isPythonSource("__pycache__/m.cpython-311.pyc"));
  EXPECT_FALSE(isPythonSource("x.py.bak"));
  EXPECT_FALSE(isPythonSource("x.PY"));
  EXPECT_FALSE(isPythonSource("pkg/.py"));  // a dot file named `.py` has no extension
  EXPECT_FALSE(isPythonSource("py"));
  EXPECT_FALSE(isPythonSource("dir.py/m"));
  EXPECT_FALSE(isPythonSource("m.cpp"));
}

TEST(SourceFiles, CxxSourceIsNoPythonSource) {
  for (const char* f :
       {"a.c", "a.cc", "a.cpp", "a.cxx", "a.c++", "a.C", "a.cu", "a.cuh", "a.h", "a.hh", "a.hpp",
        "a.hxx", "a.h++", "a.H", "a.inl", "a.ipp", "a.tpp", "a.tcc"}) {
    EXPECT_TRUE(isCxxSource(f)) << f;
    EXPECT_FALSE(isPythonSource(f)) << f;
  }
  for (const char* f : {"a.py", "a.pyi", "a.cpp.orig", "a.o", "CMakeLists.txt", "a"})
    EXPECT_FALSE(isCxxSource(f)) << f;
}

}  // namespace
}  // namespace gridlock::support
