// The computer player on the farm (issue 13): it beats the random player from
// either side, and two of them play the chart's game: fire, charges, melee.
// Game counts scale with WG_GAMES_PERCENT (wg::ScaledGameCount).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "wargame/ai.h"
#include "wargame/conformance.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

struct Tally {
  int winner = -1;
  int fires = 0, charges = 0, melees = 0;
};

// Plays one farm game; players[side] is an AI when ai[side].
Tally Play(const std::shared_ptr<const Game>& game, uint64_t seed, bool ai0, bool ai1) {
  Session s(game, seed);
  std::unique_ptr<Player> p[2];
  const bool ai[2] = {ai0, ai1};
  for (int k = 0; k < 2; ++k) {
    if (ai[k]) {
      p[k] = std::make_unique<AiPlayer>(game, seed * 7 + static_cast<uint64_t>(k));
    } else {
      p[k] = std::make_unique<RandomPlayer>(seed * 13 + static_cast<uint64_t>(k));
    }
  }
  for (int guard = 0; guard < 5000 && !s.over(); ++guard) {
    const auto legal = s.LegalActions();
    if (legal.empty()) break;
    const Action a = p[s.state().decision_side & 1]->Choose(s.game(), s.state(), legal);
    EXPECT_TRUE(s.Apply(a).ok());
  }
  EXPECT_TRUE(s.over());
  Tally t;
  t.winner = s.state().game_over ? s.state().winner : -1;
  for (const Action& a : s.actions()) {
    t.fires += a.type == ActionType::kBombard;
    t.charges += a.type == ActionType::kAttack;
  }
  for (const Event& e : s.events()) {
    t.melees += e.type == EventType::kNote && std::string(e.rule) == "8.1" && std::string(e.text) == "melee";
  }
  return t;
}

std::shared_ptr<const Game> Farm() {
  auto g = LoadGame("civil_war_miniatures(scenario=farm)");
  EXPECT_TRUE(g.ok()) << g.errors().ToString();
  return *g;
}

TEST(Ai, BeatsRandomOnTheFarmFromEitherSide) {
  const auto game = Farm();
  const int n = ScaledGameCount(20);
  for (int side = 0; side < 2; ++side) {
    int wins = 0;
    for (int i = 0; i < n; ++i) wins += Play(game, 100 + static_cast<uint64_t>(i), side == 0, side == 1).winner == side;
    std::printf("ai as %s: %d of %d games won\n", game->sides[static_cast<size_t>(side)].id.c_str(), wins, n);
    EXPECT_GE(wins * 10, n * 9) << "side " << side;
  }
}

TEST(Ai, TwoComputerPlayersFireChargeAndMelee) {
  const auto game = Farm();
  const int n = ScaledGameCount(8);
  std::map<int, int> fires, charges, melees;
  double f = 0, c = 0, m = 0;  // fire actions, charges, melees fought
  for (int i = 0; i < n; ++i) {
    const Tally t = Play(game, 500 + static_cast<uint64_t>(i), true, true);
    ++fires[t.fires];
    ++charges[t.charges];
    ++melees[t.melees];
    f += t.fires;
    c += t.charges;
    m += t.melees;
  }
  auto show = [](const char* what, const std::map<int, int>& dist) {
    std::printf("%s per game:", what);
    for (const auto& [k, v] : dist) std::printf(" %d:%d", k, v);
    std::printf("\n");
  };
  show("fire actions", fires);
  show("charges", charges);
  show("melees", melees);
  std::printf("means over %d games: fire %.2f, charges %.2f, melees %.2f\n", n, f / n, c / n, m / n);
  EXPECT_GE(f / n, 5.0);
  // Means of a handful of games are noisy: the charge figure is checked on the full set
  // (a sanitizer run plays a few games). Melee is printed, not required: it needs both the
  // charger's and the attackee's D20 tests to pass (RULES.md, AI), under 10% of charges.
  if (n >= 4) EXPECT_GE(c / n, 1.0);
}

}  // namespace
}  // namespace wg
