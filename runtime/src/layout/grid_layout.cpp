#include "gridlock/grid_layout.h"

#include <algorithm>
#include <stdexcept>

namespace gridlock {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

std::string str(int v) { return std::to_string(v); }

// The expert grid has no cp dimension; it keeps the dense order with cp dropped.
std::string without_cp(const std::string& order) {
  std::string out;
  size_t start = 0;
  while (start <= order.size()) {
    size_t end = order.find('-', start);
    if (end == std::string::npos) end = order.size();
    std::string name = order.substr(start, end - start);
    if (name != "cp") out += (out.empty() ? "" : "-") + name;
    start = end + 1;
  }
  return out;
}

}  // namespace

int expert_tensor_parallel_size(const GridOptions& o) { return o.etp == 0 ? o.tp : o.etp; }

void validate(const GridOptions& o) {
  require(o.world >= 1, "world must be >= 1, got " + str(o.world));
  for (auto [name, v] : {std::pair{"tp", o.tp},
                         {"pp", o.pp},
                         {"cp", o.cp},
                         {"ep", o.ep},
                         {"etp", expert_tensor_parallel_size(o)}})
    require(v >= 1, std::string(name) + " must be >= 1, got " + str(v));
  require(o.rank_offset >= 0, "rank offset must be >= 0, got " + str(o.rank_offset));
  int dense = o.tp * o.cp * o.pp;
  require(o.world % dense == 0, "world " + str(o.world) +
                                    " is not divisible by tp*cp*pp = " + str(o.tp) + "*" +
                                    str(o.cp) + "*" + str(o.pp) + " = " + str(dense));
  int etp = expert_tensor_parallel_size(o);
  int expert = etp * o.ep * o.pp;
  require(o.world % expert == 0, "world " + str(o.world) +
                                     " is not divisible by etp*ep*pp (expert grid) = " + str(etp) +
                                     "*" + str(o.ep) + "*" + str(o.pp) + " = " + str(expert));
}

int data_parallel_size(const GridOptions& o) {
  validate(o);
  return o.world / (o.tp * o.cp * o.pp);
}

int expert_data_parallel_size(const GridOptions& o) {
  validate(o);
  return o.world / (expert_tensor_parallel_size(o) * o.ep * o.pp);
}

const std::vector<std::string>& grid_group_names() {
  static const std::vector<std::string> names = {
      "tp",       "dp",   "pp",       "cp",    "ep",    "expt_tp", "expt_dp", "mp",
      "tp_dp_cp", "embd", "pos_embd", "dp_cp", "tp_cp", "tp_dp",   "tp_ep",   "tp_ep_pp"};
  return names;
}

GridLayout::GridLayout(const GridOptions& options) : options_(options) {
  validate(options_);
  const GridOptions& o = options_;
  dp_ = o.world / (o.tp * o.cp * o.pp);
  expt_dp_ = expert_data_parallel_size(o);
  // As in Megatron-core: the dense grid has ep = 1; experts get a grid of their own.
  RankGenerator dense(o.tp, 1, dp_, o.pp, o.cp, o.order, o.rank_offset);
  RankGenerator expert(expert_tensor_parallel_size(o), o.ep, expt_dp_, o.pp, 1, without_cp(o.order),
                       o.rank_offset);

  groups_["tp"] = dense.get_ranks("tp");
  groups_["dp"] = dense.get_ranks("dp");
  groups_["pp"] = dense.get_ranks("pp");
  groups_["cp"] = dense.get_ranks("cp");
  groups_["mp"] = dense.get_ranks("tp-pp");
  groups_["dp_cp"] = dense.get_ranks("dp-cp");
  groups_["tp_cp"] = dense.get_ranks("tp-cp");
  groups_["tp_dp"] = dense.get_ranks("tp-dp");
  groups_["tp_dp_cp"] = dense.get_ranks("tp-dp-cp");
  groups_["ep"] = expert.get_ranks("ep");
  groups_["expt_tp"] = expert.get_ranks("tp");
  groups_["expt_dp"] = expert.get_ranks("dp");
  groups_["tp_ep"] = expert.get_ranks("tp-ep");
  groups_["tp_ep_pp"] = expert.get_ranks("tp-ep-pp");

  // Both grids share the pipeline: stage boundaries must agree or a pp send crosses grids.
  RankGroups expert_pp = expert.get_ranks("pp");
  if (expert_pp != groups_["pp"])
    throw std::invalid_argument(
        "order '" + o.order +
        "' puts the expert grid's pp groups on other ranks than the "
        "dense grid's; put pp last in the order or give both grids the same "
        "sizes before pp");

  for (const auto& pp : groups_["pp"]) {
    groups_["embd"].push_back(pp.size() > 1 ? std::vector<int>{pp.front(), pp.back()} : pp);
    groups_["pos_embd"].push_back({pp.front()});
  }
}

const RankGroups& GridLayout::groups(std::string_view name) const {
  auto it = groups_.find(name);
  if (it == groups_.end())
    throw std::out_of_range("no group family '" + std::string(name) + "' in a grid layout");
  return it->second;
}

std::vector<int> GridLayout::group_of(std::string_view name, int rank) const {
  for (const auto& g : groups(name))
    if (std::find(g.begin(), g.end(), rank) != g.end()) return g;
  return {};
}

bool GridLayout::contains(int rank) const {
  return rank >= options_.rank_offset && rank < options_.rank_offset + options_.world;
}

}  // namespace gridlock
