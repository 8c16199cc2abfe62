// The integer action space (action_space.h) on every registered ruleset: along
// random games, every listed action has an id inside its segment, the id
// decodes to the action's own fields (recomputed here from the Action, not by
// the encoder), two listed actions share an id only when they are moves to the
// same destination that differ in their path, Find returns the listed action,
// and the mask marks exactly the ids.
#include "wargame/action_space.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/conformance.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

// Same decision, same destination, different path.
bool SameButPath(const Action& a, const Action& b) {
  if (a.type != b.type || a.num_units != b.num_units || a.value != b.value || a.value2 != b.value2) return false;
  if (a.type != ActionType::kMove && a.type != ActionType::kEnter && a.type != ActionType::kRetreat) return false;
  for (int i = 0; i < a.num_units; ++i) {
    if (a.units[static_cast<size_t>(i)] != b.units[static_cast<size_t>(i)]) return false;
  }
  return a.num_hexes > 0 && b.num_hexes > 0 &&
         a.hexes[static_cast<size_t>(a.num_hexes - 1)] == b.hexes[static_cast<size_t>(b.num_hexes - 1)];
}

// The unit an id's first field must name, recomputed from the Action.
void ExpectFieldsMatch(const ActionSpace& space, const Action& a, ActionId id) {
  const ActionKey k = space.Key(id);
  ASSERT_EQ(k.type, a.type);
  switch (a.type) {
    case ActionType::kMove:
    case ActionType::kEnter:
    case ActionType::kRetreat:
      EXPECT_EQ(k.fields[0], a.units[0]);
      if (a.num_hexes > 0) {
        EXPECT_EQ(k.fields[1], a.hexes[static_cast<size_t>(a.num_hexes - 1)]);
      }
      break;
    case ActionType::kAttack:
      if (a.num_hexes > 0) {
        EXPECT_EQ(k.fields[1], a.hexes[0]);
        EXPECT_EQ(k.fields[0], a.num_units == 1 || a.num_hexes > 1 ? a.units[0] : space.num_units());
        EXPECT_EQ(k.fields[2], a.num_hexes > 1 ? 1 : 0);
      } else {
        EXPECT_EQ(k.fields[1], space.target_units() + a.units[1]);
      }
      break;
    case ActionType::kAdvance:
      EXPECT_EQ(k.fields[0], a.num_units == 0 ? space.num_units() : a.units[0]);
      EXPECT_EQ(k.fields[1], a.num_hexes > 0 ? a.hexes[static_cast<size_t>(a.num_hexes - 1)] : space.num_positions());
      break;
    case ActionType::kChoice:
      EXPECT_EQ(k.fields[0], a.value);
      break;
    case ActionType::kLoss:
      EXPECT_EQ(k.fields[0], a.units[0]);
      EXPECT_EQ(k.fields[1], a.value);
      EXPECT_EQ(k.fields[2], a.value2);
      break;
    default:
      break;
  }
}

struct Tally {
  long positions = 0, actions = 0;
  std::map<ActionType, long> by_type;
};

void CheckListing(const Game& game, const ActionSpace& space, const std::vector<Action>& legal, Tally* t) {
  std::map<ActionId, const Action*> first;
  for (const Action& a : legal) {
    const ActionId id = space.Id(a);
    ASSERT_NE(id, kNoActionId) << ActionTypeName(a.type) << " has no id";
    ASSERT_GE(id, space.SegmentStart(a.type));
    ASSERT_LT(id, space.SegmentStart(a.type) + space.SegmentSize(a.type));
    ExpectFieldsMatch(space, a, id);
    auto [it, inserted] = first.emplace(id, &a);
    if (!inserted) {
      EXPECT_TRUE(SameButPath(*it->second, a)) << "two listed actions share id " << id << ": "
                                               << space.Describe(game, id) << ": "
                                               << ActionToText(game, *it->second) << " and " << ActionToText(game, a);
    }
    ++t->by_type[a.type];
  }
  // Find gives the first listed action of an id (a few per listing: it is a scan).
  int checked = 0;
  for (auto it = first.begin(); it != first.end() && checked < 8; ++it, ++checked) {
    EXPECT_EQ(space.Find(legal, it->first), it->second);
  }
  std::vector<ActionId> ids;
  space.Ids(legal, &ids);
  EXPECT_EQ(ids.size(), first.size());
  std::vector<uint8_t> mask(static_cast<size_t>(space.size()), 7);
  space.Mask(legal, mask.data());
  long marked = 0;
  for (uint8_t m : mask) marked += m;
  EXPECT_EQ(marked, static_cast<long>(ids.size()));
  for (ActionId id : ids) EXPECT_EQ(mask[static_cast<size_t>(id)], 1);
  ++t->positions;
  t->actions += static_cast<long>(legal.size());
}

void PlayAndCheck(const std::string& spec, int games, long max_actions) {
  auto game = LoadGame(spec);
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  const ActionSpace space(**game);
  Tally tally;
  for (int g = 0; g < ScaledGameCount(games); ++g) {
    Session s(*game, static_cast<uint64_t>(g + 1));
    RandomPlayer player(static_cast<uint64_t>(g) * 31 + 5);
    for (long n = 0; !s.over() && n < max_actions; ++n) {
      const std::vector<Action> legal = s.LegalActions();
      ASSERT_FALSE(legal.empty());
      CheckListing(**game, space, legal, &tally);
      if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) return;
      const Action a = player.Choose(**game, s.state(), legal);
      // The id resolves back to the chosen action, or to the first listed
      // path to the same destination.
      const Action* found = space.Find(legal, space.Id(a));
      ASSERT_TRUE(*found == a || SameButPath(*found, a));
      ASSERT_TRUE(s.Apply(a).ok());
    }
  }
  EXPECT_GT(tally.positions, 10);
  EXPECT_GT(tally.by_type[ActionType::kEndPhase], 0);
}

TEST(ActionSpace, SkirmishListingsMapToDistinctIds) { PlayAndCheck("skirmish", 5, 5000); }
// With the set-up's battery modes (3.0) and the capture (5.8) asked as decisions.
TEST(ActionSpace, StarsAndBarsListingsMapToDistinctIds) { PlayAndCheck("stars_and_bars", 2, 3000); }
// With the program making those choices (auto=setup+capture).
TEST(ActionSpace, StarsAndBarsWithTheProgramsChoicesListingsMapToDistinctIds) {
  PlayAndCheck("stars_and_bars(auto=setup+capture)", 1, 3000);
}
TEST(ActionSpace, BlueAndGrayListingsMapToDistinctIds) {
  PlayAndCheck("blue_and_gray(scenario=chattanooga)", 1, 1500);
}
TEST(ActionSpace, MiniaturesListingsMapToDistinctIds) { PlayAndCheck("civil_war_miniatures", 2, 3000); }

TEST(ActionSpace, LayoutIsDenseAndDecodes) {
  auto game = LoadGame("skirmish");
  ASSERT_TRUE(game.ok());
  const ActionSpace space(**game);
  int total = 0;
  for (int t = 0; t < kNumActionTypes; ++t) {
    EXPECT_EQ(space.SegmentStart(static_cast<ActionType>(t)), total);
    total += space.SegmentSize(static_cast<ActionType>(t));
  }
  EXPECT_EQ(total, space.size());
  EXPECT_EQ(space.num_positions(), (*game)->hex_board().map.size());
  // A move of unit 1 to hex 5 by an ordinary move.
  Action m = Action::Of(ActionType::kMove);
  m.AddUnit(1).AddHex(4).AddHex(5);
  const ActionId id = space.Id(m);
  EXPECT_EQ(id, space.SegmentStart(ActionType::kMove) + (1 * space.num_positions() + 5) * 2);
  const ActionKey k = space.Key(id);
  EXPECT_EQ(k.type, ActionType::kMove);
  EXPECT_EQ(k.fields[0], 1);
  EXPECT_EQ(k.fields[1], 5);
  EXPECT_EQ(k.fields[2], 0);
  EXPECT_EQ(space.Key(0).type, ActionType::kEndPhase);
  EXPECT_EQ(space.Key(space.size() - 1).type, ActionType::kConcede);
}

TEST(ActionSpace, ActionsThatDoNotFitHaveNoId) {
  auto game = LoadGame("skirmish");
  ASSERT_TRUE(game.ok());
  const ActionSpace space(**game);
  Action far = Action::Of(ActionType::kMove);
  far.AddUnit(0).AddHex((*game)->hex_board().map.size());  // off the grid
  EXPECT_EQ(space.Id(far), kNoActionId);
  Action nobody = Action::Of(ActionType::kMove);
  nobody.AddHex(0);
  EXPECT_EQ(space.Id(nobody), kNoActionId);
  Action big = Action::Of(ActionType::kLoss).AddUnit(0).Value(9);
  EXPECT_EQ(space.Id(big), kNoActionId);
  EXPECT_EQ(space.Id(Action::Of(ActionType::kChoice).Value(64)), kNoActionId);
  EXPECT_EQ(space.Find({}, 0), nullptr);
}

TEST(ActionSpace, TabletopMovesUseOneInchCells) {
  auto game = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(game.ok());
  const ActionSpace space(**game);
  ASSERT_TRUE(space.tabletop());
  Action m = Action::Of(ActionType::kMove).AddUnit(2);
  m.value = 1250;   // 12.5 in east
  m.value2 = 3099;  // 30.99 in north
  const ActionKey k = space.Key(space.Id(m));
  EXPECT_EQ(k.fields[0], 2);
  EXPECT_EQ(k.fields[1], 30 * kTableCellsX + 12);
}

TEST(ActionSpace, SortUniqueMatchesStdSort) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  const ActionSpace space(**game);
  RngState rng = SeedRng(9);
  for (size_t n : {0u, 5u, 127u, 128u, 3000u}) {
    std::vector<ActionId> ids;
    for (size_t i = 0; i < n; ++i) ids.push_back(static_cast<ActionId>(UniformBelow(rng, static_cast<uint32_t>(space.size()))));
    for (size_t i = 0; i < n / 4; ++i) ids.push_back(ids[i]);  // repeats
    std::vector<ActionId> expected = ids;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    space.SortUnique(&ids);
    EXPECT_EQ(ids, expected) << n;
  }
}

}  // namespace
}  // namespace wg
