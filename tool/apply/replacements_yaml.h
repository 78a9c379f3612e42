// The replacements of a prepared rewrite as the YAML document clang-apply-replacements reads
// (clang::tooling::TranslationUnitReplacements): offsets and lengths in bytes of the files as
// scanned, so it serves any language's rewrite. Written here rather than through LLVM's YAML
// writer so that this library links no compiler; the text is LLVM's, byte for byte
// (tests/unit/replacements_yaml_test.cpp compares the two).
#pragma once

#include "apply/edits.h"

#include <optional>
#include <string>

namespace gridlock::apply {

// One document: `mainSourceFile`, then every replacement of every change in order, with the
// change's absolute path. Throws WriteRefused naming the file when a replacement's text is not
// UTF-8, which a YAML document cannot carry (LLVM's writer cut the text short there).
std::string exportYaml(const Prepared& p, const std::string& mainSourceFile);

// `text` as LLVM's YAML writer writes a string scalar: plain, 'single-quoted' or
// "double-quoted" with escapes, whichever it must; nullopt when `text` is not UTF-8.
std::optional<std::string> yamlScalar(const std::string& text);

}  // namespace gridlock::apply
