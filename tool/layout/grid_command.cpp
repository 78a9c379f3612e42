#include "cli/command.h"
#include "gridlock/grid_layout.h"
#include "layout_json.h"

#include <iostream>
#include <memory>
#include <stdexcept>

namespace gridlock::cli {

Runner addGridCommand(CLI::App& app) {
  auto options = std::make_shared<GridOptions>();
  CLI::App* sub = app.add_subcommand("grid", "the rank layout the runtime builds, as JSON");
  sub->add_option("--world", options->world, "ranks in the grid")->required();
  sub->add_option("--tp", options->tp, "tensor parallel size")->required();
  sub->add_option("--pp", options->pp, "pipeline parallel size")->required();
  sub->add_option("--cp", options->cp, "context parallel size")->capture_default_str();
  sub->add_option("--ep", options->ep, "expert model parallel size")->capture_default_str();
  sub->add_option("--etp", options->etp, "expert tensor parallel size (0: same as tp)")
      ->capture_default_str();
  sub->add_option("--order", options->order, "dimension order, first varies fastest")
      ->capture_default_str();
  sub->add_option("--rank-offset", options->rank_offset, "first rank of the grid")
      ->capture_default_str();
  return [options] {
    try {
      GridLayout layout(*options);
      std::cout << layout_cli::grid_json(layout).dump() << "\n";
      return 0;
    } catch (const std::invalid_argument& e) {
      std::cerr << "gridlock grid: error: " << e.what() << "\n";
      return 2;
    }
  };
}

}  // namespace gridlock::cli
