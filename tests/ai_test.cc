// The generic computer player (wargame/ai.h) on the skirmish test ruleset.
#include "wargame/ai.h"

#include <cstring>

#include <gtest/gtest.h>

#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

std::shared_ptr<const Game> Skirmish() {
  auto game = LoadGame(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish");
  EXPECT_TRUE(game.ok()) << game.errors().ToString();
  return game.ok() ? *game : nullptr;
}

// Plays a whole game with the given players; returns the session.
std::unique_ptr<Session> PlayGame(const std::shared_ptr<const Game>& game, Player& p0, Player& p1, uint64_t seed) {
  auto s = std::make_unique<Session>(game, seed);
  Player* players[2] = {&p0, &p1};
  for (int n = 0; n < 5000 && !s->over(); ++n) {
    const auto legal = s->LegalActions();
    if (legal.empty()) break;
    const Action a = players[s->state().decision_side & 1]->Choose(s->game(), s->state(), legal);
    bool listed = false;
    for (const auto& l : legal) listed |= l == a;
    EXPECT_TRUE(listed) << "the ai chose an action that is not listed";
    const Status st = s->Apply(a);
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) break;
  }
  return s;
}

TEST(Ai, PlaysOnlyListedActionsToTheEndOfTheGame) {
  auto game = Skirmish();
  ASSERT_TRUE(game);
  AiPlayer blue(game, 1), red(game, 2);
  auto s = PlayGame(game, blue, red, 5);
  EXPECT_TRUE(s->over());
}

TEST(Ai, SameSeedSameGame) {
  auto game = Skirmish();
  ASSERT_TRUE(game);
  AiPlayer a0(game, 11), a1(game, 12), b0(game, 11), b1(game, 12);
  auto first = PlayGame(game, a0, a1, 3);
  auto second = PlayGame(game, b0, b1, 3);
  EXPECT_EQ(first->Save(), second->Save());
}

TEST(Ai, EvaluationCountsMaterial) {
  auto game = Skirmish();
  ASSERT_TRUE(game);
  Session s(game, 1);
  AiPlayer ai(game, 1);
  State weaker;
  std::memcpy(static_cast<void*>(&weaker), &s.state(), sizeof(State));
  const int r1 = game->UnitIndex("r1");
  ASSERT_GE(r1, 0);
  weaker.unit(static_cast<UnitId>(r1)).hex = kEliminated;  // Red loses its best unit
  EXPECT_GT(ai.Evaluation(weaker, 0), ai.Evaluation(s.state(), 0));
  EXPECT_LT(ai.Evaluation(weaker, 1), ai.Evaluation(s.state(), 1));
  // A hit marker (reduces strength) also counts, less than elimination.
  State hit;
  std::memcpy(static_cast<void*>(&hit), &s.state(), sizeof(State));
  hit.unit(static_cast<UnitId>(r1)).markers[game->MarkerIndex("hit")] = 1;
  EXPECT_GT(ai.Evaluation(hit, 0), ai.Evaluation(s.state(), 0));
  EXPECT_LT(ai.Evaluation(hit, 0), ai.Evaluation(weaker, 0));
}

TEST(Ai, LosesLessThanRandomOverASampleOfGames) {
  auto game = Skirmish();
  ASSERT_TRUE(game);
  int better = 0;
  const int games = 20;
  for (int g = 0; g < games; ++g) {
    AiPlayer ai(game, 100 + static_cast<uint64_t>(g));
    RandomPlayer rnd(200 + static_cast<uint64_t>(g));
    const bool ai_blue = g % 2 == 0;
    auto s = ai_blue ? PlayGame(game, ai, rnd, static_cast<uint64_t>(g)) : PlayGame(game, rnd, ai, static_cast<uint64_t>(g));
    int lost[2] = {0, 0};
    Session start(game, static_cast<uint64_t>(g));
    for (int i = 0; i < s->state().num_units; ++i) {
      const UnitId u = static_cast<UnitId>(i);
      lost[s->state().unit(u).side & 1] += UnitStrength(*game, start.state(), u) - UnitStrength(*game, s->state(), u);
    }
    const int ai_side = ai_blue ? 0 : 1;
    better += lost[ai_side] < lost[1 - ai_side];
  }
  EXPECT_GE(better, 16) << "the ai lost less strength than random in " << better << " of " << games;
}

}  // namespace
}  // namespace wg
