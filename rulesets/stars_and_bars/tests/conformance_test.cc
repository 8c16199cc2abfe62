// The conformance harness on Stars and Bars: random games of the whole
// Perryville scenario, from set-up to the end of turn 19, with and without
// the optional rules.
#include "wargame/conformance.h"

#include <gtest/gtest.h>

#include <string>

namespace wg {
namespace {

TEST(Conformance, PerryvilleRandomGamesAreLegalAndReplayable) {
  ConformanceOptions opt;
  opt.games = 4;
  opt.seed = 7;
  const ConformanceReport r = RunConformance("stars_and_bars(scenario=perryville)", opt);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 4);
}

TEST(Conformance, PerryvilleWithAllOptionalRules) {
  ConformanceOptions opt;
  opt.games = 4;
  opt.seed = 11;
  const ConformanceReport r =
      RunConformance("stars_and_bars(scenario=perryville,optional=12.1+12.2+12.3+12.4+12.5+12.6)", opt);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 4);
}

TEST(Conformance, PerryvilleEachOptionalRuleAlone) {
  for (const char* rule : {"12.1", "12.2", "12.3", "12.4", "12.5", "12.6"}) {
    ConformanceOptions opt;
    opt.games = 1;
    opt.seed = 21;
    const ConformanceReport r = RunConformance(std::string("stars_and_bars(optional=") + rule + ")", opt);
    EXPECT_TRUE(r.errors.ok()) << rule << ": " << r.errors.ToString();
    EXPECT_EQ(r.games_finished, 1) << rule;
  }
}

}  // namespace
}  // namespace wg
