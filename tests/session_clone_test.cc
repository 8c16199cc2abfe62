// Session::Clone: the copy plays on exactly as the original would, and the two
// are independent.
#include <gtest/gtest.h>

#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

void PlayRandom(Session& s, RandomPlayer& p, size_t until) {
  while (!s.over() && s.actions().size() < until) {
    ASSERT_TRUE(s.Apply(p.Choose(s.game(), s.state(), s.LegalActions())).ok());
  }
}

TEST(SessionClone, PlaysOnIdenticallyAndIndependently) {
  for (const char* spec : {"stars_and_bars", "civil_war_miniatures"}) {
    auto game = LoadGame(spec);
    ASSERT_TRUE(game.ok()) << game.errors().ToString();
    Session s(*game, 3);
    RandomPlayer p(5);
    PlayRandom(s, p, 60);
    const std::unique_ptr<Session> c = s.Clone();
    EXPECT_TRUE(c->state().Equals(s.state()));
    EXPECT_EQ(c->Save(), s.Save());
    EXPECT_EQ(c->events().size(), s.events().size());
    EXPECT_FALSE(c->Undo());  // no history before the copy
    RandomPlayer q = p;
    PlayRandom(s, p, 100000);
    EXPECT_EQ(c->actions().size(), 60u);  // the clone did not move
    PlayRandom(*c, q, 100000);
    EXPECT_TRUE(c->state().Equals(s.state())) << spec;
    EXPECT_EQ(c->DescribeEvents(), s.DescribeEvents());
    ASSERT_TRUE(s.over());
  }
}

TEST(SessionClone, KeepsSuppliedDice) {
  auto game = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(game.ok());
  Session s(*game, 1, /*supplied_dice=*/true);
  s.SupplyDice({4, 2, 6});
  const std::unique_ptr<Session> c = s.Clone();
  EXPECT_EQ(c->dice_queued(), 3u);
  EXPECT_NE(c->Save().find("dice: supplied"), std::string::npos);
}

}  // namespace
}  // namespace wg
