// The core links alone (issue 38): this program links Wargame::core only, no board
// engine, and a data-only ruleset (which plays on the hex engine) is unknown to it.
#include <gtest/gtest.h>

#include <string>

#include "wargame/game.h"
#include "wargame/registry.h"

namespace wg {
namespace {

TEST(Libraries, TheCoreLinksWithoutAnEngine) {
  Game g;
  EXPECT_EQ(g.board(), nullptr);
  EXPECT_EQ(g.num_positions(), 0);
  EXPECT_EQ(g.HexLabel(kOnTable), "on the table");
  AddRulesetSearchPath(std::string(WG_TEST_DATA_DIR) + "/rulesets");
  auto game = LoadGame("skirmish");
  ASSERT_FALSE(game.ok());
  EXPECT_NE(game.errors().ToString().find("unknown ruleset"), std::string::npos) << game.errors().ToString();
}

}  // namespace
}  // namespace wg
