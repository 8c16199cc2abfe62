// The conformance harness on the farm scenario.
#include <gtest/gtest.h>

#include "wargame/conformance.h"

TEST(Conformance, FarmScenarioPlaysToTheEnd) {
  wg::ConformanceOptions o;
  o.games = 4;
  const wg::ConformanceReport r = wg::RunConformance("civil_war_miniatures(scenario=farm)", o);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 4);
}
