// The generic computer player (wargame/ai.h) on the skirmish test ruleset, and
// on Stars and Bars with that ruleset's Rules::Evaluate knowledge.
#include "wargame/ai.h"
#include "wargame/map.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <gtest/gtest.h>

#include "wargame/conformance.h"
#include "wargame/liveness.h"
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


// --- Stars and Bars ---------------------------------------------------------------------

std::shared_ptr<const Game> StarsAndBars() {
  auto game = LoadGame("stars_and_bars");
  EXPECT_TRUE(game.ok()) << game.errors().ToString();
  return game.ok() ? *game : nullptr;
}

UnitId Unit(const Game& game, const char* id) {
  const int u = game.UnitIndex(id);
  EXPECT_GE(u, 0) << id;
  return static_cast<UnitId>(std::max(0, u));
}

TEST(Ai, EvaluationPenalizesUnitsOverTheStackingLimit) {
  // 5.5: a third brigade in a hex is eliminated at the end of movement.
  auto game = StarsAndBars();
  ASSERT_TRUE(game);
  Session s(game, 1);
  AiPlayer ai(game, 1);
  const int h = game->hex_board().map.Index("2407"), beside = game->hex_board().map.Index("2406");
  ASSERT_GE(h, 0);
  ASSERT_GE(beside, 0);
  State crowded, spread;
  std::memcpy(static_cast<void*>(&crowded), &s.state(), sizeof(State));
  for (const char* id : {"laiboldt", "greusel", "d_mccook"}) crowded.unit(Unit(*game, id)).hex = static_cast<int16_t>(h);
  std::memcpy(static_cast<void*>(&spread), &crowded, sizeof(State));
  spread.unit(Unit(*game, "d_mccook")).hex = static_cast<int16_t>(beside);
  for (int i = 0; i < spread.num_units; ++i) {
    const UnitState& u = spread.units[static_cast<size_t>(i)];
    ASSERT_FALSE(u.hex == beside && static_cast<UnitId>(i) != Unit(*game, "d_mccook")) << "2406 must be empty";
  }
  // Union: losing a 3-3 brigade (material 6.5 and the elimination penalty) is
  // far worse than the small positional differences; the Confederates gain.
  EXPECT_LT(ai.Evaluation(crowded, 0), ai.Evaluation(spread, 0) - 5.0);
  EXPECT_GT(ai.Evaluation(crowded, 1), ai.Evaluation(spread, 1) + 5.0);
  // Without the stacking term the two positions are close.
  AiOptions off;
  off.stacking_weight = 0;
  AiPlayer plain(game, 1, off);
  EXPECT_NEAR(plain.Evaluation(crowded, 0), plain.Evaluation(spread, 0), 2.0);
}

TEST(Ai, StarsAndBarsEvaluateCountsProjectedVictoryPoints) {
  // 11.1: a captured enemy convoy held is worth 6 VPs, one eliminated 3, a
  // permanent loss on an enemy brigade 1: the ruleset's Evaluate ranks them so.
  auto game = StarsAndBars();
  ASSERT_TRUE(game);
  Session s(game, 1);
  const Rules& rules = *game->rules;
  const UnitId convoy = Unit(*game, "csa_supply_1"), liddell = Unit(*game, "liddell");
  State captured, destroyed, hurt;
  for (State* st : {&captured, &destroyed, &hurt}) std::memcpy(static_cast<void*>(st), &s.state(), sizeof(State));
  captured.unit(convoy).side = 0;  // 5.8: now the Union's
  captured.unit(convoy).face = 1;
  captured.unit(convoy).hex = captured.unit(Unit(*game, "greusel")).hex;  // guarded, far from the enemy
  destroyed.unit(convoy).hex = kEliminated;
  hurt.unit(liddell).markers[game->MarkerIndex("permanent_loss")] += 1;
  const double base = rules.Evaluate(s.state(), 0);
  EXPECT_GT(rules.Evaluate(hurt, 0), base);
  EXPECT_GT(rules.Evaluate(destroyed, 0), rules.Evaluate(hurt, 0));
  EXPECT_GT(rules.Evaluate(captured, 0), rules.Evaluate(destroyed, 0));
  EXPECT_LT(rules.Evaluate(destroyed, 1), rules.Evaluate(s.state(), 1));
}

TEST(Ai, BeatsRandomInStarsAndBarsFromEitherSide) {
  // Issue 6: the ai must beat random in most Stars and Bars games from either
  // side (the README reports 100 games per side measured with `wargame
  // simulate`); here a fixed sample of 3 seeds per side.
  auto game = StarsAndBars();
  ASSERT_TRUE(game);
  int ai_wins = 0, random_wins = 0;
  // 3 seeds; fewer under the sanitizers (WG_GAMES_PERCENT): each game is long.
  const int seeds = std::min(3, ScaledGameCount(3));
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(seeds); ++seed) {
    for (int ai_side = 0; ai_side < 2; ++ai_side) {
      AiPlayer ai(game, seed * 2 + 1);
      RandomPlayer rnd(seed * 2 + 2);
      auto s = ai_side == 0 ? PlayGame(game, ai, rnd, seed) : PlayGame(game, rnd, ai, seed);
      ASSERT_TRUE(s->over()) << "seed " << seed << " side " << ai_side;
      ai_wins += s->state().winner == ai_side;
      random_wins += s->state().winner == 1 - ai_side;
    }
  }
  EXPECT_GE(ai_wins, 2 * seeds - 1) << "the ai won " << ai_wins << " of " << 2 * seeds << " games";
  EXPECT_EQ(random_wins, 0);
}

// Issue 15: the AI's choices are pinned. A speed-only change to the AI (or to
// what it calls: the rulesets' Evaluate, the listing, Apply) keeps them. Each
// pin is the State hash that `wargame play GAME --players ai,ai --seed S
// --max-actions N --save F` wrote in F before the AI was made faster (the
// players seeded as that command seeds them); a change that moves a pin
// changed what the AI plays. (The Chattanooga pin moved once without a change of
// play, with save format 3: its final State had the byte that kept the advance's
// stage set, which is now always 0; the build before, its hash taken with that
// byte 0, gives the new value. The Stars and Bars pin moved once without a change of
// play, with save format 5: its final State held the last combat's retreat and Stand
// decision in SbExt, now in the combat_result script's frame; the save the build
// before wrote with that command loads here, its hash matched by LegacySaveStates.)
std::string AiGameHash(const std::string& spec, uint64_t seed, long max_actions) {
  auto game = LoadGame(spec);
  EXPECT_TRUE(game.ok()) << game.errors().ToString();
  if (!game.ok()) return "";
  Session s(*game, seed);
  AiPlayer a0(*game, seed * 2654435761ULL + 17), a1(*game, seed * 2654435761ULL + 18);
  Player* const players[2] = {&a0, &a1};
  PlayToEnd(s, players, max_actions);
  char text[20];
  std::snprintf(text, sizeof text, "%016" PRIx64, HashState(s.state()));
  return text;
}

TEST(Ai, ChoicesArePinnedOnTheSkirmish) {
  EXPECT_EQ(AiGameHash(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish", 2, 100000), "f4a154963bfe2e4d");
}

// The pin moved when Stars and Bars' choices of 3.0 and 5.8 became the players' (save format 4:
// the AI sets up its batteries' modes first); with the program making them it plays as before.
TEST(Ai, ChoicesArePinnedOnStarsAndBars) {
  EXPECT_EQ(AiGameHash("stars_and_bars", 1, 120), "71535b85fb88e91c");
  EXPECT_EQ(AiGameHash("stars_and_bars(auto=setup+capture)", 1, 120), "0c3c144826092593");
}

TEST(Ai, ChoicesArePinnedOnChattanooga) {
  EXPECT_EQ(AiGameHash("blue_and_gray(scenario=chattanooga)", 1, 120), "ccbd1186bf5577c6");
}

}  // namespace
}  // namespace wg
