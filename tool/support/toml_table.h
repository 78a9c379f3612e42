// One table of a TOML document (pyproject.toml's [tool.gridlock], [tool.black]) as JSON, read
// with toml++ (Debian's libtomlplusplus-dev, header-only here: the binary needs no TOML
// library), so that the readers of JSON configuration check it with the same code.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gridlock::support {

// "PATH:LINE:COLUMN: what": a document that is not TOML, or a key on the way to the table
// that holds no table.
class TomlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TomlTable {
  // Tables are objects, arrays arrays, strings, booleans and floats themselves, integers
  // numbers (unsigned when not negative). TOML's dates and times have no JSON form: null, which
  // no reader takes for a value.
  nlohmann::json value;
  // Where each key (and array element) of `value` is written, by JSON pointer within it
  // ("/rules/0"): its line and column, 1-based.
  std::map<std::string, std::pair<unsigned, unsigned>> where;
};

// The table at `keys` ({"tool", "gridlock"}: [tool.gridlock], however the document spells it:
// a header, dotted keys, an inline table) in `text`, the contents of `path` (for messages).
// nullopt when there is none. Throws TomlError.
std::optional<TomlTable> tomlTable(const std::string& text, const std::string& path,
                                   const std::vector<std::string>& keys);

}  // namespace gridlock::support
