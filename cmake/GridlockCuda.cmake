# The CUDA setup the runtime and the model fixture share (the fixture builds the runtime as a
# subproject and needs the same language settings for its own .cu files).
macro(gridlock_enable_cuda)
  if(NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  # nvcc 13 supports g++-12 as its host compiler; our C++ compiler (clang 19) is not needed.
  if(NOT CMAKE_CUDA_HOST_COMPILER AND EXISTS /usr/bin/g++-12)
    set(CMAKE_CUDA_HOST_COMPILER /usr/bin/g++-12)
  endif()
  if(NOT CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)  # one architecture keeps the build short (H100/H200)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
endmacro()
