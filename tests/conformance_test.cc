// The shared conformance harness on the tiny test ruleset.
#include "wargame/conformance.h"

#include <gtest/gtest.h>

#include "skirmish.h"

namespace wg {
namespace {

TEST(Conformance, SkirmishRandomGamesAreLegalAndReplayable) {
  ConformanceOptions opt;
  opt.games = 30;
  const ConformanceReport r = RunConformance("skirmish", opt);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 30);
  EXPECT_GT(r.actions, 30 * 10);
}

TEST(Conformance, WithOptionalRule) {
  ConformanceOptions opt;
  opt.games = 5;
  opt.seed = 100;
  const ConformanceReport r = RunConformance("skirmish(optional=X.1)", opt);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 5);
}

TEST(Conformance, ReportsAnUnloadableGame) {
  const ConformanceReport r = RunConformance("skirmish(scenario=nope)", ConformanceOptions{});
  EXPECT_FALSE(r.errors.ok());
}

}  // namespace
}  // namespace wg
