// Issue 15 (playout speed): what the speed-ups may not change.
//
// - ListMoves reuses a unit's listed moves while its move query is the same
//   (HexScratch::unit_moves): at every decision of seeded random games the
//   session's listing (warm caches, built up over the game) must equal a listing
//   from a brand-new scratch (nothing cached), action for action, in order; and
//   that scratch's cached candidates (each extended from its predecessor's, with
//   its path bits extended by the step) equal those of a scratch that builds every
//   path whole (HexScratch::extend_candidates = false).
// - The cheap listing (Session::LegalActions(LegalActionList*): the moves as spans
//   over the scratch's cached candidates, not copied) holds the same actions in the
//   same order as the vector form, and its elements apply as they are.
// - Session's playout mode keeps no undo snapshots and changes nothing else: the
//   same game played with and without it has the same events, actions, save and
//   final state; Undo() is refused in it.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wargame/conformance.h"
#include "wargame/hex_rules.h"
#include "wargame/players.h"
#include "wargame/playout.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {
namespace {

std::shared_ptr<const Game> Load(const std::string& spec) {
  auto g = LoadGame(spec);
  EXPECT_TRUE(g.ok()) << spec;
  return g.ok() ? *g : nullptr;
}

// A slot's candidates, built (UnitMoves::At): the same Actions whether each was
// stored as a link to its predecessor or whole.
std::vector<Action> Candidates(const HexScratch::UnitMoves& m) {
  std::vector<Action> out;
  for (size_t i = 0; i < m.size(); ++i) out.push_back(m.At(i));
  return out;
}

// Plays `games` random games; at each decision compares the session's listing
// with one made on a fresh scratch. Returns the number of decisions compared.
long CompareListings(const std::shared_ptr<const Game>& game, int games) {
  long decisions = 0;
  for (int g = 1; g <= games; ++g) {
    Session s(game, static_cast<uint64_t>(g));
    s.set_playout(true);
    RandomPlayer player(static_cast<uint64_t>(g) * 7919 + 1);
    std::vector<Action> legal;
    for (int n = 0; n < 5000 && !s.over(); ++n) {
      s.LegalActions(&legal);
      std::vector<Action> fresh;
      std::unique_ptr<Scratch> scratch = game->rules->NewScratch();
      Context ctx(*game, nullptr, nullptr, scratch.get());
      game->rules->LegalActions(s.state(), ctx, &fresh);
      EXPECT_EQ(legal.size(), fresh.size()) << "game " << g << ", action " << n;
      // The fresh scratch extended each candidate from its predecessor's; one that
      // builds every path whole must hold the same candidates and path bits.
      std::unique_ptr<Scratch> whole = game->rules->NewScratch();
      if (auto* hw = dynamic_cast<HexScratch*>(whole.get())) {
        hw->extend_candidates = false;
        Context wctx(*game, nullptr, nullptr, whole.get());
        std::vector<Action> by_walk;
        game->rules->LegalActions(s.state(), wctx, &by_walk);
        EXPECT_EQ(by_walk, fresh) << "game " << g << ", action " << n;
        // The bits are worked out when a filter asks (HexRules::SlotBits): asked here of
        // every valid slot of both scratches.
        if (const auto* rules = dynamic_cast<const HexRules*>(game->rules.get())) {
          for (auto& m : dynamic_cast<HexScratch&>(*scratch).unit_moves) rules->SlotBits(dynamic_cast<HexScratch&>(*scratch), m);
          for (auto& m : hw->unit_moves) rules->SlotBits(*hw, m);
        }
        const auto& a = dynamic_cast<HexScratch&>(*scratch).unit_moves;
        const auto& b = hw->unit_moves;
        EXPECT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
          if (a[i].valid != b[i].valid || Candidates(a[i]) != Candidates(b[i]) || a[i].ends != b[i].ends ||
              a[i].lengths != b[i].lengths || a[i].bits != b[i].bits) {
            ADD_FAILURE() << "game " << g << ", action " << n << ": slot " << i
                          << " differs between the stepwise and the whole-path fill";
            return decisions;
          }
        }
      }
      if (legal != fresh) {
        ADD_FAILURE() << "game " << g << ", action " << n << ": the cached listing differs from a fresh one";
        return decisions;
      }
      LegalActionList cheap;
      s.LegalActions(&cheap);
      EXPECT_EQ(cheap.size(), legal.size()) << "game " << g << ", action " << n;
      for (size_t i = 0; i < cheap.size() && i < legal.size(); ++i) {
        if (!(cheap[i] == legal[i])) {
          ADD_FAILURE() << "game " << g << ", action " << n << ": the cheap listing differs at " << i;
          return decisions;
        }
      }
      ++decisions;
      if (cheap.empty() || !s.Apply(cheap[player.ChooseIndex(cheap.size())]).ok()) break;
    }
  }
  return decisions;
}

// The generic rules' numbers by key (HexGameData::Rule(RuleKey), no string lookup)
// are the ones looked up by name, for every key of every hex ruleset; a key the
// ruleset gives no number cites itself.
TEST(PlayoutSpeed, RuleNumbersByKeyEqualThoseByName) {
  for (const std::string& spec : {std::string("stars_and_bars"), std::string("blue_and_gray(scenario=chattanooga)"),
                                  std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish"}) {
    auto game = Load(spec);
    ASSERT_NE(game, nullptr);
    const HexGameData& d = game->Data<HexGameData>();
    for (size_t k = 0; k < kNumRuleKeys; ++k) {
      EXPECT_STREQ(d.Rule(static_cast<RuleKey>(k)), d.Rule(kRuleKeys[k])) << spec << ": " << kRuleKeys[k];
    }
  }
  EXPECT_STREQ(Load("stars_and_bars")->Data<HexGameData>().Rule(RuleKey::kStacking), "5.5");
  // Each enumerator names its own key (the enum and kRuleKeys are two lists in one order).
  const std::pair<RuleKey, const char*> names[] = {
      {RuleKey::kMovement, "movement"}, {RuleKey::kTerrain, "terrain"}, {RuleKey::kEnemyHex, "enemy_hex"},
      {RuleKey::kZoc, "zoc"}, {RuleKey::kZocLeave, "zoc_leave"}, {RuleKey::kInfiltration, "infiltration"},
      {RuleKey::kAllowance, "allowance"}, {RuleKey::kStacking, "stacking"}, {RuleKey::kReinforcements, "reinforcements"},
      {RuleKey::kRelease, "release"}, {RuleKey::kCombat, "combat"}, {RuleKey::kOdds, "odds"},
      {RuleKey::kRetreat, "retreat"}, {RuleKey::kAdvance, "advance"}, {RuleKey::kSequence, "sequence"},
      {RuleKey::kVictory, "victory"}, {RuleKey::kConcession, "concession"}, {RuleKey::kMode, "mode"}};
  static_assert(std::size(names) == kNumRuleKeys);
  const HexGameData bare;
  for (const auto& [key, name] : names) EXPECT_STREQ(bare.Rule(key), name);
}

// A forest of candidates (action.h): a root and two links extend its path hex by
// hex; a second root stands alone; without links the roots are the candidates.
TEST(CandidateForest, BuildsEachCandidateFromItsRootAndLinks) {
  std::vector<Action> roots(2);
  roots[0].type = ActionType::kMove;
  roots[0].AddUnit(3);
  roots[0].num_hexes = 1;
  roots[0].hexes[0] = 10;
  roots[1] = roots[0];
  roots[1].num_hexes = 2;
  roots[1].hexes[0] = 20;
  roots[1].hexes[1] = 21;
  const std::vector<int32_t> link = {-1, 0, 1, -2, 0};
  const std::vector<int16_t> ends = {10, 11, 12, 21, 13};
  const CandidateForest f{roots.data(), link.data(), ends.data()};
  EXPECT_EQ(f.At(0), roots[0]);
  Action a = f.At(2);
  ASSERT_EQ(a.num_hexes, 3);
  EXPECT_EQ(a.hexes[0], 10);
  EXPECT_EQ(a.hexes[1], 11);
  EXPECT_EQ(a.hexes[2], 12);
  EXPECT_EQ(a.units[0], 3);
  EXPECT_EQ(f.At(3), roots[1]);
  a = f.At(4);
  ASSERT_EQ(a.num_hexes, 2);
  EXPECT_EQ(a.hexes[1], 13);
  const CandidateForest plain{roots.data(), nullptr, nullptr};
  EXPECT_EQ(plain.At(1), roots[1]);
}

TEST(PlayoutSpeed, CachedMoveListingEqualsAFreshListingStarsAndBars) {
  auto game = Load("stars_and_bars");
  ASSERT_TRUE(game);
  EXPECT_GT(CompareListings(game, ScaledGameCount(2)), 100);
}

TEST(PlayoutSpeed, CachedMoveListingEqualsAFreshListingChattanooga) {
  auto game = Load("blue_and_gray(scenario=chattanooga)");
  ASSERT_TRUE(game);
  EXPECT_GT(CompareListings(game, ScaledGameCount(2)), 100);
}

TEST(PlayoutSpeed, CachedMoveListingEqualsAFreshListingSkirmish) {
  auto game = Load(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish");
  ASSERT_TRUE(game);
  const int games = ScaledGameCount(10);  // a skirmish game is about 80 decisions
  EXPECT_GT(CompareListings(game, games), 50 * games);
}

// What a move query of u reads of the occupancy and the ZOCs, as values.
struct QueryArrays {
  std::vector<int> enemy, overrun, friendly, zoc;
  bool started_in_ezoc = false;
  int allowance = 0, moving_count = 0;
  bool operator==(const QueryArrays&) const = default;
};
QueryArrays ArraysOf(const Game& game, const State& s, Scratch& scratch, UnitId u) {
  Context ctx(game, nullptr, nullptr, &scratch);
  const MoveQuery q = game.rules->hex()->BuildQuery(s, ctx, &u, 1);
  QueryArrays a;
  const int n = game.hex_board().map.size();
  for (int h = 0; h < n; ++h) {
    a.enemy.push_back(q.enemy != nullptr ? q.enemy[h] : -1);
    a.overrun.push_back(q.overrunnable != nullptr ? q.overrunnable[h] : -1);
    a.friendly.push_back(q.friendly_count != nullptr ? q.friendly_count[h] : -1);
    a.zoc.push_back(q.zoc != nullptr ? q.zoc->InEzoc(h) : -1);
  }
  a.started_in_ezoc = q.started_in_ezoc;
  a.allowance = q.allowance;
  a.moving_count = q.moving_count;
  return a;
}

// HexRules::OccupancyBySide (both hex rulesets say it): the stacking counts, enemy
// occupancy, overruns and ZOCs that a move query reads are recomputed only when units
// of the side they depend on changed. At every decision of seeded random games, a
// unit of each side on the map gets from the session's scratch (its caches warm,
// built over the game, keyed by the units' epochs) the same arrays as from a brand-new
// scratch; the sides are asked in both orders, as the obligations and the listings do;
// and each side's unit lists (HexScratch::SideLists, kept by membership epochs) are
// those a scan of the units finds.
void CompareOccupancy(const std::shared_ptr<const Game>& game, int games, long* checked) {
  for (int g = 1; g <= games; ++g) {
    Session s(game, static_cast<uint64_t>(g));
    s.set_playout(true);
    RandomPlayer player(static_cast<uint64_t>(g) * 7919 + 1);
    LegalActionList legal;
    for (int n = 0; n < 5000 && !s.over(); ++n) {
      const State& st = s.state();
      for (int order = 0; order < 2; ++order) {
        for (int k = 0; k < 2; ++k) {
          const int side = order == 0 ? k : 1 - k;
          for (int i = 0; i < st.num_units; ++i) {
            if (st.units[static_cast<size_t>(i)].side != side || !st.units[static_cast<size_t>(i)].OnMap()) continue;
            std::unique_ptr<Scratch> fresh = game->rules->NewScratch();
            const QueryArrays warm = ArraysOf(*game, st, s.scratch(), static_cast<UnitId>(i));
            ASSERT_TRUE(warm == ArraysOf(*game, st, *fresh, static_cast<UnitId>(i)))
                << "game " << g << ", action " << n << ": side " << side << "'s query of unit " << i
                << " reads arrays that differ from a fresh recomputation";
            ++*checked;
            break;
          }
          // The side's unit lists kept by its membership epoch (SideLists), against a scan.
          auto& hs = dynamic_cast<HexScratch&>(s.scratch());
          const HexScratch::SideUnits& lists = hs.SideLists(st, side);
          std::vector<UnitId> on_map, may_move;
          for (int i = 0; i < st.num_units; ++i) {
            const UnitState& u = st.units[static_cast<size_t>(i)];
            if (u.side != side) continue;
            if (u.OnMap()) on_map.push_back(static_cast<UnitId>(i));
            if (u.OnMap() || u.hex == kNotYetEntered) may_move.push_back(static_cast<UnitId>(i));
          }
          ASSERT_EQ(std::vector<UnitId>(lists.on_map().begin(), lists.on_map().end()), on_map)
              << "game " << g << ", action " << n << ", side " << side;
          ASSERT_EQ(std::vector<UnitId>(lists.may_move().begin(), lists.may_move().end()), may_move)
              << "game " << g << ", action " << n << ", side " << side;
        }
      }
      s.LegalActions(&legal);
      if (legal.empty() || !s.Apply(legal[player.ChooseIndex(legal.size())]).ok()) break;
    }
  }
}

TEST(PlayoutSpeed, OccupancyBySideEqualsAFreshRecomputation) {
  for (const std::string spec : {"stars_and_bars", "blue_and_gray(scenario=chattanooga)"}) {
    auto game = Load(spec);
    ASSERT_TRUE(game);
    long checked = 0;
    CompareOccupancy(game, ScaledGameCount(2), &checked);
    EXPECT_GT(checked, 1000) << spec;
  }
}

// The same seeded random game with and without playout mode.
TEST(PlayoutSpeed, PlayoutModeChangesOnlyUndo) {
  auto game = Load("stars_and_bars");
  ASSERT_TRUE(game);
  Session normal(game, 3), playout(game, 3);
  playout.set_playout(true);
  RandomPlayer a(3 * 7919 + 1), b(3 * 7919 + 1);
  for (int n = 0; n < 300 && !normal.over(); ++n) {
    const std::vector<Action> la = normal.LegalActions();
    std::vector<Action> lb;
    playout.LegalActions(&lb);
    ASSERT_EQ(la, lb);
    ASSERT_TRUE(normal.Apply(a.Choose(normal.game(), normal.state(), la)).ok());
    ASSERT_TRUE(playout.Apply(b.Choose(playout.game(), playout.state(), lb)).ok());
  }
  EXPECT_EQ(HashState(normal.state()), HashState(playout.state()));
  EXPECT_EQ(HashEvents(normal.events().data(), normal.events().size()),
            HashEvents(playout.events().data(), playout.events().size()));
  EXPECT_EQ(normal.Save(), playout.Save());
  EXPECT_FALSE(playout.Undo());  // no snapshots were kept
  EXPECT_TRUE(normal.Undo());
  // Turned off again, it keeps snapshots of the actions applied from then on.
  playout.set_playout(false);
  std::vector<Action> lb;
  playout.LegalActions(&lb);
  ASSERT_FALSE(lb.empty());
  const uint64_t before = HashState(playout.state());
  ASSERT_TRUE(playout.Apply(lb[0]).ok());
  EXPECT_TRUE(playout.Undo());
  EXPECT_EQ(HashState(playout.state()), before);
  EXPECT_FALSE(playout.Undo());
}

// The core's movement step lists the end of the phase without trying it (a ruleset
// of YAML only cannot refuse it): at every movement decision of random skirmish
// games it is listed exactly when applying it to a copy of the State is accepted.
TEST(PlayoutSpeed, CoreMovementEndListedExactlyWhenAccepted) {
  auto game = Load(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish");
  ASSERT_TRUE(game);
  long checked = 0;
  for (int g = 1; g <= std::max(2, ScaledGameCount(10)); ++g) {
    Session s(game, static_cast<uint64_t>(g));
    s.set_playout(true);
    RandomPlayer player(static_cast<uint64_t>(g) * 7919 + 1);
    for (int n = 0; n < 5000 && !s.over(); ++n) {
      const std::vector<Action> legal = s.LegalActions();
      if (s.state().decision == DecisionType::kMovement) {
        const bool listed = std::find(legal.begin(), legal.end(), Action::EndPhase()) != legal.end();
        State copy = s.state();
        std::unique_ptr<Scratch> scratch = game->rules->NewScratch();
        Context ctx(*game, nullptr, nullptr, scratch.get());
        EXPECT_EQ(listed, game->rules->Apply(copy, Action::EndPhase(), ctx).ok()) << "game " << g << ", action " << n;
        ++checked;
      }
      if (legal.empty()) break;
      ASSERT_TRUE(s.Apply(legal[player.ChooseIndex(legal.size())]).ok());
    }
  }
  EXPECT_GT(checked, 20);
}

// A Session takes the scratch the Session before it gave back (Rules::TakeScratch),
// its caches filled by other games: each game plays exactly as it does on a game
// object of its own, whose first Session makes a new scratch.
TEST(PlayoutSpeed, AScratchFromEarlierGamesPlaysAsANewOne) {
  for (const std::string& spec : {std::string("stars_and_bars"), std::string("blue_and_gray(scenario=chattanooga)"),
                                  std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish",
                                  std::string("civil_war_miniatures")}) {
    auto shared = Load(spec);
    ASSERT_TRUE(shared);
    const Scratch* previous = nullptr;
    const int games = std::max(2, ScaledGameCount(3));
    for (int g = 1; g <= games; ++g) {
      const uint64_t seed = static_cast<uint64_t>(g);
      {
        Session probe(shared, seed);
        if (previous != nullptr) {
          EXPECT_EQ(&probe.scratch(), previous) << spec << ": the scratch was not reused";
        }
        previous = &probe.scratch();
      }
      const PlayoutResult reused = PlayRandomGame(shared, seed);
      auto own = Load(spec);  // a pool of its own: a new scratch
      ASSERT_TRUE(own);
      const PlayoutResult fresh = PlayRandomGame(own, seed);
      EXPECT_EQ(reused.actions, fresh.actions) << spec << " game " << g;
      EXPECT_EQ(reused.event_hash, fresh.event_hash) << spec << " game " << g;
      EXPECT_EQ(reused.state_hash, fresh.state_hash) << spec << " game " << g;
    }
  }
}

}  // namespace
}  // namespace wg
