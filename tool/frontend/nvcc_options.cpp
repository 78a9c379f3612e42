#include "frontend/nvcc_options.h"

namespace gridlock::frontend {
namespace {

// `--name` matches a long name, `-name` a short one; nvcc takes no other mix (`--I` is unknown).
const NvccOption* find(std::string_view dashed) {
  bool isLong = dashed.starts_with("--");
  std::string_view name = dashed.substr(isLong ? 2 : 1);
  if (name.empty()) return nullptr;
  for (const NvccOption& o : nvccOptions())
    if ((isLong ? o.longName : o.shortName) == name) return &o;
  return nullptr;
}

// `-Ifoo`: only after no option matched the whole argument (`-isystem`, `-lineinfo`, `-O=3`).
const NvccOption* findAttached(std::string_view arg) {
  if (arg.size() < 3 || arg[1] == '-') return nullptr;
  for (const NvccOption& o : nvccOptions())
    if (o.attached && o.shortName.size() == 1 && o.shortName[0] == arg[1]) return &o;
  return nullptr;
}

}  // namespace

NvccArg readNvccArg(const std::vector<std::string>& args, size_t& i) {
  const std::string& a = args[i++];
  NvccArg out;
  out.spelling = a;
  if (a.empty()) out.kind = NvccArg::Kind::Unknown;  // nvcc: "Don't know what to do with ''"
  if (a.size() < 2 || a[0] != '-') return out;

  size_t eq = a.find('=');
  std::string name = a.substr(0, eq);
  const NvccOption* o = find(name);
  if (!o) {
    if ((o = findAttached(a))) {
      out.kind = NvccArg::Kind::Option;
      out.option = o;
      out.spelling = a.substr(0, 2);
      out.value = a.substr(2);
    } else {
      out.kind = NvccArg::Kind::Unknown;
    }
    return out;
  }
  out.kind = NvccArg::Kind::Option;
  out.option = o;
  out.spelling = name;
  if (eq != std::string::npos) {
    out.value = a.substr(eq + 1);
    if (o->value == NvccValue::None) out.error = "no argument expected after " + name;
  } else if (o->value == NvccValue::Required) {
    if (i < args.size())
      out.value = args[i++];
    else
      out.error = "argument expected after " + name;
  } else if (o->value == NvccValue::Optional && i < args.size() && !args[i].starts_with("-")) {
    out.value = args[i++];
  }
  return out;
}

}  // namespace gridlock::frontend
