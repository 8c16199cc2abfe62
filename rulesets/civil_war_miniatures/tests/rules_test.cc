// One test per numbered chart line (RULES.md). Each builds a small table,
// supplies the dice that matter and checks the rule, including refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rules.h"
#include "wargame/action_text.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg::civil_war_miniatures {
namespace {

struct Mini {
  std::shared_ptr<const Game> game;
  std::unique_ptr<Session> s;
  UnitId U(const std::string& id) const { return static_cast<UnitId>(game->UnitIndex(id)); }
  const MiniState& m() const { return Ext<MiniState>(s->state()); }
  const MiniUnit& mu(const std::string& id) const { return m().units[U(id)]; }
  Vec2 pos(const std::string& id) const { return CenterOf(s->state(), U(id)); }
  uint16_t flags(const std::string& id) const { return s->state().unit(U(id)).flags; }
  Status Do(const std::string& text) {
    auto a = ParseActionText(*game, text);
    EXPECT_TRUE(a.ok()) << text;
    return s->Apply(*a);
  }
  // The "need" of the last fire (kCombatResult rule "3": a = hits, b = need).
  int LastNeed() const {
    for (auto it = s->events().rbegin(); it != s->events().rend(); ++it) {
      if (it->type == EventType::kCombatResult && std::string(it->rule) == "3") return it->b;
    }
    return -1;
  }
  int Count(EventType t, const char* rule) const {
    int n = 0;
    for (const Event& e : s->events()) n += e.type == t && std::string(e.rule) == rule;
    return n;
  }
};

// units: YAML list items; extra: more table keys (areas/obstacles); more: top-level keys.
Mini Make(const std::string& units, const std::string& extra = "", const std::string& more = "",
          int turns = 3, const std::string& folder = WG_RULESET_DIR) {
  const std::string text = "turns: " + std::to_string(turns) +
                           "\nshuffle: false\ntable:\n  width: 48\n  depth: 48\n"
                           "  home_edges: {union: west, confederate: east}\n" +
                           extra + more + "units:\n" + units;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string path =
      (std::filesystem::temp_directory_path() / (std::string("cwm_") + info->name() + ".yaml")).string();
  std::ofstream(path) << text;
  GameParams p;
  p.ruleset = "civil_war_miniatures";
  auto g = LoadMiniGame(folder, path, p);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.errors().ToString());
  Mini mini;
  mini.game = *g;
  mini.s = std::make_unique<Session>(mini.game, 1);
  return mini;
}

// Figures in a stand (calibration.figures_per_stand): a 24-figure regiment has 12 stands.
constexpr int kStand = 2;

// A Union firer at (10, 24) facing east and a Confederate target 10" away.
const char* kFirer =
    "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E, formation: line}\n";
std::string Target(double x, double y, const std::string& more = "", const std::string& facing = "W",
                   int figures = 24) {
  return "  - {id: cs, side: confederate, type: infantry, figures: " + std::to_string(figures) + ", at: [" +
         std::to_string(x) + ", " + std::to_string(y) + "], facing: " + facing + ", formation: line" + more +
         "}\n";
}

TEST(Rules, Rule_1_FormationChangesOncePerTurn) {
  Mini t = Make(kFirer + Target(40, 24));
  EXPECT_EQ(t.s->state().unit(t.U("us")).face, 1);
  ASSERT_TRUE(t.Do("{mode: [us], value: 0}").ok());
  EXPECT_EQ(t.s->state().unit(t.U("us")).face, 0);
  const Status again = t.Do("{mode: [us], value: 1}");
  EXPECT_FALSE(again.ok());
  EXPECT_EQ(again.error().rule, "1");
}

TEST(Rules, Rule_1_FormationChangeAtEndOfMovement) {
  Mini t = Make(kFirer + Target(40, 24));
  ASSERT_TRUE(t.Do("{move: [us], value: 1400, value2: 2400}").ok());  // 4" east in line
  EXPECT_NEAR(t.pos("us").x, 14.0, 0.02);
  EXPECT_TRUE(t.Do("{mode: [us], value: 0}").ok());
  EXPECT_FALSE(t.Do("{move: [us], value: 2000, value2: 2400}").ok());  // one move per activation
}

TEST(Rules, Rule_2_1_ChargeMustBeWithin8Inches) {
  Mini t = Make(kFirer + Target(19.5, 24));  // gap 19.125 - 10.375 = 8.75
  const Status st = t.Do("{attack: [us, cs]}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "2.1");
  Mini ok = Make(kFirer + Target(18.5, 24));  // gap 7.75
  ok.s->SupplyDice({20});
  EXPECT_TRUE(ok.Do("{attack: [us, cs]}").ok());
}

TEST(Rules, Rule_2_2_AttackerFailsMoraleCannotMoveOrShoot) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({20});  // D20 20 is not under 12 stands
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_TRUE(t.flags("us") & kPinned);
  EXPECT_NEAR(t.pos("us").x, 10.0, 0.01);
  EXPECT_EQ(t.mu("cs").figures, 24);
  EXPECT_EQ(ActiveCard(t.s->state()), t.U("cs"));  // the charger's activation is over
}

TEST(Rules, Rule_2_3_AttackeeFailsRetreatsLosesStandAttackerOccupies) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 20});  // attacker passes, attackee fails
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_NEAR(t.pos("cs").x, 30.0, 0.02);  // 12" toward the east edge
  EXPECT_EQ(t.mu("cs").figures, 24 - kStand);  // one stand
  EXPECT_TRUE(t.flags("cs") & kRouted);
  EXPECT_NEAR(t.pos("us").x, 18.0, 0.01);  // attacker in the former position
}

TEST(Rules, Rule_2_4_AttackeePassesCountercharges4Inches) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(t.s->state().decision, DecisionType::kChoice);
  EXPECT_EQ(t.s->state().decision_side, 1);
  EXPECT_FALSE(t.Do("end").ok());
  // Melee: attacker 5 vs defender 2; loser D6 3 stands; winner D6 4 -> 2 stands.
  t.s->SupplyDice({5, 2, 3, 4});
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.mu("cs").figures, 24 - 3 * kStand);
  EXPECT_EQ(t.mu("us").figures, 24 - 2 * kStand);
  EXPECT_NEAR(t.pos("us").x, 13.25, 0.05);        // closed the 3.25" left after the target's 4"
  EXPECT_NEAR(t.pos("cs").x, 14.0 + 12.0, 0.05);  // moved 4" west, then lost and retreated 12"
}

TEST(Rules, Rule_2_4_AttackeePassesFiresThenMelee) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  // Fire: 6 dice need 4 -> 2 hits; melee 2 vs 5: attacker loses 1 stand, winner 2/2 = 1 stand.
  t.s->SupplyDice({6, 6, 1, 1, 1, 1, 2, 5, 1, 2});
  ASSERT_TRUE(t.Do("{choose: 0}").ok());
  EXPECT_EQ(t.LastNeed(), 4);
  EXPECT_EQ(t.mu("us").figures, 24 - 2 - kStand);
  EXPECT_EQ(t.mu("cs").figures, 24 - kStand);
  EXPECT_TRUE(t.flags("us") & kRouted);
  EXPECT_EQ(t.s->dice_queued(), 0u);
}

// 2.4 / T.1 (issue 11): the card that is up and the charge waiting for its answer are the
// arguments of the activation and charge_response steps (the bytes MiniState kept them in
// stay 0); the answer ends the charger's activation and the next card is up.
TEST(Rules, Rule_2_4_TheChargeIsTheResponseStepsArgument) {
  Mini t = Make(kFirer + Target(18, 24));
  const State& s = t.s->state();
  EXPECT_EQ(s.steps.depth, 1);
  EXPECT_EQ(TopKind(s), kActivationStep);
  EXPECT_EQ(ActiveCard(s), t.U("us"));
  EXPECT_EQ(PendingChargeOf(s).charger, kNone);
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(s.steps.depth, 2);
  EXPECT_EQ(TopKind(s), kChargeResponseStep);
  const PendingCharge c = PendingChargeOf(s);
  EXPECT_EQ(c.charger, t.U("us"));
  EXPECT_EQ(c.target, t.U("cs"));
  EXPECT_FALSE(c.flank);  // at its front
  EXPECT_EQ(ActiveCard(s), t.U("us"));
  EXPECT_EQ(s.decision_side, 1);  // the target answers
  const std::string json = t.game->rules->StateJson(s);
  EXPECT_NE(json.find("\"active\": \"us\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"charge\": {\"charger\": \"us\", \"target\": \"cs\"}"), std::string::npos) << json;
  for (uint8_t b : t.m().legacy) EXPECT_EQ(b, 0);
  t.s->SupplyDice({5, 2, 3, 4});
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(s.steps.depth, 1);
  EXPECT_EQ(PendingChargeOf(s).charger, kNone);
  EXPECT_EQ(ActiveCard(s), t.U("cs"));
  for (uint8_t b : t.m().legacy) EXPECT_EQ(b, 0);
  // From behind the target (it faces east, away from the charger): the step says flank (6.2).
  Mini r = Make(kFirer + Target(18, 24, "", "E"));
  r.s->SupplyDice({1, 1});
  ASSERT_TRUE(r.Do("{attack: [us, cs]}").ok());
  EXPECT_TRUE(PendingChargeOf(r.s->state()).flank);
}

// 8.x / 2.4: the melee is a step, a script the charge's answer calls: while it is fought the
// `melee` step (args: attacker, defender, from the flank) is on top of charge_response, which is
// on the charger's activation; it ends with the winner's side, and the answer's step then ends
// the charger's activation (the next card is up). The dice and events are those of the answer
// applied through the session.
TEST(Rules, Rule_8_1_MeleeIsAStepTheChargesAnswerCalls) {
  Mini t = Make(kFirer + Target(18, 24));
  const StepTable& steps = t.game->rules->steps();
  ASSERT_EQ(steps.Find("melee"), kMeleeStep);
  EXPECT_TRUE(IsScript(steps, kMeleeStep));
  EXPECT_EQ(steps.Def(kMeleeStep).rule, "8.1");
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  // The answer applied on a copy, watching the stack at every event.
  struct Watch : EventSink {
    const State* s = nullptr;
    std::vector<Event> events, in_melee;
    std::vector<int> depth;
    void OnEvent(const Event& e) override {
      events.push_back(e);
      if (TopKind(*s) != kMeleeStep) return;
      in_melee.push_back(e);
      depth.push_back(StepDepth(*s));
      const Step& f = *TopStep(*s);
      EXPECT_EQ(f.args[0], 0);  // us charged
      EXPECT_EQ(f.args[1], 1);  // cs
      EXPECT_EQ(f.args[2], 0);  // at its front
      EXPECT_EQ(s->steps.items[1].kind, kChargeResponseStep);
      EXPECT_EQ(s->steps.items[0].kind, kActivationStep);
    }
  } watch;
  State s = t.s->state();
  watch.s = &s;
  DiceStream dice;
  dice.Supply({5, 2, 3, 4});  // melee 5 vs 2; loser D6 3 stands; winner D6 4 -> 2 stands
  Context ctx(*t.game, &dice, &watch, &t.s->scratch());
  ASSERT_TRUE(t.game->rules->Apply(s, Action::Of(ActionType::kChoice).Value(1), ctx).ok());
  ASSERT_FALSE(watch.in_melee.empty());
  EXPECT_EQ(std::string(watch.in_melee.front().rule), "8.1");  // the melee is announced inside its step
  for (int d : watch.depth) EXPECT_EQ(d, 3);
  EXPECT_EQ(StepDepth(s), 1);
  EXPECT_EQ(ActiveCard(s), t.U("cs"));  // the charger's activation ended after the melee
  // The same as the session's answer: as many events and the same State.
  const size_t before = t.s->events().size();
  t.s->SupplyDice({5, 2, 3, 4});
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.s->events().size() - before, watch.events.size());
  s.action_count = t.s->state().action_count;  // the session counts its actions
  EXPECT_TRUE(t.s->state().Equals(s));
  EXPECT_EQ(t.mu("cs").figures, 24 - 3 * kStand);
  EXPECT_EQ(t.mu("us").figures, 24 - 2 * kStand);
}

TEST(Rules, Rule_3_HitTableOneDiePerFourFigures) {
  Mini t = Make(kFirer + Target(20, 24));  // 9.625" from the firer's centre: effective, 4-6
  t.s->SupplyDice({4, 4, 3, 3, 6, 1});  // 24 figures: 6 dice (calibration.figures_per_fire_die 4)
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 4);
  EXPECT_EQ(t.mu("cs").figures, 21);  // a hit kills one figure
  EXPECT_EQ(t.s->dice_queued(), 0u);
  Mini odd = Make("  - {id: us, side: union, type: infantry, figures: 5, at: [10, 24], facing: E}\n" + Target(20, 24));
  odd.s->SupplyDice({1, 1, 1});
  ASSERT_TRUE(odd.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(odd.s->dice_queued(), 1u);  // 5 figures: 2 dice (rounded up)
}

// CAL: 2 figures to a stand on a 1/2" base: the stand counts of the chart's morale test
// (7.2) double, the unit's frontage does not change (24 figures: a 6" line, a column 4
// stands abreast, 2" x 2 1/4", as 6 stands of 1" made), and fire keeps 6 dice (Rule_3).
TEST(Rules, Rule_CAL_TwoFiguresAStandOnTheSameFrontage) {
  Mini t = Make(std::string(kFirer) + "  - {id: col, side: union, type: infantry, figures: 20, at: [10, 34], facing: E,"
                         " formation: column}\n" + Target(40, 24, "", "W", 23));
  EXPECT_EQ(Stands(*t.game, t.s->state(), t.U("us")), 24 / kStand);
  EXPECT_EQ(Stands(*t.game, t.s->state(), t.U("cs")), 12);  // 23 figures: 12 stands, rounded up
  const Footprint line = FootprintOf(*t.game, t.s->state(), t.U("us"));
  EXPECT_NEAR(line.width, 6.0, 1e-9);
  EXPECT_NEAR(line.depth, 0.75, 1e-9);
  const Footprint col = FootprintOf(*t.game, t.s->state(), t.U("col"));  // 10 stands: 4 abreast, 3 deep
  EXPECT_NEAR(col.width, 2.0, 1e-9);
  EXPECT_NEAR(col.depth, 2.25, 1e-9);
}

TEST(Rules, Rule_3_1_RangeFromCentreToNearestPart) {
  Mini far = Make(kFirer + Target(28.5, 24));  // nearest part 18.125" away
  const Status st = far.Do("{bombard: [us, cs]}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "3.1");
  Mini near = Make(kFirer + Target(28.3, 24));  // 17.925": long range, 5-6
  near.s->SupplyDice({5, 5, 1, 1, 1, 1});
  ASSERT_TRUE(near.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(near.LastNeed(), 5);
  EXPECT_EQ(near.mu("cs").figures, 22);
}

TEST(Rules, Rule_4_1_RegimentalOfficerKilledOn1Or6) {
  Mini t = Make(kFirer + Target(20, 24, ", officers: [regimental]"));
  t.s->SupplyDice({6, 6, 1, 1, 1, 1, 3, 1});  // 2 hits, officer dice 3 and 1
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.mu("cs").officers & kRegimental, 0);
  Mini live = Make(kFirer + Target(20, 24, ", officers: [regimental]"));
  live.s->SupplyDice({6, 6, 1, 1, 1, 1, 3, 2});
  ASSERT_TRUE(live.Do("{bombard: [us, cs]}").ok());
  EXPECT_NE(live.mu("cs").officers & kRegimental, 0);
}

TEST(Rules, Rule_4_2_DivisionalOfficerKilledOn6) {
  Mini t = Make(kFirer + Target(20, 24, ", officers: [divisional]"));
  t.s->SupplyDice({6, 6, 1, 1, 1, 1, 1, 5});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_NE(t.mu("cs").officers & kDivisional, 0);  // a 1 does not kill him
  Mini k = Make(kFirer + Target(20, 24, ", officers: [divisional]"));
  k.s->SupplyDice({6, 6, 1, 1, 1, 1, 1, 6});
  ASSERT_TRUE(k.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(k.mu("cs").officers & kDivisional, 0);
}

TEST(Rules, Rule_4_3_BothOfficersRollForCasualties) {
  Mini t = Make(kFirer + Target(20, 24, ", officers: [regimental, divisional]"));
  t.s->SupplyDice({6, 6, 1, 1, 1, 1, 2, 3, 4, 6});  // regimental 2,3 lives; divisional 4,6 dies
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.mu("cs").officers, kRegimental);
  EXPECT_EQ(t.s->dice_queued(), 0u);
}

TEST(Rules, Rule_5_1_HouseOrBarnPlus2) {
  Mini t = Make(
      kFirer + Target(20, 24, "", "W", 8),
      "  areas:\n    - {name: House, kind: house, rect: [18, 22, 4, 4], capacity: 10, blocks_los: true}\n");
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 6);
}

TEST(Rules, Rule_5_2_WoodsOrBehindFencePlus1) {
  Mini w = Make(kFirer + Target(20, 24), "  areas:\n    - {name: Wood, kind: woods, rect: [18, 20, 6, 8]}\n");
  ASSERT_TRUE(w.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(w.LastNeed(), 5);
  Mini f = Make(kFirer + Target(20, 24),
                "  obstacles:\n    - {name: Fence, kind: fence, line: [[18, 10], [18, 40]]}\n");
  ASSERT_TRUE(f.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(f.LastNeed(), 5);
}

TEST(Rules, Rule_5_3_TerrainAdvantagePlus1) {
  Mini t = Make(kFirer + Target(20, 24), "  areas:\n    - {name: Hill, kind: hill, rect: [18, 18, 8, 12]}\n");
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 5);
}

TEST(Rules, Rule_6_1_ArtilleryOpponentPlus1) {
  Mini t = Make(
      std::string(kFirer) +
      "  - {id: cs, side: confederate, type: artillery, figures: 12, guns: 4, at: [20, 24], facing: W}\n");
  t.s->SupplyDice({1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 3);
}

TEST(Rules, Rule_6_2_FlankOrRearPlus2) {
  Mini t = Make(kFirer + Target(20, 24, "", "N"));  // the firer is on its left flank
  t.s->SupplyDice({1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 2);
}

TEST(Rules, Rule_6_3_RegimentalOfficerPlus1) {
  Mini t = Make(
      "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E, officers: "
      "[regimental]}\n" +
      Target(20, 24));
  t.s->SupplyDice({1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 3);
}

TEST(Rules, Rule_6_4_DivisionalOfficerPlus2) {
  Mini t = Make(
      "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E, officers: "
      "[divisional]}\n" +
      Target(20, 24));
  t.s->SupplyDice({1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.LastNeed(), 2);
}

const char* kRouter =
    "  - {id: us, side: union, type: infantry, figures: %d, at: [20, 24], facing: E, routed: true%s}\n";
std::string Router(const std::string& more = "", int figures = 24) {
  char buf[256];
  std::snprintf(buf, sizeof buf, kRouter, figures, more.c_str());
  return buf + Target(44, 24);
}

TEST(Rules, Rule_7_1_DivisionalOfficerPassesAutomatically) {
  Mini t = Make(Router(", officers: [divisional]"));
  t.s->SupplyDice({20});
  ASSERT_TRUE(t.Do("{custom: 1, units: [us]}").ok());
  EXPECT_FALSE(t.flags("us") & kRouted);
  EXPECT_EQ(t.s->dice_queued(), 1u);  // no die was rolled
}

TEST(Rules, Rule_7_2_InfantryPassUnderRemainingStands) {
  Mini pass = Make(Router());
  pass.s->SupplyDice({11});  // 11 < 12 stands
  ASSERT_TRUE(pass.Do("{custom: 1, units: [us]}").ok());
  EXPECT_FALSE(pass.flags("us") & kRouted);
  Mini fail = Make(Router());
  fail.s->SupplyDice({12});
  ASSERT_TRUE(fail.Do("{custom: 1, units: [us]}").ok());
  EXPECT_TRUE(fail.flags("us") & kRouted);
  Mini officer = Make(Router(", officers: [regimental]"));  // the officer counts: 12 < 13
  officer.s->SupplyDice({12});
  ASSERT_TRUE(officer.Do("{custom: 1, units: [us]}").ok());
  EXPECT_FALSE(officer.flags("us") & kRouted);
}

TEST(Rules, Rule_7_3_ArtilleryOneD6PerGun) {
  const std::string bat =
      "  - {id: us, side: union, type: artillery, figures: 12, guns: 4, at: [20, 24], facing: E, routed: "
      "true}\n" +
      Target(44, 24);
  Mini fail = Make(bat);
  fail.s->SupplyDice({4, 5, 6, 6});
  ASSERT_TRUE(fail.Do("{custom: 1, units: [us]}").ok());
  EXPECT_TRUE(fail.flags("us") & kRouted);
  Mini pass = Make(bat);
  pass.s->SupplyDice({6, 6, 3, 6});
  ASSERT_TRUE(pass.Do("{custom: 1, units: [us]}").ok());
  EXPECT_FALSE(pass.flags("us") & kRouted);
  EXPECT_EQ(pass.s->dice_queued(), 0u);
}

TEST(Rules, Rule_7_4_FailedMoraleMoves12ToTheRear) {
  Mini t = Make(Router());
  t.s->SupplyDice({20});
  ASSERT_TRUE(t.Do("{custom: 1, units: [us]}").ok());
  EXPECT_NEAR(t.pos("us").x, 8.0, 0.02);  // 12" toward the west edge
  EXPECT_TRUE(t.flags("us") & kRouted);
}

TEST(Rules, Rule_8_1_MeleeD6PlusBonusesHighWins) {
  Mini t = Make(
      "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E, officers: "
      "[regimental]}\n" +
      Target(18, 24));
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  // 3 + 1 (officer) vs 4: tie, each loses a stand, officer die 3; then 5+1 vs 1: attacker wins.
  t.s->SupplyDice({3, 4, 3, 5, 1, 2, 1});
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.mu("us").figures, 24 - kStand);
  EXPECT_EQ(t.mu("cs").figures, 24 - kStand - 2 * kStand);
  EXPECT_TRUE(t.flags("cs") & kRouted);
  EXPECT_EQ(t.s->dice_queued(), 0u);
}

TEST(Rules, Rule_8_2_LoserLosesD6StandsAndRetreats12) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 1, 6, 1, 5, 1});  // morale x2; melee 6 vs 1; loser D6 5; winner D6 1
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.mu("cs").figures, 24 - 5 * kStand);
  EXPECT_NEAR(t.pos("cs").x, 26.0, 0.05);
}

TEST(Rules, Rule_8_3_WinnerLosesHalfD6RoundedDown) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 1, 6, 1, 1, 5});  // winner D6 5 -> 2 stands
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.mu("us").figures, 24 - 2 * kStand);
}

TEST(Rules, Rule_8_4_TieEachLosesOneAndMeleeContinues) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 1, 3, 3, 2, 2, 5, 1, 1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.Count(EventType::kLoss, "8.4"), 4);  // two tied rounds, both sides
  EXPECT_EQ(t.mu("us").figures, 24 - 2 * kStand);      // two ties
  EXPECT_EQ(t.mu("cs").figures, 24 - 2 * kStand - kStand);  // two ties, then the loser's D6 1
  EXPECT_EQ(t.s->dice_queued(), 0u);
}

const char* kFar =
    "  - {id: us, side: union, type: infantry, figures: 24, at: [3, 3], facing: E}\n"
    "  - {id: cs, side: confederate, type: infantry, figures: 24, at: [45, 45], facing: W}\n";

TEST(Rules, Rule_9_1_CowsMove2D6InTheDirectionRolled) {
  Mini t = Make(kFar, "", "livestock: {cows: [24, 24]}\n");
  t.s->SupplyDice({1, 3, 4});  // north, 7"
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_EQ(t.m().herds[0].x, 2400);
  EXPECT_EQ(t.m().herds[0].y, 3100);
  t.s->SupplyDice({6, 2, 2});  // next turn: scatter NE, NW, SE, SW 4" (deck: us, cs, cows)
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  int alive = 0;
  for (int h = 0; h < 4; ++h) alive += t.m().herds[h].alive;
  EXPECT_EQ(alive, 4);
  EXPECT_NEAR(t.m().herds[1].x / 100.0, 24 - 4 / std::sqrt(2.0), 0.02);  // NW
  EXPECT_NEAR(t.m().herds[1].y / 100.0, 31 + 4 / std::sqrt(2.0), 0.02);
}

TEST(Rules, Rule_9_2_PigsNeedA6AndEscapeOnTurn3) {
  Mini t = Make(kFar, "  areas:\n    - {name: Pen, kind: pen, rect: [22, 22, 4, 4]}\n",
                "livestock: {pigs: [24, 24]}\n");
  t.s->SupplyDice({5});  // turn 1: stays
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_EQ(t.m().herds[4].penned, 1);
  t.s->SupplyDice({4});  // turn 2: stays
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_EQ(t.m().herds[4].penned, 1);
  t.s->SupplyDice({2, 1, 1});  // turn 3: out automatically, east 2"
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_EQ(t.m().herds[4].penned, 0);
  EXPECT_EQ(t.m().herds[4].x, 2600);
  EXPECT_EQ(t.s->dice_queued(), 0u);
}

TEST(Rules, Rule_9_2_PigsOnA5RunAtTheClosestUnit) {
  Mini t = Make(kFar, "", "livestock: {pigs: [24, 24]}\n");
  t.s->SupplyDice({6, 5, 1, 1});  // escape, then 5: 2" toward us at (3, 3)
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  const Vec2 p{t.m().herds[4].x / 100.0, t.m().herds[4].y / 100.0};
  EXPECT_NEAR(DistanceBetween(p, Vec2{24, 24}), 2.0, 0.02);
  EXPECT_LT(p.x, 24.0);
  EXPECT_LT(p.y, 24.0);
}

TEST(Rules, Rule_9_3_LivestockCanBeShot) {
  Mini t = Make(kFirer + Target(44, 44), "", "livestock: {cows: [20, 24]}\n");
  t.s->SupplyDice({6, 1, 1, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us], value: 100}").ok());
  EXPECT_EQ(t.m().herds[0].alive, 0);
  const Status st = t.Do("{bombard: [cs], value: 100}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "9.3");
}

TEST(Rules, Rule_9_4_OverrunUnitTestsMoraleAndIsPinned) {
  const std::string units =
      "  - {id: cs, side: confederate, type: infantry, figures: 24, at: [44, 44], facing: W}\n"
      "  - {id: us, side: union, type: infantry, figures: 24, at: [24, 27], facing: S}\n";
  Mini t = Make(units, "", "deck: [cs, cows, us, pigs]\nlivestock: {cows: [24, 20]}\n");
  t.s->SupplyDice({1, 6, 6, 1});  // north 12": through the unit; morale 1 passes
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_TRUE(t.flags("us") & kPinned);
  EXPECT_EQ(ActiveCard(t.s->state()), t.U("us"));
  const Status st = t.Do("{move: [us], value: 2400, value2: 3200}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "9.4");
  Mini f = Make(units, "", "deck: [cs, cows, us, pigs]\nlivestock: {cows: [24, 20]}\n");
  f.s->SupplyDice({1, 6, 6, 20});  // fails: to the rear
  ASSERT_TRUE(f.Do("end").ok());
  EXPECT_TRUE(f.flags("us") & kRouted);
  EXPECT_NEAR(f.pos("us").x, 12.0, 0.02);
}

TEST(Rules, Rule_10_1_RetreatingTroopsGoToTheirEdgeUntilRallied) {
  Mini t = Make(Router());
  const Status st = t.Do("{move: [us], value: 2400, value2: 2400}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "10.1");
  ASSERT_TRUE(t.Do("end").ok());  // not rallied: 12" further to the rear
  EXPECT_NEAR(t.pos("us").x, 8.0, 0.02);
}

TEST(Rules, Rule_10_2_FragmentsCannotBeConsolidated) {
  Mini t = Make(kFirer + Target(40, 24));
  Action a = Action::Of(ActionType::kRecombine);
  a.AddUnit(t.U("us")).AddUnit(t.U("us"));
  const Status st = t.s->Apply(a);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "10.2");
}

TEST(Rules, Rule_10_3_MenChaseDinnerWithin6Inches) {
  const std::string units =
      "  - {id: cs, side: confederate, type: infantry, figures: 24, at: [44, 44], facing: W}\n"
      "  - {id: us, side: union, type: infantry, figures: 24, at: [28, 24], facing: S%s}\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, units.c_str(), "");
  Mini t = Make(buf, "", "livestock: {cows: [24, 20]}\n");
  t.s->SupplyDice({1, 3, 3, 15, 3});  // north 6": passes 3.5" away; D20 15; D6 3 men
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_EQ(t.mu("us").figures, 21);
  std::snprintf(buf, sizeof buf, units.c_str(), ", officers: [regimental]");
  Mini o = Make(buf, "", "livestock: {cows: [24, 20]}\n");
  o.s->SupplyDice({1, 3, 3, 19});  // with an officer only a 20
  ASSERT_TRUE(o.Do("end").ok());
  ASSERT_TRUE(o.Do("end").ok());
  EXPECT_EQ(o.mu("us").figures, 24);
  std::snprintf(buf, sizeof buf, units.c_str(), ", officers: [divisional]");
  Mini d = Make(buf, "", "livestock: {cows: [24, 20]}\n");
  d.s->SupplyDice({1, 3, 3, 20});  // divisional officer: no roll, men go hungry
  ASSERT_TRUE(d.Do("end").ok());
  ASSERT_TRUE(d.Do("end").ok());
  EXPECT_EQ(d.mu("us").figures, 24);
  EXPECT_EQ(d.s->dice_queued(), 1u);
}

TEST(Rules, Rule_11_1_GunDestroyedOn6ThenBatteryTestsMorale) {
  Mini t = Make(
      std::string(kFirer) +
      "  - {id: cs, side: confederate, type: artillery, figures: 12, guns: 4, at: [20, 24], facing: W}\n");
  t.s->SupplyDice({6, 6, 1, 1, 1, 1, 6, 2, 1, 6, 6});  // 2 hits; gun dice 6, 2; morale 1 < 3 guns
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.mu("cs").guns, 3);
  EXPECT_EQ(t.mu("cs").figures, 10);
  EXPECT_FALSE(t.flags("cs") & kRouted);
  EXPECT_EQ(t.Count(EventType::kNote, "7.3"), 1);
  EXPECT_EQ(t.s->dice_queued(), 0u);
}

TEST(Rules, Rule_11_2_SurvivingCrewsManADepletedBattery) {
  Mini t = Make(
      "  - {id: crew, side: union, type: artillery, figures: 12, guns: 2, at: [10, 24], facing: E}\n"
      "  - {id: bat, side: union, type: artillery, figures: 6, guns: 4, at: [10, 30], facing: E}\n" +
      Target(44, 24));
  ASSERT_TRUE(t.Do("{custom: 3, units: [crew, bat]}").ok());
  EXPECT_EQ(t.mu("crew").figures, 6);
  EXPECT_EQ(t.mu("bat").figures, 12);
  const Status st = t.Do("{custom: 3, units: [bat, crew]}");  // bat has no spare crew
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "11.2");
}

TEST(Rules, Rule_12_1_BarnHolds20With10Firing) {
  Mini t = Make(
      "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E}\n" + Target(20, 24),
      "  areas:\n    - {name: Barn, kind: barn, rect: [8, 20, 4, 8], capacity: 20}\n");
  t.s->SupplyDice({1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.s->dice_queued(), 0u);  // 10 figures firing: 3 dice, one for each 4 figures (not 6)
  int dice = 0;
  for (const Event& e : t.s->events()) dice += e.type == EventType::kDieRoll;
  EXPECT_EQ(dice, 3);
  bool occupied = false;  // 20 inside, 4 waiting outside
  for (const Event& e : t.s->events()) occupied |= std::string(e.rule) == "12.1" && e.a == 20 && e.b == 4;
  EXPECT_TRUE(occupied);
}

TEST(Rules, Rule_12_1_FireOnlyOutOfTheFrontOrBack) {
  // The barn is 6" long east-west and 4" deep: its front and back are the north and south walls.
  const std::string barn = "  areas:\n    - {name: Barn, kind: barn, rect: [7, 22, 6, 4], capacity: 20}\n";
  Mini end = Make(
      "  - {id: us, side: union, type: infantry, figures: 8, at: [10, 24], facing: E}\n" + Target(20, 24),
      barn);
  const Status st = end.Do("{bombard: [us, cs]}");  // out of the east end wall
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "12.1");
  Mini front = Make(
      "  - {id: us, side: union, type: infantry, figures: 8, at: [10, 24], facing: E}\n" + Target(10, 34),
      barn);
  EXPECT_TRUE(front.Do("{bombard: [us, cs]}").ok());  // out of the north wall
}

TEST(Rules, Rule_12_2_HouseHolds10With5Firing) {
  Mini t = Make(
      "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E}\n" + Target(20, 24),
      "  areas:\n    - {name: House, kind: house, rect: [8, 20, 4, 8], capacity: 10}\n");
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  int dice = 0;
  for (const Event& e : t.s->events()) dice += e.type == EventType::kDieRoll;
  EXPECT_EQ(dice, 2);  // 5 figures: 2 dice, one for each 4 figures
}

TEST(Rules, Rule_12_3_RestWaitOutsideToReplaceLosses) {
  Mini t = Make(kFirer + Target(20, 24, "", "W", 12),
                "  areas:\n    - {name: House, kind: house, rect: [18, 22, 4, 4], capacity: 10}\n");
  ASSERT_EQ(t.mu("cs").building, 1);
  t.s->SupplyDice({6, 6, 1, 1, 1, 1});  // need 6 (house): 2 hits
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.mu("cs").figures, 10);  // losses replaced from outside: the house is still full
  EXPECT_EQ(t.mu("cs").building, 1);
}

// 12.3 set-up: a 4" x 6" house (front and back: the west and east walls) with
// the Confederates inside, 24 figures: 10 inside, 14 that do not fit.
const char* kTallHouse = "  areas:\n    - {name: House, kind: house, rect: [18, 21, 4, 6], capacity: 10}\n";
Mini Occupied(const std::string& firer = kFirer) {
  return Make(firer + Target(20, 24), kTallHouse, "deck: [cs, us, cows, pigs]\n");
}

TEST(Rules, Rule_12_3_OwnerFormsTheRestInLineBesideTheBuilding) {
  Mini t = Occupied();
  ASSERT_EQ(t.mu("cs").building, 1);
  EXPECT_EQ(InsideOf(*t.game, t.s->state(), t.U("cs")), 10);
  EXPECT_EQ(WaitingOf(*t.game, t.s->state(), t.U("cs")), 14);  // by default the rest wait behind
  bool offered = false;
  for (const Action& a : t.s->LegalActions())
    offered |= a.type == ActionType::kCustom && a.value == kFormBeside && a.value2 == 4;
  EXPECT_TRUE(offered);
  EXPECT_EQ(t.Do("{custom: 5, units: [cs], value2: 8}").error().rule, "12.3");  // 14 figures: 7 stands at most
  ASSERT_TRUE(t.Do("{custom: 5, units: [cs], value2: 4}").ok());
  EXPECT_EQ(t.mu("cs").beside, 8);
  EXPECT_EQ(InsideOf(*t.game, t.s->state(), t.U("cs")), 10);
  EXPECT_EQ(WaitingOf(*t.game, t.s->state(), t.U("cs")), 6);
  // The line stands against the house's north wall (the unit faces west: its right is north), 4 stands, 2" wide.
  Footprint line;
  ASSERT_TRUE(LineBesideOf(*t.game, t.s->state(), t.U("cs"), &line));
  EXPECT_NEAR(line.center.x, 20.0, 0.02);
  EXPECT_NEAR(line.center.y, 28.05, 0.02);
  EXPECT_NEAR(line.width, 2.0, 1e-9);
  EXPECT_EQ(t.Do("{custom: 5, units: [cs], value2: 1}").error().rule, "12.3");  // once per activation
  // Moving off re-forms the unit as one body.
  ASSERT_TRUE(t.Do("{move: [cs], value: 2600, value2: 2400}").ok());
  EXPECT_EQ(t.mu("cs").building, 0);
  EXPECT_EQ(t.mu("cs").beside, 0);
  // Not in a building, or every figure fits: nothing to place.
  Mini out = Make(kFirer + Target(30, 24), kTallHouse, "deck: [cs, us, cows, pigs]\n");
  EXPECT_EQ(out.Do("{custom: 5, units: [cs], value2: 1}").error().rule, "12.3");
  Mini fits = Make(kFirer + Target(20, 24, "", "W", 8), kTallHouse, "deck: [cs, us, cows, pigs]\n");
  EXPECT_EQ(fits.Do("{custom: 5, units: [cs], value2: 1}").error().rule, "12.3");
}

TEST(Rules, Rule_12_3_LineBesideFiresAsAFormedLine) {
  Mini t = Occupied();
  ASSERT_TRUE(t.Do("{custom: 5, units: [cs], value2: 4}").ok());
  // The 5 figures firing out of the house roll 2 dice, the line of 8 figures 2 more; both need a 4 at 9.6".
  t.s->SupplyDice({4, 4, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [cs, us]}").ok());
  EXPECT_EQ(t.s->dice_queued(), 0u);
  EXPECT_EQ(t.Count(EventType::kBombard, "12.3"), 1);  // the line fired as well as the house
  EXPECT_EQ(t.mu("us").figures, 22);
  // All waiting behind (the default): only the house fires.
  Mini w = Occupied();
  w.s->SupplyDice({4, 4, 1, 1});
  ASSERT_TRUE(w.Do("{bombard: [cs, us]}").ok());
  EXPECT_EQ(w.s->dice_queued(), 2u);
  EXPECT_EQ(w.Count(EventType::kBombard, "12.3"), 0);
}

TEST(Rules, Rule_12_3_LineBesideIsFiredAtAsAFormedLine) {
  Mini t = Occupied();
  ASSERT_TRUE(t.Do("{custom: 5, units: [cs], value2: 4}").ok());
  ASSERT_TRUE(t.Do("end").ok());
  bool offered = false;
  for (const Action& a : t.s->LegalActions())
    offered |= a.type == ActionType::kBombard && a.value == kAtLineBeside;
  EXPECT_TRUE(offered);
  t.s->SupplyDice({4, 4, 4, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs], value: 1}").ok());
  EXPECT_EQ(t.LastNeed(), 4);  // no house +2: an ordinary line at 9.6"
  EXPECT_EQ(t.mu("cs").beside, 5);  // the 3 losses come off the line
  EXPECT_EQ(t.mu("cs").figures, 21);
  EXPECT_EQ(InsideOf(*t.game, t.s->state(), t.U("cs")), 10);
  EXPECT_EQ(WaitingOf(*t.game, t.s->state(), t.U("cs")), 6);
  // Fire at the house itself: +2, and the waiting stands refill it; the line is not hit.
  Mini h = Occupied();
  ASSERT_TRUE(h.Do("{custom: 5, units: [cs], value2: 4}").ok());
  ASSERT_TRUE(h.Do("end").ok());
  h.s->SupplyDice({6, 6, 6, 6, 1, 1});
  ASSERT_TRUE(h.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(h.LastNeed(), 6);
  EXPECT_EQ(h.mu("cs").figures, 20);
  EXPECT_EQ(h.mu("cs").beside, 8);
  EXPECT_EQ(InsideOf(*h.game, h.s->state(), h.U("cs")), 10);
  EXPECT_EQ(WaitingOf(*h.game, h.s->state(), h.U("cs")), 2);
  // No line: there is nothing beside the house to fire at.
  Mini n = Occupied();
  ASSERT_TRUE(n.Do("end").ok());
  EXPECT_EQ(n.Do("{bombard: [us, cs], value: 1}").error().rule, "12.3");
}

TEST(Rules, Rule_12_3_OnlyWaitingStandsAreDisorganized) {
  // us 4" from the house charges: attacker D20 1 passes; the defender rolls an 11.
  const std::string near =
      "  - {id: us, side: union, type: infantry, figures: 24, at: [14, 24], facing: E, formation: line}\n";
  // Every figure outside formed in line: not disorganized, 12 stands: an 11 passes.
  Mini line = Occupied(near);
  ASSERT_TRUE(line.Do("{custom: 5, units: [cs], value2: 7}").ok());
  EXPECT_EQ(WaitingOf(*line.game, line.s->state(), line.U("cs")), 0);
  ASSERT_TRUE(line.Do("end").ok());
  line.s->SupplyDice({1, 11});
  ASSERT_TRUE(line.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(line.s->state().decision, DecisionType::kChoice);  // passed: it answers the charge
  EXPECT_EQ(line.Count(EventType::kCaptured, "12.5"), 0);
  // Four stands in line, six figures waiting: -2, so an 11 fails; the house's 10 are captured and
  // the rest, line included, rout.
  Mini wait = Occupied(near);
  ASSERT_TRUE(wait.Do("{custom: 5, units: [cs], value2: 4}").ok());
  ASSERT_TRUE(wait.Do("end").ok());
  wait.s->SupplyDice({1, 11});
  ASSERT_TRUE(wait.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(wait.Count(EventType::kCaptured, "12.5"), 1);
  EXPECT_EQ(wait.mu("cs").figures, 24 - 10 - kStand);  // 10 captured, a stand lost (2.3)
  EXPECT_EQ(wait.mu("cs").beside, 0);
  EXPECT_TRUE(wait.flags("cs") & kRouted);
}

TEST(Rules, Rule_12_3_LineBesideStandsOnTheTable) {
  // 12 figures: 10 inside, 2 (one stand) outside; a Union column 8" north tries to come down beside the house.
  const std::string units = std::string(kFirer) + Target(20, 24, "", "W", 12) +
                            "  - {id: us2, side: union, type: infantry, figures: 24, at: [20, 36], facing: S,"
                            " formation: column}\n";
  Mini t = Make(units, kTallHouse, "deck: [cs, us2, us, cows, pigs]\n");
  ASSERT_TRUE(t.Do("{custom: 5, units: [cs], value2: 1}").ok());
  ASSERT_TRUE(t.Do("end").ok());
  const Status st = t.Do("{move: [us2], value: 2000, value2: 2800}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.1");  // the line beside the house is in the way
  Mini free = Make(units, kTallHouse, "deck: [cs, us2, us, cows, pigs]\n");
  ASSERT_TRUE(free.Do("end").ok());
  EXPECT_TRUE(free.Do("{move: [us2], value: 2000, value2: 2800}").ok());  // all waiting behind: room
  // The building full of another unit: none of this one would be inside.
  Mini full = Make(std::string(kFirer) + Target(20, 24, "", "W", 12) +
                       "  - {id: cs2, side: confederate, type: infantry, figures: 8, at: [19, 23], facing: W}\n",
                   kTallHouse, "deck: [cs2, cs, us, cows, pigs]\n");
  ASSERT_TRUE(full.Do("end").ok());
  EXPECT_EQ(InsideOf(*full.game, full.s->state(), full.U("cs2")), 0);  // listed after cs: no room left
  ASSERT_TRUE(full.Do("end").ok());  // cs
  ASSERT_TRUE(full.Do("end").ok());  // us; new turn: cs2's card again
  const Status whole = full.Do("{custom: 5, units: [cs2], value2: 4}");  // all 8 figures
  ASSERT_FALSE(whole.ok());
  EXPECT_EQ(whole.error().rule, "12.3");
  EXPECT_NE(whole.error().message.find("whole unit"), std::string::npos) << whole.error().message;
}

TEST(Rules, Rule_12_3_WhenOnlyTheLineIsLeftItIsTheUnit) {
  Mini t = Make("  - {id: us, side: union, type: infantry, figures: 44, at: [10, 24], facing: E, formation: line}\n" +
                    Target(20, 24, "", "W", 14),
                kTallHouse, "deck: [cs, us, cows, pigs]\n");
  ASSERT_TRUE(t.Do("{custom: 5, units: [cs], value2: 2}").ok());  // the 4 outside: a 1" line
  ASSERT_TRUE(t.Do("end").ok());
  t.s->SupplyDice({6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1});  // 10 hits at the house: everyone inside falls
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  EXPECT_EQ(t.mu("cs").figures, 4);
  EXPECT_EQ(t.mu("cs").building, 0);
  EXPECT_EQ(t.mu("cs").beside, 0);
  EXPECT_NEAR(t.pos("cs").x, 20.0, 0.02);  // where the line stood
  EXPECT_NEAR(t.pos("cs").y, 27.55, 0.02);
  EXPECT_EQ(t.s->state().unit(t.U("cs")).face, 1);
}

TEST(Rules, Rule_12_4_OfficerDesignatedInsideOrOutside) {
  const std::string house =
      "  areas:\n    - {name: House, kind: house, rect: [16, 22, 4, 4], capacity: 10}\n";
  const std::string units = std::string(kFirer) +
                            "  - {id: cs, side: confederate, type: infantry, figures: 16, at: [18, 24], "
                            "facing: W, officers: [regimental]}\n";
  // Inside (the default): captured with the stands inside when the waiting stands fail.
  Mini in = Make(units, house, "deck: [cs, us, cows, pigs]\n");
  ASSERT_TRUE(in.Do("end").ok());
  in.s->SupplyDice({1, 20});  // charge: attacker passes; 8 stands + 1 officer - 2 disorganized = 7: 20 fails
  ASSERT_TRUE(in.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(in.mu("cs").officers, 0);
  // Outside: the officer goes with the routed stands.
  Mini out = Make(units, house, "deck: [cs, us, cows, pigs]\n");
  ASSERT_TRUE(out.Do("{custom: 4, units: [cs], value2: 1}").ok());
  EXPECT_EQ(out.Do("{custom: 4, units: [cs], value2: 0}").error().rule, "12.4");  // once per activation
  ASSERT_TRUE(out.Do("end").ok());
  out.s->SupplyDice({1, 20});
  ASSERT_TRUE(out.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(out.mu("cs").officers, kRegimental);
  EXPECT_TRUE(out.flags("cs") & kRouted);
  // Not in a building: nothing to designate.
  Mini none = Make(units, "", "deck: [cs, us, cows, pigs]\n");
  EXPECT_EQ(none.Do("{custom: 4, units: [cs], value2: 1}").error().rule, "12.4");
}

TEST(Rules, Rule_4_OfficersCountInMoraleNotInStrength) {
  Mini t = Make(
      "  - {id: us, side: union, type: infantry, figures: 4, at: [20, 24], facing: E, routed: true,"
      " officers: [regimental]}\n" +
      Target(44, 24));
  t.s->SupplyDice({2});  // 2 stands + the officer = 3: a 2 passes
  ASSERT_TRUE(t.Do("{custom: 1, units: [us]}").ok());
  EXPECT_FALSE(t.flags("us") & kRouted);
  EXPECT_EQ(Stands(*t.game, t.s->state(), t.U("us")), 2);  // the officer is not a stand
}

TEST(Rules, Rule_12_5_WaitingStandsDisorganizedRoutAndInsideCaptured) {
  Mini t = Make(kFirer + Target(18, 24, "", "W", 16),
                "  areas:\n    - {name: House, kind: house, rect: [16, 22, 4, 4], capacity: 10}\n");
  ASSERT_EQ(t.mu("cs").building, 1);
  // Charge: attacker passes; defender 8 stands - 2 disorganized = 6: a 6 fails.
  t.s->SupplyDice({1, 6});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(t.Count(EventType::kCaptured, "12.5"), 1);
  EXPECT_EQ(t.mu("cs").figures, 16 - 10 - kStand);  // 10 captured, then a stand lost (2.3)
  EXPECT_TRUE(t.flags("cs") & kRouted);
}

TEST(Rules, Rule_T_1_DeckOfUnitCardsPlusCowAndPig) {
  Mini t = Make(kFirer + Target(40, 24), "", "livestock: {cows: [24, 10], pigs: [24, 40]}\n");
  EXPECT_EQ(t.m().deck_size, 4);
  EXPECT_EQ(ActiveCard(t.s->state()), t.U("us"));  // unshuffled: listed order
  EXPECT_NE(t.s->DescribeDecision().find("activation of us"), std::string::npos) << t.s->DescribeDecision();
  EXPECT_EQ(t.s->state().decision_side, 0);
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_EQ(ActiveCard(t.s->state()), t.U("cs"));
  const Status st = t.Do("{move: [us], value: 1200, value2: 2400}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "T.1");
}

TEST(Rules, Rule_T_2_ActionVocabularyRoundTrips) {
  Mini t = Make(kFirer + Target(40, 24));
  auto a = ParseActionText(*t.game, "{custom: 2, units: [us], value2: 90}");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(ActionToText(*t.game, *a), "{custom: 2, units: [us], value2: 90}");
  ASSERT_TRUE(t.s->Apply(*a).ok());
  EXPECT_EQ(t.mu("us").facing, 90);
  const Status st = t.s->Apply(Action::Of(ActionType::kDetach));
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "T.2");
}

// T.2: one handler per action type on each step, no dispatcher: the activation's for every
// action of the activated unit (a custom action's by its code), the charge's answer's for a
// choice (2.4). Another type, or an unknown custom code, is refused citing T.2.
TEST(Rules, Rule_T_2_EachActionTypeHasItsOwnHandler) {
  Mini t = Make(kFirer + Target(18, 24));
  const StepTable& steps = t.game->rules->steps();
  const auto types = [&](StepKind k) {
    std::vector<ActionType> out;
    for (const auto& [type, handler] : steps.Def(k).handlers) out.push_back(type);
    return out;
  };
  EXPECT_FALSE(steps.Def(kActivationStep).apply);
  EXPECT_FALSE(steps.Def(kChargeResponseStep).apply);
  std::vector<ActionType> act = types(kActivationStep);
  std::sort(act.begin(), act.end());
  std::vector<ActionType> want = {ActionType::kEndPhase, ActionType::kRecombine, ActionType::kChangeMode,
                                  ActionType::kMove,     ActionType::kBombard,   ActionType::kAttack,
                                  ActionType::kCustom};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(act, want);
  EXPECT_EQ(types(kChargeResponseStep), std::vector<ActionType>{ActionType::kChoice});
  Status st = t.Do("{custom: 9, units: [us]}");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "T.2");
  st = t.Do("{choose: 0}");  // no charge to answer
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "T.2");
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  st = t.Do("end");  // the charged unit must answer first
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "T.2");
  st = t.Do("{choose: 2}");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "2.4");
}

TEST(Rules, Rule_M_MovementRatesByFormationAndTerrain) {
  Mini line = Make(kFirer + Target(44, 44));
  ASSERT_TRUE(line.Do("{move: [us], value: 3000, value2: 2400}").ok());
  EXPECT_NEAR(line.pos("us").x, 16.0, 0.02);  // line 6"
  Mini col = Make(
      "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E, formation: column}\n" +
      Target(44, 44));
  ASSERT_TRUE(col.Do("{move: [us], value: 3000, value2: 2400}").ok());
  EXPECT_NEAR(col.pos("us").x, 22.0, 0.02);  // column 12"
  Mini woods =
      Make(kFirer + Target(44, 44), "  areas:\n    - {name: Wood, kind: woods, rect: [12, 18, 10, 12]}\n");
  ASSERT_TRUE(woods.Do("{move: [us], value: 3000, value2: 2400}").ok());
  EXPECT_NEAR(woods.pos("us").x, 13.0, 0.02);  // halved
  Mini fence = Make(kFirer + Target(44, 44),
                    "  obstacles:\n    - {name: F, kind: fence, line: [[12, 10], [12, 40]]}\n");
  ASSERT_TRUE(fence.Do("{move: [us], value: 3000, value2: 2400}").ok());
  EXPECT_NEAR(fence.pos("us").x, 14.0, 0.02);  // 6 - 2
  Mini gun =
      Make("  - {id: us, side: union, type: artillery, figures: 12, guns: 4, at: [10, 24], facing: E}\n" +
           Target(44, 44));
  EXPECT_EQ(gun.Do("{move: [us], value: 3000, value2: 2400}").error().rule, "M");  // unlimbered
}

TEST(Rules, Rule_V_VictoryAfterTheLastTurn) {
  Mini t = Make(kFirer + Target(40, 24),
                "  areas:\n    - {name: House, kind: house, rect: [6, 20, 8, 8], capacity: 30}\n", "", 1);
  ASSERT_TRUE(t.Do("end").ok());
  ASSERT_TRUE(t.Do("end").ok());
  EXPECT_TRUE(t.s->over());
  EXPECT_EQ(t.s->state().winner, 0);  // the Union holds the house: 10 points
  EXPECT_EQ(t.s->state().vp[0], 10);
}

TEST(Rules, PositionTextAndSvg) {
  Mini t = Make(kFirer + Target(40, 24), "", "livestock: {cows: [24, 10]}\n");
  EXPECT_EQ(t.game->rules->PositionText(t.s->state(), t.U("us")), "10.00, 24.00 in");
  std::string svg;
  ASSERT_TRUE(t.game->rules->RenderSvg(t.s->state(), &svg));
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("cows"), std::string::npos);
}

TEST(Rules, EventLinesCiteTheChartAndSpeakInches) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 20});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  const auto lines = t.s->DescribeEvents();
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_EQ(all.find("off-map"), std::string::npos) << all;
  EXPECT_NE(all.find("2.3: cs retreats to 30.00, 24.00 in"), std::string::npos) << all;
}


// --- Contact and movement (C.1-C.6) ---------------------------------------------------------

TEST(Rules, Rule_C_1_NoMoveThroughOrOntoAnotherUnit) {
  // A Union column 12" west of a Confederate line tries to march through it, and through a friend.
  const std::string col = "  - {id: us, side: union, type: infantry, figures: 24, at: [10, 24], facing: E, formation: column}\n";
  Mini enemy = Make(col + Target(16, 24));
  const Status st = enemy.Do("{move: [us], value: 2200, value2: 2400}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.1");
  EXPECT_NEAR(enemy.pos("us").x, 10.0, 0.001);
  Mini friends = Make(col + "  - {id: us2, side: union, type: infantry, figures: 24, at: [16, 24], facing: E}\n" +
                      Target(40, 24));
  EXPECT_EQ(friends.Do("{move: [us], value: 2200, value2: 2400}").error().rule, "C.1");  // no interpenetration
  // Up to contact is allowed: the column's front stops short of the line (gap 16 - 0.375 - 11.125 = 4.5").
  EXPECT_TRUE(enemy.Do("{move: [us], value: 1440, value2: 2400}").ok());
}

TEST(Rules, Rule_C_1_TheLineBesideABuildingMayNotWheelOntoAUnit) {
  // 14 figures in the house: 10 inside, two stands (4 figures) in line against the north wall
  // (y 27.05-28.05, x 19.625-20.375 facing west). A friend stands 0.075" east of that line.
  const std::string units = std::string(kFirer) + Target(20, 24, "", "W", 14) +
                            "  - {id: cs2, side: confederate, type: infantry, figures: 4, at: [20.825, 27.55],"
                            " facing: W}\n";
  Mini t = Make(units, kTallHouse, "deck: [cs, cs2, us, cows, pigs]\n");
  ASSERT_TRUE(t.Do("{custom: 5, units: [cs], value2: 2}").ok());
  const Status st = t.Do("{custom: 2, units: [cs], value2: 90}");  // facing north, the line is 1" wide east-west
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.1");
  EXPECT_TRUE(t.Do("{custom: 2, units: [cs], value2: 180}").ok());  // facing as it is: no wheel, no contact
}

TEST(Rules, Rule_C_1_APathIsTestedWhereTheUnitWouldStandToTheHundredth) {
  // A limbered battery (8" deep) marching 8" west-north-west would clip the end of a tilted line by
  // a few hundredths once its end point is stored to the hundredth (found by the invariant in AI games).
  Mini t = Make("  - {id: us, side: union, type: infantry, figures: 24, at: [3, 3], facing: E}\n"
                "  - {id: bat, side: confederate, type: artillery, figures: 12, guns: 4, at: [40, 24], facing: W,"
                " formation: column}\n"
                "  - {id: va, side: confederate, type: infantry, figures: 24, at: [28.09, 22.97], facing: 190}\n",
                "", "deck: [bat, va, us, cows, pigs]\n");
  const Status st = t.Do("{move: [bat], value: 766, value2: 2929}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.1");
  EXPECT_TRUE(t.Do("{move: [bat], value: 3400, value2: 2500}").ok());  // a shorter march stops clear of it
}

TEST(Rules, Rule_C_1_ALineBesideABuildingIsTestedWhereItWouldStandToTheHundredth) {
  // From a soak game (wg_soak --seed 4471, action 147): an enemy stands at the farm house's side
  // on the unit's right, so the line beside it (12.3) goes to the left, where it stood clear of a
  // friend by less than the rounding of its centre to the hundredth the state stores: once stored
  // it stood on the friend. The place tested is the place stored: neither side has room for
  // those two stands (one, narrower, still fits on the left).
  const std::string units =
      "  - {id: pa, side: union, type: infantry, figures: 14, at: [33.66, 25.88], facing: 36, formation: column}\n"
      "  - {id: me, side: union, type: infantry, figures: 24, at: [30.97, 28.99], facing: -51, formation: column}\n"
      "  - {id: cs, side: confederate, type: infantry, figures: 20, at: [36.28, 25.12], facing: 45,"
      " formation: column}\n";
  Mini t = Make(units, "  areas:\n    - {name: House, kind: house, rect: [33, 24, 3, 5], capacity: 10}\n",
                "deck: [pa, me, cs, cows, pigs]\n");
  ASSERT_EQ(t.mu("pa").building, 1);
  for (const Action& a : t.s->LegalActions()) {
    EXPECT_FALSE(a.type == ActionType::kCustom && a.value == kFormBeside && a.value2 == 2) << ActionToText(*t.game, a);
  }
  const Status st = t.Do("{custom: 5, units: [pa], value2: 2}");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "12.3");  // no room beside the building on either side
  EXPECT_EQ(t.mu("pa").beside, 0);
  ASSERT_TRUE(t.Do("{custom: 5, units: [pa], value2: 1}").ok());
  ErrorList broken;
  t.game->rules->CheckInvariants(t.s->state(), &broken);
  EXPECT_TRUE(broken.ok()) << broken.ToString();
}

TEST(Rules, Rule_C_2_RetreatStopsAtAUnitInItsPath) {
  // The attackee's own friends stand 4" behind it: its 12" retreat stops in contact with them.
  const std::string units = kFirer + Target(18, 24) +
                            "  - {id: cs2, side: confederate, type: infantry, figures: 24, at: [22, 24], facing: W}\n";
  Mini t = Make(units, "", "deck: [us, cs, cs2, cows, pigs]\n");
  t.s->SupplyDice({1, 20});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  // Edge to edge 3.25", less the contact margin.
  EXPECT_NEAR(t.pos("cs").x, 21.25, 0.05);
  EXPECT_TRUE(t.flags("cs") & kRouted);  // still routed where it stopped
  EXPECT_LE(t.pos("cs").x + 0.375, 21.625 + 0.04);  // never on them (bases meet by at most twice the contact margin)
  EXPECT_EQ(t.Count(EventType::kNote, "C.2"), 1);
  EXPECT_NEAR(t.pos("us").x, 18.0, 0.01);  // the attacker still occupies the old position
}

TEST(Rules, Rule_C_2_AttackerOccupiesOnlyAsFarAsThePathIsClear) {
  // The attackee's retreat is blocked at once (a friend touching its rear): the attacker stops in contact.
  const std::string units = kFirer + Target(18, 24) +
                            "  - {id: cs2, side: confederate, type: infantry, figures: 24, at: [18.75, 24], facing: W}\n";
  Mini t = Make(units, "", "deck: [us, cs, cs2, cows, pigs]\n");
  t.s->SupplyDice({1, 20});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_NEAR(t.pos("cs").x, 18.0, 0.05);  // it moves no more than the contact margin
  EXPECT_NEAR(t.pos("us").x, t.pos("cs").x - 0.75, 0.05);  // front edge against the attackee's rear edge
  EXPECT_EQ(t.Count(EventType::kNote, "C.2"), 2);  // the retreat and the occupation were both stopped
  EXPECT_EQ(t.Count(EventType::kAdvance, "2.3"), 1);
}

TEST(Rules, Rule_C_2_AGlancingPathStopsClearWhereTheStateStoresIt) {
  // From a farm game: the attacker's corner grazes a friend's corner as it occupies the
  // attackee's position, so the overlap grows by about 0.2" an inch of path; the stop must be
  // clear at the hundredths the state stores, not only at the point the path found. (The
  // friend stood 0.2" farther north in that game; here it is clear of the charge's own path
  // to the attackee's nearest part, C.4, and still grazes the path to its centre.)
  const std::string units =
      "  - {id: us, side: union, type: infantry, figures: 24, at: [28.8, 19.26], facing: 333, formation: line}\n"
      "  - {id: us2, side: union, type: infantry, figures: 5, at: [33.02, 21.62], facing: 4, formation: line}\n"
      "  - {id: cs, side: confederate, type: infantry, figures: 22, at: [35, 26.61], facing: 192,"
      " formation: column}\n";
  Mini t = Make(units, "", "deck: [us, us2, cs, cows, pigs]\n");
  t.s->SupplyDice({1, 20});  // the attacker passes, the attackee fails (2.3)
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(t.Count(EventType::kAdvance, "2.3"), 1);
  bool stopped_by_friend = false;
  for (const Event& e : t.s->events())
    stopped_by_friend |= std::string(e.rule) == "C.2" && e.unit == t.U("us") && e.b == t.U("us2");
  EXPECT_TRUE(stopped_by_friend);
  EXPECT_GT(t.pos("us").x, 33.0);  // it got most of the way
  ErrorList broken;
  t.game->rules->CheckInvariants(t.s->state(), &broken);
  EXPECT_TRUE(broken.ok()) << broken.ToString();
}

TEST(Rules, Rule_C_2_RetreatStopsAtTheTableEdge) {
  Mini r = Make("  - {id: us, side: union, type: infantry, figures: 24, at: [38, 24], facing: E}\n" + Target(46, 24));
  r.s->SupplyDice({1, 20});
  ASSERT_TRUE(r.Do("{attack: [us, cs]}").ok());
  EXPECT_NEAR(r.pos("cs").x, 48 - 0.375, 0.01);  // its rear edge on the east edge, not 12" on
  bool noted = false;
  for (const Event& e : r.s->events()) noted |= std::string(e.rule) == "C.2" && std::string(e.text).find("edge") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(Rules, Rule_C_2_ClosingMovesAreEventsAndEndInContact) {
  Mini t = Make(kFirer + Target(18, 24));
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  t.s->SupplyDice({5, 2, 3, 4});
  ASSERT_TRUE(t.Do("{choose: 1}").ok());
  EXPECT_EQ(t.Count(EventType::kAdvance, "2.4"), 2);  // the countercharge 4" and the charger's close
  EXPECT_EQ(t.Count(EventType::kCombatResult, "8.1"), 1);
}

// C.2 (our reading, RULES.md): a charge's closing move pays no terrain. The gap is 7.75",
// almost all of it woods (which halve a move): the charge still reaches and melees.
TEST(Rules, Rule_C_2_AChargeClosesThroughWoodsWithoutTheirCost) {
  Mini t = Make(kFirer + Target(18.5, 24), "  areas:\n    - {name: Wood, kind: woods, rect: [11, 18, 6, 12]}\n");
  t.s->SupplyDice({1, 1});
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  t.s->SupplyDice({6, 6, 1, 1, 1, 1, 2, 5, 1, 2});  // as Rule_2_4_AttackeePassesFiresThenMelee
  ASSERT_TRUE(t.Do("{choose: 0}").ok());
  EXPECT_EQ(t.Count(EventType::kAdvance, "2.4"), 1);  // the charger closed
  EXPECT_EQ(t.Count(EventType::kCombatResult, "8.1"), 1);  // the melee was fought: not stopped short
}

TEST(Rules, Rule_C_3_BuildingHeldByTheEnemyIsEnteredOnlyByChargeAndMelee) {
  const std::string col = "  - {id: us, side: union, type: infantry, figures: 24, at: [12, 24], facing: E, formation: column}\n";
  Mini move = Make(col + Target(20, 24, "", "W", 8), kTallHouse);
  const Status st = move.Do("{move: [us], value: 2000, value2: 2400}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.3");
  // By charge: the defender passes, stands and fires (misses), loses the melee and falls back; the charger goes in.
  Mini charge = Make(kFirer + Target(20, 24, "", "W", 8), kTallHouse);
  ASSERT_TRUE(charge.Do("{move: [us], value: 1250, value2: 2400}").ok());  // 2.5" east: the move is the activation's
  ASSERT_TRUE(charge.Do("end").ok());
  ASSERT_TRUE(charge.Do("end").ok());  // cs
  // Turn 2: deck order again us, cs.
  charge.s->SupplyDice({1, 1});
  ASSERT_TRUE(charge.Do("{attack: [us, cs]}").ok());
  charge.s->SupplyDice({1, 1, 6, 1, 1, 1});  // fire misses; melee 6 against 1 + 2; losses 1 and 0
  ASSERT_TRUE(charge.Do("{choose: 0}").ok());
  EXPECT_EQ(charge.mu("us").building, 1);
  EXPECT_EQ(charge.Count(EventType::kAdvance, "C.3"), 1);
}

TEST(Rules, Rule_2_1_AChargeWithin8InchesReachesItsTarget) {
  // From a farm game: a column charges a line past its end, 7.4" between their nearest parts
  // (2.1 measures to the nearest part) but more than 8" along the line of their centres. The
  // closing move goes to the nearest part, so a charge within 8" meets its target in 8" and
  // the melee is fought (2.4); along the centres' line it was stopped short with no melee.
  const std::string units =
      "  - {id: us, side: union, type: infantry, figures: 24, at: [13, 33.5], facing: E, formation: column}\n" +
      Target(20, 24);
  Mini t = Make(units);
  const double gap = FootprintDistance(FootprintOf(*t.game, t.s->state(), t.U("us")),
                                       FootprintOf(*t.game, t.s->state(), t.U("cs")));
  ASSERT_LE(gap, 8.0);
  t.s->SupplyDice({1, 1});  // both tests pass
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  t.s->SupplyDice(std::vector<int>(40, 1));  // the attackee's fire misses; then the melee
  ASSERT_TRUE(t.Do("{choose: 0}").ok());
  EXPECT_EQ(t.Count(EventType::kAdvance, "2.4"), 1);
  for (const Event& e : t.s->events()) EXPECT_EQ(std::string(e.text).find("stopped short"), std::string::npos);
  EXPECT_GE(t.Count(EventType::kCombatResult, "8.1"), 1);
}

TEST(Rules, Rule_C_4_ChargeNeedsAClearPath) {
  const std::string units = kFirer + Target(18, 24) +
                            "  - {id: us2, side: union, type: infantry, figures: 8, at: [14, 24], facing: E}\n";
  Mini t = Make(units);
  const Status st = t.Do("{attack: [us, cs]}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.4");
}

TEST(Rules, Rule_C_5_FireNeedsTheFrontArcAndALineOfSight) {
  Mini flank = Make(kFirer + Target(10, 14));  // beside the firing line, 7" away
  const Status st = flank.Do("{bombard: [us, cs]}");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "C.5");
  const std::string screen = kFirer + Target(20, 24) +
                             "  - {id: us2, side: union, type: infantry, figures: 24, at: [14, 24], facing: E}\n";
  Mini blocked = Make(screen);
  EXPECT_EQ(blocked.Do("{bombard: [us, cs]}").error().rule, "C.5");  // a friend in the way
  Mini open = Make(kFirer + Target(20, 24));
  open.s->SupplyDice({1, 1, 1, 1, 1, 1});
  EXPECT_TRUE(open.Do("{bombard: [us, cs]}").ok());
}

TEST(Rules, Rule_C_6_RangeToAUnitInABuildingIsToTheBuilding) {
  // The house's west wall is 5.5" from the firer's centre; the occupants' base is 7.125" away.
  Mini t = Make("  - {id: us, side: union, type: infantry, figures: 24, at: [12.5, 24], facing: E}\n" +
                    Target(20, 24, "", "W", 8),
                kTallHouse);
  t.s->SupplyDice({1, 1, 1, 1, 1, 1});
  ASSERT_TRUE(t.Do("{bombard: [us, cs]}").ok());
  int range = -1;
  for (const Event& e : t.s->events()) {
    if (e.type == EventType::kBombard) range = e.a;
  }
  EXPECT_EQ(range, 550);
  EXPECT_EQ(t.LastNeed(), 3 + 2);  // the close band (<= 6") plus the building's +2
}

TEST(Rules, Rule_4_1_OfficerRollFollowsTheStandLostByAFailedAttackee) {
  Mini t = Make(kFirer + Target(18, 24, ", officers: [regimental]"));
  t.s->SupplyDice({1, 20, 6});  // attacker passes, attackee fails (20 vs 7), the officer's D6 is a 6
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(t.mu("cs").officers, 0);
  EXPECT_EQ(t.Count(EventType::kNote, "4.1"), 1);
  Mini lives = Make(kFirer + Target(18, 24, ", officers: [regimental]"));
  lives.s->SupplyDice({1, 20, 3});
  ASSERT_TRUE(lives.Do("{attack: [us, cs]}").ok());
  EXPECT_EQ(lives.mu("cs").officers, kRegimental);
  EXPECT_EQ(lives.s->dice_queued(), 0u);  // exactly one officer die was rolled
}

TEST(Rules, Rule_6_1_ArtilleryOpponentPlus1InMelee) {
  Mini t = Make(std::string(kFirer) + "  - {id: cs, side: confederate, type: artillery, figures: 12, guns: 4, at: [18, 24],"
                         " facing: W, formation: line}\n");
  t.s->SupplyDice({1, 1, 1, 1, 1});  // the charger passes; the battery passes (a 1 under 4 guns)
  ASSERT_TRUE(t.Do("{attack: [us, cs]}").ok());
  t.s->SupplyDice({1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 1, 1});  // its 8 dice miss; melee 3 + 1 against 3
  ASSERT_TRUE(t.Do("{choose: 0}").ok());
  bool seen = false;
  for (const Event& e : t.s->events()) {
    if (e.type == EventType::kCombatResult && std::string(e.rule) == "8.1") {
      EXPECT_EQ(e.a, 4);
      EXPECT_EQ(e.b, 3);
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
}

// --- What a player sees (T.3, T.4) ---------------------------------------------------------------

TEST(Rules, Rule_T_3_JsonCarriesEveryUnitsTabletopStateAndTheLivestock) {
  Mini t = Make(kFirer + Target(20, 24, ", officers: [regimental, divisional]", "W", 14), kTallHouse,
                "deck: [cs, us, cows, pigs]\nlivestock:\n  cows: [40, 40]\n  pigs: [40, 10]\n");
  const std::string j = t.game->rules->StateJson(t.s->state());
  for (const char* key :
       {"\"id\": \"us\"", "\"figures\": 24", "\"stands\": 12", "\"guns\": 0", "\"formation\": \"line\"",
        "\"facing\": 0", "\"facing\": 180", "\"officers\": [\"regimental\", \"divisional\"]", "\"routed\": false",
        "\"pinned\": false", "\"disorganized\": true", "\"building\": {\"name\": \"House\", \"inside\": 10",
        "\"waiting\": 4", "\"kind\": \"cows\"", "\"kind\": \"pigs\"", "\"penned\": true", "\"x\": 40.00, \"y\": 40.00",
        "\"active\": \"cs\""}) {
    EXPECT_NE(j.find(key), std::string::npos) << key << " in " << j;
  }
}

// Label boxes as the SVG draws them (bold text: unit labels, 5 px a character, 9 px high).
struct Label {
  double x, y, w;
  std::string text;
};
std::vector<Label> BoldLabels(const std::string& svg) {
  std::vector<Label> out;
  size_t at = 0;
  while ((at = svg.find("<text x=\"", at)) != std::string::npos) {
    const size_t end = svg.find("</text>", at);
    const std::string tag = svg.substr(at, end - at);
    at = end;
    if (tag.find("font-weight=\"bold\"") == std::string::npos || tag.find("font-size=\"9\"") == std::string::npos) continue;
    Label l;
    std::sscanf(tag.c_str(), "<text x=\"%lf\" y=\"%lf\"", &l.x, &l.y);
    l.text = tag.substr(tag.find('>') + 1);
    l.w = 5.6 * static_cast<double>(l.text.size());
    out.push_back(l);
  }
  return out;
}

TEST(Rules, Rule_T_4_SvgHasScaleLegendTerrainNamesMarkersAndLivestock) {
  auto g = LoadGame("civil_war_miniatures(scenario=farm)");
  ASSERT_TRUE(g.ok());
  Session s(*g, 3);
  std::string svg;
  ASSERT_TRUE((*g)->rules->RenderSvg(s.state(), &svg));
  for (const char* want : {"12 inches", "Legend", "Farm house", "Barn", "Pig pen", "North wood", "Ridge",
                           "West fence", "1st Virginia 12 st r d", "Battery D 5th US 4 guns", ">cows<", "pigs (penned)",
                           "routed (10.1)", "pinned", "disorganized", "waiting behind a building"}) {
    EXPECT_NE(svg.find(want), std::string::npos) << want;
  }
  EXPECT_EQ(svg.find("csa_1va"), std::string::npos);  // names, not ids
  // Inch marks: one tick a side per inch on the 72" edges and the 48" edges.
  size_t lines = 0;
  for (size_t at = 0; (at = svg.find("stroke=\"#333\"/><line", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, 73u + 49u);
  // No two unit labels overlap.
  const auto labels = BoldLabels(svg);
  EXPECT_EQ(labels.size(), 8u);
  for (size_t i = 0; i < labels.size(); ++i) {
    for (size_t k = i + 1; k < labels.size(); ++k) {
      const Label &a = labels[i], &b = labels[k];
      const bool overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y - 9 < b.y && b.y - 9 < a.y;
      EXPECT_FALSE(overlap) << a.text << " / " << b.text;
    }
  }
  // Every unit label lies on the table, not over the inch marks or off the picture
  // (Battery D 5th US stands 2" from the west edge: its name goes to its east).
  const double left = 34, right = 34 + 72 * 10, top = 34, bottom = 34 + 48 * 10;
  for (const Label& l : labels) {
    EXPECT_GE(l.x, left) << l.text;
    EXPECT_LE(l.x + l.w, right) << l.text;
    EXPECT_GE(l.y - 9, top) << l.text;
    EXPECT_LE(l.y, bottom) << l.text;
  }
  // A routed unit carries its marker.
  Mini r = Make(Router());
  ASSERT_TRUE(r.game->rules->RenderSvg(r.s->state(), &svg));
  EXPECT_NE(svg.find("fill=\"#d62828\" stroke=\"white\""), std::string::npos);
}

// T.4: no area or fence name lies under a unit's base. The farm with the 44th
// New York in the farm house and the 11th Virginia in the barn: their names go
// beside the buildings, where they can be read.
TEST(Rules, Rule_T_4_TerrainNamesAreNeverUnderAUnit) {
  std::ifstream in(std::string(WG_RULESET_DIR) + "/scenarios/farm/scenario.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"at: [14, 16]", "at: [34.5, 26.5]"},
                                 {"at: [58, 16]", "at: [40, 19.5]"}}) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  const auto path = std::filesystem::temp_directory_path() / "cwm_labels.yaml";
  std::ofstream(path) << text;
  auto g = LoadMiniGame(WG_RULESET_DIR, path.string(), GameParams{});
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  Session s(*g, 3);
  std::string svg;
  ASSERT_TRUE((*g)->rules->RenderSvg(s.state(), &svg));
  struct Rect { double x0, y0, x1, y1; std::string what; };
  std::vector<Rect> bases, names;
  for (size_t at = 0; (at = svg.find("<polygon fill=\"", at)) != std::string::npos; ++at) {
    const std::string tag = svg.substr(at, svg.find("</polygon>", at) - at);
    if (tag.find("stroke=\"black\"") == std::string::npos) continue;  // units; areas are stroked #333
    const size_t title = tag.find("<title>") + 7;
    Rect r{1e9, 1e9, -1e9, -1e9, tag.substr(title, tag.find("</title>") - title)};
    std::istringstream pts(tag.substr(tag.find("points=\"") + 8));
    double x, y;
    char comma;
    while (pts >> x >> comma >> y && comma == ',') r = {std::min(r.x0, x), std::min(r.y0, y), std::max(r.x1, x), std::max(r.y1, y), r.what};
    bases.push_back(r);
  }
  for (size_t at = 0; (at = svg.find("<text x=\"", at)) != std::string::npos; ++at) {
    const std::string tag = svg.substr(at, svg.find("</text>", at) - at);
    if (tag.find("font-style=\"italic\"") == std::string::npos) continue;  // area and fence names (and herds)
    double x, y;
    std::sscanf(tag.c_str(), "<text x=\"%lf\" y=\"%lf\"", &x, &y);
    const std::string name = tag.substr(tag.find('>') + 1);
    names.push_back({x, y - 8, x + 4.5 * static_cast<double>(name.size()), y, name});
  }
  EXPECT_EQ(bases.size(), 8u);
  EXPECT_GE(names.size(), 7u);  // five areas, two fences
  for (const Rect& n : names) {
    for (const Rect& b : bases) {
      EXPECT_FALSE(n.x0 < b.x1 && b.x0 < n.x1 && n.y0 < b.y1 && b.y0 < n.y1) << n.what << " under " << b.what;
    }
  }
}

// --- The chart as data, the loader's errors, scenario files ------------------------------------

std::string CopyRuleset(const std::string& name, const std::string& from, const std::string& to) {
  const auto dir = std::filesystem::temp_directory_path() / ("cwm_ruleset_" + name);
  std::filesystem::create_directories(dir);
  std::ifstream in(std::string(WG_RULESET_DIR) + "/ruleset.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!from.empty()) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  std::ofstream(dir / "ruleset.yaml") << text;
  return dir.string();
}

TEST(Rules, Rule_9_1_DirectionTableIsData) {
  const std::string folder = CopyRuleset("south", "cows: [N, E, S, W, stay, scatter]", "cows: [S, S, S, S, S, S]");
  Mini t = Make(kFirer + Target(40, 24), "", "deck: [cows, us, cs, pigs]\nlivestock:\n  cows: [30, 40]\n", 3, folder);
  // The cow card came first and was resolved at set-up with the seeded dice: whatever the face, south.
  const Herd& h = t.m().herds[0];
  EXPECT_EQ(h.x, 3000);
  EXPECT_LT(h.y, 4000);
}

TEST(Rules, LoaderReportsMissingAndMisshapedSectionsWithPositions) {
  struct Case {
    const char* from;
    const char* to;
    const char* path;
  } cases[] = {
      {"  livestock:                 #", "  herds:                 #", "chart.livestock"},
      {"    die: 20\n    battery_die: 6", "    die: twenty\n    battery_die: 6", "chart.morale.die"},
      {"    cows: [N, E, S, W, stay, scatter]", "    cows: [N, E]", "chart.livestock.cows"},
      {"calibration:\n", "calibration: 5\nx:\n", "calibration"},
      {"  fire_arc: 45", "  fire_arc: [45]", "calibration.fire_arc"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string folder = CopyRuleset("bad" + std::to_string(i++), c.from, c.to);
    const std::string scen = std::string(WG_RULESET_DIR) + "/scenarios/farm/scenario.yaml";
    GameParams p;
    auto g = LoadMiniGame(folder, scen, p);
    ASSERT_FALSE(g.ok()) << c.path;
    bool found = false;
    for (const Error& e : g.errors().errors()) {
      found |= e.path.rfind(c.path, 0) == 0 && e.line > 0 && e.file.find("ruleset.yaml") != std::string::npos;
    }
    EXPECT_TRUE(found) << c.path << ": " << g.errors().ToString();
  }
  // A scenario that is not a map, and one without units.
  const auto dir = std::filesystem::temp_directory_path();
  std::ofstream(dir / "cwm_scalar.yaml") << "just a line\n";
  auto scalar = LoadMiniGame(WG_RULESET_DIR, (dir / "cwm_scalar.yaml").string(), GameParams{});
  ASSERT_FALSE(scalar.ok());
  EXPECT_EQ(scalar.errors().errors().front().line, 1);
  std::ofstream(dir / "cwm_nounits.yaml") << "turns: 2\ntable: {width: 10, depth: 10, home_edges: {union: west, confederate: east}}\n";
  auto none = LoadMiniGame(WG_RULESET_DIR, (dir / "cwm_nounits.yaml").string(), GameParams{});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.errors().ToString().find("units: missing required section"), std::string::npos)
      << none.errors().ToString();
}

// Issue 14: whatever a line of either file becomes (deleted, or its value a list, a map or a
// word), loading gives a game or file:line:col errors, never an exception or an abort.
TEST(Rules, LoaderSurvivesEveryLineDeletedOrMisshaped) {
  auto read = [](const std::string& f) {
    std::ifstream in(f);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string dir = std::string(WG_RULESET_DIR);
  const std::string files[2] = {read(dir + "/ruleset.yaml"), read(dir + "/scenarios/farm/scenario.yaml")};
  const auto tmp = std::filesystem::temp_directory_path() / "cwm_fuzz";
  std::filesystem::create_directories(tmp / "scenarios" / "farm");
  int loads = 0, refused = 0;
  for (int which = 0; which < 2; ++which) {
    std::vector<std::string> lines;
    std::istringstream in(files[which]);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    for (size_t i = 0; i < lines.size(); ++i) {
      for (const char* value : {"", "[x, [y]]", "{a: 1}", "word"}) {
        std::vector<std::string> mutated = lines;
        const size_t colon = mutated[i].find(':');
        if (*value == '\0') {
          mutated.erase(mutated.begin() + static_cast<long>(i));
        } else if (colon != std::string::npos) {
          mutated[i] = mutated[i].substr(0, colon + 1) + " " + value;
        } else {
          continue;
        }
        std::string text;
        for (const std::string& l : mutated) text += l + "\n";
        std::ofstream(tmp / "ruleset.yaml") << (which == 0 ? text : files[0]);
        std::ofstream(tmp / "scenarios" / "farm" / "scenario.yaml") << (which == 1 ? text : files[1]);
        GameParams p;
        Result<std::shared_ptr<const Game>> g = ErrorList{};
        EXPECT_NO_THROW(g = LoadMiniGame(tmp.string(), "scenarios/farm/scenario.yaml", p)) << which << ":" << i << " " << value;
        ++loads;
        if (g.ok()) continue;
        ++refused;
        for (const Error& e : g.errors().errors()) {
          EXPECT_FALSE(e.file.empty()) << e.ToString();
          EXPECT_TRUE(e.line > 0 || !e.path.empty()) << e.ToString();
        }
      }
    }
  }
  EXPECT_GT(refused, loads / 4);
}

TEST(Rules, ScenarioFileSetsUpAPositionFromOutside) {
  const auto path = std::filesystem::temp_directory_path() / "cwm_outside.yaml";
  std::ofstream(path) << "turns: 6\nstart_turn: 4\nshuffle: false\n"
                         "table: {width: 48, depth: 48, home_edges: {union: west, confederate: east}}\n"
                         "units:\n" << kFirer
                      << "  - {id: cs, side: confederate, type: infantry, figures: 13, at: [30, 20], facing: NW,"
                         " formation: column, officers: [regimental], pinned: true}\n";
  auto g = LoadGame("civil_war_miniatures(scenario=" + path.string() + ")");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  Session s(*g, 1);
  const UnitId cs = static_cast<UnitId>((*g)->UnitIndex("cs"));
  EXPECT_EQ(s.state().turn, 4);
  const MiniUnit& mu = Ext<MiniState>(s.state()).units[cs];
  EXPECT_EQ(mu.figures, 13);
  EXPECT_EQ(mu.facing, 135);
  EXPECT_EQ(mu.officers, kRegimental);
  EXPECT_EQ(s.state().unit(cs).face, 0);
  EXPECT_TRUE(s.state().unit(cs).Has(kPinned));
}

TEST(Rules, FarmScenarioLoads) {
  auto g = LoadGame("civil_war_miniatures(scenario=farm)");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  EXPECT_EQ((*g)->num_units(), 8);
}

}  // namespace
}  // namespace wg::civil_war_miniatures
