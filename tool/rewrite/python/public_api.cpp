#include "rewrite/python/public_api.h"

#include "rewrite/python/ts_node.h"
#include "rules/glob.h"

namespace gridlock::rewrite::py {

std::string publicGlob(const rules::PythonRewriteRule& rule, const std::string& file,
                       const PySource& src, TSNode def) {
  if (ts_node_is_null(def) || !PySource::atModuleLevel(def)) return "";  // a method, a nested def
  if (src.text(ts::field<"name">(def)).starts_with("_")) return "";
  for (const std::string& glob : rule.publicModules)
    if (rules::globMatch(glob, file)) return glob;
  return "";
}

}  // namespace gridlock::rewrite::py
