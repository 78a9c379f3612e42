#include "rewrite/python/sources.h"

#include "support/file_io.h"

namespace gridlock::rewrite::py {

const PySource* Sources::get(const std::string& file) {
  auto it = parsed_.find(file);
  if (it != parsed_.end()) return it->second.get();
  std::optional<std::string> text;
  if (auto o = overlay_.find(file); o != overlay_.end())
    text = o->second;
  else
    text = support::readFile(file.starts_with("/") ? file : root_ + "/" + file);
  std::unique_ptr<PySource>& slot = parsed_[file];
  if (text) slot = std::make_unique<PySource>(std::move(*text));
  if (slot) files_[slot.get()] = file;
  return slot.get();
}

const std::string* Sources::fileOf(const PySource* src) const {
  auto it = files_.find(src);
  return it == files_.end() ? nullptr : &it->second;
}

}  // namespace gridlock::rewrite::py
