// File names are bytes; JSON strings are UTF-8. Every file name gridlock writes into JSON (the
// scan's reports, SARIF, the baseline) goes through these, so a name that is not UTF-8 is
// written, and read back, exactly.
#pragma once

#include <string>
#include <string_view>

namespace gridlock::index {

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF: what a JSON writer accepts).
bool isUtf8(std::string_view text);

// A file name for a JSON string: '%' becomes "%25" and every byte that is not part of
// well-formed UTF-8 becomes "%XX" (upper-case hex). A UTF-8 name without '%' is unchanged.
std::string jsonPath(std::string_view path);
// The file name `jsonPath` was given: each "%XX" becomes its byte; a '%' that starts no such
// escape stays as it is.
std::string fromJsonPath(std::string_view text);

// `text` with every byte that is not part of well-formed UTF-8 written "%XX"; the rest,
// '%' included, unchanged (a file written by hand with raw bytes, before it is parsed).
std::string escapeNonUtf8(std::string_view text);

// A file name for text output (reports, the gate's lines, diagnostics): unchanged unless it
// holds a control character (U+0000 to U+001F), which would break or forge a line; then it is
// written as the JSON reports write it (jsonPath, as a JSON string): in double quotes, `\n`,
// `\t`, `\u001b` for the control characters, `\"` and `\\` for quote and backslash
// ("a\nb.py").
std::string textPath(std::string_view path);

// A relative URI reference for a file name (SARIF's artifactLocation.uri, RFC 3986): every
// byte but the unreserved ones (A-Z a-z 0-9 - . _ ~) and '/' percent-encoded.
std::string uriPath(std::string_view path);

}  // namespace gridlock::index
