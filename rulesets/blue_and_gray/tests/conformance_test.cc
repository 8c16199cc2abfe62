// The conformance harness on Blue & Gray / Chattanooga: random games from the
// set-up to the end of turn 10 with only legal actions, clone, save/load, invariants.
#include <gtest/gtest.h>

#include "wargame/conformance.h"
#include "wargame/registry.h"
#include "wargame/session.h"
#include "wargame/players.h"

namespace wg {
namespace {

TEST(Conformance, ChattanoogaRandomGamesPlayToTheEnd) {
  ConformanceOptions o;
  o.games = 3;
  o.seed = 7;
  const ConformanceReport r = RunConformance("blue_and_gray(scenario=chattanooga)", o);
  EXPECT_TRUE(r.errors.ok()) << r.errors.ToString();
  EXPECT_EQ(r.games_finished, 3);
}

TEST(Conformance, ChattanoogaFullGameFromSetUpToEndOfTurnTen) {
  auto g = LoadGame("blue_and_gray(scenario=chattanooga)");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  Session session(*g, 11);
  RandomPlayer player(5);
  int actions = 0;
  while (!session.over() && actions < 50000) {
    const std::vector<Action> legal = session.LegalActions();
    ASSERT_FALSE(legal.empty()) << session.DescribeDecision();
    const Status st = session.Apply(player.Choose(**g, session.state(), legal));
    ASSERT_TRUE(st.ok()) << st.ToString();
    ++actions;
  }
  ASSERT_TRUE(session.over());
  EXPECT_EQ(session.state().turn, 10);
  EXPECT_EQ(session.state().conceded_by, 0xFF);
  const Event& last = session.events().back();
  EXPECT_EQ(last.type, EventType::kGameEnd);
  ASSERT_NE(last.text, nullptr);
  EXPECT_NE(std::string(last.text).find("Victory") == std::string::npos && std::string(last.text) != "Draw", true)
      << last.text;
}

TEST(Conformance, DefaultScenarioIsChattanooga) {
  auto g = LoadGame("blue_and_gray");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  EXPECT_EQ((*g)->num_units(), 77);
  EXPECT_EQ((*g)->turns.num_turns(), 10);
  EXPECT_TRUE((*g)->turns.turns[4].night);
}

}  // namespace
}  // namespace wg
