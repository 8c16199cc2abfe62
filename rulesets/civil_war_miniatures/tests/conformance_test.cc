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
  EXPECT_STREQ(sig, "783dbe15169706ae") << "play changed (see the comment above)";
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

#include <memory>
#include <vector>

#include "rules.h"

// Issue 15: the fast listing (FastSweepProbe's stretches, the facing table, the planned
// moves' short duplicate list, refusals without texts) against the straightforward
// code it replaced (StraightforwardGeometry: each move swept from the unit's centre on
// its own, sample by sample): at every decision of seeded random farm games the two
// list the same actions in the same order, and every listed action, applied to a copy
// of the position each way, leaves the same State byte for byte (where each move ends,
// each charge's path and closing move, each retreat). The games themselves are played
// both ways side by side and keep the same states and event logs.
TEST(PlayoutSpeed, FastListingAndPlayEqualTheStraightforwardOnes) {
  auto game = wg::LoadGame("civil_war_miniatures(scenario=farm)");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  const wg::Rules& rules = *(*game)->rules;
  long decisions = 0, applied = 0, moves = 0;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(wg::ScaledGameCount(6)); ++seed) {
    wg::Session fast(*game, seed), straight(*game, seed);
    fast.set_playout(true);
    straight.set_playout(true);
    wg::RandomPlayer player(seed * 7919 + 1);
    std::unique_ptr<wg::Scratch> scratch = rules.NewScratch();
    std::vector<wg::Action> lf, ls;
    while (!fast.over()) {
      fast.LegalActions(&lf);
      {
        const wg::civil_war_miniatures::StraightforwardGeometry reference;
        straight.LegalActions(&ls);
      }
      ASSERT_EQ(lf.size(), ls.size()) << "seed " << seed << " decision " << decisions;
      for (size_t i = 0; i < lf.size(); ++i) {
        ASSERT_TRUE(lf[i] == ls[i]) << "seed " << seed << " decision " << decisions << ": listings differ at " << i;
      }
      for (const wg::Action& a : lf) {
        wg::State a1 = fast.state(), a2 = fast.state();
        wg::Context c1(**game, nullptr, nullptr, scratch.get()), c2(**game, nullptr, nullptr, scratch.get());
        const bool ok1 = rules.Apply(a1, a, c1).ok();
        bool ok2 = false;
        {
          const wg::civil_war_miniatures::StraightforwardGeometry reference;
          ok2 = rules.Apply(a2, a, c2).ok();
        }
        ASSERT_EQ(ok1, ok2) << "seed " << seed << " decision " << decisions;
        ASSERT_EQ(std::memcmp(&a1, &a2, sizeof(wg::State)), 0)
            << "seed " << seed << " decision " << decisions << ": an applied action differs";
        ++applied;
        moves += a.type == wg::ActionType::kMove;
      }
      ASSERT_FALSE(lf.empty());
      const wg::Action chosen = lf[player.ChooseIndex(lf.size())];
      ASSERT_TRUE(fast.Apply(chosen).ok());
      {
        const wg::civil_war_miniatures::StraightforwardGeometry reference;
        ASSERT_TRUE(straight.Apply(chosen).ok());
      }
      ASSERT_EQ(wg::HashState(fast.state()), wg::HashState(straight.state())) << "seed " << seed;
      ++decisions;
    }
    EXPECT_TRUE(straight.over());
    EXPECT_EQ(wg::HashEvents(fast.events().data(), fast.events().size()),
              wg::HashEvents(straight.events().data(), straight.events().size()))
        << "seed " << seed;
  }
  EXPECT_GT(decisions, 100);
  EXPECT_GT(moves, 10 * decisions);  // the planned moves are most of each listing
  std::printf("%ld decisions, %ld actions applied both ways (%ld moves)\n", decisions, applied, moves);
}
