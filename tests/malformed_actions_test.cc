// Random games in which, before every legal action, many random malformed and
// illegal actions are tried: a malformed one (a unit id or hex out of range, a
// unit named twice, an unknown type, more units than an action holds) is
// always refused; any other random action is either refused or undone; a
// refused action leaves the state, the log, the actions and the dice byte for
// byte unchanged. Scales with WG_GAMES_PERCENT.
#include <gtest/gtest.h>

#include <cstring>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/conformance.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wg {
namespace {

struct Snapshot {
  State state;
  std::vector<Event> events;
  size_t actions, supplied, queued;
};

Snapshot Take(const Session& s) {
  Snapshot x;
  std::memcpy(static_cast<void*>(&x.state), &s.state(), sizeof(State));
  x.events = s.events();
  x.actions = s.actions().size();
  x.supplied = s.supplied_used().size();
  x.queued = s.dice_queued();
  return x;
}

bool Same(const Snapshot& x, const Session& s) {
  if (!x.state.Equals(s.state()) || x.actions != s.actions().size() || x.supplied != s.supplied_used().size() ||
      x.queued != s.dice_queued() || x.events.size() != s.events().size()) {
    return false;
  }
  return std::memcmp(x.events.data(), s.events().data(), x.events.size() * sizeof(Event)) == 0;
}

// A random action: either certainly malformed, or random but well formed
// (a mutation of a legal one, or random type, units, hexes and values).
Action RandomAction(const Game& g, RngState& rng, const std::vector<Action>& legal, bool* malformed) {
  auto below = [&](int n) { return static_cast<int>(UniformBelow(rng, static_cast<uint32_t>(std::max(n, 1)))); };
  Action a = legal[static_cast<size_t>(below(static_cast<int>(legal.size())))];
  *malformed = true;
  switch (below(8)) {
    case 0:  // a unit out of range
      a.AddUnit(static_cast<UnitId>(g.num_units() + below(30000 - g.num_units())));
      if (a.num_units == 0) a.num_units = 1, a.units[0] = -1 - static_cast<UnitId>(below(100));
      a.units[static_cast<size_t>(below(a.num_units))] = below(2) ? static_cast<UnitId>(-1 - below(5))
                                                                  : static_cast<UnitId>(g.num_units() + below(50));
      return a;
    case 1:  // a hex out of range
      a.AddHex(0);
      a.hexes[static_cast<size_t>(below(a.num_hexes))] =
          static_cast<int16_t>(below(2) ? -1 - below(5) : g.hex_board().map.size() + below(50));
      return a;
    case 2:  // a unit named twice (not detach/recombine, whose two roles the ruleset judges)
      if (a.type == ActionType::kDetach || a.type == ActionType::kRecombine || g.num_units() == 0) break;
      if (a.num_units == 0) a.AddUnit(static_cast<UnitId>(below(g.num_units())));
      a.AddUnit(a.units[0]);
      if (a.num_units < 2) break;
      return a;
    case 3:  // an unknown type or impossible counts
      if (below(2)) {
        a.type = static_cast<ActionType>(kNumActionTypes + below(200));
      } else {
        a.num_units = static_cast<uint8_t>(kMaxActionUnits + 1 + below(100));
      }
      return a;
    default:
      break;
  }
  *malformed = false;
  a.type = static_cast<ActionType>(below(kNumActionTypes));
  a.num_units = static_cast<uint8_t>(below(4));
  for (int i = 0; i < a.num_units; ++i) a.units[static_cast<size_t>(i)] = static_cast<UnitId>(below(g.num_units()));
  for (int i = 1; i < a.num_units; ++i) {
    if (a.units[static_cast<size_t>(i)] == a.units[0]) a.num_units = 1;  // stay well formed
  }
  if (g.has_hex_board()) {
    a.num_hexes = static_cast<uint8_t>(below(5));
    for (int i = 0; i < a.num_hexes; ++i) a.hexes[static_cast<size_t>(i)] = static_cast<int16_t>(below(g.hex_board().map.size()));
  } else {
    a.num_hexes = 0;
  }
  a.value = below(7) - 3;
  a.value2 = below(3) - 1;
  return a;
}

void PlayWithMalformedActions(const std::string& spec, int games, int tries) {
  auto game = LoadGame(spec);
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  long refused = 0, accepted = 0;
  for (int gi = 0; gi < games; ++gi) {
    Session s(*game, static_cast<uint64_t>(gi) + 1);
    RandomPlayer player(static_cast<uint64_t>(gi) * 13 + 5);
    RngState rng = SeedRng(static_cast<uint64_t>(gi) * 101 + 7);
    for (int n = 0; n < 20000 && !s.over(); ++n) {
      const auto legal = s.LegalActions();
      ASSERT_FALSE(legal.empty()) << spec << ": no legal action";
      for (int t = 0; t < tries; ++t) {
        bool malformed = false;
        const Action bad = RandomAction(s.game(), rng, legal, &malformed);
        const Snapshot before = Take(s);
        const Status st = s.Apply(bad);
        if (st.ok()) {
          ASSERT_FALSE(malformed) << spec << ": a malformed action was accepted";
          ++accepted;
          // What was recorded prints and parses back to itself.
          auto back = ParseActionText(s.game(), ActionToText(s.game(), s.actions().back()));
          ASSERT_TRUE(back.ok() && *back == s.actions().back()) << ActionToText(s.game(), s.actions().back());
          ASSERT_TRUE(s.Undo());
          ASSERT_TRUE(before.state.Equals(s.state())) << spec << ": undo did not restore the state";
          continue;
        }
        ++refused;
        ASSERT_TRUE(Same(before, s)) << spec << ": a refused action changed the game: " << st.ToString();
      }
      ASSERT_TRUE(s.Apply(player.Choose(s.game(), s.state(), legal)).ok());
    }
  }
  EXPECT_GT(refused, 0);
  std::printf("%s: %ld random actions refused unchanged, %ld accepted and undone\n", spec.c_str(), refused, accepted);
}

TEST(MalformedActions, Skirmish) { PlayWithMalformedActions("skirmish", ScaledGameCount(20), 8); }
TEST(MalformedActions, StarsAndBars) { PlayWithMalformedActions("stars_and_bars", ScaledGameCount(2), 4); }
TEST(MalformedActions, BlueAndGray) { PlayWithMalformedActions("blue_and_gray", ScaledGameCount(2), 4); }
TEST(MalformedActions, CivilWarMiniatures) { PlayWithMalformedActions("civil_war_miniatures", ScaledGameCount(5), 8); }

}  // namespace
}  // namespace wg
