// A backend of the rewrite core's tests: a language, one scripted strategy, its finish making
// one changed file per edited file, the checks its test gives, and nothing else of a real
// language.
#pragma once

#include "rewrite/core/rewriter.h"

#include <functional>
#include <memory>
#include <string>

namespace gridlock::rewrite::test {

// A strategy that does what its test says.
class Scripted : public Strategy {
 public:
  Scripted(facts::Language language, std::function<void(PlanState&)> body)
      : language_(language), body_(std::move(body)) {}
  facts::Language language() const override { return language_; }
  std::string_view id() const override { return "scripted"; }
  std::optional<facts::Strategy> counts() const override { return facts::Strategy::Substitute; }
  void run(PlanState& s) override { body_(s); }

 private:
  facts::Language language_;
  std::function<void(PlanState&)> body_;
};

class FakeBackend : public Rewriter {
 public:
  FakeBackend(facts::Language language, std::function<void(PlanState&)> body)
      : language_(language) {
    strategies_.push_back(std::make_unique<Scripted>(language, std::move(body)));
  }
  facts::Language language() const override { return language_; }
  const Strategies& strategies() const override { return strategies_; }
  std::string heldDetail(const std::string& file, const std::string& why) const override {
    return "held " + file + ": " + why;
  }
  std::unique_ptr<PlanState> start(const PlanInputs& in) override {
    ++starts;
    return std::make_unique<PlanState>(in.inv, in.rules, in.held, language_);
  }
  // Each edited file changed to its edits' texts, one after the other.
  apply::Prepared finish(const PlanState& planned, const std::string&) override {
    apply::Prepared out;
    for (const auto& e : planned.plan.edits) {
      if (out.changes.empty() || out.changes.back().file != e.file)
        out.changes.push_back({e.file, e.file, "", ""});
      out.changes.back().after += e.text;
    }
    return out;
  }

  std::vector<Check*> checks() override { return checks_; }
  std::string cannotVerify() const override { return cannotVerify_; }
  std::string tooManyRounds() const override { return "too many rounds"; }
  std::string notIdempotent(const Plan& second) const override {
    return "not idempotent: " + std::to_string(second.edits.size()) + " edit(s)";
  }

  int starts = 0;
  std::vector<Check*> checks_;  // what each round runs, in order
  std::string cannotVerify_;    // why its checks cannot run, "" when they can

 private:
  facts::Language language_;
  Strategies strategies_;
};

}  // namespace gridlock::rewrite::test
