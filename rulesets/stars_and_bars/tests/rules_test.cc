// Stars and Bars rule tests. Each test sets up a small position (a scenario
// file written to a temp directory: only_placed, start, place) and checks one
// rule, including refusals that cite the rule number. Dice are supplied.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

#include "rules.h"
#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/conformance.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"
#include "wargame/steps.h"

namespace wg::stars_and_bars {
namespace {

std::shared_ptr<const Game> Base() {
  static std::shared_ptr<const Game> g = [] {
    auto r = LoadGame("stars_and_bars");
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors().ToString());
    return r.ok() ? *r : nullptr;
  }();
  return g;
}

std::string L(int idx) { return Base()->hex_board().map.Label(idx); }
int Nb(int idx, int d) { return Base()->hex_board().map.grid.NeighborIndex(idx, d); }
int Idx(const std::string& label) { return Base()->hex_board().map.Index(label); }

// A hex whose surroundings (radius 2) are clear terrain with no hexside features.
int ClearHex(int skip = 0) {
  const Map& m = Base()->hex_board().map;
  const TerrainMask clear = m.TerrainBit("clear");
  for (int h = 0; h < m.size(); ++h) {
    bool ok = true;
    for (int k = 0; k < m.size() && ok; ++k) {
      if (m.grid.DistanceIdx(h, k) > 2) continue;
      ok = (m.terrain[static_cast<size_t>(k)] == clear || m.terrain[static_cast<size_t>(k)] == 0) && m.SidesOf(k) == 0;
    }
    int ring = 0;
    for (int k = 0; k < m.size(); ++k) ring += m.grid.DistanceIdx(h, k) <= 2 ? 1 : 0;
    if (ok && ring == 19 && skip-- == 0) return h;
  }
  return -1;
}

// A test scenario extends Perryville's (its map and units).
const std::string kExtendsPerryville = "extends: " + std::string(WG_RULESET_DIR) + "/scenarios/perryville/scenario.yaml\n";

// Loads Perryville with a test set-up. `place` is a YAML list body. The position gives each
// battery's mode (`face:`), so the program makes 3.0's set-up choice (`automated`: auto=).
std::shared_ptr<const Game> Position(const std::string& start, const std::string& place,
                                     const std::string& options = "", const std::string& extra = "",
                                     const std::string& automated = "setup") {
  static int n = 0;
  // Named after the test: ctest runs tests in parallel processes.
  const std::string path = ::testing::TempDir() + "sb_pos_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + std::to_string(n++) + ".yaml";
  std::ofstream(path) << kExtendsPerryville << "only_placed: true\nstart: " << start << "\nplace:\n" << place << extra;
  auto r = LoadGame("stars_and_bars(scenario=" + path + (options.empty() ? "" : ",optional=" + options) +
                    (automated.empty() ? "" : ",auto=" + automated) + ")");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors().ToString());
  return r.ok() ? *r : nullptr;
}
std::string P(const std::string& unit, int hex, const std::string& more = "") {
  return "  - {unit: " + unit + ", hex: \"" + L(hex) + "\", released: true" + (more.empty() ? "" : ", " + more) + "}\n";
}

UnitId U(const Game& g, const std::string& id) { return static_cast<UnitId>(g.UnitIndex(id)); }
Action Act(ActionType t, std::initializer_list<UnitId> units, std::initializer_list<int> hexes, int value = 0, int value2 = 0) {
  Action a = Action::Of(t);
  for (UnitId u : units) a.AddUnit(u);
  for (int h : hexes) a.AddHex(h);
  a.value = value;
  a.value2 = value2;
  return a;
}
Action Loss(const Game& g, UnitId u, const char* marker, int amount = 1) {
  return Act(ActionType::kLoss, {u}, {}, amount, g.MarkerIndex(marker));
}
const HexRules& HR(const Game& g) { return static_cast<const HexRules&>(*g.rules); }
AttackAnalysis Analyze(Session& s, const Action& a) {
  Context ctx(s.game(), nullptr, nullptr, &s.scratch());
  return HR(s.game()).AnalyzeAttack(s.state(), ctx, a);
}
int Markers(const Session& s, UnitId u, const char* m) { return s.state().unit(u).markers[s.game().MarkerIndex(m)]; }
bool Refused(const Status& st, const std::string& rule) {
  return !st.ok() && st.error().rule == rule;
}
const SbExt& X(const Session& s) { return Ext<SbExt>(s.state()); }

constexpr const char* kUnionCombat = "{turn: 5, side: union, phase: combat}";
constexpr const char* kUnionMove = "{turn: 5, side: union, phase: movement}";

// ---------------------------------------------------------------- 3.0 / 4.0 / 10.3

TEST(Rules, Rule_3_0_SetUpLiddellAndDetachedRegiment) {
  Session s(Base(), 1);
  const Game& g = s.game();
  EXPECT_EQ(g.hex_board().map.Label(s.state().unit(U(g, "liddell")).hex), "2614");
  EXPECT_EQ(Markers(s, U(g, "liddell"), "permanent_loss"), 1);
  EXPECT_EQ(g.hex_board().map.Label(s.state().unit(U(g, "liddell_reg")).hex), "2610");  // 10.3
  EXPECT_EQ(g.hex_board().map.Label(s.state().unit(U(g, "buell_hq")).hex), "2302");
  EXPECT_EQ(g.hex_board().map.Label(s.state().unit(U(g, "bragg_hq")).hex), "2921");
  EXPECT_EQ(s.state().turn, 1);
  EXPECT_EQ(s.state().phasing_side, 0);  // the Union player-turn of turn 1
  // Detachment pool counters are off the map.
  EXPECT_EQ(s.state().unit(U(g, "harris_reg")).hex, kWithdrawn);
}

// 3.0: "Artillery units may be set up either limbered or unlimbered at the owner's option."
// Each owner is asked, one battery at a time (the Union's first), the scenario's mode offered
// first; an unreleased battery set up unlimbered may bombard before its release (5.6 forbids
// only the mode change in play). With auto=setup the program keeps the scenario's modes.
TEST(Rules, Rule_3_0_OwnersChooseTheirBatteriesModesAtSetUp) {
  auto g = LoadGame("stars_and_bars");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  Session s(*g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kSetup);
  EXPECT_EQ(s.state().decision_side, 0);
  const UnitId first = static_cast<UnitId>(TopStep(s.state())->args[0]);
  std::vector<Action> legal = s.LegalActions();
  ASSERT_EQ(legal.size(), 2u);
  EXPECT_EQ(legal[0], Act(ActionType::kChangeMode, {first}, {}, s.state().unit(first).face));  // the scenario's mode first
  EXPECT_NE(s.DescribeDecision().find("3.0"), std::string::npos);
  // Another battery, a face that is not one, or a move are refused.
  const UnitId other = U(**g, "turner");
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChangeMode, {other}, {}, 1)), "3.0"));
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChangeMode, {first}, {}, 2)), "3.0"));
  EXPECT_FALSE(s.Apply(Act(ActionType::kMove, {U(**g, "harris")}, {Idx("2303")})).ok());
  // Scripts name the choice as text.
  auto text = ParseActionText(**g, "{mode: [" + (*g)->units[static_cast<size_t>(first)].id + "], value: 1}");
  ASSERT_TRUE(text.ok());
  ASSERT_TRUE(s.Apply(*text).ok());
  EXPECT_EQ(s.state().unit(first).face, 1);
  // Every other battery: ws_smith_arty (unreleased until turn 15) unlimbered, the rest as set.
  const UnitId smith = U(**g, "ws_smith_arty");
  int asked = 1;
  bool confederate_asked = false;
  while (s.state().decision == DecisionType::kSetup) {
    const UnitId b = static_cast<UnitId>(TopStep(s.state())->args[0]);
    confederate_asked = confederate_asked || s.state().decision_side == 1;
    EXPECT_EQ(s.state().decision_side, s.state().unit(b).side);
    ASSERT_TRUE(s.Apply(s.LegalActions()[b == smith ? 1 : 0]).ok());
    ++asked;
  }
  EXPECT_TRUE(confederate_asked);
  int on_map = 0;
  for (int i = 0; i < s.state().num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    on_map += (**g).units[static_cast<size_t>(i)].kind == (**g).KindIndex("artillery") && s.state().unit(u).OnMap() ? 1 : 0;
  }
  EXPECT_EQ(asked, on_map);  // each battery on the map once
  EXPECT_EQ(s.state().unit(smith).face, 1);
  EXPECT_FALSE(s.state().unit(smith).Has(kUnitReleased));
  EXPECT_EQ(s.state().decision, DecisionType::kMovement);  // then the Union player-turn of turn 1
  EXPECT_EQ(s.state().turn, 1);
  // 5.6: unreleased, it may not change mode in play.
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChangeMode, {smith}, {})), "5.6"));
  // With auto=setup the scenario's modes stand and play begins at once.
  auto automated = LoadGame("stars_and_bars(auto=setup)");
  ASSERT_TRUE(automated.ok()) << automated.errors().ToString();
  Session d(*automated, 1);
  EXPECT_EQ(d.state().decision, DecisionType::kMovement);
  EXPECT_EQ(d.state().unit(U(**automated, "ws_smith_arty")).face, 0);
}

// 3.0: the computer player makes the set-up choice by its evaluation (not the first option):
// a battery unlimbered has its bombardment strength and defends with it (8.4).
TEST(Rules, Rule_3_0_TheAiChoosesTheBatteriesModes) {
  auto g = LoadGame("stars_and_bars");
  ASSERT_TRUE(g.ok());
  Session s(*g, 1);
  AiPlayer ai(*g, 7);
  int unlimbered = 0, asked = 0;
  while (s.state().decision == DecisionType::kSetup) {
    const std::vector<Action> legal = s.LegalActions();
    const Action a = ai.Choose(**g, s.state(), legal);
    ASSERT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
    ASSERT_TRUE(s.Apply(a).ok());
    unlimbered += a.value == 1 ? 1 : 0;
    ++asked;
  }
  EXPECT_GT(asked, 0);
  EXPECT_GT(unlimbered, 0);  // the data's mode is limbered for every battery
}

TEST(Rules, Rule_4_0_SequenceOfPlay) {
  const Game& g = *Base();
  EXPECT_EQ(g.turns.num_turns(), 19);
  EXPECT_EQ(g.turns.turns[0].label, "3:00 AM");
  EXPECT_EQ(g.turns.turns[18].label, "8:00 PM");
  EXPECT_EQ(g.turns.order, (std::vector<int>{0, 1}));
  EXPECT_EQ(g.turns.phases, (std::vector<std::string>{"movement", "reorganization", "defensive_bombardment",
                                                      "offensive_bombardment", "combat"}));
}

TEST(Rules, Rule_4_5_ConcessionEndsTheGame) {
  Session s(Base(), 1);
  ASSERT_TRUE(s.Apply(Action::Of(ActionType::kConcede)).ok());
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.state().winner, 1);
}

// ---------------------------------------------------------------- 5.x movement

TEST(Rules, Rule_5_3_ArtilleryModeCostsTwoMpAndUnlimberedCannotMove) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("schoepf_arty", c, "face: back") + P("walker", Nb(c, 3)));
  Session s(g, 1);
  const UnitId art = U(*g, "schoepf_arty");
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kMove, {art}, {Nb(c, 0)})), "5.3"));
  ASSERT_TRUE(s.Apply(Act(ActionType::kChangeMode, {art}, {})).ok());
  EXPECT_EQ(s.state().unit(art).face, 0);
  // 4 MP - 2 for the mode change: 3 clear hexes is too far, 2 is fine.
  const int two = Nb(Nb(c, 0), 0);
  EXPECT_FALSE(s.Apply(Act(ActionType::kMove, {art}, {Nb(c, 0), two, Nb(two, 0)})).ok());
  { const Status st = s.Apply(Act(ActionType::kMove, {art}, {Nb(c, 0), two})); ASSERT_TRUE(st.ok()) << "[" << st.error().rule << "] [" << st.error().message << "]"; }
  // No MPs left to unlimber.
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChangeMode, {art}, {})), "5.3"));
}

TEST(Rules, Rule_5_3_ModeChangeInEzocNeedsNonArtilleryCompany) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("schoepf_arty", c, "face: front") + P("maney", Nb(c, 0)));
  Session s(g, 1);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChangeMode, {U(*g, "schoepf_arty")}, {})), "5.3"));
  auto g2 = Position(kUnionMove, P("schoepf_arty", c, "face: front") + P("walker", c) + P("maney", Nb(c, 0)));
  Session s2(g2, 1);
  EXPECT_TRUE(s2.Apply(Act(ActionType::kChangeMode, {U(*g2, "schoepf_arty")}, {})).ok());
}

TEST(Rules, Rule_5_3_ArtilleryLeavesWoodsOnlyByRoadOrTrail) {
  const Map& m = Base()->hex_board().map;
  const FeatureMask paths = m.FeatureBit("road") | m.FeatureBit("trail");
  int w = -1, out = -1;
  for (int h = 0; h < m.size() && w < 0; ++h) {
    if (!m.HasTerrain(h, m.TerrainId("woods"))) continue;
    for (int d = 0; d < 6; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n >= 0 && m.Side(h, d) == 0 && m.terrain[static_cast<size_t>(n)] == m.TerrainBit("clear")) {
        w = h;
        out = n;
        break;
      }
    }
  }
  ASSERT_GE(w, 0);
  (void)paths;
  auto g = Position(kUnionMove, P("schoepf_arty", w, "face: front") + P("walker", w));
  Session s(g, 1);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kMove, {U(*g, "schoepf_arty")}, {out})), "5.3"));
  EXPECT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {out})).ok());
  // ...and never enters woods off the road.
  auto g2 = Position(kUnionMove, P("schoepf_arty", out, "face: front"));
  Session s2(g2, 1);
  EXPECT_FALSE(s2.Apply(Act(ActionType::kMove, {U(*g2, "schoepf_arty")}, {w})).ok());
}

TEST(Rules, Rule_5_4_1_RoadHalfPoint) {
  // Follow the Springfield Pike from 2301: eight road hexes cost 4 MP (MA 4), nine are too many.
  const Map& m = Base()->hex_board().map;
  const FeatureMask road = m.FeatureBit("road");
  std::vector<int> path;
  int h = Idx("2301"), prev = -1;
  for (int i = 0; i < 9; ++i) {
    int next = -1;
    for (int d = 0; d < 6 && next < 0; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n >= 0 && n != prev && (m.Side(h, d) & road) && std::find(path.begin(), path.end(), n) == path.end()) next = n;
    }
    ASSERT_GE(next, 0);
    path.push_back(next);
    prev = h;
    h = next;
  }
  auto g = Position(kUnionMove, P("walker", Idx("2301")));
  Session s(g, 1);
  Action nine = Action::Of(ActionType::kMove);
  nine.AddUnit(U(*g, "walker"));
  for (int p : path) nine.AddHex(p);
  EXPECT_TRUE(Refused(s.Apply(nine), "5.1"));
  Action eight = nine;
  eight.num_hexes = 8;
  EXPECT_TRUE(s.Apply(eight).ok());
}

TEST(Rules, Rule_5_4_2_TrailFordCostsOneExtra) {
  // Where a trail fords the river: 1 MP for the trail hex + 1 for the ford (not 3).
  const Map& m = Base()->hex_board().map;
  const FeatureMask trail = m.FeatureBit("trail"), river = m.FeatureBit("river");
  int from = -1, to = -1;
  for (int h = 0; h < m.size() && from < 0; ++h) {
    for (int d = 0; d < 6; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n >= 0 && (m.Side(h, d) & trail) && (m.Side(h, d) & river)) {
        from = h;
        to = n;
        break;
      }
    }
  }
  ASSERT_GE(from, 0);
  auto g = Position(kUnionMove, P("walker", from));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {to})).ok());
  const Event& e = s.events().back();
  ASSERT_EQ(e.type, EventType::kMove);
  EXPECT_EQ(e.a, 4);  // half points: 2 MP
}

TEST(Rules, Rule_5_2_NoEnteringEnemyHexes) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("walker", Nb(c, 3)) + P("jones", c));
  Session s(g, 1);
  EXPECT_FALSE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {c})).ok());
}

TEST(Rules, Rule_6_1_LeavingAnEzocCostsOneMp) {
  const int c = ClearHex();
  const int w = Nb(c, 3);
  auto g = Position(kUnionMove, P("walker", w) + P("jones", c));
  Session s(g, 1);
  // Away from Jones: 1 + 1 (leaving) + 1 + 1 = 4 MP for three hexes; a fourth is too many.
  const int a1 = Nb(w, 3), a2 = Nb(a1, 3), a3 = Nb(a2, 3), a4 = Nb(a3, 3);
  ASSERT_GE(a4, 0);
  EXPECT_FALSE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {a1, a2, a3, a4})).ok());
  EXPECT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {a1, a2, a3})).ok());
}

TEST(Rules, Rule_7_1_ZeroStrengthUnitAloneIsEliminatedWhenAttacked) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("polk_hq", c));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "polk_hq")).hex, kEliminated);
  EXPECT_EQ(s.dice_queued(), 0u);
}

TEST(Rules, Rule_8_1_BombardingFromEzocWithoutSupportingAttackEliminates) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: union, phase: offensive_bombardment}",
                    P("schoepf_arty", c, "face: back") + P("jones", Nb(c, 0)));
  Session s(g, 1);
  s.SupplyDice({1});
  ASSERT_TRUE(s.Apply(Act(ActionType::kBombard, {U(*g, "schoepf_arty")}, {Nb(c, 0)})).ok());
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());  // offensive bombardment over
  ASSERT_EQ(s.state().decision, DecisionType::kCombat);
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());  // not obliged to attack (7.1 exception)...
  EXPECT_EQ(s.state().unit(U(*g, "schoepf_arty")).hex, kEliminated);  // ...but eliminated (8.1)
}

TEST(Rules, Rule_5_5_StackingExcessEliminatedUntrainedFirst) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("walker", Nb(c, 0)) + P("terrill", c) + P("fry", c) + P("gilbert_hq", c));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  // The owner chooses, but untrained units first.
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);
  ASSERT_EQ(s.state().decision_side, 0);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kDestroy, {U(*g, "fry")}, {})), "5.5"));
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kDestroy, {U(*g, "gilbert_hq")}, {})), "5.5"));
  ASSERT_TRUE(s.Apply(Act(ActionType::kDestroy, {U(*g, "terrill")}, {})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "terrill")).hex, kEliminated);
  EXPECT_NE(s.state().phase, 0);  // the movement phase is over
  EXPECT_EQ(s.state().unit(U(*g, "walker")).hex, c);
  EXPECT_EQ(s.state().unit(U(*g, "fry")).hex, c);
  EXPECT_EQ(s.state().unit(U(*g, "gilbert_hq")).hex, c);  // HQs are free
}

TEST(Rules, Rule_5_6_UnreleasedUnitsDoNotMoveUntilAttacked) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: combat}",
                    "  - {unit: walker, hex: \"" + L(c) + "\", released: false}\n" + P("maney", Nb(c, 0)));
  Session s(g, 1);
  const UnitId w = U(*g, "walker");
  s.SupplyDice({3});  // 5 vs 3: 3-2, roll 3: D1/D1
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "maney")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, w, "disruption")).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "maney"), "disruption")).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kCombat);
  EXPECT_FALSE(s.state().unit(w).Has(kUnitReleased));
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  ASSERT_EQ(s.state().turn, 6);  // the next friendly (Union) movement phase: released
  EXPECT_TRUE(s.state().unit(w).Has(kUnitReleased));
  // A unit never attacked stays unreleased.
  auto g2 = Position(kUnionMove, "  - {unit: walker, hex: \"" + L(c) + "\", released: false}\n");
  Session s2(g2, 1);
  EXPECT_TRUE(Refused(s2.Apply(Act(ActionType::kMove, {U(*g2, "walker")}, {Nb(c, 0)})), "5.6"));
}

TEST(Rules, Rule_5_7_ReinforcementsMustEnterOnTheirTurn) {
  auto g = Position("{turn: 13, side: union, phase: movement}", "  - {unit: cav_2nd, hex: offmap}\n");
  Session s(g, 1);
  EXPECT_TRUE(Refused(s.Apply(Action::EndPhase()), "5.7"));
  bool enter = false;
  for (const Action& a : s.LegalActions()) {
    enter = enter || a.type == ActionType::kEnter;
    EXPECT_NE(a.type, ActionType::kEndPhase);
  }
  EXPECT_TRUE(enter);
  // 5.7: the Springfield Pike entry is the road hex 2301 only.
  EXPECT_FALSE(s.Apply(Act(ActionType::kEnter, {U(*g, "cav_2nd")}, {Idx("2201")})).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kEnter, {U(*g, "cav_2nd")}, {Idx("2301")})).ok());
  EXPECT_TRUE(s.Apply(Action::EndPhase()).ok());
}

// With auto=capture the program declares every capture (as before 5.8's choice was the players').
TEST(Rules, Rule_5_8_ConvoyCaptureRecaptureAndDestruction) {
  // A convoy reduced to zero strength (captured side has DS 0) is overrun and captured.
  const int c = Idx("2304");  // on the Springfield Pike
  auto g = Position("{turn: 5, side: confederate, phase: movement}",
                    "  - {unit: union_supply_iii, hex: \"" + L(c) + "\", markers: {disruption: 1}}\n" +
                        P("maney", Nb(c, 0)), "", "", "setup+capture");
  Session s(g, 1);
  const UnitId conv = U(*g, "union_supply_iii");
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "maney")}, {c})).ok()) << s.DescribeDecision();
  EXPECT_EQ(s.state().unit(conv).side, 1);  // captured
  EXPECT_EQ(s.state().unit(conv).face, 1);
  // Destroying it in the friendly movement phase.
  ASSERT_TRUE(s.Apply(Act(ActionType::kDestroy, {conv}, {})).ok());
  EXPECT_EQ(s.state().unit(conv).hex, kEliminated);
  // Convoys move only along roads and trails.
  auto g2 = Position(kUnionMove, P("union_supply_iii", ClearHex()));
  Session s2(g2, 1);
  const int h = ClearHex();
  EXPECT_FALSE(s2.Apply(Act(ActionType::kMove, {U(*g2, "union_supply_iii")}, {Nb(h, 0)})).ok());
}

// 5.8: "the opponent may choose to declare the unit captured". The capturer is asked when the
// action ends (capture first, the default); declining leaves the convoy eliminated (3 VPs
// instead of 6, and no recapture).
TEST(Rules, Rule_5_8_TheCapturerChoosesWhetherToCapture) {
  const int c = Idx("2304");
  const std::string place =
      "  - {unit: union_supply_iii, hex: \"" + L(c) + "\", markers: {disruption: 1}}\n" + P("maney", Nb(c, 0));
  auto g = Position("{turn: 5, side: confederate, phase: movement}", place);
  const UnitId conv = U(*g, "union_supply_iii");
  for (const int declare : {1, 0}) {
    Session s(g, 1);
    ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "maney")}, {c})).ok());
    ASSERT_EQ(s.state().decision, DecisionType::kChoice);
    EXPECT_EQ(s.state().decision_side, 1);  // the capturer decides
    EXPECT_EQ(s.state().unit(conv).hex, kEliminated);
    EXPECT_NE(s.DescribeDecision().find("5.8"), std::string::npos);
    const std::vector<Action> legal = s.LegalActions();
    ASSERT_EQ(legal.size(), 2u);
    EXPECT_EQ(legal[0], Act(ActionType::kChoice, {}, {}, 1));
    EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChoice, {}, {}, 2)), "5.8"));
    EXPECT_FALSE(s.Apply(Action::EndPhase()).ok());
    auto text = ParseActionText(*g, "{choose: " + std::to_string(declare) + "}");
    ASSERT_TRUE(text.ok());
    ASSERT_TRUE(s.Apply(*text).ok());
    EXPECT_EQ(s.state().decision, DecisionType::kMovement);  // back to the move
    if (declare) {
      EXPECT_EQ(s.state().unit(conv).hex, c);
      EXPECT_EQ(s.state().unit(conv).side, 1);
      EXPECT_EQ(s.state().unit(conv).face, 1);
    } else {
      EXPECT_EQ(s.state().unit(conv).hex, kEliminated);
      EXPECT_EQ(s.state().unit(conv).side, 0);
    }
  }
}

// 5.8 "Once combat ... results in the supply convoy's elimination with an enemy unit occupying
// its hex": the capture after the advance is asked too, and the AI declares it (6 VPs, not 3).
TEST(Rules, Rule_5_8_TheCaptureAfterCombatIsAskedAndTheAiDeclaresIt) {
  const int conv_hex = Idx("2304");
  std::vector<int> from;
  for (int d = 0; d < 6; ++d) {
    const int n = Nb(conv_hex, d);
    if (n >= 0 && Base()->hex_board().map.Side(conv_hex, d) == 0) from.push_back(n);
  }
  ASSERT_GE(from.size(), 2u);
  auto g = Position("{turn: 5, side: confederate, phase: combat}",
                    P("union_supply_iii", conv_hex) + P("donelson", from[0]) + P("maney", from[1]));
  Session s(g, 1);
  const UnitId conv = U(*g, "union_supply_iii");
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "donelson"), U(*g, "maney")}, {conv_hex})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, conv, "permanent_loss", 2)).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "maney")}, {})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);
  EXPECT_EQ(s.state().decision_side, 1);
  EXPECT_EQ(s.state().unit(conv).hex, kEliminated);
  AiPlayer ai(g, 3);
  const Action a = ai.Choose(*g, s.state(), s.LegalActions());
  EXPECT_EQ(a, Act(ActionType::kChoice, {}, {}, 1));
  ASSERT_TRUE(s.Apply(a).ok());
  EXPECT_EQ(s.state().unit(conv).hex, conv_hex);
  EXPECT_EQ(s.state().unit(conv).side, 1);
}

// ---------------------------------------------------------------- 6.x ZOC

TEST(Rules, Rule_5_8_ConvoyEliminatedInCombatIsCapturedByTheAdvance) {
  const int conv_hex = Idx("2304");
  std::vector<int> from;
  for (int d = 0; d < 6; ++d) {
    const int n = Nb(conv_hex, d);
    if (n >= 0 && Base()->hex_board().map.Side(conv_hex, d) == 0) from.push_back(n);
  }
  ASSERT_GE(from.size(), 2u);
  auto g = Position("{turn: 5, side: confederate, phase: combat}",
                    P("union_supply_iii", conv_hex) + P("donelson", from[0]) + P("maney", from[1]));
  Session s(g, 1);
  const UnitId conv = U(*g, "union_supply_iii");
  s.SupplyDice({6});  // 10 vs 1: 6-1, roll 6: -/E2R
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "donelson"), U(*g, "maney")}, {conv_hex})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, conv, "permanent_loss", 2)).ok());
  EXPECT_EQ(s.state().unit(conv).hex, kEliminated);
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "maney")}, {})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);  // the capturer declares it
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 1)).ok());
  EXPECT_EQ(s.state().unit(conv).hex, conv_hex);  // captured: back in play for the Confederates
  EXPECT_EQ(s.state().unit(conv).side, 1);
  EXPECT_EQ(s.state().unit(conv).face, 1);
}

TEST(Rules, Rule_6_1_ArtilleryAndConvoysControlOnlyTheirHex) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("walker", Nb(Nb(c, 0), 0)) + P("swett", c, "face: back"));
  Session s(g, 1);
  // Walker moves next to the unlimbered battery and on past it: no ZOC beyond its hex.
  const int a1 = Nb(Nb(c, 0), 1), a2 = Nb(c, 1), a3 = Nb(c, 2);
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "walker")}, {a1, a2, a3})).ok());
}

TEST(Rules, Rule_6_2_ZeroStrengthUnitsHaveNoAttackAndAreOverrun) {
  const int c = ClearHex();
  // 6.2 example: a 4-3-4 with 3 losses has DS 0 and therefore AS 0.
  auto g = Position(kUnionCombat, P("carlin", c, "markers: {permanent_loss: 3}") + P("maney", Nb(c, 0)));
  Session s(g, 1);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kAttack, {U(*g, "carlin")}, {Nb(c, 0)})), "7.1"));
  // A moving unit with an AS passes through an HQ alone and eliminates it.
  auto g2 = Position("{turn: 5, side: confederate, phase: movement}", P("gilbert_hq", c) + P("maney", Nb(c, 3)));
  Session s2(g2, 1);
  ASSERT_TRUE(s2.Apply(Act(ActionType::kMove, {U(*g2, "maney")}, {c, Nb(c, 0)})).ok());
  EXPECT_EQ(s2.state().unit(U(*g2, "gilbert_hq")).hex, kEliminated);
  // A zero-strength unit may not enter an EZOC alone.
  auto g3 = Position(kUnionMove, P("gilbert_hq", Nb(Nb(c, 3), 3)) + P("maney", Nb(c, 0)));
  Session s3(g3, 1);
  EXPECT_TRUE(Refused(s3.Apply(Act(ActionType::kMove, {U(*g3, "gilbert_hq")}, {Nb(c, 3), c})), "6.2"));
}

// ---------------------------------------------------------------- 7.x combat

TEST(Rules, Rule_7_2_2_FiveAttackAgainstTwoIsTwoToOne) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("grose", Nb(c, 0)) + P("hawkins", Nb(c, 1)) +
                                      P("liddell", c, "markers: {permanent_loss: 3}"));
  Session s(g, 1);
  const AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "grose"), U(*g, "hawkins")}, {c}));
  ASSERT_TRUE(an.status.ok()) << an.status.ToString();
  EXPECT_EQ(an.plan.attack, 5);
  EXPECT_EQ(an.plan.defense, 2);
  EXPECT_EQ(HR(*g).ColumnLabel(an.plan.column), "2-1");
}

TEST(Rules, Rule_7_2_1_OddsBelowOneToFourEliminateTheAttacker) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("hawkins", Nb(c, 0), "markers: {disruption: 1}") + P("maney", c) + P("donelson", c));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "hawkins")}, {c})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "hawkins")).hex, kEliminated);
}

TEST(Rules, Rule_7_3_LossesDividedByOwnerHqsLast) {
  const int c = ClearHex();
  // 6-1 with roll 6: -/E2R. Defender: Maney + Polk HQ.
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("lytle", Nb(c, 1)) + P("starkweather", Nb(c, 2)) +
                                      P("walker", Nb(c, 3)) + P("fry", Nb(c, 4)) + P("steedman", Nb(c, 5)) +
                                      P("jones", c, "markers: {permanent_loss: 2}") + P("polk_hq", c));
  Session s(g, 1);
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack,
                          {U(*g, "harris"), U(*g, "lytle"), U(*g, "starkweather"), U(*g, "walker"), U(*g, "fry"),
                           U(*g, "steedman")},
                          {c}))
                  .ok());
  ASSERT_EQ(s.state().decision, DecisionType::kLosses);
  EXPECT_EQ(s.state().decision_side, 1);  // the owner divides
  EXPECT_TRUE(Refused(s.Apply(Loss(*g, U(*g, "polk_hq"), "permanent_loss")), "7.3"));
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "permanent_loss", 2)).ok());
  EXPECT_EQ(s.state().unit(U(*g, "jones")).hex, kEliminated);  // DS 1, 2 more losses exceed it
  // Polk alone (zero strength) shares the fate of its stack.
  EXPECT_EQ(s.state().unit(U(*g, "polk_hq")).hex, kEliminated);
}

TEST(Rules, Rule_7_4_LossesReduceAttackAndDefense) {
  // The rulebook's example needs a 3-4-4 counter: a one-unit order of battle provides it.
  const std::string units = ::testing::TempDir() + "sb_units_344.yaml";
  std::ofstream(units) << "formations: []\nunits:\n"
                          "  - {id: ex, name: Example, side: union, kind: infantry, size: brigade, values: {attack: 3, defense: 4, movement: 4}, setup: \"" +
                              L(ClearHex()) + "\"}\n"
                          "  - {id: foe, name: Foe, side: confederate, kind: infantry, size: brigade, values: {attack: 2, defense: 2, movement: 4}, setup: \"" +
                              L(Nb(ClearHex(), 0)) + "\"}\n";
  const std::string scen = ::testing::TempDir() + "sb_scen_344.yaml";
  std::ofstream(scen) << kExtendsPerryville << "units: " << units << "\nstart: {turn: 5, side: confederate, phase: combat}\nplace:\n"
                      << "  - {unit: ex, hex: \"" << L(ClearHex()) << "\", markers: {permanent_loss: 1, disruption: 1}}\n";
  auto r = LoadGame("stars_and_bars(scenario=" + scen + ")");
  ASSERT_TRUE(r.ok()) << r.errors().ToString();
  Session s(*r, 1);
  const Game& g = s.game();
  const AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(g, "foe")}, {ClearHex()}));
  ASSERT_TRUE(an.status.ok()) << an.status.ToString();
  EXPECT_EQ(an.plan.defense, 2);  // DS 4 - 2
  EXPECT_EQ(g.Current(s.state(), U(g, "ex"), g.AttributeIndex("attack")), 1);  // AS 3 - 2
}

TEST(Rules, Rule_7_4_EliminatedWhenLossesExceedDefense) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("lytle", Nb(c, 1)) + P("starkweather", Nb(c, 2)) +
                                      P("walker", Nb(c, 3)) + P("fry", Nb(c, 4)) + P("steedman", Nb(c, 5)) +
                                      P("jones", c, "markers: {permanent_loss: 1}"));
  Session s(g, 1);
  s.SupplyDice({6});  // 6-1 (18 vs 2), roll 6: -/E2R
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack,
                          {U(*g, "harris"), U(*g, "lytle"), U(*g, "starkweather"), U(*g, "walker"), U(*g, "fry"),
                           U(*g, "steedman")},
                          {c}))
                  .ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "permanent_loss", 1)).ok());
  EXPECT_TRUE(s.state().unit(U(*g, "jones")).OnMap());  // DS 3 - 2 = 1: still in play (DS 0 would be too)
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "permanent_loss", 1)).ok());
  EXPECT_TRUE(s.state().unit(U(*g, "jones")).OnMap());  // losses 3 = DS 3: DS 0, not below zero
}

TEST(Rules, Rule_7_4_3_DisruptionCostsOneMpAndConverts) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("walker", c, "markers: {disruption: 2}"));
  Session s(g, 1);
  const UnitId w = U(*g, "walker");
  const int h1 = Nb(c, 0), h2 = Nb(h1, 0), h3 = Nb(h2, 0), h4 = Nb(h3, 0);
  EXPECT_FALSE(s.Apply(Act(ActionType::kMove, {w}, {h1, h2, h3, h4})).ok());  // MA 4 - 1
  ASSERT_TRUE(s.Apply(Act(ActionType::kConvert, {w}, {}, 2)).ok());
  EXPECT_EQ(Markers(s, w, "disruption"), 0);
  EXPECT_EQ(Markers(s, w, "permanent_loss"), 2);
  EXPECT_TRUE(s.Apply(Act(ActionType::kMove, {w}, {h1, h2, h3, h4})).ok());
}

std::shared_ptr<const Game> RetreatPosition(int c, const std::string& defender, const std::string& more = "") {
  // Defender at c attacked at 1-1 from one side.
  return Position(kUnionCombat, P("harris", Nb(c, 0)) + P(defender, c) + more);
}

TEST(Rules, Rule_7_5_1_RetreatTwoHexesOrStand) {
  const int c = ClearHex();
  auto g = RetreatPosition(c, "powell");  // 4 vs 4: 1-1; roll 6: -/W
  Session s(g, 1);
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kStandOrRetreat);
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());  // retreat
  ASSERT_EQ(s.state().decision, DecisionType::kRetreat);
  const UnitId p = U(*g, "powell");
  EXPECT_FALSE(s.Apply(Act(ActionType::kRetreat, {p}, {Nb(c, 3)})).ok());  // two hexes
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {p}, {Nb(c, 3), Nb(Nb(c, 3), 3)})).ok());
  EXPECT_EQ(s.state().unit(p).hex, Nb(Nb(c, 3), 3));
}

// The retreat listing checks every path with quiet refusals (no message built); a
// retreat the player then enters is refused with the rule and the reason.
TEST(Rules, Rule_7_5_1_ARefusedRetreatSaysWhyAfterTheListing) {
  const int c = ClearHex();
  auto g = RetreatPosition(c, "powell");
  Session s(g, 1);
  s.SupplyDice({6});  // 1-1, roll 6: -/W
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());  // retreat
  ASSERT_EQ(s.state().decision, DecisionType::kRetreat);
  const UnitId p = U(*g, "powell");
  const std::vector<Action> legal = s.LegalActions();
  ASSERT_FALSE(legal.empty());
  for (const Action& a : legal) EXPECT_NE(a.hexes[0], Nb(c, 1)) << "Nb(c, 1) is next to the attacker: in its ZOC";
  const Status one = s.Apply(Act(ActionType::kRetreat, {p}, {Nb(c, 3)}));
  EXPECT_EQ(one.error().rule, "7.5.1");
  EXPECT_NE(one.error().message.find("exactly 2 hexes"), std::string::npos) << one.ToString();
  const Status ezoc = s.Apply(Act(ActionType::kRetreat, {p}, {Nb(c, 1), Nb(Nb(c, 1), 1)}));
  EXPECT_FALSE(ezoc.ok());
  EXPECT_NE(ezoc.error().message.find("enemy zone of control (" + L(Nb(c, 1)) + ")"), std::string::npos) << ezoc.ToString();
  EXPECT_EQ(s.LegalActions(), legal);  // the refusals changed nothing
}

TEST(Rules, Rule_7_5_1_HqRetreatsWithItsStack) {
  const int c = ClearHex();
  auto g = RetreatPosition(c, "powell", P("anderson_hq", c));
  Session s(g, 1);
  s.SupplyDice({6});  // 1-1, roll 6: -/W
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());  // retreat
  ASSERT_EQ(s.state().decision, DecisionType::kRetreat);
  ASSERT_EQ(TopStep(s.state())->args[0], U(*g, "powell"));  // the retreat step's unit: units with an AS first
  const int to = Nb(Nb(c, 3), 3);
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "powell")}, {Nb(c, 3), to})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "anderson_hq")).hex, to);
  EXPECT_EQ(s.state().decision, DecisionType::kAdvance);  // the hex is empty: nobody else retreats
}

TEST(Rules, Rule_7_5_1_UnlimberedArtilleryCannotRetreat) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("buckner_arty", c, "face: back"));
  Session s(g, 1);
  s.SupplyDice({6});  // 4 vs BS 2: 2-1, roll 6: -/D1R
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "buckner_arty"), "disruption")).ok());
  EXPECT_TRUE(s.state().unit(U(*g, "buckner_arty")).OnMap());  // BS 2 - 1
  ASSERT_EQ(s.state().decision, DecisionType::kStandOrRetreat);
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());  // retreat: it cannot
  EXPECT_EQ(s.state().unit(U(*g, "buckner_arty")).hex, kEliminated);
}

TEST(Rules, Rule_7_5_2_StandTakesExtraDisruption) {
  const int c = ClearHex();
  auto g = RetreatPosition(c, "powell");
  Session s(g, 1);
  s.SupplyDice({6});  // 1-1, roll 6: -/W
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Action::Of(ActionType::kStand)).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kLosses);
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "powell"), "disruption")).ok());
  EXPECT_EQ(Markers(s, U(*g, "powell"), "disruption"), 1);
  EXPECT_EQ(s.state().unit(U(*g, "powell")).hex, c);
  EXPECT_EQ(s.state().decision, DecisionType::kCombat);
}

TEST(Rules, Rule_7_5_2_StoneWallStand) {
  const int wall = Idx("2913");
  int from = -1;
  for (int d = 0; d < 6 && from < 0; ++d) {
    const int n = Nb(wall, d);
    if (n >= 0 && Base()->hex_board().map.Side(wall, d) == 0) from = n;
  }
  ASSERT_GE(from, 0);
  // 4 vs DS 2: 2-1; roll 6 - 1 (stone wall DRM) = row 5: -/D1W. At the stone wall a W Stand costs nothing.
  auto g = Position(kUnionCombat, P("harris", from) + P("jones", wall, "markers: {permanent_loss: 1}"));
  Session s(g, 1);
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {wall})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kLosses);
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "disruption")).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kStandOrRetreat);
  ASSERT_TRUE(s.Apply(Action::Of(ActionType::kStand)).ok());
  EXPECT_EQ(s.state().decision, DecisionType::kCombat);
  EXPECT_EQ(Markers(s, U(*g, "jones"), "disruption"), 1);  // only the CRT's D1
  EXPECT_EQ(s.state().unit(U(*g, "jones")).hex, wall);
}

TEST(Rules, Rule_7_5_2_UntrainedUnitsCannotStandAlone) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: combat}", P("powell", Nb(c, 0)) + P("terrill", c, "markers: {permanent_loss: 0}"));
  Session s(g, 1);
  s.SupplyDice({5});  // 4 vs 3: 1-1, roll 5: D1/D1
  s.SupplyDice({});
  auto g2 = Position("{turn: 5, side: confederate, phase: combat}", P("powell", Nb(c, 0)) + P("jones", Nb(c, 1)) + P("terrill", c));
  Session t(g2, 1);
  t.SupplyDice({6});  // 7 vs 3: 2-1, roll 6: -/D1R
  ASSERT_TRUE(t.Apply(Act(ActionType::kAttack, {U(*g2, "powell"), U(*g2, "jones")}, {c})).ok());
  ASSERT_EQ(t.state().decision, DecisionType::kLosses);
  ASSERT_TRUE(t.Apply(Loss(*g2, U(*g2, "terrill"), "disruption")).ok());
  // Untrained and alone: no Stand option, straight to the retreat.
  EXPECT_EQ(t.state().decision, DecisionType::kRetreat);
  EXPECT_TRUE(Refused(t.Apply(Action::Of(ActionType::kStand)), "4.5"));
}

TEST(Rules, Rule_7_6_AdvanceAfterCombatButNotArtillery) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat,
                    P("harris", Nb(c, 0)) + P("schoepf_arty", Nb(c, 0), "face: back") + P("gilbert_hq", Nb(c, 0)) + P("jones", c));
  Session s(g, 1);
  s.SupplyDice({6});  // 6 vs 3: 2-1, roll 6: -/D1R
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris"), U(*g, "schoepf_arty")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "disruption")).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "jones")}, {Nb(c, 3), Nb(Nb(c, 3), 3)})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  EXPECT_FALSE(s.Apply(Act(ActionType::kAdvance, {U(*g, "schoepf_arty")}, {})).ok());
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kAdvance, {U(*g, "gilbert_hq")}, {})), "7.6"));  // not alone
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris"), U(*g, "gilbert_hq")}, {})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "harris")).hex, c);
  EXPECT_EQ(s.state().unit(U(*g, "gilbert_hq")).hex, c);  // the HQ goes with the unit it is stacked with
}

// 7.6 (issue 11): the advance is decided once. Harris and Lytle both attacked and
// either may advance; once Harris has, the combat is over (whether the advance is
// still owed is read from the steps, not from a stage field): Lytle is not asked.
TEST(Rules, Rule_7_6_TheAdvanceIsDecidedOnce) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("lytle", Nb(c, 1)) + P("jones", c));
  Session s(g, 1);
  s.SupplyDice({6});  // 8 vs 3: 2-1, roll 6: -/D1R
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris"), U(*g, "lytle")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "disruption")).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "jones")}, {Nb(c, 3), Nb(Nb(c, 3), 3)})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris")}, {})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "harris")).hex, c);
  EXPECT_EQ(s.state().decision, DecisionType::kCombat);  // not asked again for Lytle
  EXPECT_EQ(StepDepth(s.state()), 1);
  EXPECT_EQ(s.state().combat.legacy_stage, 0);
  EXPECT_FALSE(s.Apply(Act(ActionType::kAdvance, {U(*g, "lytle")}, {})).ok());
}

TEST(Rules, Rule_7_7_2_SlopeDoublesAndArtilleryIsNotDoubled) {
  // Find an upslope hexside with clear hexes on both sides.
  const Map& m = Base()->hex_board().map;
  const FeatureMask slope = m.FeatureBit("slope");
  int low = -1, high = -1;
  for (int h = 0; h < m.size() && low < 0; ++h) {
    for (int d = 0; d < 6; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n >= 0 && (m.Toward(h, d) & slope) && m.Side(h, d) == slope && !m.HasTerrain(n, m.TerrainId("woods")) &&
          !m.HasTerrain(n, m.TerrainId("stone_wall"))) {
        low = h;
        high = n;
        break;
      }
    }
  }
  ASSERT_GE(low, 0);
  auto g = Position(kUnionCombat, P("harris", low) + P("jones", high));
  Session s(g, 1);
  AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {high}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_EQ(an.plan.modified_defense, 6);
  auto g2 = Position(kUnionCombat, P("harris", low) + P("jones", high) + P("buckner_arty", high, "face: back"));
  Session s2(g2, 1);
  an = Analyze(s2, Act(ActionType::kAttack, {U(*g2, "harris")}, {high}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_EQ(an.plan.modified_defense, 3 * 2 + 2);  // 8.4: the battery's BS 2 is not doubled
}

TEST(Rules, Rule_7_7_3_RiverDoublesNotCumulative) {
  const Map& m = Base()->hex_board().map;
  const FeatureMask river = m.FeatureBit("river"), slope = m.FeatureBit("slope");
  const FeatureMask crossing = m.FeatureBit("bridge") | m.FeatureBit("ford");
  const TerrainMask plain = m.TerrainBit("clear") | m.TerrainBit("slope_hex");
  int a = -1, b = -1, both_a = -1, both_b = -1;
  for (int h = 0; h < m.size(); ++h) {
    for (int d = 0; d < 6; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n < 0 || !(m.Side(h, d) & river) || (m.Side(h, d) & crossing)) continue;
      if ((m.terrain[static_cast<size_t>(n)] & ~plain) || (m.terrain[static_cast<size_t>(h)] & ~plain)) continue;
      if (m.Side(h, d) & m.FeatureBit("creek")) continue;
      if ((m.Toward(h, d) & slope) && both_a < 0) {
        both_a = h;
        both_b = n;
      } else if (a < 0) {
        a = h;
        b = n;
      }
    }
  }
  ASSERT_GE(a, 0);
  auto g = Position(kUnionCombat, P("harris", a) + P("jones", b));
  Session s(g, 1);
  AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {b}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_EQ(an.plan.modified_defense, 6);
  if (both_a >= 0) {
    auto g2 = Position(kUnionCombat, P("harris", both_a) + P("jones", both_b));
    Session s2(g2, 1);
    an = Analyze(s2, Act(ActionType::kAttack, {U(*g2, "harris")}, {both_b}));
    ASSERT_TRUE(an.status.ok());
    EXPECT_EQ(an.plan.modified_defense, 6);  // river and slope: still only doubled
  }
}

TEST(Rules, Rule_7_1_MultiHexAttack) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", c) + P("jones", Nb(c, 0)) + P("powell", Nb(c, 1)));
  Session s(g, 1);
  const AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {Nb(c, 0), Nb(c, 1)}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_EQ(an.plan.defense, 7);
  EXPECT_EQ(HR(*g).ColumnLabel(an.plan.column), "1-2");
}

TEST(Rules, Rule_7_7_4_CreekDrm) {
  const Map& m = Base()->hex_board().map;
  const FeatureMask creek = m.FeatureBit("creek");
  int a = -1, b = -1;
  for (int h = 0; h < m.size() && a < 0; ++h) {
    for (int d = 0; d < 6; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n >= 0 && m.Side(h, d) == creek && m.terrain[static_cast<size_t>(n)] == m.TerrainBit("clear")) {
        a = h;
        b = n;
        break;
      }
    }
  }
  ASSERT_GE(a, 0);
  auto g = Position(kUnionCombat, P("harris", a) + P("jones", b));
  Session s(g, 1);
  const AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {b}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_EQ(an.plan.mods.drm, -1);
}

TEST(Rules, Rule_7_7_1_WoodsDrm) {
  const Map& m = Base()->hex_board().map;
  int w = -1, from = -1;
  for (int h = 0; h < m.size() && w < 0; ++h) {
    if (!m.HasTerrain(h, m.TerrainId("woods"))) continue;
    for (int d = 0; d < 6; ++d) {
      const int n = m.grid.NeighborIndex(h, d);
      if (n >= 0 && m.Side(h, d) == 0) {
        w = h;
        from = n;
        break;
      }
    }
  }
  auto g = Position(kUnionCombat, P("harris", from) + P("jones", w));
  Session s(g, 1);
  const AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {w}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_EQ(an.plan.mods.drm, -1);
}

TEST(Rules, Rule_7_1_MandatoryAttack) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("jones", c));
  Session s(g, 1);
  EXPECT_TRUE(Refused(s.Apply(Action::EndPhase()), "7.1"));
}

bool Listed(Session& s, const Action& a) {
  const std::vector<Action> legal = s.LegalActions();
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// 7.1: "All friendly units that are in EZOCs must participate in an attack": attacking
// with one of two obliged units does not let the other off.
TEST(Rules, Rule_7_1_EveryUnitInAnEnemyZocMustTakePartInAnAttack) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("lytle", Nb(c, 3)) + P("jones", c));
  Session s(g, 1);
  const Action alone = Act(ActionType::kAttack, {U(*g, "harris")}, {c});
  const Action both = Act(ActionType::kAttack, {U(*g, "harris"), U(*g, "lytle")}, {c});
  EXPECT_TRUE(Refused(s.Apply(alone), "7.1"));
  EXPECT_TRUE(Refused(Analyze(s, alone).status, "7.1"));
  EXPECT_FALSE(Listed(s, alone));
  EXPECT_FALSE(Listed(s, Action::EndPhase()));
  EXPECT_TRUE(Listed(s, both));
  s.SupplyDice({3});
  ASSERT_TRUE(s.Apply(both).ok());
}

// 7.1: "All enemy units that are in friendly controlled hexes must be attacked": one
// unit between two enemy hexes attacks both in one attack (or cannot attack one alone).
TEST(Rules, Rule_7_1_EveryEnemyInAFriendlyZocMustBeAttacked) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", c) + P("jones", Nb(c, 0)) + P("powell", Nb(c, 3)));
  Session s(g, 1);
  const Action one = Act(ActionType::kAttack, {U(*g, "harris")}, {Nb(c, 0)});
  const Action two = Act(ActionType::kAttack, {U(*g, "harris")}, {Nb(c, 0), Nb(c, 3)});
  EXPECT_TRUE(Refused(s.Apply(one), "7.1"));
  EXPECT_FALSE(Listed(s, one));
  EXPECT_FALSE(Listed(s, Action::EndPhase()));
  EXPECT_TRUE(Listed(s, two));
  EXPECT_TRUE(Refused(s.Apply(Action::EndPhase()), "7.1"));
  EXPECT_TRUE(Analyze(s, two).status.ok());
}

// 7.1 / 7.2.1: a soak-off meets the obligations as well as any attack.
TEST(Rules, Rule_7_1_SoakOffMeetsTheObligations) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", c) + P("jones", Nb(c, 0)) + P("powell", Nb(c, 3)) +
                                      P("lytle", Nb(Nb(c, 3), 3)));
  Session s(g, 1);
  EXPECT_TRUE(Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {Nb(c, 0)})).status.ok());
  EXPECT_TRUE(Analyze(s, Act(ActionType::kAttack, {U(*g, "lytle")}, {Nb(c, 3)})).status.ok());
  // Harris on Powell would leave Jones unattacked: refused.
  EXPECT_TRUE(Refused(Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {Nb(c, 3)})).status, "7.1"));
}

// 7.1: an obligation no attack can meet lapses: an enemy unit in the zone of a unit
// with a DS but no AS (6.2) need not (cannot) be attacked; the phase may end.
TEST(Rules, Rule_7_1_AnObligationNoAttackCanMeetLapses) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("caldwell", c, "markers: {disruption: 2}") + P("jones", Nb(c, 0)));
  Session s(g, 1);
  EXPECT_TRUE(Listed(s, Action::EndPhase()));
  EXPECT_TRUE(s.Apply(Action::EndPhase()).ok());
}

// The referee (wargame/conformance.h) sees what the phase required from the State
// alone: here, two units owe an attack and an enemy unit is owed one.
TEST(Referee, FlagsUnmetObligationsAndADeclarationThatBreaksOne) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("lytle", Nb(c, 3)) + P("jones", c));
  Session s(g, 1);
  ErrorList end;
  RefereePhaseEnd(*g, RefereeHooks{}, s.state(), s.state(), &end);
  EXPECT_EQ(end.size(), 3u) << end.ToString();
  State after = s.state();
  after.unit(U(*g, "harris")).flags |= kUnitAttacked;  // Harris alone on Jones
  after.unit(U(*g, "jones")).flags |= kUnitDefended;
  ErrorList declared;
  RefereeDeclaration(*g, RefereeHooks{}, s.state(), after, &declared);
  ASSERT_EQ(declared.size(), 1u) << declared.ToString();
  EXPECT_NE(declared.errors()[0].message.find("Lytle"), std::string::npos);
  after.unit(U(*g, "lytle")).flags |= kUnitAttacked;  // both together: nothing owed
  ErrorList both;
  RefereeDeclaration(*g, RefereeHooks{}, s.state(), after, &both);
  RefereePhaseEnd(*g, RefereeHooks{}, after, after, &both);
  EXPECT_TRUE(both.ok()) << both.ToString();
}

TEST(Rules, Rule_7_8_CavalryRetreatBeforeCombat) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: union, phase: defensive_bombardment}", P("harris", Nb(c, 0)) + P("wharton", c));
  Session s(g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kBombard);
  ASSERT_EQ(s.state().decision_side, 1);
  s.SupplyDice({1});  // withdrawal table, infantry column, 1: D
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "wharton")}, {Nb(c, 3), Nb(Nb(c, 3), 3)})).ok());
  EXPECT_EQ(Markers(s, U(*g, "wharton"), "disruption"), 1);
  EXPECT_EQ(s.state().unit(U(*g, "wharton")).hex, Nb(Nb(c, 3), 3));  // The attacker may advance into the vacated hex; the unit then counts as having attacked.
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  ASSERT_EQ(s.state().decision_side, 0);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris")}, {})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "harris")).hex, c);
  EXPECT_TRUE(s.state().unit(U(*g, "harris")).Has(kUnitAttacked));
  EXPECT_EQ(s.state().decision, DecisionType::kBombard);
  EXPECT_EQ(s.state().decision_side, 1);
}

// 7.6 with 7.1: the hex of a zero-strength unit eliminated because it was attacked alone is
// emptied by combat: the attackers may advance into it.
TEST(Rules, Rule_7_6_AdvanceIntoTheHexOfAZeroStrengthUnitAttackedAlone) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("polk_hq", c));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "polk_hq")).hex, kEliminated);
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris")}, {})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "harris")).hex, c);
  EXPECT_EQ(s.state().decision, DecisionType::kCombat);
}

// 7.6: "Artillery may never advance after combat (even if limbered)": the refusal names it.
TEST(Rules, Rule_7_6_ArtilleryAdvanceIsRefusedAsArtillery) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("schoepf_arty", Nb(c, 0)) + P("polk_hq", c));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  const Status st = s.Apply(Act(ActionType::kAdvance, {U(*g, "harris"), U(*g, "schoepf_arty")}, {}));
  ASSERT_TRUE(Refused(st, "7.6"));
  EXPECT_NE(st.error().message.find("artillery may never advance"), std::string::npos) << st.ToString();
}

// 6.2: a unit with an AS may retreat through a hex held only by enemy zero-strength units,
// eliminating them.
TEST(Rules, Rule_6_2_RetreatThroughAZeroStrengthEnemyEliminatesIt) {
  const int c = ClearHex();
  const int via = Nb(c, 3), to = Nb(Nb(c, 3), 3);
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("lytle", Nb(c, 1)) + P("gilbert_hq", via) + P("jones", c));
  Session s(g, 1);
  s.SupplyDice({6});  // 8 vs 3: 2-1, roll 6: -/D1R
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris"), U(*g, "lytle")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "disruption")).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());  // retreat
  ASSERT_EQ(s.state().decision, DecisionType::kRetreat);
  const Action path = Act(ActionType::kRetreat, {U(*g, "jones")}, {via, to});
  EXPECT_TRUE(Listed(s, path));
  ASSERT_TRUE(s.Apply(path).ok());
  EXPECT_EQ(s.state().unit(U(*g, "jones")).hex, to);
  EXPECT_EQ(s.state().unit(U(*g, "gilbert_hq")).hex, kEliminated);
}

// 5.8 with 7.6: a supply convoy goes only along roads and trails "at all times": it may not
// advance with its stack into a hex off the road.
TEST(Rules, Rule_5_8_ConvoyMayNotAdvanceOffTheRoad) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("union_supply_iii", Nb(c, 0)) + P("polk_hq", c));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {c})).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  const Action with = Act(ActionType::kAdvance, {U(*g, "harris"), U(*g, "union_supply_iii")}, {});
  EXPECT_FALSE(Listed(s, with));
  EXPECT_TRUE(Refused(s.Apply(with), "5.8"));
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris")}, {})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "union_supply_iii")).hex, Nb(c, 0));
}

// 7.5.1 / 7.8: zero-AS units stacked with a cavalry unit that retreats before combat go with it.
TEST(Rules, Rule_7_8_ZeroAsUnitsRetreatWithTheCavalry) {
  const int c = ClearHex();
  const int a = Nb(c, 4), b = Nb(Nb(c, 4), 4);
  auto g = Position("{turn: 5, side: union, phase: defensive_bombardment}",
                    P("harris", Nb(c, 0)) + P("wharton", c) + P("polk_hq", c));
  Session s(g, 1);
  s.SupplyDice({6});  // withdrawal: no effect
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "wharton")}, {a, b})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "wharton")).hex, b);
  EXPECT_EQ(s.state().unit(U(*g, "polk_hq")).hex, b);
}

// 7.8: units that advance after a cavalry retreat before combat are treated as having
// attacked: in the combat phase they may not attack, owe no attack, and oblige no attack.
TEST(Rules, Rule_7_8_UnitsThatAdvancedCountAsHavingAttacked) {
  const int c = ClearHex();
  const int a = Nb(c, 4), b = Nb(Nb(c, 4), 4);
  auto g = Position("{turn: 5, side: union, phase: defensive_bombardment}",
                    P("harris", Nb(c, 0)) + P("wharton", c) + P("jones", Nb(c, 3)));
  Session s(g, 1);
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "wharton")}, {a, b})).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris")}, {})).ok());
  ASSERT_EQ(s.state().unit(U(*g, "harris")).hex, c);  // now adjacent to Jones
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());       // defensive bombardment
  if (s.state().decision == DecisionType::kBombard) {
    ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  }
  ASSERT_EQ(s.state().decision, DecisionType::kCombat);
  EXPECT_FALSE(s.Apply(Act(ActionType::kAttack, {U(*g, "harris")}, {Nb(c, 3)})).ok());
  EXPECT_TRUE(Listed(s, Action::EndPhase()));
  EXPECT_TRUE(s.Apply(Action::EndPhase()).ok());
}

// 7.8: the retreat before combat is declared at the end of defensive bombardment: no
// defensive bombardment after it.
TEST(Rules, Rule_7_8_NoDefensiveBombardmentAfterTheCavalryRetreat) {
  const int c = ClearHex();
  const int a = Nb(c, 4), b = Nb(Nb(c, 4), 4);
  auto g = Position("{turn: 5, side: union, phase: defensive_bombardment}",
                    P("harris", Nb(c, 0)) + P("wharton", c) + P("buckner_arty", Nb(c, 3), "face: back"));
  Session s(g, 1);
  const Action fire = Act(ActionType::kBombard, {U(*g, "buckner_arty")}, {Nb(c, 0)});
  ASSERT_TRUE(Listed(s, fire));
  s.SupplyDice({6});
  ASSERT_TRUE(s.Apply(Act(ActionType::kRetreat, {U(*g, "wharton")}, {a, b})).ok());
  ASSERT_TRUE(s.Apply(Act(ActionType::kAdvance, {}, {})).ok());  // the Union declines to advance
  ASSERT_EQ(s.state().decision, DecisionType::kBombard);
  ASSERT_EQ(s.state().decision_side, 1);
  EXPECT_TRUE(Refused(s.Apply(fire), "7.8"));
  EXPECT_FALSE(Listed(s, fire));
}

// 11.1: "the last side to occupy or move a unit through" the objective counts a retreat.
TEST(Rules, Rule_11_1_ARetreatThroughTheObjectiveTakesIt) {
  const int o = Idx("2818");
  for (int d = 0; d < 6; ++d) {
    const int a = Nb(o, d), b = Nb(o, (d + 3) % 6), h = a >= 0 ? Nb(a, d) : -1;
    if (a < 0 || b < 0 || h < 0) continue;
    auto g = Position("{turn: 5, side: union, phase: defensive_bombardment}", P("harris", h) + P("wharton", a));
    Session s(g, 1);
    const Action retreat = Act(ActionType::kRetreat, {U(*g, "wharton")}, {o, b});
    if (!Listed(s, retreat)) continue;
    const int place = static_cast<int>(std::find_if(g->hex_board().map.places.begin(), g->hex_board().map.places.end(),
                                                    [](const Place& p) { return p.kind == "objective"; }) -
                                       g->hex_board().map.places.begin());
    ASSERT_NE(s.state().place_control[place], 2);
    s.SupplyDice({6});
    ASSERT_TRUE(s.Apply(retreat).ok());
    EXPECT_EQ(s.state().place_control[place], 2);  // the Confederates (side 1) + 1
    return;
  }
  FAIL() << "no retreat through the objective found";
}

// The state file's `current` values are the rules' values: a zero-DS unit has AS 0 (6.2),
// a disrupted unit MA - 1 (7.4.3).
TEST(Rules, Rule_6_2_CurrentValuesAreTheRulesValues) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("carlin", c, "markers: {permanent_loss: 3}") + P("harris", Nb(c, 0), "markers: {disruption: 1}"));
  Session s(g, 1);
  const Rules& r = *g->rules;
  EXPECT_EQ(r.CurrentValue(*g, s.state(), U(*g, "carlin"), g->AttributeIndex("attack")), 0);  // 4-3 with 3 losses
  EXPECT_EQ(g->Current(s.state(), U(*g, "carlin"), g->AttributeIndex("attack")), 1);           // the markers alone
  EXPECT_EQ(r.CurrentValue(*g, s.state(), U(*g, "harris"), g->AttributeIndex("movement")), 3);
  EXPECT_EQ(r.CurrentValue(*g, s.state(), U(*g, "harris"), g->AttributeIndex("attack")), 3);
}

// 7.1 in the analysis: a lone zero-strength defender is eliminated outright, not a spread
// of CRT results.
TEST(Rules, Rule_7_1_AnalysisOfALoneZeroStrengthDefenderIsElimination) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("harris", Nb(c, 0)) + P("polk_hq", c));
  Session s(g, 1);
  const AttackAnalysis an = Analyze(s, Act(ActionType::kAttack, {U(*g, "harris")}, {c}));
  ASSERT_TRUE(an.status.ok());
  EXPECT_TRUE(an.outcomes.empty());
  EXPECT_NE(an.automatic.find("7.1"), std::string::npos) << an.automatic;
}

// ---------------------------------------------------------------- 8.x bombardment

TEST(Rules, Rule_8_2_BombardmentSumCappedAtSixOneRollPerUnit) {
  const int c = ClearHex();
  const int t = Nb(Nb(c, 0), 0);  // range 2
  auto g = Position("{turn: 5, side: union, phase: offensive_bombardment}",
                    P("schoepf_arty", c, "face: back") + P("mitchell_arty", c, "face: back") + P("wood_arty", Nb(c, 3), "face: back") +
                        P("ws_smith_arty", Nb(c, 3), "face: back") + P("jones", t) + P("powell", t) + P("polk_hq", t));
  Session s(g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kBombard);
  s.SupplyDice({3, 4});  // two combat units (the HQ stacked with them is ignored): column 6+
  ASSERT_TRUE(s.Apply(Act(ActionType::kBombard,
                          {U(*g, "schoepf_arty"), U(*g, "mitchell_arty"), U(*g, "wood_arty"), U(*g, "ws_smith_arty")},
                          {t}))
                  .ok());
  EXPECT_EQ(s.dice_queued(), 0u);
  EXPECT_EQ(Markers(s, U(*g, "jones"), "disruption"), 1);
  EXPECT_EQ(Markers(s, U(*g, "powell"), "disruption"), 1);
  EXPECT_EQ(Markers(s, U(*g, "polk_hq"), "disruption"), 0);
  // The hex was bombarded: no second bombardment of it this phase (all fire together).
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kBombard, {U(*g, "schoepf_arty")}, {t})), "8.2"));
}

TEST(Rules, Rule_8_3_LineOfSightBlockedByWoods) {
  const Map& m = Base()->hex_board().map;
  int from = -1, mid = -1, to = -1;
  for (int h = 0; h < m.size() && from < 0; ++h) {
    if (!m.HasTerrain(h, m.TerrainId("woods"))) continue;
    const int a = m.grid.NeighborIndex(h, 0), b = m.grid.NeighborIndex(h, 3);
    if (a >= 0 && b >= 0 && !m.HasTerrain(a, m.TerrainId("woods")) && !m.HasTerrain(b, m.TerrainId("woods"))) {
      from = a;
      mid = h;
      to = b;
    }
  }
  ASSERT_GE(from, 0);
  (void)mid;
  int other = -1;  // an adjacent target keeps the phase open
  for (int d = 0; d < 6 && other < 0; ++d) {
    const int n = m.grid.NeighborIndex(from, d);
    if (n >= 0 && n != mid && n != to) other = n;
  }
  auto g = Position("{turn: 5, side: union, phase: offensive_bombardment}",
                    P("schoepf_arty", from, "face: back") + P("jones", to) + P("powell", other));
  Session s(g, 1);
  const Status st = s.Apply(Act(ActionType::kBombard, {U(*g, "schoepf_arty")}, {to}));
  EXPECT_TRUE(Refused(st, "8.3")) << st.ToString() << " " << L(from) << " " << L(mid) << " " << L(to);
}

TEST(Rules, Rule_8_5_ExtendedRangeAtOneSp) {
  const int c = ClearHex();
  const int t = Nb(Nb(Nb(c, 0), 0), 0);
  auto g = Position("{turn: 5, side: union, phase: offensive_bombardment}", P("schoepf_arty", c, "face: back") + P("jones", t));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kBombard, {U(*g, "schoepf_arty")}, {t})).ok());
  bool one = false;
  for (const Event& e : s.events()) one = one || (e.type == EventType::kBombard && e.a == 1);
  EXPECT_TRUE(one);
  EXPECT_FALSE(s.Apply(Act(ActionType::kBombard, {U(*g, "mitchell_arty")}, {Nb(t, 0)})).ok());
}

TEST(Rules, Rule_8_1_BombardingArtilleryMayNotAttack) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: union, phase: offensive_bombardment}", P("schoepf_arty", c, "face: back") + P("harris", c) + P("jones", Nb(c, 0)));
  Session s(g, 1);
  s.SupplyDice({1});
  ASSERT_TRUE(s.Apply(Act(ActionType::kBombard, {U(*g, "schoepf_arty")}, {Nb(c, 0)})).ok());
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  ASSERT_EQ(s.state().decision, DecisionType::kCombat);
  EXPECT_FALSE(s.Apply(Act(ActionType::kAttack, {U(*g, "schoepf_arty")}, {Nb(c, 0)})).ok());
}

TEST(Rules, Rule_8_4_LimberedArtilleryDisruptedIsEliminated) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: union, phase: offensive_bombardment}",
                    P("schoepf_arty", c, "face: back") + P("buckner_arty", Nb(c, 0), "face: front"));
  Session s(g, 1);
  s.SupplyDice({5});  // column 2-3, roll 5: 1 disruption
  ASSERT_TRUE(s.Apply(Act(ActionType::kBombard, {U(*g, "schoepf_arty")}, {Nb(c, 0)})).ok());
  EXPECT_EQ(s.state().unit(U(*g, "buckner_arty")).hex, kEliminated);
}

// ---------------------------------------------------------------- 9.0 reorganization

TEST(Rules, Rule_9_0_ReorganizationWithHqAndBraggExcluded) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: reorganization}",
                    P("jones", c, "markers: {disruption: 2}") + P("hardee_hq", c) + P("bragg_hq", c) +
                        P("powell", Nb(c, 0), "markers: {disruption: 1}"));
  Session s(g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kCustom, {U(*g, "jones"), U(*g, "bragg_hq")}, {}, kCustomReorganize)), "9.0"));
  s.SupplyDice({5});  // with HQ, 5: 2 levels
  ASSERT_TRUE(s.Apply(Act(ActionType::kCustom, {U(*g, "jones"), U(*g, "hardee_hq")}, {}, kCustomReorganize)).ok());
  EXPECT_EQ(Markers(s, U(*g, "jones"), "disruption"), 0);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kCustom, {U(*g, "jones")}, {}, kCustomReorganize)), "9.0"));
  s.SupplyDice({4});  // near HQ, 4: 1 level
  ASSERT_TRUE(s.Apply(Act(ActionType::kCustom, {U(*g, "powell"), U(*g, "hardee_hq")}, {}, kCustomReorganize)).ok());
  EXPECT_EQ(Markers(s, U(*g, "powell"), "disruption"), 0);
}

TEST(Rules, Rule_9_0_NoReorganizationInEzoc) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: reorganization}",
                    P("jones", c, "markers: {disruption: 1}") + P("powell", Nb(c, 3), "markers: {disruption: 1}") + P("harris", Nb(c, 0)));
  Session s(g, 1);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kCustom, {U(*g, "jones")}, {}, kCustomReorganize)), "9.0"));
}

// ---------------------------------------------------------------- 10.x detachments

TEST(Rules, Rule_10_1_DetachAndRecombine) {
  const int c = ClearHex();
  auto g = Position(kUnionMove, P("harris", c) + P("lytle", c, "markers: {permanent_loss: 1}"));
  Session s(g, 1);
  const UnitId reg = U(*g, "harris_reg");
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kDetach, {U(*g, "lytle"), reg}, {})), "10.1"));  // not full strength
  ASSERT_TRUE(s.Apply(Act(ActionType::kDetach, {U(*g, "harris"), reg}, {})).ok());
  EXPECT_EQ(s.state().unit(reg).hex, c);
  EXPECT_EQ(Markers(s, U(*g, "harris"), "permanent_loss"), 1);
  // 10.2: recombining with another brigade in the hex (not the one it came from).
  ASSERT_TRUE(s.Apply(Act(ActionType::kRecombine, {U(*g, "lytle"), reg}, {})).ok());
  EXPECT_EQ(Markers(s, U(*g, "lytle"), "permanent_loss"), 0);
  EXPECT_EQ(s.state().unit(reg).hex, kWithdrawn);
  // After any move, no more detachments this phase.
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "lytle")}, {Nb(c, 0)})).ok());
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kDetach, {U(*g, "lytle"), reg}, {})), "10.1"));
}

// ---------------------------------------------------------------- 11.x victory

TEST(Rules, Rule_11_1_RaidThroughEnemyArmyHqOnce) {
  const int hq = Idx("2921");
  int from = -1;
  for (int d = 0; d < 6 && from < 0; ++d) {
    const int n = Nb(hq, d);
    if (n >= 0 && Base()->hex_board().map.Side(hq, d) == 0) from = n;
  }
  auto g = Position(kUnionMove, P("harris", from) + P("gay", from));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "harris")}, {hq})).ok());
  EXPECT_EQ(s.state().vp[0], 2);
  ASSERT_TRUE(s.Apply(Act(ActionType::kMove, {U(*g, "gay")}, {hq})).ok());
  EXPECT_EQ(s.state().vp[0], 2);  // once
}

TEST(Rules, Rule_11_1_EndOfGameVictoryPoints) {
  const int c = ClearHex();
  auto g = Position("{turn: 19, side: confederate, phase: combat}",
                    P("harris", c, "markers: {permanent_loss: 2}") + "  - {unit: lytle, hex: eliminated}\n" +
                        "  - {unit: mccook_hq, hex: eliminated}\n" + P("jones", Idx("2818")) +
                        "  - {unit: schoepf_arty, hex: eliminated}\n" + P("liddell", Nb(Nb(c, 0), 0), "markers: {permanent_loss: 1}") +
                        P("liddell_reg", Nb(Nb(c, 3), 3)));
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  ASSERT_TRUE(s.over());
  // Confederate: 2 PL + Lytle DS 4 + HQ 1 + artillery BS 2 = 9, + 1 for occupying the objective.
  EXPECT_EQ(s.state().vp[1], 10);
  // Union: Liddell's permanent loss is its detachment (10.3): not a loss.
  EXPECT_EQ(s.state().vp[0], 0);
  EXPECT_EQ(s.state().winner, -1);  // Confederates below 12: a draw (11.2)
}

// ---------------------------------------------------------------- 12.x optional rules

TEST(Rules, Rule_12_1_UntrainedUnitsRollToAdvance) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("terrill", Nb(c, 0)) + P("harris", Nb(c, 1)) + P("jones", c, "markers: {permanent_loss: 1}"), "12.1");
  Session s(g, 1);
  s.SupplyDice({6, 2});  // 7 vs 2: 3-1, roll 6: -/D1R; untrained roll 2: must advance
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "terrill"), U(*g, "harris")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "disruption")).ok());
  if (s.state().decision == DecisionType::kStandOrRetreat) { ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok()); }
  if (s.state().decision == DecisionType::kRetreat) { ASSERT_TRUE(s.Apply(s.LegalActions()[0]).ok()); }
  EXPECT_EQ(s.state().unit(U(*g, "terrill")).hex, c);  // advanced without a choice
}

TEST(Rules, Rule_12_1_UntrainedUnitFailingItsRollMayNotAdvance) {
  const int c = ClearHex();
  auto g = Position(kUnionCombat, P("terrill", Nb(c, 0)) + P("harris", Nb(c, 1)) + P("jones", c, "markers: {permanent_loss: 1}"), "12.1");
  Session s(g, 1);
  s.SupplyDice({6, 5});  // -/D1R; untrained roll 5: no advance
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "terrill"), U(*g, "harris")}, {c})).ok());
  ASSERT_TRUE(s.Apply(Loss(*g, U(*g, "jones"), "disruption")).ok());
  if (s.state().decision == DecisionType::kStandOrRetreat) { ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok()); }
  if (s.state().decision == DecisionType::kRetreat) { ASSERT_TRUE(s.Apply(s.LegalActions()[0]).ok()); }
  ASSERT_EQ(s.state().decision, DecisionType::kAdvance);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kAdvance, {U(*g, "terrill")}, {})), "12.1"));
  EXPECT_TRUE(s.Apply(Act(ActionType::kAdvance, {U(*g, "harris")}, {})).ok());  // trained units still may
}

TEST(Rules, Rule_12_2_BatteryStacksFreelyWithItsBrigade) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: movement}", P("liddell", c) + P("swett", c) + P("jones", c), "12.2");
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Action::EndPhase()).ok());
  EXPECT_NE(s.state().decision, DecisionType::kChoice);  // not overstacked
  EXPECT_TRUE(s.state().unit(U(*g, "swett")).OnMap());
  EXPECT_TRUE(s.state().unit(U(*g, "jones")).OnMap());
  auto g2 = Position("{turn: 5, side: confederate, phase: movement}", P("liddell", c) + P("swett", c) + P("jones", c));
  Session s2(g2, 1);
  ASSERT_TRUE(s2.Apply(Action::EndPhase()).ok());
  ASSERT_EQ(s2.state().decision, DecisionType::kChoice);
  ASSERT_TRUE(s2.Apply(Act(ActionType::kDestroy, {U(*g2, "swett")}, {})).ok());
  int gone = 0;
  for (const char* id : {"liddell", "swett", "jones"}) gone += s2.state().unit(U(*g2, id)).OnMap() ? 0 : 1;
  EXPECT_EQ(gone, 1);
}

// 12.2 at set-up: an untrusted scenario is checked by the stacking rule play uses. A
// Confederate brigade, its battery and another brigade may start in one hex (the battery
// stacks free) while the Union moves first; without 12.2 that is three units, refused.
TEST(Rules, Rule_12_2_SetUpCountsTheBatteryFreeWithItsBrigade) {
  const int c = ClearHex();
  const std::string place = P("liddell", c) + P("swett", c) + P("jones", c);
  auto g = Position(kUnionMove, place, "12.2");
  ASSERT_NE(g, nullptr);
  Session s(g, 1);
  EXPECT_TRUE(s.state().unit(U(*g, "swett")).OnMap());
  const std::string path = ::testing::TempDir() + "sb_12_2_setup.yaml";
  std::ofstream(path) << kExtendsPerryville << "only_placed: true\nstart: " << kUnionMove << "\nplace:\n" << place;
  auto refused = LoadGame("stars_and_bars(scenario=" + path + ")");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.errors().ToString().find("3 units of confederate start in hex " + L(c)), std::string::npos)
      << refused.errors().ToString();
  // The same battery with another brigade's stack is a full unit (12.2: "at all other times").
  const std::string other = P("jones", c) + P("swett", c) + P("johnson", c);
  std::ofstream(path) << kExtendsPerryville << "only_placed: true\nstart: " << kUnionMove << "\nplace:\n" << other;
  EXPECT_FALSE(LoadGame("stars_and_bars(scenario=" + path + ",optional=12.2)").ok());
}

TEST(Rules, Rule_12_3_SillAndWithersChoices) {
  auto g = Position("{turn: 9, side: union, phase: movement}", "  - {unit: buckley, hex: offmap}\n  - {unit: gardner, hex: offmap}\n  - {unit: cav_2nd, hex: offmap}\n", "12.3");
  Session s(g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 0)).ok());
  EXPECT_EQ(s.state().unit(U(*g, "buckley")).hex, kWithdrawn);
  EXPECT_EQ(s.state().unit(U(*g, "gardner")).hex, kWithdrawn);
  EXPECT_EQ(s.state().unit(U(*g, "cav_2nd")).hex, kWithdrawn);
  Session t(g, 1);
  ASSERT_TRUE(t.Apply(Act(ActionType::kChoice, {}, {}, 1)).ok());
  EXPECT_EQ(t.state().decision, DecisionType::kMovement);
  EXPECT_TRUE(Refused(t.Apply(Action::EndPhase()), "5.7"));  // Sill's brigade must enter
  // The 2nd Cavalry comes with Sill (TRT note): it may enter now, on turn 9.
  EXPECT_TRUE(t.Apply(Act(ActionType::kEnter, {U(*g, "cav_2nd")}, {Idx("2301")})).ok());
  EXPECT_FALSE(s.Apply(Act(ActionType::kEnter, {U(*g, "cav_2nd")}, {Idx("2301")})).ok());
}

// 12.3: the choice asked is the turn_choice step's argument, shown in the prompt;
// Sill's Division is asked of the Union at the start of turn 9 and the answer pops
// the step back to the movement phase. The two SbExt bytes that once held the
// pending choice and a combat flag stay 0 (the State's bytes are what saves hash).
TEST(Rules, Rule_12_3_TheChoiceIsTheStepsArgument) {
  auto g = Position("{turn: 9, side: union, phase: movement}", "  - {unit: buckley, hex: offmap}\n", "12.3");
  Session s(g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);
  const Step* top = TopStep(s.state());
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(g->rules->steps().Def(top->kind).name, "turn_choice");
  EXPECT_EQ(top->args[0], kChoiceSill);
  EXPECT_EQ(g->rules->DescribeDecision(s.state()), "receive Sill's Division? (12.3)");
  const int depth = StepDepth(s.state());
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 1)).ok());
  EXPECT_EQ(StepDepth(s.state()), depth - 1);
  EXPECT_EQ(s.state().decision, DecisionType::kMovement);
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kChoice, {}, {}, 1)), "4.5"));  // nothing is asked now (the sequence)
  auto full = LoadGame("stars_and_bars(optional=12.3+12.6)");
  ASSERT_TRUE(full.ok());
  Session r(*full, 5);
  RandomPlayer p(5);
  for (int i = 0; i < 3000 && !r.state().game_over; ++i) {
    EXPECT_EQ(X(r).unused_1, 0);
    EXPECT_EQ(X(r).unused_2, 0);
    ASSERT_TRUE(r.Apply(p.Choose(**full, r.state(), r.LegalActions())).ok());
  }
}

TEST(Rules, Rule_12_3_WithersDeclinedMakesDrawsConfederateWins) {
  auto g = Position("{turn: 9, side: union, phase: movement}",
                    "  - {unit: buckley, hex: offmap}\n  - {unit: gardner, hex: offmap}\n", "12.3");
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 1)).ok());  // Union receives Sill
  ASSERT_TRUE(s.Apply(Act(ActionType::kEnter, {U(*g, "buckley")}, {Idx("0801")})).ok());
  bool asked = false;
  for (int guard = 0; guard < 2000 && !s.over(); ++guard) {
    const auto legal = s.LegalActions();
    ASSERT_FALSE(legal.empty());
    Action pick = legal[0];
    for (const Action& a : legal) {
      if (a.type == ActionType::kEndPhase) pick = a;
    }
    const Step* top = TopStep(s.state());  // the turn_choice step asks the choice of its argument 0
    if (s.state().decision == DecisionType::kChoice && top != nullptr &&
        s.game().rules->steps().Def(top->kind).name == "turn_choice" && top->args[0] == kChoiceWithers) {
      EXPECT_EQ(s.state().turn, 12);
      asked = true;
      pick = Act(ActionType::kChoice, {}, {}, 0);  // decline Withers
    } else if (s.state().decision == DecisionType::kChoice) {
      pick = Act(ActionType::kChoice, {}, {}, 0);
    }
    ASSERT_TRUE(s.Apply(pick).ok()) << s.DescribeDecision();
  }
  ASSERT_TRUE(asked);
  ASSERT_TRUE(s.over());
  EXPECT_EQ(s.state().vp[0], s.state().vp[1]);
  EXPECT_EQ(s.state().winner, 1);
}

TEST(Rules, Rule_12_4_UnionInitiativeRestrictsACorps) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: combat}",
                    P("walker", Nb(Nb(c, 3), 3)) + P("fry", c) + P("gilbert_hq", c) + P("gay", Nb(c, 4)) + P("jones", Nb(c, 0)) +
                        P("powell", Nb(Nb(Nb(c, 0), 0), 0)),
                    "12.4");
  Session s(g, 1);
  // A first combat (6.2: Jones attacks nothing: use the Powell-free hex); then turn 6's Union roll.
  s.SupplyDice({5});
  ASSERT_TRUE(s.Apply(Act(ActionType::kAttack, {U(*g, "jones")}, {c})).ok());
  while (!s.over() && s.state().turn == 5) {
    auto legal = s.LegalActions();
    ASSERT_FALSE(legal.empty());
    Action pick = legal.back();
    for (const Action& a : legal) {
      if (a.type == ActionType::kEndPhase) pick = a;
    }
    if (s.state().decision == DecisionType::kLosses || s.state().decision == DecisionType::kRetreat) pick = legal[0];
    s.SupplyDice({3});  // any die: initiative 3 = III Corps
    ASSERT_TRUE(s.Apply(pick).ok()) << s.DescribeDecision();
  }
  ASSERT_EQ(s.state().turn, 6);
  ASSERT_EQ(X(s).initiative_corps, 3);
  const UnitId w = U(*g, "walker");
  const int w0 = s.state().unit(w).hex;
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kMove, {w}, {Nb(w0, 0), Nb(Nb(w0, 0), 1)})), "12.4.1"));
  EXPECT_TRUE(s.Apply(Act(ActionType::kMove, {w}, {Nb(w0, 0)})).ok());
}

TEST(Rules, Rule_12_4_2_GilbertReleasedOnTurnOne) {
  auto g = LoadGame("stars_and_bars(optional=12.4)");
  ASSERT_TRUE(g.ok());
  Session s(*g, 1);
  EXPECT_TRUE(s.state().unit(U(**g, "gilbert_hq")).Has(kUnitReleased));
  Session t(Base(), 1);
  EXPECT_FALSE(t.state().unit(U(*Base(), "gilbert_hq")).Has(kUnitReleased));
}

TEST(Rules, Rule_12_5_CommandControl) {
  const int c = ClearHex();
  const std::string place = P("jones", c, "markers: {disruption: 1}") + P("polk_hq", c) + P("anderson_hq", c);
  auto g = Position("{turn: 5, side: confederate, phase: reorganization}", place, "12.5");
  Session s(g, 1);
  // Jones is in Anderson's division: Polk may not aid it, Anderson may.
  EXPECT_TRUE(Refused(s.Apply(Act(ActionType::kCustom, {U(*g, "jones"), U(*g, "polk_hq")}, {}, kCustomReorganize)), "12.5"));
  s.SupplyDice({6});
  EXPECT_TRUE(s.Apply(Act(ActionType::kCustom, {U(*g, "jones"), U(*g, "anderson_hq")}, {}, kCustomReorganize)).ok());
}

TEST(Rules, Rule_12_6_ForcedMarchDoublesOnce) {
  const int c = ClearHex();
  auto g = Position("{turn: 5, side: confederate, phase: movement}", P("jones", c), "12.6");
  Session s(g, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kChoice);
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 1)).ok());
  std::vector<int> path;
  int h = c;
  for (int i = 0; i < 6; ++i) {
    h = Nb(h, i % 2 == 0 ? 0 : 1);
    if (h < 0) break;
    path.push_back(h);
  }
  ASSERT_EQ(path.size(), 6u);
  Action a = Action::Of(ActionType::kMove);
  a.AddUnit(U(*g, "jones"));
  for (int p : path) a.AddHex(p);
  EXPECT_TRUE(s.Apply(a).ok());  // 6 clear hexes with MA 4 doubled
  EXPECT_EQ(X(s).forced_march_used, 1);
}

TEST(Rules, Rule_12_6_ForcedMarchMayNotEndInEzoc) {
  const int c = ClearHex();
  std::vector<int> path;
  int h = c;
  for (int i = 0; i < 5; ++i) {
    h = Nb(h, i % 2 == 0 ? 0 : 1);
    path.push_back(h);
  }
  const int enemy = Nb(path[4], 0);
  auto g = Position("{turn: 5, side: confederate, phase: movement}", P("jones", c) + P("walker", enemy), "12.6");
  Session s(g, 1);
  ASSERT_TRUE(s.Apply(Act(ActionType::kChoice, {}, {}, 1)).ok());
  Action a = Action::Of(ActionType::kMove);
  a.AddUnit(U(*g, "jones"));
  for (int p : path) a.AddHex(p);
  EXPECT_TRUE(Refused(s.Apply(a), "12.6"));  // five hexes need the doubled MA, and end next to Walker
  a.num_hexes = 4;
  EXPECT_TRUE(s.Apply(a).ok());  // four hexes, not in Walker's ZOC
}

}  // namespace
}  // namespace wg::stars_and_bars
