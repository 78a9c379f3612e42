# `cmake --install B --prefix P` (docs/install.md): P/bin/gridlock, its man page in
# P/share/man/man1, its bash and zsh completions, the Clang plugin in
# P/<libdir>/libgridlock_plugin.so, the packs in
# P/share/gridlock/rules, their schemas in P/share/gridlock/schema, the runtime's headers and
# libraries, a relocatable CMake package (find_package(gridlock CONFIG), gridlock::runtime), and
# the licence in P/share/doc/gridlock (the tool) and P/share/doc/gridlock-runtime.
# Components: tool, runtime, runtime_cuda. Nothing installed names the build or source tree:
# the binary finds its packs from its own location (tool/support/install_layout.h).
include(CMakePackageConfigHelpers)

install(TARGETS gridlock RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)
# The man page (made from the help text with the binary: tool/cli/CMakeLists.txt) and the shell
# completions, where man, bash-completion and Debian's zsh look.
install(FILES ${PROJECT_BINARY_DIR}/gridlock.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT tool)
install(FILES ${PROJECT_SOURCE_DIR}/completions/gridlock.bash RENAME gridlock
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT tool)
set(GRIDLOCK_ZSH_COMPLETION_DIR ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions CACHE STRING
    "Where _gridlock goes (Debian's zsh reads vendor-completions; others site-functions)")
install(FILES ${PROJECT_SOURCE_DIR}/completions/_gridlock DESTINATION ${GRIDLOCK_ZSH_COMPLETION_DIR}
        COMPONENT tool)
# The Clang plugin (docs/cache.md), loaded by path with -fplugin=.
install(TARGETS gridlock_plugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tool)
file(GLOB GRIDLOCK_SHIPPED_PACKS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rules/*.json)
install(FILES ${GRIDLOCK_SHIPPED_PACKS} DESTINATION ${CMAKE_INSTALL_DATADIR}/gridlock/rules
        COMPONENT tool)
file(GLOB GRIDLOCK_EXAMPLE_PACKS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rules/examples/*.json)
install(FILES ${GRIDLOCK_EXAMPLE_PACKS} DESTINATION ${CMAKE_INSTALL_DATADIR}/gridlock/rules/examples
        COMPONENT tool)
# The inputs' schemas, and the JSON reports' (versioned: docs/contracts.md).
install(FILES ${PROJECT_SOURCE_DIR}/schema/rule-pack.schema.json
              ${PROJECT_SOURCE_DIR}/schema/config.schema.json
              ${PROJECT_SOURCE_DIR}/schema/baseline.schema.json
              ${PROJECT_SOURCE_DIR}/schema/scan-report.schema.json
              ${PROJECT_SOURCE_DIR}/schema/gate-report.schema.json
              ${PROJECT_SOURCE_DIR}/schema/callers-report.schema.json
              ${PROJECT_SOURCE_DIR}/schema/pair-report.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/gridlock/schema COMPONENT tool)

# The licence (Apache-2.0 WITH LLVM-exception), with whichever component is installed: in
# share/doc/gridlock for the tool, share/doc/gridlock-runtime for the runtimes (the .debs'
# package names: cmake/package.cmake).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gridlock
        COMPONENT tool)
foreach(component runtime runtime_cuda)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gridlock-runtime COMPONENT ${component})
endforeach()

# The docs (share/doc/gridlock), to read offline.
file(GLOB GRIDLOCK_DOCS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${GRIDLOCK_DOCS} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gridlock COMPONENT tool)

set(GRIDLOCK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gridlock)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/gridlock
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT runtime FILES_MATCHING PATTERN "*.h")
install(TARGETS gridlock_layout gridlock_runtime EXPORT gridlockTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT gridlockTargets NAMESPACE gridlock:: DESTINATION ${GRIDLOCK_CMAKE_DIR}
        COMPONENT runtime)
if(TARGET gridlock_runtime_cuda)
  install(TARGETS gridlock_runtime_cuda EXPORT gridlockCudaTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime_cuda
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT gridlockCudaTargets NAMESPACE gridlock:: DESTINATION ${GRIDLOCK_CMAKE_DIR}
          COMPONENT runtime_cuda)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gridlockConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gridlockConfig.cmake INSTALL_DESTINATION ${GRIDLOCK_CMAKE_DIR})
# 0.x: a minor version may change the runtime's API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gridlockConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gridlockConfig.cmake
              ${PROJECT_BINARY_DIR}/gridlockConfigVersion.cmake
        DESTINATION ${GRIDLOCK_CMAKE_DIR} COMPONENT runtime)
