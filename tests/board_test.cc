// The geometry a game is played on (issue 11): a hex game has a HexBoard (its
// map) and no table; a tabletop game has a Table measured in inches and no hex
// map, and its units stand "on the table" (kOnTable), on no hex, while the
// core (liveness, strength, labels, the queries) still sees them in play.
#include <gtest/gtest.h>

#include <string>

#include "wargame/action_space.h"
#include "wargame/game.h"
#include "wargame/liveness.h"
#include "wargame/map.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"
#include "wargame/tabletop.h"

namespace wg {
namespace {

int EmptyBoardLimit() { return HexBoard{}.stacking.limit; }

TEST(Board, AHexGameHasAHexBoardAndNoTable) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  const Game& g = **game;
  EXPECT_TRUE(g.has_hex_board());
  EXPECT_GT(g.hex_board().map.size(), 0);
  EXPECT_GT(g.hex_board().stacking.limit, 0);
  EXPECT_FALSE(g.has_table());
  EXPECT_EQ(g.table().width, 0);
  EXPECT_NE(g.rules->hex(), nullptr);
  EXPECT_EQ(g.rules->tabletop(), nullptr);
  Session session(*game, 1);
  int on_map = 0;
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    const UnitState& us = session.state().unit(u);
    EXPECT_FALSE(us.OnTable()) << g.units[static_cast<size_t>(u)].id;
    EXPECT_EQ(us.InPlay(), us.OnMap()) << g.units[static_cast<size_t>(u)].id;
    on_map += us.OnMap() ? 1 : 0;
  }
  EXPECT_GT(on_map, 0);
}

// A game has a hex board or a table, never both: giving it one takes the other.
TEST(Board, AGameHasAHexBoardOrATableNeverBoth) {
  Game g;
  EXPECT_FALSE(g.has_hex_board());
  EXPECT_FALSE(g.has_table());
  MutableHexBoard(g).stacking.limit = 3;
  EXPECT_TRUE(g.has_hex_board());
  EXPECT_FALSE(g.has_table());
  Table t;
  t.width = 72;
  t.depth = 48;
  SetTable(g, t);
  EXPECT_TRUE(g.has_table());
  EXPECT_FALSE(g.has_hex_board());
  EXPECT_EQ(g.hex_board().stacking.limit, EmptyBoardLimit());
  EXPECT_EQ(g.table().width, 72);
  MutableHexBoard(g);
  EXPECT_TRUE(g.has_hex_board());
  EXPECT_FALSE(g.has_table());
  EXPECT_EQ(g.table().width, 0);
  EXPECT_EQ(g.hex_board().stacking.limit, EmptyBoardLimit());  // a new, empty board
}

// The core holds the board type-erased (board.h); each engine reads its own back typed.
TEST(Board, TheCoreHoldsTheBoardAndEachEngineReadsItsOwnTyped) {
  Game g;
  EXPECT_EQ(g.board(), nullptr);
  EXPECT_EQ(g.num_positions(), 0);
  EXPECT_TRUE(g.places().empty());
  MutableHexBoard(g).map.places.push_back(Place{"Chaplin", "objective", {0}, {}});
  ASSERT_NE(g.board<HexBoard>(), nullptr);
  EXPECT_EQ(g.board<Table>(), nullptr);
  EXPECT_TRUE(g.board()->indexed());
  EXPECT_EQ(g.FindPlace("Chaplin"), &g.places()[0]);
  EXPECT_EQ(g.HexLabel(kOnTable), "on the table");
  EXPECT_EQ(g.HexLabel(kNotYetEntered), "off-map");
  SetTable(g, Table{});
  EXPECT_EQ(g.board<HexBoard>(), nullptr);
  ASSERT_NE(g.board<Table>(), nullptr);
  EXPECT_FALSE(g.board()->indexed());
  EXPECT_EQ(g.num_positions(), 0);
  EXPECT_EQ(g.FindPlace("Chaplin"), nullptr);
}

// Every unit of the tabletop game stands on the table and on no hex, for the whole
// of a game, and the core's functions see it in play.
TEST(Board, TabletopUnitsStandOnTheTableOnNoHexAndAreInPlay) {
  auto game = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  const Game& g = **game;
  EXPECT_FALSE(g.has_hex_board());
  EXPECT_EQ(g.hex_board().map.size(), 0);  // an empty board: no hex index is on it
  ASSERT_TRUE(g.has_table());
  EXPECT_GT(g.table().width, 0);
  EXPECT_GT(g.table().depth, 0);
  EXPECT_EQ(g.rules->hex(), nullptr);
  const TabletopQueries* table = g.rules->tabletop();
  ASSERT_NE(table, nullptr);
  Session session(*game, 3);
  const State& start = session.state();
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    const std::string& id = g.units[static_cast<size_t>(u)].id;
    const UnitState& us = start.unit(u);
    EXPECT_EQ(us.hex, kOnTable) << id;
    EXPECT_FALSE(us.OnMap()) << id;
    EXPECT_TRUE(us.OnTable()) << id;
    EXPECT_TRUE(us.InPlay()) << id;
    EXPECT_EQ(g.HexLabel(us.hex), "on the table") << id;
    EXPECT_GT(g.rules->Strength(start, u), 0) << id << ": figures and guns count for casualty reports";
    const std::string where = g.rules->PositionText(start, u);
    EXPECT_EQ(where.substr(where.size() - 3), " in") << id << ": " << where;
    EXPECT_TRUE(g.table().Contains(table->BaseOf(start, u).center)) << id;
  }
  // No action may name a hex: there is none (hex 0 is off the empty board).
  Action to_hex_0 = Action::Of(ActionType::kMove).AddUnit(0).AddHex(0);
  EXPECT_NE(ActionShapeError(to_hex_0, g.num_units(), g.hex_board().map.size()), "");
  // A whole random game: at its end, and after every action on the way, no unit is
  // on a hex; the game finishes (liveness sees units to act with).
  RandomPlayer p0(11), p1(12);
  Player* players[2] = {&p0, &p1};
  long actions = 0;
  while (!session.over() && actions < 5000) {
    const PlayedGame step = PlayToEnd(session, players, 1);
    ASSERT_NE(step.stop, GameStop::kStuck) << step.detail;
    ASSERT_NE(step.stop, GameStop::kRefused) << step.detail;
    actions += step.actions;
    for (int i = 0; i < session.state().num_units; ++i) {
      const int16_t h = session.state().units[static_cast<size_t>(i)].hex;
      ASSERT_TRUE(h == kOnTable || h == kEliminated || h == kWithdrawn) << g.units[static_cast<size_t>(i)].id << " at "
                                                                         << h << " after " << actions << " actions";
    }
  }
  EXPECT_TRUE(session.over());
}

}  // namespace
}  // namespace wg
