// One test per numbered rule of Blue & Gray and the Chattanooga exclusive rules
// (RULES.md names each). Every test sets up a small position on the Chattanooga
// map (a scenario file extending chattanooga with only_placed/start/place),
// supplies the dice where a roll matters, and checks the rule, including a
// refused illegal action with its rule number.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include "rules.h"
#include "wargame/action_text.h"
#include "wargame/registry.h"
#include "wargame/session.h"
#include "wargame/steps.h"

namespace wg::blue_and_gray {
namespace {

const std::string kScenario = std::string(WG_RULESET_DIR) + "/scenarios/chattanooga/scenario.yaml";

// A position: `body` is YAML added to a scenario extending chattanooga.
class Pos {
 public:
  explicit Pos(const std::string& body, bool only_placed = true) {
    static int counter = 0;
    const std::string file = testing::TempDir() + "/bg_" + std::to_string(getpid()) + "_" +
                             std::to_string(counter++) + ".yaml";
    {
      std::ofstream out(file);
      out << "extends: " << kScenario << "\n";
      if (only_placed) out << "only_placed: true\n";
      out << body << "\n";
    }
    auto g = LoadGame("blue_and_gray(scenario=" + file + ")");
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.errors().ToString());
    if (!g.ok()) return;
    game = *g;
    session = std::make_unique<Session>(game, 1);
  }
  Status Do(const std::string& text) {
    auto a = ParseActionText(*game, text);
    EXPECT_TRUE(a.ok()) << text << ": " << (a.ok() ? "" : a.errors().ToString());
    return a.ok() ? session->Apply(*a) : Status::Refused("parse", text);
  }
  Status Do(const std::string& text, std::vector<int> dice) {
    session->SupplyDice(dice);
    return Do(text);
  }
  void Ok(const std::string& text, std::vector<int> dice = {}) {
    if (!dice.empty()) session->SupplyDice(dice);
    const Status st = Do(text);
    EXPECT_TRUE(st.ok()) << text << ": " << st.ToString();
  }
  // Refused, citing `rule`.
  void Refused(const std::string& text, const std::string& rule) {
    const Status st = Do(text);
    EXPECT_FALSE(st.ok()) << text << " should be refused by " << rule;
    if (!st.ok()) {
      EXPECT_EQ(st.error().rule, rule) << text << ": " << st.ToString();
    }
  }
  UnitId U(const std::string& id) const { return static_cast<UnitId>(game->UnitIndex(id)); }
  const State& s() const { return session->state(); }
  std::string Where(const std::string& id) const {
    const int h = s().unit(U(id)).hex;
    if (h == kEliminated) return "eliminated";
    if (h == kNotYetEntered) return "offmap";
    return game->HexLabel(h);
  }
  int Hex(const std::string& label) const { return game->hex_board().map.Index(label); }
  const BgRules& rules() const { return static_cast<const BgRules&>(*game->rules); }
  bool Ineffective(const std::string& id) const { return rules().Ineffective(s(), U(id)); }
  bool InEnemyZoc(int side, const std::string& hex) {
    Context ctx(*game, nullptr, nullptr, &session->scratch());
    return rules().InEnemyZoc(s(), ctx, side, Hex(hex));
  }
  AttackAnalysis Analyze(const std::string& text) {
    auto a = ParseActionText(*game, text);
    EXPECT_TRUE(a.ok());
    Context ctx(*game, nullptr, nullptr, &session->scratch());
    return rules().AnalyzeAttack(s(), ctx, *a);
  }
  int Legal(ActionType t) {
    int n = 0;
    for (const Action& a : session->LegalActions()) n += a.type == t ? 1 : 0;
    return n;
  }
  bool EventWithRule(const std::string& rule) const {
    for (const Event& e : session->events()) {
      if (e.rule && rule == e.rule) return true;
    }
    return false;
  }

  std::shared_ptr<const Game> game;
  std::unique_ptr<Session> session;
};

constexpr int kUnion = 0, kConfederate = 1;

// --- 4.0 Sequence of play --------------------------------------------------------

TEST(Rules, Rule_4_0_SequenceUnionMovementCombatThenConfederate) {
  Pos p("start: {turn: 1, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2628'}]");
  EXPECT_EQ(p.s().turn, 1);
  EXPECT_EQ(p.s().phasing_side, kUnion);
  EXPECT_EQ(p.s().decision, DecisionType::kMovement);
  p.Ok("end");
  EXPECT_EQ(p.s().decision, DecisionType::kCombat);
  EXPECT_EQ(p.s().phasing_side, kUnion);
  p.Refused("{move: [u_1_2_xv], path: ['1914']}", "4.0");  // movement is over
  p.Ok("end");
  EXPECT_EQ(p.s().decision, DecisionType::kMovement);
  EXPECT_EQ(p.s().phasing_side, kConfederate);
  p.Ok("end");
  p.Ok("end");
  EXPECT_EQ(p.s().turn, 2);
  EXPECT_EQ(p.s().phasing_side, kUnion);
}

// --- 5.0 Zones of control ---------------------------------------------------------

TEST(Rules, Rule_5_0_UnitsStopOnEnteringEnemyZoc) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2114'}]");
  p.Refused("{move: [u_1_2_xv], path: ['1914', '2014', '2015']}", "5.0");
  p.Ok("{move: [u_1_2_xv], path: ['1914', '2014']}");
  EXPECT_EQ(p.Where("u_1_2_xv"), "2014");
}

// 5.0 with 20.12: "units exert a ZOC into the six hexes adjacent to the hex they
// occupy": a Confederate infantry unit alone in a town hex puts the six town hexes
// around it in its ZOC, not its own hex; a Union unit in a town hex does not negate.
TEST(Rules, Rule_5_0_ZocIsTheSixAdjacentHexesNotTheUnitsOwnHex) {
  Pos p("start: {turn: 10, side: confederate, phase: combat}\n"
        "place: [{unit: c_smith, hex: '1312'}, {unit: u_1_2_xv, hex: '1414'}]");
  p.Ok("end");  // end of turn 10
  ASSERT_TRUE(p.session->over());
  // 1211, 1212, 1311, 1313, 1411, 1412 (all town): 6 x 4; 1312 itself is not counted.
  EXPECT_EQ(p.s().vp[kConfederate], 24);
  // A second infantry unit beside it puts 1312 in a ZOC (that of the unit next to it).
  Pos q("start: {turn: 10, side: confederate, phase: combat}\n"
        "place: [{unit: c_smith, hex: '1312'}, {unit: c_polk, hex: '1313'}, {unit: u_1_2_xv, hex: '0101'}]");
  q.Ok("end");
  ASSERT_TRUE(q.session->over());
  // Around 1312: 1211, 1212, 1311, 1313, 1411, 1412; around 1313: 1212, 1213, 1312, 1314, 1412, 1413.
  EXPECT_EQ(q.s().vp[kConfederate], 4 * 10);
}

TEST(Rules, Rule_5_1_NoLeavingEnemyZocExceptByCombat) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '2014'}, {unit: c_smith, hex: '2114'}]");
  const Status st = p.Do("{move: [u_1_2_xv], path: ['1914']}");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "5.1");
}

TEST(Rules, Rule_5_2_ZocsDoNotCancel) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2114'}, {unit: u_2_2_xv, hex: '1815'}]");
  // 2014 is in both sides' ZOCs; the Union unit entering it must still stop.
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "2014"));
  EXPECT_TRUE(p.InEnemyZoc(kConfederate, "2014"));
  p.Refused("{move: [u_2_2_xv], path: ['1915', '2014', '2015']}", "5.0");
}

TEST(Rules, Rule_5_3_ZocNotAcrossCreekOrRiverButAcrossStream) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: c_smith, hex: '2510'}, {unit: c_polk, hex: '1405'}, {unit: c_wright, hex: '1320'}]");
  EXPECT_FALSE(p.InEnemyZoc(kUnion, "2410"));  // creek hexside 2410|2510
  EXPECT_FALSE(p.InEnemyZoc(kUnion, "1404"));  // river hex
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "1406"));   // clear
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "1220"));   // across the Chattanooga Creek stream
}

// 5.3: "They do extend across stream, ford and bridge hexsides" - read as a player
// would: a bridge or a ford is a crossing of the creek (or river), so the ZOC
// extends across a creek hexside that has one (RULES.md 5.3).
TEST(Rules, Rule_5_3_BridgeAndFordHexsidesCarryZocAcrossACreek) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: c_smith, hex: '2513'}, {unit: c_polk, hex: '2507'}, {unit: u_1_2_xv, hex: '2213'},"
        " {unit: u_2_2_xv, hex: '2207'}]");
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "2413"));   // bridge on the creek hexside 2413|2513
  EXPECT_FALSE(p.InEnemyZoc(kUnion, "2412"));  // creek hexside 2412|2513, no crossing
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "2407"));   // ford on the creek hexside 2407|2507
  EXPECT_FALSE(p.InEnemyZoc(kUnion, "2406"));  // creek hexside 2406|2507, no crossing
  // Both ways: the Confederate units are in the ZOC of Union units across the crossings.
  p.Ok("{move: [u_1_2_xv], path: ['2313', '2413']}");
  EXPECT_TRUE(p.InEnemyZoc(kConfederate, "2513"));
  p.Refused("{move: [u_2_2_xv], path: ['2307', '2407', '2408']}", "5.0");  // stops on entering at the ford
}

TEST(Rules, Rule_5_4_EliminatedUnitZocCeases) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '1915'},"
        " {unit: c_smith, hex: '2014'}]");
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "1914"));
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv, u_1_2_xv], target: ['2014']}", {1});  // 17:5 = 3:1, 1 = DE
  EXPECT_EQ(p.Where("c_smith"), "eliminated");
  EXPECT_FALSE(p.InEnemyZoc(kUnion, "1914"));
}

// --- 6.0 Stacking --------------------------------------------------------------------

TEST(Rules, Rule_6_0_TwoUnitsAtTheEndOfMovementAnyNumberPassing) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: u_2_2_xv, hex: '1914'}, {unit: u_1_4_xv, hex: '1814'},"
        " {unit: c_smith, hex: '2628'}]");
  p.Refused("{move: [u_1_4_xv], path: ['1914']}", "6.0");
  p.Ok("{move: [u_1_4_xv], path: ['1914', '2014']}");
}

TEST(Rules, Rule_8_52_RetreatIntoFullHexDisplacesAUnit) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: c_smith, hex: '2014'},"
        " {unit: c_polk, hex: '2114'}, {unit: c_wright, hex: '2114'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014']}", {1});  // 12:5 = 2:1, 1 = DR
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  p.Ok("{retreat: [c_smith], path: ['2114']}");
  EXPECT_EQ(p.Where("c_smith"), "2114");
  // The owner displaces one of the other units to an adjacent hex.
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  EXPECT_EQ(p.s().decision_side, kConfederate);
  p.Refused("{retreat: [c_smith], path: ['2214']}", "8.52");  // not the unit that retreated
  p.Refused("{retreat: [c_polk], path: ['2014']}", "8.52");   // 2014 is in the Union ZOC
  p.Ok("{retreat: [c_polk], path: ['2214']}");
  EXPECT_EQ(p.Where("c_polk"), "2214");
  EXPECT_EQ(p.Where("c_wright"), "2114");
  EXPECT_TRUE(p.EventWithRule("8.52"));
}

// --- 7.0 Movement --------------------------------------------------------------------

TEST(Rules, Rule_7_1_EachUnitMovesOncePerPhase) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2628'}]");
  p.Ok("{move: [u_1_2_xv], path: ['1813']}");
  p.Refused("{move: [u_1_2_xv], path: ['1812']}", "7.0");
}

TEST(Rules, Rule_7_2_NotEnoughMovementPoints) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1915'}, {unit: c_smith, hex: '2628'}]");
  p.Refused("{move: [u_1_2_xv], path: ['1916', '1917', '2017']}", "7.2");  // forest 3 + 3 + clear 1 > 6
  p.Ok("{move: [u_1_2_xv], path: ['1916', '1917']}");
}

TEST(Rules, Rule_7_3_CostsAreCumulativeStreamPlusForest) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_1_xv, hex: '0625'}, {unit: c_smith, hex: '2628'}]");
  const size_t before = p.session->events().size();
  p.Ok("{move: [u_1_1_xv], path: ['0725']}");
  int cost = -1;
  for (size_t i = before; i < p.session->events().size(); ++i) {
    if (p.session->events()[i].type == EventType::kMove) cost = p.session->events()[i].a;
  }
  EXPECT_EQ(cost, 10);  // half points: 2 (stream) + 3 (forest) = 5 MP
}

TEST(Rules, Rule_7_4_MinimumOneHex) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_1_xv, hex: '1323'}, {unit: u_2_2_xv, hex: '1323'}, {unit: c_smith, hex: '2628'}]");
  // Stream + forest + rough costs more than 6 MP: one hex is always possible...
  p.Ok("{move: [u_1_1_xv], path: ['1223']}");
  // ...but not two.
  EXPECT_FALSE(p.Do("{move: [u_2_2_xv], path: ['1223', '1224']}").ok());
}

TEST(Rules, Rule_7_5_RoadsOneAndTrailsTwoAlongThem) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1813'}, {unit: u_2_2_xv, hex: '1222'}, {unit: c_smith, hex: '0101'}]");
  // Harrison road: five hexes, the last up Missionary Ridge (rough), 1 MP each.
  p.Ok("{move: [u_1_2_xv], path: ['1913', '2013', '2113', '2213', '2313']}");
  // Lookout Mountain trail: 2 MP a hex through forest + rough (6 MP off the trail), three hexes = 6 MP.
  p.Ok("{move: [u_2_2_xv], path: ['1223', '1124', '1125']}");
  int last_cost = -1;
  for (const Event& e : p.session->events()) {
    if (e.type == EventType::kMove) last_cost = e.a;
  }
  EXPECT_EQ(last_cost, 12);
}

// --- 8.0 Combat ---------------------------------------------------------------------

TEST(Rules, Rule_8_0_AttacksAreMandatory) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2014'}]");
  p.Refused("end", "8.0");
  p.Ok("{attack: [u_1_2_xv], target: ['2014']}", {2});  // 1:1, 2 = DR
  if (p.s().decision == DecisionType::kRetreat) p.Ok("{retreat: [c_smith], path: ['2115']}");
  if (p.s().decision == DecisionType::kAdvance) p.Ok("{advance: []}");
  p.Ok("end");
}

// Plays out the follow-up of a combat: the first listed retreat of each unit, no advance.
void FinishCombat(Pos& p) {
  for (int guard = 0; guard < 10; ++guard) {
    if (p.s().decision == DecisionType::kRetreat) {
      const std::vector<Action> legal = p.session->LegalActions();
      ASSERT_FALSE(legal.empty());
      ASSERT_TRUE(p.session->Apply(legal.front()).ok());
    } else if (p.s().decision == DecisionType::kAdvance) {
      p.Ok("{advance: []}");
    } else {
      return;
    }
  }
}

// 8.0: "All of the phasing player's units which are in enemy ZOC's must attack":
// one unit's attack does not let another unit in an enemy ZOC off.
TEST(Rules, Rule_8_0_EveryPhasingUnitInAnEnemyZocMustAttack) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2014'},"
        " {unit: u_2_2_xv, hex: '1910'}, {unit: c_polk, hex: '2010'}]");
  p.Refused("end", "8.0");
  p.Ok("{attack: [u_1_2_xv], target: ['2014']}", {2});  // DR at 1:1 or 1:2
  FinishCombat(p);
  p.Refused("end", "8.0");  // 2/2/XV, in Polk's ZOC, has not attacked
  p.Ok("{attack: [u_2_2_xv], target: ['2010']}", {2});
  FinishCombat(p);
  p.Ok("end");
}

// 8.0: "All enemy units in friendly ZOC's must be attacked": attacking one of two
// adjacent enemy hexes does not let the other off while a unit can still attack it.
TEST(Rules, Rule_8_0_EveryEnemyUnitInAFriendlyZocMustBeAttacked) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '2114'}, {unit: c_smith, hex: '2014'},"
        " {unit: c_polk, hex: '2013'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['2014']}", {2});  // 6:5 = 1:1, 2 = DR
  FinishCombat(p);
  p.Refused("end", "8.0");  // Polk (2013) is in the ZOC of 1/2/XV, which may still attack it
  p.Ok("{attack: [u_1_2_xv], target: ['2013']}", {2});
  FinishCombat(p);
  p.Ok("end");
}

// 8.0 as a whole phase: an attack that would leave an obligation impossible to meet
// is refused with 8.0; the player can still put more hexes (8.43) or more units in
// the one attack.
TEST(Rules, Rule_8_0_AttackLeavingAnObligationUnmeetableIsRefused) {
  // One unit next to two enemy hexes: attacking one leaves the other unattackable.
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: c_smith, hex: '2014'}, {unit: c_polk, hex: '2013'}]");
  p.Refused("{attack: [u_1_3_iv], target: ['2014']}", "8.0");
  p.Ok("{attack: [u_1_3_iv], target: ['2013', '2014']}", {2});
  FinishCombat(p);
  p.Ok("end");
  // Two units in the ZOC of one enemy: one attacking alone leaves the other owing an
  // attack it cannot make (8.41); they attack together.
  Pos q("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1915'}, {unit: c_smith, hex: '2014'}]");
  q.Refused("{attack: [u_1_3_iv], target: ['2014']}", "8.0");
  q.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014']}", {2});
  FinishCombat(q);
  q.Ok("end");
}

// 8.0: the combat phase does not end while an obligation can still be met, by any
// unit that can reach it: here 1/3/IV (1814) attacks Smith (1815) alone and leaves
// Martin (1914), in its ZOC, to Sherman's battery three hexes away (8.7, line of
// sight clear, 8.71). A battery that could not fire alone (8.73: below 1:3) or that
// is adjacent to another enemy (8.7: it must attack that one) does not count, and
// the attack on Smith alone is refused: 1/3/IV attacks both hexes (8.43).
TEST(Rules, Rule_8_0_PhaseCannotEndWhileAnObligationCanBeMet) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1814'}, {unit: c_smith, hex: '1815'}, {unit: c_art_martin, hex: '1914'},"
        " {unit: u_art_sherman, hex: '1911'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['1815']}", {2});  // 6:5 = 1:1, 2 = DR
  FinishCombat(p);
  p.Refused("end", "8.0");  // Martin must be attacked, and Sherman can
  p.Ok("{attack: [u_art_sherman], target: ['1914']}", {1});  // 1:1, 1 = DR
  FinishCombat(p);
  p.Ok("end");
  // 8.73: Sherman (1) alone against Polk (5) is 1:5: it cannot attack him.
  Pos q("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1814'}, {unit: c_smith, hex: '1815'}, {unit: c_polk, hex: '1914'},"
        " {unit: u_art_sherman, hex: '1911'}]");
  q.Refused("{attack: [u_1_3_iv], target: ['1815']}", "8.0");
  q.Ok("{attack: [u_1_3_iv], target: ['1815', '1914']}", {2});  // 6:10 = 1:2, 2 = DR
  FinishCombat(q);
  q.Ok("end");
  // 8.7: XII Corps' battery (1911), adjacent to Wright (1912), must attack Wright.
  Pos r("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1814'}, {unit: c_smith, hex: '1815'}, {unit: c_art_martin, hex: '1914'},"
        " {unit: u_art_xii, hex: '1911'}, {unit: c_wright, hex: '1912'}]");
  r.Refused("{attack: [u_1_3_iv], target: ['1815']}", "8.0");
  r.Refused("{attack: [u_art_xii], target: ['1914']}", "8.7");
}

// 8.0's exceptions that are Blue & Gray's (what the core's obligation hooks
// MustAttack / MustBeAttacked return): an ineffective unit owes no attack (10.0: it
// may not attack) and does not make an enemy owed one; a unit whose stack-mate
// attacked another hex owes none (8.42, Rule_8_42_...); a hex holding a unit
// already attacked is owed none (8.41, Rule_8_41_...). Here a defender advances
// next to an ineffective unit that was not in an enemy ZOC at the start of the
// phase: it does not retreat (10.2), owes no attack, and the phase may end.
TEST(Rules, Rule_8_0_IneffectiveUnitOwesNoAttack) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1813', markers: {ineffective: 1}}, {unit: u_1_2_xv, hex: '1914'},"
        " {unit: c_smith, hex: '2014'}]");
  EXPECT_EQ(p.s().decision, DecisionType::kCombat);  // 1813 is in no enemy ZOC: no 10.2 retreat
  p.Ok("{attack: [u_1_2_xv], target: ['2014']}", {4});  // 5:5 = 1:1, 4 = AR
  p.Ok("{retreat: [u_1_2_xv], path: ['1814']}");
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  p.Ok("{advance: [c_smith], target: ['1914']}");
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "1813"));
  EXPECT_TRUE(p.Ineffective("u_1_3_iv"));
  p.Refused("{attack: [u_1_3_iv], target: ['1914']}", "10.0");
  p.Ok("end");
  EXPECT_EQ(p.Where("u_1_3_iv"), "1813");
}

TEST(Rules, Rule_8_1_NineteenAgainstSevenIsTwoToOne) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_3_3_iv, hex: '2013'},"
        " {unit: u_art_sherman, hex: '1915'}, {unit: c_smith, hex: '2014'}, {unit: c_art_calvert, hex: '2014'}]");
  const AttackAnalysis a = p.Analyze("{attack: [u_1_3_iv, u_2_3_iv, u_3_3_iv, u_art_sherman], target: ['2014']}");
  ASSERT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_EQ(a.plan.attack, 19);
  EXPECT_EQ(a.plan.modified_defense, 7);
  EXPECT_EQ(p.rules().ColumnLabel(a.plan.column), "2-1");
}

TEST(Rules, Rule_8_2_RoughDoublesTheDefender) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '2211'}, {unit: c_smith, hex: '2311'}]");
  const AttackAnalysis a = p.Analyze("{attack: [u_1_3_iv], target: ['2311']}");
  ASSERT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_EQ(a.plan.modified_defense, 10);
  EXPECT_EQ(p.rules().ColumnLabel(a.plan.column), "1-2");
}

TEST(Rules, Rule_8_3_ExchangeAttackerChoosesUnitsAtLeastPrintedDefense) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '2013'},"
        " {unit: c_smith, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv, u_1_2_xv], target: ['2014']}", {6});  // 17:5 = 3:1, 6 = EX
  EXPECT_EQ(p.Where("c_smith"), "eliminated");
  ASSERT_EQ(p.s().decision, DecisionType::kLosses);
  EXPECT_EQ(p.s().decision_side, kUnion);
  EXPECT_EQ(p.Legal(ActionType::kLoss), 3);  // any one unit: each is >= 5
  p.Refused("{loss: [u_1_3_iv, u_2_3_iv]}", "8.3");  // more than needed
  p.Ok("{loss: [u_1_2_xv]}");
  EXPECT_EQ(p.Where("u_1_2_xv"), "eliminated");
  EXPECT_EQ(p.Where("u_1_3_iv"), "1914");
  EXPECT_EQ(p.s().vp[kConfederate], 3);
  EXPECT_EQ(p.s().vp[kUnion], 2);
}

TEST(Rules, Rule_8_3_ExchangeNeedsTwoUnitsWhenOneIsNotEnough) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '2013'},"
        " {unit: c_smith, hex: '2014'}, {unit: c_art_calvert, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv, u_1_2_xv], target: ['2014']}", {6});  // 17:7 = 2:1, 6 = AR
  EXPECT_NE(p.s().decision, DecisionType::kLosses);
  Pos q("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_3_3_iv, hex: '2013'},"
        " {unit: u_1_2_xv, hex: '1915'}, {unit: c_smith, hex: '2014'}, {unit: c_art_calvert, hex: '2014'}]");
  q.Ok("{attack: [u_1_3_iv, u_2_3_iv, u_3_3_iv, u_1_2_xv], target: ['2014']}", {6});  // 23:7 = 3:1, EX
  ASSERT_EQ(q.s().decision, DecisionType::kLosses);
  q.Refused("{loss: [u_1_3_iv]}", "8.3");  // 6 < 7
  q.Ok("{loss: [u_1_3_iv, u_1_2_xv]}");    // 11 >= 7, both needed
  EXPECT_EQ(q.Where("u_1_3_iv"), "eliminated");
  EXPECT_EQ(q.Where("u_1_2_xv"), "eliminated");
}

// 1/2/XV (2212) is there to attack Polk (8.0): without it 1/3/IV attacking
// Liddell alone would leave Polk, in its ZOC, with nobody able to attack him.
TEST(Rules, Rule_8_41_EachUnitAttacksOnce) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '2013'}, {unit: c_liddell, hex: '2014'}, {unit: c_polk, hex: '2113'},"
        " {unit: u_1_2_xv, hex: '2212'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['2014']}", {1});  // 6:3 = 2:1, DR
  p.Ok("{retreat: [c_liddell], path: ['2115']}");
  if (p.s().decision == DecisionType::kAdvance) p.Ok("{advance: []}");
  const Status st = p.Do("{attack: [u_1_3_iv], target: ['2113']}");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("already attacked"), std::string::npos);
  EXPECT_EQ(st.error().rule, "8.41");
}

// 8.41 with 8.0: "no unit may be attacked more than once per combat phase", and an
// attack is on every unit of the hex (8.1): a unit that retreated into a friendly
// hex shelters the unit there, which need not (cannot) be attacked. The phase can
// end (it used to stop the game: no attack listed, the end refused).
TEST(Rules, Rule_8_41_UnitStackedWithAnAttackedUnitNeedNotBeAttacked) {
  Pos p("start: {turn: 3, side: confederate, phase: combat}\n"
        "place: [{unit: c_gist, hex: '2503'}, {unit: c_polk, hex: '2504'}, {unit: u_1_4_xv, hex: '2403'},"
        " {unit: u_cav_2, hex: '2404'}]");
  p.Ok("{attack: [c_gist], target: ['2403']}", {1});  // 5 against 5 doubled (creek) = 1:2, 1 = DR
  p.Ok("{retreat: [u_1_4_xv], path: ['2404']}");       // 2404 is beyond the creek from 2504: no ZOC
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  p.Ok("{advance: [c_gist]}");
  // The cavalry at 2404 is now in Gist's ZOC and Polk (2504) could reach it, but
  // 2404 holds 1/4/XV, attacked this phase.
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "2404"));
  p.Refused("{attack: [c_polk], target: ['2404']}", "8.41");
  EXPECT_FALSE(p.session->LegalActions().empty());
  p.Ok("end");
}

// 8.42: "The phasing player may attack with only one of the units if he so
// chooses and not attack at all with the other": 2/3/IV, in Lowrey's ZOC, is
// excused once its stack-mate attacked; Lowrey is still owed an attack (8.0),
// which 1/2/XV (2012) makes.
TEST(Rules, Rule_8_42_StackedUnitsMayNotAttackSeparateHexes) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: c_liddell, hex: '2014'},"
        " {unit: c_lowrey, hex: '2013'}, {unit: u_1_2_xv, hex: '2012'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['2014']}", {1});  // 6:3, DR
  p.Ok("{retreat: [c_liddell], path: ['2115']}");
  if (p.s().decision == DecisionType::kAdvance) p.Ok("{advance: []}");
  p.Refused("{attack: [u_2_3_iv], target: ['2013']}", "8.42");
  p.Refused("end", "8.0");  // Lowrey must still be attacked (and 1/2/XV attack); 2/3/IV owes nothing
  std::vector<HexRules::CombatDuty> duties;
  Context ctx(*p.game, nullptr, nullptr, &p.session->scratch());
  p.rules().CombatDuties(p.s(), ctx, &duties);
  std::set<UnitId> owing;
  for (const HexRules::CombatDuty& d : duties) owing.insert(d.unit);
  EXPECT_EQ(owing, (std::set<UnitId>{p.U("u_1_2_xv"), p.U("c_lowrey")}));
  p.Ok("{attack: [u_1_2_xv], target: ['2013']}", {2});  // 5:5 = 1:1, 2 = DR
  FinishCombat(p);
  // Its stack-mate attacked, so it need not (and may not) attack: the phase may end.
  p.Ok("end");
}

// Smith (2015) gives 1/2/XV, in Liddell's ZOC, an attack of its own (8.0).
TEST(Rules, Rule_8_43_MultiHexAttackNeedsAdjacencyToAll) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '1915'},"
        " {unit: c_liddell, hex: '2014'}, {unit: c_lowrey, hex: '2013'}, {unit: c_smith, hex: '2015'}]");
  const Status all = p.Do("{attack: [u_1_3_iv, u_2_3_iv, u_1_2_xv], target: ['2013', '2014']}");
  EXPECT_FALSE(all.ok());
  EXPECT_NE(all.ToString().find("not adjacent to 2013"), std::string::npos) << all.ToString();
  const AttackAnalysis a = p.Analyze("{attack: [u_1_3_iv, u_2_3_iv], target: ['2013', '2014']}");
  ASSERT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_EQ(a.plan.defense, 8);
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['2013', '2014']}", {4});  // 12:8 = 1:1, 4 = AR
}

TEST(Rules, Rule_8_43_MultiHexAttackDoublesOnlyTheHexThatQualifies) {
  // c_smith in rough 2311 is doubled (8.2); c_lowrey in clear 2210 is not.
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '2211'}, {unit: u_2_3_iv, hex: '2211'},"
        " {unit: c_smith, hex: '2311'}, {unit: c_lowrey, hex: '2210'}]");
  const AttackAnalysis a = p.Analyze("{attack: [u_1_3_iv, u_2_3_iv], target: ['2311', '2210']}");
  ASSERT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_EQ(a.plan.defense, 10);
  EXPECT_EQ(a.plan.modified_defense, 15);  // 5 x 2 + 5
  EXPECT_EQ(p.rules().ColumnLabel(a.plan.column), "1-2");  // 12:15 (12:10 without the rough hex would be 1-1)
}

TEST(Rules, Rule_8_5_RetreatOneHexOrEliminatedWhenBlocked) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: c_smith, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014']}", {1});  // 2:1, DR
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  ASSERT_FALSE(p.session->LegalActions().empty());  // the listing checks every path with quiet refusals
  p.Refused("{retreat: [c_smith], path: ['2013']}", "8.51");  // into the Union ZOC
  // ... and a retreat the player enters is still refused with the reason.
  EXPECT_NE(p.Do("{retreat: [c_smith], path: ['2013']}").error().message.find("enemy zone of control (2013)"),
            std::string::npos);
  p.Refused("{retreat: [c_smith], path: ['2115', '2215']}", "8.5");  // one hex only
  p.Ok("{retreat: [c_smith], path: ['2115']}");
  // The ZOCs of 1/2/XV (2116) and 2/2/XV (2214), not adjacent to Smith (so they
  // owe no attack, 8.0), close 2015, 2114 and 2115; 1914's closes 2013 and 1915.
  Pos q("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '2116'},"
        " {unit: u_2_2_xv, hex: '2214'}, {unit: c_smith, hex: '2014'}]");
  q.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014']}", {1});
  EXPECT_EQ(q.Where("c_smith"), "eliminated");
  EXPECT_EQ(q.s().vp[kUnion], 2);
}

TEST(Rules, Rule_8_51_NoRetreatOffTheMap) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '0102'}, {unit: u_2_3_iv, hex: '0201'}, {unit: c_liddell, hex: '0101'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['0101']}", {2});  // 12:3 = 4:1, 2 = DR
  EXPECT_EQ(p.Where("c_liddell"), "eliminated");
  EXPECT_TRUE(p.EventWithRule("8.5"));
}

TEST(Rules, Rule_8_6_AdvanceOfOneUnit) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '2013'},"
        " {unit: c_smith, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv, u_1_2_xv], target: ['2014']}", {1});  // 3:1, DE
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  EXPECT_FALSE(p.Do("{advance: [u_1_3_iv, u_2_3_iv]}").ok());
  p.Ok("{advance: [u_1_3_iv]}");
  EXPECT_EQ(p.Where("u_1_3_iv"), "2014");
  EXPECT_FALSE(p.s().unit(p.U("u_1_3_iv")).Has(kUnitMoved));  // 17.13: not part of the quota
}

TEST(Rules, Rule_8_6_DefenderAdvancesIntoHexTheAttackersLeft) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: c_smith, hex: '2014'}, {unit: c_polk, hex: '2115'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['2014']}", {4});  // 6:5 = 1:1, 4 = AR
  p.Ok("{retreat: [u_1_3_iv], path: ['1814']}");
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  EXPECT_EQ(p.s().decision_side, kConfederate);
  p.Refused("{advance: [c_polk], target: ['1914']}", "8.6");  // did not defend
  p.Ok("{advance: [c_smith], target: ['1914']}");
  EXPECT_EQ(p.Where("c_smith"), "1914");
  EXPECT_EQ(p.s().decision, DecisionType::kCombat);
}

// 8.6: "if more than one hex is cleared of enemy units, the advance is still
// limited to one unit": the unit goes into the cleared hex its player names.
TEST(Rules, Rule_8_6_AdvancingUnitGoesIntoTheClearedHexItsPlayerNames) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '2114'},"
        " {unit: c_liddell, hex: '2013'}, {unit: c_art_martin, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv, u_1_2_xv], target: ['2013', '2014']}", {1});  // 17:4 = 4:1, 1 = DE
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  EXPECT_EQ(p.Legal(ActionType::kAdvance), 1 + 3 * 2);  // decline, or each attacker into either hex
  p.Refused("{advance: [u_1_3_iv]}", "8.6");                   // which hex?
  p.Refused("{advance: [u_1_3_iv], target: ['1915']}", "8.6");  // not a cleared hex
  p.Refused("{advance: [u_1_3_iv, u_2_3_iv], target: ['2014']}", "8.6");  // one unit
  p.Ok("{advance: [u_1_3_iv], target: ['2014']}");
  EXPECT_EQ(p.Where("u_1_3_iv"), "2014");
  EXPECT_EQ(p.s().decision, DecisionType::kCombat);
  EXPECT_EQ(p.Legal(ActionType::kAdvance), 0);  // still one unit in all
}

TEST(Rules, Rule_8_7_ArtilleryAttacksWithinThreeHexes) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '1911'}, {unit: u_art_xi, hex: '1910'}, {unit: c_art_martin, hex: '1914'}]");
  EXPECT_FALSE(p.Do("{attack: [u_art_xi], target: ['1914']}").ok());  // four hexes
  p.Ok("{attack: [u_art_sherman], target: ['1914']}", {1});  // three hexes, 1:1, DR
}

TEST(Rules, Rule_8_7_AdjacentArtilleryMustAttackTheAdjacentEnemy) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_xii, hex: '1911'}, {unit: c_smith, hex: '1912'}, {unit: c_art_martin, hex: '1914'}]");
  p.Refused("{attack: [u_art_xii], target: ['1914']}", "8.7");
  p.Refused("end", "8.0");
  p.Ok("{attack: [u_art_xii], target: ['1912']}", {3});  // 4:5 = 1:2, 3 = AR
}

TEST(Rules, Rule_8_71_LineOfSightBlockedByForestAndTown) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '2011'}, {unit: u_art_xi, hex: '1311'}, {unit: c_art_martin, hex: '2014'},"
        " {unit: c_art_cobb, hex: '1314'}, {unit: u_art_xii, hex: '1911'}, {unit: c_art_corput, hex: '1914'}]");
  // 2011 -> 2014 crosses the forest hex 2012; 1311 -> 1314 crosses the town.
  EXPECT_FALSE(p.Do("{attack: [u_art_sherman], target: ['2014']}").ok());
  EXPECT_FALSE(p.Do("{attack: [u_art_xi], target: ['1314']}").ok());
  // The artillery's own (forest) hex and the target's never block: 1911 -> 1914 is clear.
  p.Ok("{attack: [u_art_xii], target: ['1914']}", {3});
}

TEST(Rules, Rule_8_71_AlongHexsideBlockedOnlyIfBothHexesBlock) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_xii, hex: '1916'}, {unit: c_art_martin, hex: '2116'}, {unit: u_art_xi, hex: '1915'},"
        " {unit: c_art_cobb, hex: '2115'}]");
  // 1916 -> 2116 runs along the hexside 2015|2016 (both forest): blocked.
  EXPECT_FALSE(p.Do("{attack: [u_art_xii], target: ['2116']}").ok());
  // 1915 -> 2115 runs along 2014|2015 (only 2015 is forest): clear.
  p.Ok("{attack: [u_art_xi], target: ['2115']}", {3});
}

// 8.71: an artillery attack at range refused for its line of sight cites 8.71
// (out of range it is 8.7's "within three hexes").
TEST(Rules, Rule_8_71_BlockedLineOfSightRefusalCitesIt) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '2011'}, {unit: u_art_xi, hex: '1311'}, {unit: c_art_martin, hex: '2014'},"
        " {unit: c_art_cobb, hex: '1314'}, {unit: u_art_xii, hex: '1910'}]");
  p.Refused("{attack: [u_art_sherman], target: ['2014']}", "8.71");  // across the forest hex 2012
  p.Refused("{attack: [u_art_xi], target: ['1314']}", "8.71");       // across the town
  p.Refused("{attack: [u_art_xii], target: ['2014']}", "8.7");       // four hexes
  EXPECT_EQ(p.Legal(ActionType::kAttack), 0);
}

TEST(Rules, Rule_8_72_NonAdjacentArtilleryNeverSuffers) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '1911'}, {unit: u_1_2_xv, hex: '1814'}, {unit: c_polk, hex: '1914'},"
        " {unit: c_wright, hex: '1914'}]");
  p.Ok("{attack: [u_art_sherman, u_1_2_xv], target: ['1914']}", {6});  // 6:9 = 1:2, 6 = AE
  EXPECT_EQ(p.Where("u_1_2_xv"), "eliminated");
  EXPECT_EQ(p.Where("u_art_sherman"), "1911");
}

TEST(Rules, Rule_8_73_ArtilleryAloneAtOneToThreeOrBetter) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '1911'}, {unit: c_polk, hex: '1914'}]");
  p.Refused("{attack: [u_art_sherman], target: ['1914']}", "8.73");  // 1:5
  Pos q("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_xii, hex: '1911'}, {unit: c_polk, hex: '1914'}]");
  q.Ok("{attack: [u_art_xii], target: ['1914']}", {3});  // 4:5 = 1:2
}

// 8.73 with 8.0 and 8.41: a battery attacks once, so it is left an owed hex only if
// it may fire alone at all the enemy hexes it could be left together (in range and
// sight, not yet attacked, next to a friendly unit): Sherman (1) faces Martin (1)
// and Liddell (3, next to 2/3/IV), 1:4, so 1/3/IV may not leave Martin to him;
// once Liddell has been attacked, Sherman faces Martin alone (1:1) and may be.
TEST(Rules, Rule_8_73_ABatteryIsLeftOnlyWhatItCanFireAtInOneAttack) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1814'}, {unit: c_smith, hex: '1815'}, {unit: c_art_martin, hex: '1914'},"
        " {unit: u_art_sherman, hex: '1911'}, {unit: c_liddell, hex: '1710'}, {unit: u_2_3_iv, hex: '1610'}]");
  p.Refused("{attack: [u_1_3_iv], target: ['1815']}", "8.0");
  p.Ok("{attack: [u_2_3_iv], target: ['1710']}", {1});  // 6:3 = 2:1, 1 = DR
  FinishCombat(p);
  p.Ok("{attack: [u_1_3_iv], target: ['1815']}", {2});  // 6:5 = 1:1, 2 = DR
  FinishCombat(p);
  p.Refused("end", "8.0");
  p.Ok("{attack: [u_art_sherman], target: ['1914']}", {1});  // 1:1, 1 = DR
  FinishCombat(p);
  p.Ok("end");
}

TEST(Rules, Rule_8_74_ArtilleryInRangeOfOneDefendingHex) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_art_xii, hex: '2112'}, {unit: c_liddell, hex: '2014'},"
        " {unit: c_lowrey, hex: '1915'}]");
  // 2112 is three hexes from 2014 and four from 1915: in range of one hex is enough.
  const AttackAnalysis a = p.Analyze("{attack: [u_1_3_iv, u_art_xii], target: ['2014', '1915']}");
  EXPECT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_EQ(a.plan.attack, 10);
}

TEST(Rules, Rule_8_75_ArtilleryMayNotAdvance) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '1914'}, {unit: u_1_3_iv, hex: '2013'}, {unit: u_2_3_iv, hex: '2115'},"
        " {unit: c_liddell, hex: '2014'}]");
  p.Ok("{attack: [u_art_sherman, u_1_3_iv, u_2_3_iv], target: ['2014']}", {1});  // 13:3 = 4:1, DE
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  EXPECT_FALSE(p.Do("{advance: [u_art_sherman]}").ok());
  p.Ok("{advance: [u_1_3_iv]}");
}

TEST(Rules, Rule_8_76_ArtilleryDoesNotAffectStreamModifier) {
  // Polk (0826) gives 1/2/XV an attack of its own while 1/1/XV attacks Smith
  // alone, and 2/2/XV (0927) attacks Polk when 1/2/XV joins 1/1/XV (8.0).
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_1_xv, hex: '0625'}, {unit: u_art_sherman, hex: '0425'}, {unit: c_smith, hex: '0725'},"
        " {unit: u_1_2_xv, hex: '0726'}, {unit: c_polk, hex: '0826'}, {unit: u_2_2_xv, hex: '0927'}]");
  const AttackAnalysis alone = p.Analyze("{attack: [u_1_1_xv], target: ['0725']}");
  ASSERT_TRUE(alone.status.ok()) << alone.status.ToString();
  EXPECT_EQ(alone.plan.modified_defense, 10);  // across the stream: doubled
  const AttackAnalysis with_art = p.Analyze("{attack: [u_1_1_xv, u_art_sherman], target: ['0725']}");
  ASSERT_TRUE(with_art.status.ok()) << with_art.status.ToString();
  EXPECT_EQ(with_art.plan.modified_defense, 10);
  const AttackAnalysis not_across = p.Analyze("{attack: [u_1_1_xv, u_1_2_xv], target: ['0725']}");
  ASSERT_TRUE(not_across.status.ok());
  EXPECT_EQ(not_across.plan.modified_defense, 5);
}

TEST(Rules, Rule_8_8_VoluntaryOddsReduction) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: c_liddell, hex: '2014'}]");
  const AttackAnalysis full = p.Analyze("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014']}");
  EXPECT_EQ(p.rules().ColumnLabel(full.plan.column), "4-1");
  const AttackAnalysis reduced = p.Analyze("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014'], value: -2}");
  ASSERT_TRUE(reduced.status.ok());
  EXPECT_EQ(p.rules().ColumnLabel(reduced.plan.column), "2-1");
  p.Refused("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014'], value: 1}", "8.8");
}

// --- 9.0 Night ----------------------------------------------------------------------------

TEST(Rules, Rule_9_0_NightNoCombatAndNoEnteringZoc) {
  Pos p("start: {turn: 5, side: confederate, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2215'}]");
  p.Refused("{move: [c_smith], path: ['2115', '2014']}", "9.0");
  p.Ok("{move: [c_smith], path: ['2115']}");
  p.Ok("end");  // no combat phase at night: on to turn 6
  EXPECT_EQ(p.s().turn, 6);
  EXPECT_EQ(p.s().phasing_side, kUnion);
  EXPECT_EQ(p.s().decision, DecisionType::kMovement);
}

// 9.0 on the combat step (StepDef::applies): at night the phase does not happen, so
// nothing of it does (10.2: an ineffective unit in an enemy ZOC retreats "at the
// beginning of its side's combat phase"; at night there is none, so it stays).
TEST(Rules, Rule_9_0_NightTurnHasNoCombatPhaseAndNoIneffectiveUnitRetreats) {
  Pos p("start: {turn: 5, side: confederate, phase: movement}\n"
        "place: [{unit: u_1_3_iv, hex: '2410'}, {unit: c_smith, hex: '2510', markers: {ineffective: 1}}]");
  const int16_t hex = p.s().unit(p.U("c_smith")).hex;
  const size_t from = p.session->events().size();
  p.Ok("end");
  EXPECT_EQ(p.s().turn, 6);
  EXPECT_EQ(p.s().decision, DecisionType::kMovement);
  EXPECT_EQ(p.s().unit(p.U("c_smith")).hex, hex);
  const StepKind combat = p.game->rules->steps().Find("combat");
  ASSERT_NE(combat, kNoStep);
  State night = p.s();
  night.turn = 5;
  EXPECT_FALSE(p.game->rules->steps().Def(combat).applies(night));
  night.turn = 4;
  EXPECT_TRUE(p.game->rules->steps().Def(combat).applies(night));
  int phase_starts = 0;  // the next one is turn 6's movement phase
  for (size_t i = from; i < p.session->events().size(); ++i) {
    const Event& e = p.session->events()[i];
    if (e.type == EventType::kPhaseStart) {
      ++phase_starts;
      EXPECT_EQ(std::string(e.text), "movement");
    }
  }
  EXPECT_EQ(phase_starts, 1);
}

// --- 10.0 Attacker effectiveness ---------------------------------------------------------

TEST(Rules, Rule_10_0_AttackerRetreatMakesUnitIneffective) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: c_smith, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['2014']}", {4});  // 6:5 = 1:1, 4 = AR
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  p.Ok("{retreat: [u_1_3_iv], path: ['1814']}");
  EXPECT_TRUE(p.Ineffective("u_1_3_iv"));
  Pos q("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '2410', markers: {ineffective: 1}}, {unit: c_smith, hex: '2510'}]");
  q.Refused("{attack: [u_1_3_iv], target: ['2510']}", "10.0");
}

TEST(Rules, Rule_10_1_DefendersDoNotLoseEffectiveness) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_2_3_iv, hex: '1914'}, {unit: c_smith, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['2014']}", {1});  // DR
  p.Ok("{retreat: [c_smith], path: ['2115']}");
  EXPECT_FALSE(p.Ineffective("c_smith"));
}

TEST(Rules, Rule_10_2_IneffectiveUnitsRetreatFromZocAndMayNotEnterOne) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914', markers: {ineffective: 1}}, {unit: c_smith, hex: '2014'}]");
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  EXPECT_EQ(TopStep(p.s())->args[0], p.U("u_1_3_iv"));
  p.Ok("{retreat: [u_1_3_iv], path: ['1813']}");
  EXPECT_EQ(p.s().decision, DecisionType::kCombat);
  EXPECT_EQ(p.Legal(ActionType::kAdvance), 0);
  Pos q("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_3_iv, hex: '1814', markers: {ineffective: 1}}, {unit: c_smith, hex: '2014'}]");
  q.Refused("{move: [u_1_3_iv], path: ['1914']}", "10.2");
  q.Ok("{move: [u_1_3_iv], path: ['1813']}");
}

// 10.2: "ineffective units may not enter enemy ZOC's" by any means: not by the
// defender's advance into the hex its attackers left either.
TEST(Rules, Rule_10_2_IneffectiveUnitMayNotAdvanceIntoEnemyZoc) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1914'}, {unit: u_1_2_xv, hex: '1813'},"
        " {unit: c_smith, hex: '2014', markers: {ineffective: 1}}, {unit: c_polk, hex: '2014'}]");
  p.Ok("{attack: [u_1_3_iv], target: ['2014']}", {4});  // 6:10 = 1:2, 4 = AR
  p.Ok("{retreat: [u_1_3_iv], path: ['1814']}");
  // 1914 is in the ZOC of the Union units at 1813 and 1814.
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  EXPECT_EQ(p.s().decision_side, kConfederate);
  EXPECT_EQ(p.Legal(ActionType::kAdvance), 2);  // decline, or Polk
  p.Refused("{advance: [c_smith], target: ['1914']}", "10.2");
  p.Ok("{advance: [c_polk], target: ['1914']}");
  EXPECT_EQ(p.Where("c_smith"), "2014");
  EXPECT_EQ(p.Where("c_polk"), "1914");
}

TEST(Rules, Rule_10_3_ArtilleryAtRangeKeepsEffectiveness) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_art_sherman, hex: '1911'}, {unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '1914'}]");
  p.Ok("{attack: [u_art_sherman, u_1_2_xv], target: ['1914']}", {4});  // 6:5 = 1:1, AR
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  EXPECT_EQ(TopStep(p.s())->args[0], p.U("u_1_2_xv"));
  EXPECT_TRUE(p.Ineffective("u_1_2_xv"));
  EXPECT_FALSE(p.Ineffective("u_art_sherman"));
}

TEST(Rules, Rule_10_4_EffectiveAgainAfterNightTurn) {
  Pos p("start: {turn: 5, side: confederate, phase: movement}\n"
        "place: [{unit: u_1_3_iv, hex: '1814', markers: {ineffective: 1}}, {unit: c_smith, hex: '2628',"
        " markers: {ineffective: 1}}]");
  EXPECT_TRUE(p.Ineffective("u_1_3_iv"));
  p.Ok("end");
  EXPECT_EQ(p.s().turn, 6);
  EXPECT_FALSE(p.Ineffective("u_1_3_iv"));
  EXPECT_FALSE(p.Ineffective("c_smith"));
}

// --- 11.0 Other rules ------------------------------------------------------------------------

TEST(Rules, Rule_11_1_StrategicMovementAllowedInChattanooga) {
  const std::string path = "['1813', '1812', '1811', '1810', '1809', '1808', '1807', '1806', '1805']";
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2628'}]");
  p.Refused("{move: [u_1_2_xv], path: " + path + "}", "7.2");  // 9 MP > 6
  p.Ok("{move: [u_1_2_xv], path: " + path + ", value: 1}");   // 6 + 3
  EXPECT_EQ(p.Where("u_1_2_xv"), "1805");
  Pos q("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2108'}]");
  q.Refused("{move: [u_1_2_xv], path: " + path + ", value: 1}", "11.1");  // 1808 is 3 hexes from 2108
  Pos r("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2114'}]");
  r.Refused("{move: [u_1_2_xv], path: ['1813'], value: 1}", "11.1");  // starts 3 hexes from an enemy
}

TEST(Rules, Rule_11_2_CavalryRetreatsTwoHexesBeforeCombat) {
  Pos p("start: {turn: 3, side: confederate, phase: combat}\n"
        "place: [{unit: u_cav_2, hex: '1914'}, {unit: c_polk, hex: '2014'}]");
  p.Ok("{attack: [c_polk], target: ['1914']}");
  ASSERT_EQ(p.s().decision, DecisionType::kChoice);
  EXPECT_EQ(p.s().decision_side, kUnion);
  p.Ok("{choose: 1}");
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  p.Refused("{retreat: [u_cav_2], path: ['1813']}", "8.5");
  p.Ok("{retreat: [u_cav_2], path: ['1813', '1812']}");
  ASSERT_EQ(p.s().decision, DecisionType::kAdvance);
  p.Ok("{advance: [c_polk]}");
  EXPECT_EQ(p.Where("c_polk"), "1914");
  EXPECT_EQ(p.Where("u_cav_2"), "1812");
  // Standing instead: the attack is resolved.
  Pos q("start: {turn: 3, side: confederate, phase: combat}\n"
        "place: [{unit: u_cav_2, hex: '1914'}, {unit: c_polk, hex: '2014'}]");
  q.Ok("{attack: [c_polk], target: ['1914']}");
  q.Ok("{choose: 0}", {6});  // 5:6 = 1:2, 6 = AE
  EXPECT_EQ(q.Where("c_polk"), "eliminated");
}

// 11.2: while the cavalry chooses, the attack is the cavalry_retreat step's (the action it
// holds), not the ruleset's: nothing of it is left in BgExt, and it goes when the step ends.
TEST(Rules, Rule_11_2_TheCavalrysStepHoldsTheAttackUntilItChooses) {
  Pos p("start: {turn: 3, side: confederate, phase: combat}\n"
        "place: [{unit: u_cav_2, hex: '1914'}, {unit: c_polk, hex: '2014'}]");
  p.Ok("{attack: [c_polk], target: ['1914']}");
  const StepTable& t = p.game->rules->steps();
  ASSERT_EQ(t.Def(TopKind(p.s())).name, "cavalry_retreat");
  EXPECT_TRUE(t.Def(TopKind(p.s())).holds_action);
  ASSERT_TRUE(HoldsAction(p.s()));
  State copy = p.s();
  const Action held = TakeHeldAction(copy, t);
  EXPECT_EQ(held, *ParseActionText(*p.game, "{attack: [c_polk], target: ['1914']}"));
  EXPECT_FALSE(HoldsAction(copy));
  const BgExt& x = Ext<BgExt>(p.s());
  EXPECT_EQ(x.legacy_pending, Action{});
  ErrorList errors;
  CheckStepStack(t, p.s(), &errors);
  EXPECT_TRUE(errors.ok()) << errors.ToString();
  // Another choice is refused and changes nothing; the attack stays held.
  const State before = p.s();
  p.Refused("{choose: 2}", "11.2");
  EXPECT_TRUE(p.s().Equals(before));
  p.Ok("{choose: 0}", {6});
  EXPECT_FALSE(HoldsAction(p.s()));
  CheckStepStack(t, p.s(), &errors);
  EXPECT_TRUE(errors.ok()) << errors.ToString();
}

// --- 14.0-20.0 Chattanooga ---------------------------------------------------------------------

TEST(Rules, Rule_14_0_InitialDeployment) {
  Pos p("", /*only_placed=*/false);
  const Game& g = *p.game;
  int on_map[2] = {0, 0};
  for (int i = 0; i < p.s().num_units; ++i) {
    if (p.s().units[static_cast<size_t>(i)].OnMap()) ++on_map[p.s().units[static_cast<size_t>(i)].side];
  }
  EXPECT_EQ(on_map[kUnion], 38);
  EXPECT_EQ(on_map[kConfederate], 36);
  EXPECT_EQ(p.Where("u_1_2_xv"), "1704");
  EXPECT_EQ(p.Where("u_art_sherman"), "1304");
  EXPECT_EQ(g.kinds[static_cast<size_t>(g.units[static_cast<size_t>(p.U("u_art_sherman"))].kind)].id, "artillery");
  EXPECT_EQ(g.kinds[static_cast<size_t>(g.units[static_cast<size_t>(p.U("u_cav_2"))].kind)].id, "cavalry");
  EXPECT_EQ(p.Where("c_polk"), "2305");
  EXPECT_EQ(p.Where("c_wright"), "2305");
  EXPECT_EQ(p.Where("c_art_calvert"), "2207");
  EXPECT_EQ(p.Where("u_1_2_xii"), "offmap");
  EXPECT_EQ(g.Printed(p.s(), p.U("c_art_calvert"), g.AttributeIndex("strength")), 2);
  EXPECT_EQ(p.s().phasing_side, kUnion);  // 14.31
  EXPECT_EQ(g.turns.num_turns(), 10);     // 14.32
  EXPECT_TRUE(g.turns.turns[4].night);
}

TEST(Rules, Rule_15_0_ReinforcementsEnterOnTurnTwo) {
  Pos p("start: {turn: 2, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xii, hex: offmap}, {unit: u_2_2_xii, hex: offmap}, {unit: c_smith, hex: '2628'}]");
  p.Refused("{enter: [u_1_2_xii], path: ['0426']}", "15.0");  // not an entry hex
  p.Ok("{enter: [u_1_2_xii], path: ['0528']}");
  EXPECT_EQ(p.Where("u_1_2_xii"), "0528");
  Pos q("start: {turn: 1, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xii, hex: offmap}, {unit: c_smith, hex: '2628'}]");
  q.Refused("{enter: [u_1_2_xii], path: ['0528']}", "15.0");
}

TEST(Rules, Rule_15_13_EntryHexCostsMovementPoints) {
  Pos p("start: {turn: 2, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xii, hex: offmap}, {unit: u_2_2_xii, hex: offmap}, {unit: c_smith, hex: '2628'}]");
  // Along the road: the entry hex costs 1 MP, so six hexes in all, not seven.
  p.Refused("{enter: [u_1_2_xii], path: ['0528', '0527', '0526', '0525', '0524', '0523', '0522']}", "7.2");
  p.Ok("{enter: [u_1_2_xii], path: ['0528', '0527', '0526', '0525', '0524', '0523']}");
}

TEST(Rules, Rule_15_15_StackingWhenEntering) {
  Pos p("start: {turn: 2, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xii, hex: offmap}, {unit: u_1_2_xv, hex: '0528'}, {unit: u_2_2_xv, hex: '0528'},"
        " {unit: c_smith, hex: '2628'}]");
  p.Refused("{enter: [u_1_2_xii], path: ['0528']}", "6.0");
  p.Ok("{enter: [u_1_2_xii], path: ['0528', '0527']}");  // passing through is allowed
}

TEST(Rules, Rule_15_12_ReinforcementsThatCannotEnterAreEliminated) {
  Pos p("start: {turn: 2, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xii, hex: offmap}, {unit: u_2_2_xii, hex: offmap}, {unit: u_3_2_xii, hex: offmap},"
        " {unit: c_smith, hex: '0427'}]");
  p.Refused("{enter: [u_1_2_xii], path: ['0427']}", "15.12");
  p.Ok("{enter: [u_1_2_xii], path: ['0728']}");
  p.Ok("end");
  EXPECT_EQ(p.Where("u_2_2_xii"), "eliminated");
  EXPECT_EQ(p.Where("u_3_2_xii"), "eliminated");
  EXPECT_EQ(p.Where("u_1_2_xii"), "0728");
  EXPECT_EQ(p.s().vp[kConfederate], 6);  // counted as Union units eliminated (20.11)
}

TEST(Rules, Rule_16_11_UnionArtilleryMayNotMoveExceptSherman) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_art_xi, hex: '1514'}, {unit: u_art_sherman, hex: '1304'}, {unit: c_smith, hex: '2628'}]");
  p.Refused("{move: [u_art_xi], path: ['1515']}", "16.11");
  p.Ok("{move: [u_art_sherman], path: ['1204']}");  // 16.13
  Pos q("start: {turn: 3, side: confederate, phase: combat}\n"
        "place: [{unit: u_art_xii, hex: '1914'}, {unit: c_polk, hex: '2014'}, {unit: c_wright, hex: '2014'}]");
  q.Ok("{attack: [c_polk, c_wright], target: ['1914']}", {1});  // 9:4 = 2:1, DR
  EXPECT_EQ(q.Where("u_art_xii"), "eliminated");  // forced to retreat: eliminated instead
  EXPECT_EQ(q.s().vp[kConfederate], 3);
}

namespace {
std::string ManyUnits(int n, int first_row) {
  static const char* kIds[] = {"u_1_2_xv", "u_2_2_xv", "u_1_2_xvii", "u_2_2_xvii", "u_3_2_xvii", "u_1_4_xv",
                               "u_2_4_xv", "u_1", "u_1_3_xi", "u_1_3_iv", "u_2_3_iv", "u_3_3_iv",
                               "u_1_1_xiv", "u_2_1_xiv", "u_2_3_xi", "u_1_2_xi", "u_1_2_iv", "u_2_2_iv",
                               "u_3_1_xiv", "u_2_2_xi"};
  std::string out;
  for (int i = 0; i < n; ++i) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "18%02d", first_row + i);
    out += std::string(", {unit: ") + kIds[i] + ", hex: '" + hex + "'}";
  }
  return out;
}
std::string MoveEast(const std::string& id, int row) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "19%02d", row);
  return "{move: [" + id + "], path: ['" + hex + "']}";
}
}  // namespace

TEST(Rules, Rule_17_11_UnionMovesAtMostElevenUnits) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: c_smith, hex: '0128'}" + ManyUnits(12, 4) + "]");
  static const char* kIds[] = {"u_1_2_xv", "u_2_2_xv", "u_1_2_xvii", "u_2_2_xvii", "u_3_2_xvii", "u_1_4_xv",
                               "u_2_4_xv", "u_1", "u_1_3_xi", "u_1_3_iv", "u_2_3_iv", "u_3_3_iv"};
  for (int i = 0; i < 11; ++i) p.Ok(MoveEast(kIds[i], 4 + i));
  p.Refused(MoveEast(kIds[11], 15), "17.11");
  // 17.11: there is no limit on attacks; 17.16: the Confederates have no quota.
}

TEST(Rules, Rule_17_12_ReinforcementsExemptUntilTurnFive) {
  const std::string units = ManyUnits(11, 4) + ", {unit: u_1_2_xii, hex: '1816', released: true}";
  Pos p("start: {turn: 3, side: union, phase: movement}\nplace: [{unit: c_smith, hex: '0128'}" + units + "]");
  static const char* kIds[] = {"u_1_2_xv", "u_2_2_xv", "u_1_2_xvii", "u_2_2_xvii", "u_3_2_xvii", "u_1_4_xv",
                               "u_2_4_xv", "u_1", "u_1_3_xi", "u_1_3_iv", "u_2_3_iv"};
  for (int i = 0; i < 11; ++i) p.Ok(MoveEast(kIds[i], 4 + i));
  p.Ok("{move: [u_1_2_xii], path: ['1916']}");  // turn 3: not counted
  Pos q("start: {turn: 6, side: union, phase: movement}\nplace: [{unit: c_smith, hex: '0128'}" + units + "]");
  for (int i = 0; i < 11; ++i) q.Ok(MoveEast(kIds[i], 4 + i));
  q.Refused("{move: [u_1_2_xii], path: ['1916']}", "17.11");  // turn 6: counted
}

TEST(Rules, Rule_17_14_SevenMoreWhileHoldingLookoutMountain) {
  static const char* kIds[] = {"u_1_2_xv", "u_2_2_xv", "u_1_2_xvii", "u_2_2_xvii", "u_3_2_xvii", "u_1_4_xv",
                               "u_2_4_xv", "u_1", "u_1_3_xi", "u_1_3_iv", "u_2_3_iv", "u_3_3_iv",
                               "u_1_1_xiv", "u_2_1_xiv", "u_2_3_xi", "u_1_2_xi", "u_1_2_iv", "u_2_2_iv",
                               "u_3_1_xiv"};
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: c_smith, hex: '0101'}, {unit: u_2_2_xi, hex: '1025'}" + ManyUnits(19, 4) + "]");
  for (int i = 0; i < 18; ++i) p.Ok(MoveEast(kIds[i], 4 + i));
  p.Refused(MoveEast(kIds[18], 22), "17.14");
}

TEST(Rules, Rule_17_16_ConfederatesHaveNoMovementQuota) {
  static const char* kIds[] = {"c_liddell", "c_polk", "c_wright", "c_smith", "c_lowrey", "c_wilson", "c_gist",
                               "c_vaughan", "c_anderson", "c_deas", "c_adams", "c_manigault", "c_lewis"};
  std::string units;
  for (int i = 0; i < 13; ++i) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "18%02d", 4 + i);
    units += std::string(", {unit: ") + kIds[i] + ", hex: '" + hex + "'}";
  }
  Pos p("start: {turn: 3, side: confederate, phase: movement}\nplace: [{unit: u_1_2_xv, hex: '0128'}" + units + "]");
  for (int i = 0; i < 13; ++i) p.Ok(MoveEast(kIds[i], 4 + i));
}

TEST(Rules, Rule_17_15_ControlIsOccupancyOrLastToMoveThrough) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2628'}]");
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("2014")), -1);
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("1914")), kUnion);
  p.Ok("{move: [u_1_2_xv], path: ['2014', '2114']}");
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("2014")), kUnion);  // moved through
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("1914")), kUnion);  // last to be there
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("2114")), kUnion);
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("2628")), kConfederate);
}

// 17.15 at the set-up: a unit standing on a hex at the start controls it: Fort
// Wood (1514) held by a Confederate unit at the start scores 20.11 at once, and
// the state's place control (the state file's `controlled_by`) shows it.
TEST(Rules, Rule_17_15_ControlAtTheSetUpCounts) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: c_smith, hex: '1514'}, {unit: u_1_2_xv, hex: '0101'}]");
  EXPECT_EQ(p.rules().Control(p.s(), p.Hex("1514")), kConfederate);
  EXPECT_EQ(p.s().vp[kConfederate], 4);
  auto place = [&](const Game& g, const std::string& name) {
    for (size_t i = 0; i < g.hex_board().map.places.size(); ++i) {
      if (g.hex_board().map.places[i].name == name) return static_cast<int>(i);
    }
    return -1;
  };
  const int fort_wood = place(*p.game, "Fort Wood");
  ASSERT_GE(fort_wood, 0);
  EXPECT_EQ(p.s().place_control[fort_wood], kConfederate + 1);
  // The whole set-up: Lookout Mountain (1025, Corput), Fort Wood (1514, XI) and the
  // Missionary Ridge objectives (2207 Calvert, 2311 Vaughan) are held from the start.
  auto g = LoadGame("blue_and_gray(scenario=chattanooga)");
  ASSERT_TRUE(g.ok());
  Session full(*g, 1);
  EXPECT_EQ(full.state().place_control[place(**g, "Lookout Mountain")], kConfederate + 1);
  EXPECT_EQ(full.state().place_control[place(**g, "Fort Wood")], kUnion + 1);
  EXPECT_EQ(full.state().place_control[place(**g, "Objective 2207")], kConfederate + 1);
  EXPECT_EQ(full.state().place_control[place(**g, "Objective 2311")], kConfederate + 1);
  EXPECT_EQ(full.state().vp[kConfederate], 0);
}

TEST(Rules, Rule_17_2_NightUnionMayNotMoveConfederatesMayExitZoc) {
  Pos p("start: {turn: 5, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1814'}, {unit: c_smith, hex: '2628'}]");
  p.Refused("{move: [u_1_2_xv], path: ['1813']}", "17.2");
  Pos q("start: {turn: 5, side: confederate, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2014'}, {unit: c_polk, hex: '2013'}]");
  q.Refused("{move: [c_polk], path: ['1913']}", "9.0");  // may not enter another enemy ZOC
  q.Ok("{move: [c_smith], path: ['2114']}");             // may exit
  EXPECT_EQ(q.Where("c_smith"), "2114");
  Pos d("start: {turn: 4, side: confederate, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1914'}, {unit: c_smith, hex: '2014'}]");
  d.Refused("{move: [c_smith], path: ['2114']}", "5.1");  // by day: rigid ZOC
}

TEST(Rules, Rule_18_12_RedoubtDoublesDefenderAttackedOnlyAcrossIt) {
  // 1/2/XV (1712, next to Polk and Wright) is the attack left to whichever of
  // them does not attack 1713 (8.0).
  Pos p("start: {turn: 3, side: confederate, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1713'}, {unit: c_smith, hex: '1813'}, {unit: c_polk, hex: '1812'},"
        " {unit: c_wright, hex: '1612'}, {unit: u_1_2_xv, hex: '1712'}]");
  // 1713's entrenchments face NE (1812) and SE (1813).
  const AttackAnalysis across = p.Analyze("{attack: [c_smith, c_polk], target: ['1713']}");
  ASSERT_TRUE(across.status.ok()) << across.status.ToString();
  EXPECT_EQ(across.plan.modified_defense, 12);
  const AttackAnalysis mixed = p.Analyze("{attack: [c_smith, c_wright], target: ['1713']}");
  ASSERT_TRUE(mixed.status.ok()) << mixed.status.ToString();
  EXPECT_EQ(mixed.plan.modified_defense, 6);
}

TEST(Rules, Rule_18_11_RiflePitsEqualEntrenchmentsInCombatAndMovement) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '2111'}, {unit: c_smith, hex: '2210'}]");
  // Confederate rifle pits on 2210's south-west face: the defender is doubled like behind entrenchments.
  const AttackAnalysis a = p.Analyze("{attack: [u_1_3_iv], target: ['2210']}");
  ASSERT_TRUE(a.status.ok()) << a.status.ToString();
  EXPECT_EQ(a.plan.modified_defense, 10);
  // Movement: +1 MP to cross into the works from the enemy side, nothing to leave them.
  Pos m("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_2_xv, hex: '1812'}, {unit: u_2_2_xv, hex: '1713'}, {unit: c_smith, hex: '0101'}]");
  m.Ok("{move: [u_1_2_xv], path: ['1713']}");
  m.Ok("{move: [u_2_2_xv], path: ['1812']}");
  std::vector<int> costs;
  for (const Event& e : m.session->events()) {
    if (e.type == EventType::kMove) costs.push_back(e.a);
  }
  EXPECT_EQ(costs, (std::vector<int>{4, 2}));
}

TEST(Rules, Rule_18_13_ZocExtendsAcrossRedoubts) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1_3_iv, hex: '1713'}, {unit: c_smith, hex: '1813'}]");
  EXPECT_TRUE(p.InEnemyZoc(kUnion, "1713"));
  EXPECT_TRUE(p.InEnemyZoc(kConfederate, "1813"));
}

TEST(Rules, Rule_19_11_FerryByTheArrowsForThreeMovementPoints) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1, hex: '1204'}, {unit: u_art_sherman, hex: '1304'}, {unit: c_smith, hex: '2628'}]");
  EXPECT_FALSE(p.Do("{move: [u_art_sherman], path: ['1305', '1405']}").ok());  // not along the arrow
  const size_t before = p.session->events().size();
  p.Ok("{move: [u_1], path: ['1305', '1405']}");
  int cost = -1;
  for (size_t i = before; i < p.session->events().size(); ++i) {
    if (p.session->events()[i].type == EventType::kMove) cost = p.session->events()[i].a;
  }
  EXPECT_EQ(cost, 8);  // 3 + 1 MP
}

TEST(Rules, Rule_19_12_NoEndingMovementInFerryHex) {
  Pos p("start: {turn: 3, side: union, phase: movement}\n"
        "place: [{unit: u_1, hex: '1204'}, {unit: c_smith, hex: '2628'}]");
  p.Refused("{move: [u_1], path: ['1305']}", "19.12");
  for (const Action& a : p.session->LegalActions()) {
    if (a.type == ActionType::kMove) {
      EXPECT_NE(a.hexes[static_cast<size_t>(a.num_hexes - 1)], p.Hex("1305"));
    }
  }
}

// 19.12: "hence no unit may attack from a Ferry Hex": a unit in one (here placed
// there) may not attack, so it owes no attack and makes no enemy owed one (8.0):
// the phase ends.
TEST(Rules, Rule_19_12_NoAttackFromAFerryHexSoNoObligation) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1, hex: '1305'}, {unit: c_smith, hex: '1405'}]");
  p.Refused("{attack: [u_1], target: ['1405']}", "19.12");
  EXPECT_EQ(p.Legal(ActionType::kAttack), 0);
  p.Ok("end");
}

TEST(Rules, Rule_19_13_RetreatIntoFerryEliminates) {
  Pos p("start: {turn: 3, side: union, phase: combat}\n"
        "place: [{unit: u_1_3_iv, hex: '1505'}, {unit: u_2_3_iv, hex: '1506'}, {unit: c_smith, hex: '1405'}]");
  p.Ok("{attack: [u_1_3_iv, u_2_3_iv], target: ['1405']}", {1});  // 12:5 = 2:1, DR
  ASSERT_EQ(p.s().decision, DecisionType::kRetreat);
  p.Ok("{retreat: [c_smith], path: ['1305']}");
  EXPECT_EQ(p.Where("c_smith"), "eliminated");
  EXPECT_TRUE(p.EventWithRule("19.13"));
}

TEST(Rules, Rule_20_11_PointsDuringPlay) {
  Pos p("start: {turn: 3, side: confederate, phase: movement}\n"
        "place: [{unit: c_smith, hex: '1614'}, {unit: u_1_2_xv, hex: '0101'}]");
  p.Ok("{move: [c_smith], path: ['1514', '1515']}");  // moved through Fort Wood: control (17.15)
  EXPECT_EQ(p.s().vp[kConfederate], 4);
  for (int i = 0; i < 4; ++i) p.Ok("end");  // to the next Confederate movement phase
  p.Ok("{move: [c_smith], path: ['1514']}");  // only once per hex
  EXPECT_EQ(p.s().vp[kConfederate], 4);
  for (int i = 0; i < 3; ++i) p.Ok("end");  // turn 5 is a night turn: no combat phase
  p.Ok("{move: [c_smith], path: ['1515', '1516', '1517', '1417']}");  // Fort Negley: four more
  EXPECT_EQ(p.s().vp[kConfederate], 8);
}

TEST(Rules, Rule_20_12_PointsAtGameEnd) {
  Pos p("start: {turn: 10, side: confederate, phase: combat}\n"
        "place: [{unit: c_smith, hex: '1512'}, {unit: c_art_martin, hex: '1313'}, {unit: c_polk, hex: '2416'},"
        " {unit: u_1_2_xv, hex: '2311'}]");
  p.Ok("end");  // end of turn 10: the game ends
  ASSERT_TRUE(p.session->over());
  // Union +4 for 2311 (2416 is Confederate, 2207 and 2419 nobody's); Confederate +4 for each
  // town hex in the ZOC of its infantry (1411, 1412), not of its artillery.
  EXPECT_EQ(p.s().vp[kUnion], 4);
  EXPECT_EQ(p.s().vp[kConfederate], 8);
  EXPECT_EQ(p.game->victory.levels[p.s().level].name, "Draw");  // differential -4
}

TEST(Rules, Rule_20_2_LevelsOfVictoryAsPrinted) {
  Pos p("start: {turn: 10, side: confederate, phase: combat}\n"
        "place: [{unit: u_1_2_xv, hex: '2207'}, {unit: u_2_2_xv, hex: '2311'}, {unit: u_1_4_xv, hex: '2416'},"
        " {unit: u_2_4_xv, hex: '2419'}, {unit: c_smith, hex: '0101'}]");
  const auto& levels = p.game->victory.levels;
  ASSERT_EQ(levels.size(), 7u);
  EXPECT_EQ(levels[0].name, "Union Decisive Victory");
  EXPECT_EQ(levels[0].min, 26);
  EXPECT_EQ(levels[1].min, 16);
  EXPECT_EQ(levels[1].max, 25);
  EXPECT_EQ(levels[3].name, "Draw");
  EXPECT_EQ(levels[3].min, -5);
  EXPECT_EQ(levels[3].max, 5);
  EXPECT_EQ(levels[6].name, "Confederate Decisive Victory");
  EXPECT_EQ(levels[6].max, -26);
  p.Ok("end");
  ASSERT_TRUE(p.session->over());
  EXPECT_EQ(p.s().vp[kUnion] - p.s().vp[kConfederate], 16);
  EXPECT_EQ(levels[p.s().level].name, "Union Substantive Victory");
  EXPECT_EQ(p.s().winner, kUnion);
}

// --- Traceability ---------------------------------------------------------------------

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every numbered section of the rulebook (Part A 1.0-11.2, Part B 13.0-20.2, the
// section headers included) has its own row in RULES.md, and every test a row
// names exists (a name ending in "..." stands for the tests it begins).
TEST(Traceability, EveryRulebookSectionHasARow) {
  const char* const kSections[] = {
      "1.0",   "2.0",   "2.1",   "2.2",   "2.3",   "2.4",   "2.5",   "4.0",   "5.0",   "5.1",   "5.2",   "5.3",
      "5.4",   "6.0",   "7.0",   "7.1",   "7.2",   "7.3",   "7.4",   "7.5",   "8.0",   "8.1",   "8.2",   "8.3",
      "8.4",   "8.41",  "8.42",  "8.43",  "8.5",   "8.51",  "8.52",  "8.6",   "8.7",   "8.71",  "8.72",  "8.73",
      "8.74",  "8.75",  "8.76",  "8.8",   "9.0",   "10.0",  "10.1",  "10.2",  "10.3",  "10.4",  "11.0",  "11.1",
      "11.2",  "13.0",  "14.0",  "14.1",  "14.2",  "14.3",  "14.31", "14.32", "15.0",  "15.1",  "15.11", "15.12",
      "15.13", "15.14", "15.15", "15.2",  "15.21", "16.0",  "16.1",  "16.11", "16.12", "16.13", "17.0",  "17.1",
      "17.11", "17.12", "17.13", "17.14", "17.15", "17.16", "17.2",  "18.0",  "18.11", "18.12", "18.13", "19.0",
      "19.1",  "19.11", "19.12", "19.13", "20.0",  "20.1",  "20.11", "20.12", "20.2"};
  const std::string rules = ReadText(std::string(WG_RULESET_DIR) + "/RULES.md");
  ASSERT_FALSE(rules.empty());
  std::set<std::string> rows;
  std::istringstream in(rules);
  std::string line, cited;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, std::regex(R"(\| ([0-9]+\.[0-9]+) \|(.*))"))) continue;
    EXPECT_TRUE(rows.insert(m[1]).second) << "two rows for " << m[1];
    cited += m[2].str() + "\n";
  }
  for (const char* sec : kSections) EXPECT_TRUE(rows.count(sec)) << "RULES.md has no row for " << sec;
  EXPECT_EQ(rows.size(), std::size(kSections)) << "a row for a section the rulebook does not have";
  const std::string tests = ReadText(std::string(WG_RULESET_DIR) + "/tests/rules_test.cc") +
                            ReadText(std::string(WG_RULESET_DIR) + "/tests/conformance_test.cc") +
                            ReadText(std::string(WG_SOURCE_DIR) + "/tests/wargame_cli_test.cc");
  const std::regex name(R"(((DISABLED_)?Rule_[A-Za-z0-9_]+)(\.\.\.)?)");
  int named = 0;
  for (auto it = std::sregex_iterator(cited.begin(), cited.end(), name); it != std::sregex_iterator(); ++it) {
    const std::string test = (*it)[1];
    const bool prefix = (*it)[3].matched;
    ++named;
    EXPECT_NE(tests.find(", " + test + (prefix ? "" : ")")), std::string::npos) << "RULES.md names a missing test " << test;
  }
  EXPECT_GT(named, 90);
}

}  // namespace
}  // namespace wg::blue_and_gray
