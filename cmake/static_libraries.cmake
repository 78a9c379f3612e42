# -DGRIDLOCK_STATIC_LIBRARIES=ON (scripts/wheel.sh, the wheel's build): every library but glibc
# linked statically, so the binary runs wherever its glibc does (the wheel's manylinux tag says
# which). libstdc++ and libgcc statically too: then the binary needs no GLIBCXX_/CXXABI_ symbol
# versions, only GLIBC_ ones, and one tag states all it needs. OpenSSL's libcrypto (support's MD5),
# pugixml (pair's JUnit XML), zlib and libzstd (the cache's compression) from their Debian .a;
# tree-sitter is always static (tool/python). Header-only: nlohmann_json, CLI11, toml++. Included before the find_package
# calls it affects.
option(GRIDLOCK_STATIC_LIBRARIES "Link every library but glibc statically (the wheel)" OFF)
if(GRIDLOCK_STATIC_LIBRARIES)
  set(OPENSSL_USE_STATIC_LIBS TRUE)  # FindOpenSSL: libcrypto.a, and the libraries it needs
  # The cache's compression (tool/cache/packed.cpp): zlib's and libzstd's .a (pkg-config's
  # libzstd names the shared library).
  set(ZLIB_USE_STATIC_LIBS TRUE)
  find_library(GRIDLOCK_ZSTD_STATIC libzstd.a REQUIRED)
  find_package(pugixml REQUIRED)
  if(NOT TARGET pugixml::static)
    message(FATAL_ERROR "GRIDLOCK_STATIC_LIBRARIES: pugixml has no static library "
      "(Debian libpugixml-dev ships libpugixml.a)")
  endif()
  set_property(TARGET pugixml::pugixml PROPERTY INTERFACE_LINK_LIBRARIES pugixml::static)
  add_link_options(-static-libstdc++ -static-libgcc)
endif()
