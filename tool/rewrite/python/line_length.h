// The line length a Python file's formatter keeps to, from the project's own settings.
#pragma once

#include <string>

namespace gridlock::rewrite::py {

// Black's default, for a project that says nothing.
constexpr unsigned kDefaultLineLength = 88;

// From the nearest pyproject.toml or setup.cfg at or above the file's directory, up to the
// root: `line-length` (or `line_length`) under [tool.black], else under [tool.ruff], in
// pyproject.toml (read as TOML, with toml++: a header, dotted keys or an inline table alike; a
// file that is not TOML says nothing); `max-line-length` under [flake8] in setup.cfg; else
// kDefaultLineLength.
unsigned lineLength(const std::string& root, const std::string& file);

// The setting in one file's text (`toml` true for pyproject.toml), or 0 when it has none.
unsigned lineLengthIn(const std::string& text, bool toml);

// Whether black keeps a statement split at a trailing comma before a closing bracket (its magic
// trailing comma): not when the nearest pyproject.toml at or above the file's directory, up to
// the root, sets `skip-magic-trailing-comma` (or `skip_magic_trailing_comma`) = true under
// [tool.black], as Megatron-LM's does.
bool magicTrailingComma(const std::string& root, const std::string& file);

// The same in one pyproject.toml's text.
bool magicTrailingCommaIn(const std::string& text);

}  // namespace gridlock::rewrite::py
