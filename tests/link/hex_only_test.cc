// The hex engine alone (issue 38): this program links Wargame::hex (and the core)
// and no ruleset, and still plays a data-only ruleset: the hex engine sets its
// loader in whatever links it.
#include <gtest/gtest.h>

#include <string>

#include "wargame/liveness.h"
#include "wargame/map.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

TEST(Libraries, TheHexEngineAlonePlaysADataOnlyRuleset) {
  AddRulesetSearchPath(std::string(WG_TEST_DATA_DIR) + "/rulesets");
  auto game = LoadGame("skirmish");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  ASSERT_NE((*game)->board<HexBoard>(), nullptr);
  EXPECT_GT(HexBoardOf(**game).map.size(), 0);
  Session session(*game, 1);
  RandomPlayer p0(1), p1(2);
  Player* players[2] = {&p0, &p1};
  const PlayedGame played = PlayToEnd(session, players, 200);
  EXPECT_NE(played.stop, GameStop::kRefused) << played.detail;
  EXPECT_GT(played.actions, 0);
}

}  // namespace
}  // namespace wg
