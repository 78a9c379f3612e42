# `cpack -G DEB` in the build directory: gridlock_<version>_<arch>.deb with the tool, its packs
# and schemas, and the CPU runtime with its CMake package, installed under /usr, with its
# licence (share/doc/gridlock/LICENSE and the Debian copyright file). Its Depends are
# the Debian packages those need (tests/install/deb.sh checks them against the binary's
# DT_NEEDED and apt). The CUDA runtime is left out: CUDA 13 and NCCL are no Debian packages here
# (cmake --install puts it in the prefix where CUDA is built).
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
# Debian's machine-readable copyright file (copyright-format 1.0) beside the LICENSE
# (cmake/install.cmake), in every component.
configure_file(${PROJECT_SOURCE_DIR}/cmake/copyright.in ${PROJECT_BINARY_DIR}/copyright @ONLY)
foreach(component tool runtime runtime_cuda)
  install(FILES ${PROJECT_BINARY_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gridlock
          COMPONENT ${component})
endforeach()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL tool runtime)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)  # one package of those two
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# bin/gridlock: libclang-cpp19, libllvm19, libpugixml1v5, libssl3 (libcrypto) and the C/C++ runtime; Clang's own
# headers (the resource directory): libclang-common-19-dev; the runtime: Open MPI.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-cpp19, libllvm19, libclang-common-19-dev, libpugixml1v5, libssl3, libstdc++6, libgcc-s1, libc6, libopenmpi3, openmpi-bin")
# To build against the runtime (find_package(gridlock) finds MPI through CMake); python3: the
# Python scan's second opinion on a file tree-sitter rejects, and the Python rewrite's compile
# check (docs/install.md).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenmpi-dev, cmake, python3")
# node runs pyright, the Python rewrite's independent check (pyright itself comes from npm).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nodejs")
include(CPack)
