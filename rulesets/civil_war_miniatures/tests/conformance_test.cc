// The conformance harness on the farm scenario.
#include "wargame/conformance.h"

#include <gtest/gtest.h>

TEST(Conformance, FarmScenarioPlaysToTheEnd) {
  wg::ConformanceOptions o;
  o.games = wg::ScaledGameCount(30);  // the invariants (C.1: no base on another) after every action
  const wg::ConformanceReport r = wg::RunConformance("civil_war_miniatures(scenario=farm)", o);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, o.games);
}

#include <map>
#include <string>

#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

// Random games on the farm reach the chart's procedures (not only "end").
TEST(Conformance, RandomFarmGamesUseTheChart) {
  auto game = wg::LoadGame("civil_war_miniatures(scenario=farm)");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  std::map<std::string, int> rules;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    wg::Session s(*game, seed);
    wg::RandomPlayer p(seed);
    while (!s.over()) {
      const auto legal = s.LegalActions();
      ASSERT_FALSE(legal.empty());
      ASSERT_TRUE(s.Apply(p.Choose(s.game(), s.state(), legal)).ok());
    }
    for (const wg::Event& e : s.events()) ++rules[e.rule];
  }
  for (const char* r : {"T.1", "M", "1", "3", "9.1", "9.2", "V"}) EXPECT_GT(rules[r], 0) << r;
  std::string all;
  for (const auto& [k, v] : rules) all += k + "=" + std::to_string(v) + " ";
  std::printf("%s\n", all.c_str());
}

#include <cinttypes>
#include <cstdio>

#include "wargame/playout.h"

// The determinism signature of the farm (issue 15): the event logs and final
// states of 30 seeded uniform random games. A speed-only change keeps it; a rule
// fix that changes play updates it in its own commit, saying which rule and why.
TEST(Determinism, FarmSignatureIsPinned) {
  auto game = wg::LoadGame("civil_war_miniatures(scenario=farm)");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  char sig[24];
  std::snprintf(sig, sizeof sig, "%016" PRIx64, wg::DeterminismSignature(*game, 30, 1));
  EXPECT_STREQ(sig, "4cd8b69962099168") << "play changed (see the comment above)";
}

#include <cstring>

// Listing checks every candidate action on the position itself (MiniRules::Allowed,
// issue 15: no copy per candidate): it must leave the state exactly as it was,
// byte for byte, at every decision of whole random games.
TEST(Conformance, ListingLeavesTheStateAsItWas) {
  auto game = wg::LoadGame("civil_war_miniatures(scenario=farm)");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  long decisions = 0;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(wg::ScaledGameCount(8)); ++seed) {
    wg::Session s(*game, seed);
    wg::RandomPlayer p(seed);
    while (!s.over()) {
      const wg::State before = s.state();
      const auto legal = s.LegalActions();
      ASSERT_EQ(std::memcmp(&before, &s.state(), sizeof(wg::State)), 0) << "seed " << seed << " decision " << decisions;
      ASSERT_FALSE(legal.empty());
      ASSERT_TRUE(s.Apply(p.Choose(s.game(), s.state(), legal)).ok());
      ++decisions;
    }
  }
  EXPECT_GT(decisions, 100);
}
