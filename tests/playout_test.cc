// FastRandomPlayer (wargame/playout.h): every action it picks is one the
// listing (Session::LegalActions) would offer, and its games end.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "wargame/playout.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

const std::string kSkirmish = std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish";

bool SameAction(const Action& a, const Action& b) {
  if (a.type != b.type || a.num_units != b.num_units || a.num_hexes != b.num_hexes) return false;
  for (int i = 0; i < a.num_units; ++i) {
    if (a.units[static_cast<size_t>(i)] != b.units[static_cast<size_t>(i)]) return false;
  }
  for (int i = 0; i < a.num_hexes; ++i) {
    if (a.hexes[static_cast<size_t>(i)] != b.hexes[static_cast<size_t>(i)]) return false;
  }
  return a.value == b.value && a.value2 == b.value2;
}

TEST(Playout, FastPlayerPicksOnlyListedActions) {
  auto game = LoadGame(kSkirmish);
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  int moves = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Session s(*game, seed);
    FastRandomPlayer player(seed);
    long n = 0;
    while (!s.over() && n < 50000) {
      const std::vector<Action> legal = s.LegalActions();
      Action a;
      ASSERT_TRUE(player.Choose(s, &a)) << "seed " << seed;
      bool listed = false;
      for (const Action& l : legal) listed = listed || SameAction(l, a);
      ASSERT_TRUE(listed) << "seed " << seed << " action " << n << " not among the legal actions";
      moves += a.type == ActionType::kMove || a.type == ActionType::kEnter;
      ASSERT_TRUE(s.Apply(a).ok()) << "seed " << seed;
      ++n;
    }
    EXPECT_TRUE(s.over()) << "seed " << seed;
  }
  EXPECT_GT(moves, 20);  // it does move units, not only end phases
}

TEST(Playout, FastGamesFinishAndAreReproducible) {
  auto game = LoadGame(kSkirmish);
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const PlayoutResult a = PlayFastRandomGame(*game, seed);
    const PlayoutResult b = PlayFastRandomGame(*game, seed);
    EXPECT_TRUE(a.finished) << "seed " << seed;
    EXPECT_EQ(a.event_hash, b.event_hash) << "seed " << seed;
  }
}

}  // namespace
}  // namespace wg
