// One file's ModuleFacts as bytes (facts/binary_codec.h, through the same field lists as the
// facts codec; read back only by the gridlock build that wrote them: cache entries), so
// a driver can cache step one of the Python frontend by the file's bytes: the facts depend on
// nothing else (no pack, no other file, no option).
#pragma once

#include "python/module_facts.h"

#include <string>
#include <string_view>

namespace gridlock::python {

std::string encodeModuleFacts(const ModuleFacts& facts);
// Throws codec::Error (facts/struct_codec.h) naming what is wrong in damaged bytes.
ModuleFacts decodeModuleFacts(std::string_view bytes);

}  // namespace gridlock::python
