# `cpack -G DEB` in the build directory: two packages, installed under /usr, each with its
# licence (share/doc/PACKAGE/LICENSE and the Debian copyright file):
#   gridlock_<version>_<arch>.deb          the tool (component tool): gridlock, its packs,
#                                          schemas, man page, completions, the Clang plugin
#   gridlock-runtime_<version>_<arch>.deb  the CPU runtime (component runtime): its headers,
#                                          static libraries and CMake package; Open MPI
# so that the tool pulls no MPI: its binary links none. Their Depends are the Debian packages
# those need (tests/install/deb.sh checks them against the binary's DT_NEEDED and apt). The CUDA
# runtime is left out: CUDA 13 and NCCL are no Debian packages here (cmake --install puts it in
# the prefix where CUDA is built).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gridlock)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Find, gate and remove reads of global process-group state in C++/CUDA code")
# The Maintainer field and the copyright holder: the project's maintainers, who author its
# history; someone repackaging it names themselves (-DGRIDLOCK_MAINTAINER="Name <mail>").
set(GRIDLOCK_MAINTAINER
    "Seed 54ffb646 maintainers <maintainers@users.noreply.a-seed-54ffb646.example>"
    CACHE STRING "Maintainer of the .deb (Name <mail>), also its copyright holder")
set(GRIDLOCK_COPYRIGHT_YEARS 2026)
set(CPACK_PACKAGE_CONTACT "${GRIDLOCK_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GRIDLOCK_MAINTAINER}")
# Debian's machine-readable copyright file (copyright-format 1.0) beside each package's LICENSE
# (cmake/install.cmake: share/doc/gridlock for the tool, share/doc/gridlock-runtime for the
# runtimes).
foreach(doc_package gridlock gridlock-runtime)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/copyright.in
                 ${PROJECT_BINARY_DIR}/doc/${doc_package}/copyright @ONLY)
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/doc/gridlock/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gridlock COMPONENT tool)
foreach(component runtime runtime_cuda)
  install(FILES ${PROJECT_BINARY_DIR}/doc/gridlock-runtime/copyright
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gridlock-runtime COMPONENT ${component})
endforeach()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL tool runtime)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING IGNORE)  # a package per component
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME gridlock)
set(CPACK_COMPONENT_TOOL_DESCRIPTION
    "Find, gate and remove reads of global process-group state in C++/CUDA and Python code")
# bin/gridlock: libclang-cpp19, libllvm19, libpugixml1v5, libssl3 (libcrypto), libzstd1 and
# zlib1g (the cache's compression) and the C/C++ runtime; Clang's own headers (the resource
# directory): libclang-common-19-dev. No MPI.
set(CPACK_DEBIAN_TOOL_PACKAGE_DEPENDS
    "libclang-cpp19, libllvm19, libclang-common-19-dev, libpugixml1v5, libssl3, libzstd1, zlib1g, libstdc++6, libgcc-s1, libc6")
# python3: the Python scan's second opinion on a file tree-sitter rejects, and the Python
# rewrite's compile check (docs/install.md).
set(CPACK_DEBIAN_TOOL_PACKAGE_RECOMMENDS "python3")
# node runs pyright, the Python rewrite's independent check (pyright itself comes from npm); the
# runtime is for projects that build against it.
set(CPACK_DEBIAN_TOOL_PACKAGE_SUGGESTS "nodejs, gridlock-runtime")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME gridlock-runtime)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "gridlock's reference runtime: process groups, grids and sharding on Open MPI (static libraries, headers, CMake package)")
# The runtime's MPI, and mpirun to run what links it; building against it (find_package(gridlock)
# finds MPI through CMake) wants Open MPI's headers and CMake.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libopenmpi3, openmpi-bin")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libopenmpi-dev, cmake")
include(CPack)
