#include "cli/command.h"
#include "gridlock/sharding.h"
#include "layout_json.h"

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

namespace gridlock::cli {

namespace {
struct ShardArgs {
  int total = 0;
  int mp = 1;
  std::string name;
  ShardingMetadata metadata;
};
}  // namespace

Runner addShardCommand(CLI::App& app) {
  auto args = std::make_shared<ShardArgs>();
  CLI::App* sub = app.add_subcommand("shard", "the shard widths the runtime uses, as JSON");
  sub->add_option("--total", args->total, "width of the dimension to split")->required();
  sub->add_option("--mp", args->mp, "tensor parallel ranks")->required();
  sub->add_option("--kv-heads", args->metadata.num_kv_heads, "kv heads (0: none)")
      ->capture_default_str();
  sub->add_option("--name", args->name, "layer name (lm_head, mlp... use the grain split)");
  sub->add_option("--grain", args->metadata.grain, "grain split unit")->capture_default_str();
  return [args] {
    try {
      std::cout << layout_cli::shard_json(
                       shard_sizes(args->total, args->mp, args->name, args->metadata))
                       .dump()
                << "\n";
      return 0;
    } catch (const std::invalid_argument& e) {
      std::cerr << "gridlock shard: error: " << e.what() << "\n";
      return 2;
    }
  };
}

}  // namespace gridlock::cli
