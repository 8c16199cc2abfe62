// The hex engine's combat without one ruleset's rules in it (issue 11): a CRT
// result's effects are data (crt.effects: the exchange EX is the ruleset's),
// the order of the excess eliminated on over-stacking is data
// (combat.stacking_untrained_first), and the combat roll is a chance step a
// search can stop at and enumerate.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/conformance.h"
#include "wargame/event.h"
#include "wargame/players.h"
#include "wargame/hex_rules.h"
#include "wargame/session.h"
#include "wargame/steps.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

const fs::path kSkirmish = fs::path(WG_TEST_DATA_DIR) / "rulesets" / "skirmish";

// Blue's combat phase: b1 (4) and b2 (3) in 0403 next to r2 (printed 3, two hits: 1)
// in 0503. 7 to 1 is the 6-1 column: DE DE DE DR DR EX.
const char* kExchange = R"(extends: meeting.yaml
only_placed: true
start: {turn: 2, side: blue, phase: combat}
place:
  - {unit: b1, hex: "0403", released: true}
  - {unit: b2, hex: "0403", released: true}
  - {unit: r2, hex: "0503", markers: {hit: 2}}
)";

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A copy of skirmish in a fresh folder, with `edits` (from -> to, each found once)
// applied to its files and `scenario` written as scenarios/test.yaml.
class SkirmishCopy {
 public:
  // ctest runs tests in parallel processes: the folder is this process's.
  explicit SkirmishCopy(const std::string& name)
      : dir_(fs::path(::testing::TempDir()) / ("wg_combat_roll_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir_);
    fs::copy(kSkirmish, dir_, fs::copy_options::recursive);
  }
  ~SkirmishCopy() { fs::remove_all(dir_); }
  void Edit(const std::string& file, const std::string& from, const std::string& to) {
    std::string text = Slurp(dir_ / file);
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << file << ": " << from;
    text.replace(at, from.size(), to);
    std::ofstream(dir_ / file, std::ios::trunc) << text;
  }
  Result<std::shared_ptr<const Game>> Load(const std::string& scenario) {
    std::ofstream(dir_ / "scenarios" / "test.yaml", std::ios::trunc) << scenario;
    return LoadGame(dir_.string() + "(scenario=" + (dir_ / "scenarios" / "test.yaml").string() + ")");
  }

 private:
  fs::path dir_;
};

std::shared_ptr<const Game> ExchangeGame() {
  SkirmishCopy copy("exchange");
  auto g = copy.Load(kExchange);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.errors().ToString());
  return g.ok() ? *g : nullptr;
}

Action Parse(const Game& g, const std::string& text) {
  auto a = ParseActionText(g, text);
  EXPECT_TRUE(a.ok()) << text;
  return a.ok() ? *a : Action{};
}

const char* kAttack = "{attack: [b1, b2], target: [0503]}";

// skirmish's declaration of EX (tests/data/rulesets/skirmish/ruleset.yaml).
const char* kEffects =
    "  effects:  # EX, exchange: the defenders are eliminated and the attackers lose, weakest first, at least their "
    "printed strength\n    EX: {defender: eliminated, attacker: exchange}\n";

// --- crt.effects -------------------------------------------------------------------------

TEST(CrtEffects, TheExchangeIsTheRulesetsDeclaredEffectNotTheEngines) {
  // The engine's own results are AE, AR, DE, DR; EX means something only where declared.
  EXPECT_NE(StandardResultEffect("DR"), nullptr);
  EXPECT_EQ(StandardResultEffect("EX"), nullptr);
  auto g = ExchangeGame();
  ASSERT_TRUE(g);
  const ResultEffect* ex = g->Data<HexGameData>().crt.Effect("EX");
  ASSERT_NE(ex, nullptr);
  EXPECT_EQ(ex->defender, ResultLoss::kEliminated);
  EXPECT_EQ(ex->attacker, ResultLoss::kExchange);
  // Without the declaration, a table with EX is refused at load with the cell's position.
  SkirmishCopy bare("bare");
  bare.Edit("ruleset.yaml", kEffects, "");
  auto refused = bare.Load(kExchange);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.errors().ToString().find("result token \"EX\" is not one the standard hex rules apply (AE, AR, DE, DR)"),
            std::string::npos)
      << refused.errors().ToString();
}

TEST(CrtEffects, AnExchangeEliminatesTheDefendersAndTheWeakestAttackersUpToTheirPrintedStrength) {
  auto g = ExchangeGame();
  ASSERT_TRUE(g);
  Session s(g, 1);
  s.SupplyDice({6});  // 6-1, roll 6: EX
  ASSERT_TRUE(s.Apply(Parse(*g, kAttack)).ok());
  const State& st = s.state();
  // Recount: r2's printed 3 is owed; b2 (3) is the weakest and pays it alone.
  EXPECT_EQ(st.unit(g->UnitIndex("r2")).hex, kEliminated);
  EXPECT_EQ(st.unit(g->UnitIndex("b2")).hex, kEliminated);
  EXPECT_TRUE(st.unit(g->UnitIndex("b1")).OnMap());
  int ex_events = 0;
  for (const Event& e : s.events()) ex_events += e.type == EventType::kEliminated && std::string(e.text) == "EX";
  EXPECT_EQ(ex_events, 2);
}

TEST(CrtEffects, DeclaredEffectsAreCheckedAtLoad) {
  struct Case {
    std::string to, message;
  };
  const std::vector<Case> cases = {
      {"    EX: {defender: eliminated, attacker: swap}\n", "crt.effects.EX.attacker: expected none, eliminated, retreat or exchange"},
      {"    EX: {defender: none}\n", "crt.effects.EX: the result does nothing to either side"},
      {"    E2: {defender: eliminated}\n", "crt.effects.E2: a result token is upper-case letters"},
      {"    EX: {defender: eliminated, losses: 2}\n", "crt.effects.EX.losses: unknown key"},
  };
  for (const Case& c : cases) {
    SkirmishCopy copy("bad_effect");
    copy.Edit("ruleset.yaml", "    EX: {defender: eliminated, attacker: exchange}\n", c.to);
    auto g = copy.Load(kExchange);
    ASSERT_FALSE(g.ok()) << c.to;
    EXPECT_NE(g.errors().ToString().find(c.message), std::string::npos) << g.errors().ToString();
    EXPECT_NE(g.errors().ToString().find("ruleset.yaml:"), std::string::npos) << g.errors().ToString();
  }
}

// --- The combat roll as a chance step ------------------------------------------------------

TEST(CombatRoll, ASearchStopsAtTheRollAndItsOutcomesAreTheCrtColumnsDistribution) {
  auto g = ExchangeGame();
  ASSERT_TRUE(g);
  Session session(g, 1);
  const auto& rules = static_cast<const HexRules&>(*g->rules);
  State s = session.state();
  Context ctx(*g, nullptr, nullptr, &session.scratch());
  ctx.StopAtChance(true);
  const auto rng = s.rng;
  const auto combats = s.combat_count;
  ASSERT_TRUE(rules.Apply(s, Parse(*g, kAttack), ctx).ok());
  // Stopped at the roll: no die drawn, no result applied yet.
  const StepKind roll = rules.steps().Find("combat_roll");
  ASSERT_NE(roll, kNoStep);
  ASSERT_EQ(TopKind(s), roll);
  EXPECT_EQ(s.rng, rng);
  EXPECT_EQ(s.combat_count, combats);
  EXPECT_TRUE(s.unit(g->UnitIndex("r2")).OnMap());
  // A chance node: no player's action is listed or taken.
  std::vector<Action> legal;
  rules.LegalActions(s, ctx, &legal);
  EXPECT_TRUE(legal.empty());
  State before = s;
  EXPECT_FALSE(rules.Apply(s, Action::EndPhase(), ctx).ok());
  EXPECT_TRUE(s.Equals(before));
  const ChanceDef* c = PendingChance(rules.steps(), s);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->sides, 6);
  EXPECT_EQ(c->label, "combat");
  // Each outcome, applied to a copy: the result it gives, weighted by its probability.
  std::map<std::string, double> by_result;
  for (const auto& [value, p] : ChanceOutcomes(*c)) {
    State copy = s;
    EventLog log;
    Context at(*g, nullptr, &log, &session.scratch());
    ASSERT_TRUE(ResolveChance(rules.steps(), copy, at, value).ok());
    EXPECT_NE(TopKind(copy), roll);
    EXPECT_EQ(copy.combat.roll, value);
    EXPECT_EQ(copy.combat_count, combats + 1);
    std::string result;
    for (const Event& e : log.events) {
      if (e.type == EventType::kCombatResult) result = e.text;
    }
    by_result[result] += p;
  }
  // The 6-1 column as printed in ruleset.yaml (rows 1..6: DE DE DE DR DR EX), recounted.
  EXPECT_NEAR(by_result["DE"], 3.0 / 6, 1e-12);
  EXPECT_NEAR(by_result["DR"], 2.0 / 6, 1e-12);
  EXPECT_NEAR(by_result["EX"], 1.0 / 6, 1e-12);
  EXPECT_EQ(by_result.size(), 3u);
  // The same as the analysis before the die is cast.
  const AttackAnalysis an = rules.AnalyzeAttack(session.state(), ctx, Parse(*g, kAttack));
  ASSERT_TRUE(an.status.ok());
  ASSERT_EQ(an.outcomes.size(), by_result.size());
  for (const CrtOutcome& o : an.outcomes) EXPECT_NEAR(by_result[o.result->text], o.probability(), 1e-12) << o.result->text;
}

TEST(CombatRoll, NormalPlayRollsAtOnceExactlyAsBefore) {
  // The seeded generator and supplied dice roll the step inside the attack: the
  // action leaves no chance step, the same die gives the same state.
  auto g = ExchangeGame();
  ASSERT_TRUE(g);
  for (int die = 1; die <= 6; ++die) {
    Session a(g, 7);
    a.SupplyDice({die});
    ASSERT_TRUE(a.Apply(Parse(*g, kAttack)).ok());
    EXPECT_EQ(PendingChance(g->rules->steps(), a.state()), nullptr);
    EXPECT_EQ(a.state().combat.roll, die);
    // Stopping at the roll and giving the same die reaches the same state.
    const auto& rules = static_cast<const HexRules&>(*g->rules);
    Session b(g, 7);
    State s = b.state();
    Context stop(*g, nullptr, nullptr, &b.scratch());
    stop.StopAtChance(true);
    ASSERT_TRUE(rules.Apply(s, Parse(*g, kAttack), stop).ok());
    ASSERT_TRUE(ResolveChance(rules.steps(), s, stop, die).ok());
    ++s.action_count;  // as Session::Apply counts it
    EXPECT_TRUE(s.Equals(a.state())) << "die " << die;
  }
}

TEST(CombatRoll, EveryHexRulesetRegistersTheRollAfterItsOwnSteps) {
  for (const char* spec : {"stars_and_bars", "blue_and_gray", "skirmish"}) {
    auto g = LoadGame(spec);
    ASSERT_TRUE(g.ok()) << spec;
    const StepTable& t = (*g)->rules->steps();
    const StepKind roll = t.Find("combat_roll");
    ASSERT_NE(roll, kNoStep) << spec;
    // After the ruleset's own steps, so the kinds of its steps (saved in a State) kept their
    // numbers; only the scripts and chance steps registered later still (after_combat, Stars
    // and Bars' combat_result and its dice of issue 37) come after it.
    for (int k = roll + 1; k < t.size(); ++k) {
      const StepKind kind = static_cast<StepKind>(k);
      EXPECT_TRUE(IsScript(t, kind) || t.Def(kind).chance.sides > 0) << spec << ": " << t.Def(kind).name;
    }
    EXPECT_EQ(t.Find("after_combat"), roll + 1) << spec;
    EXPECT_EQ(t.Def(roll).chance.sides, (*g)->Data<HexGameData>().crt.die.sides) << spec;
    EXPECT_FALSE(t.Def(roll).rule.empty()) << spec;
  }
}

// --- combat.stacking_untrained_first ---------------------------------------------------------

// Blue's movement phase with b1 (4), b2 (3, untrained) and b3 (2) in 0203 (limit 2).
const char* kCrowded = R"(extends: meeting.yaml
only_placed: true
start: {turn: 2, side: blue, phase: movement}
place:
  - {unit: b1, hex: "0203", released: true}
  - {unit: b2, hex: "0203", released: true}
  - {unit: b3, hex: "0203", released: true}
  - {unit: r1, hex: "0803"}
)";

// Which Blue unit the end of the movement phase eliminates.
std::string EliminatedAtTheCheckpoint(bool untrained_first) {
  SkirmishCopy copy(untrained_first ? "untrained_first" : "weakest_first");
  copy.Edit("ruleset.yaml", "stacking_check: refuse", std::string("stacking_check: eliminate\n  stacking_untrained_first: ") +
                                                          (untrained_first ? "true" : "false"));
  copy.Edit("units.yaml", "values: {strength: 3, movement: 4}, setup: \"0204\"}",
            "values: {strength: 3, movement: 4}, setup: \"0204\", trained: false}");
  auto g = copy.Load(kCrowded);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.errors().ToString());
  if (!g.ok()) return "";
  Session s(*g, 1);
  EXPECT_TRUE(s.Apply(Action::EndPhase()).ok());
  std::string out;
  for (const char* id : {"b1", "b2", "b3"}) {
    if (s.state().unit((*g)->UnitIndex(id)).hex == kEliminated) out += id;
  }
  return out;
}

TEST(Stacking, TheExcessEliminatedIsTheWeakestUnlessTheRulesetPutsUntrainedUnitsFirst) {
  EXPECT_EQ(EliminatedAtTheCheckpoint(false), "b3");
  EXPECT_EQ(EliminatedAtTheCheckpoint(true), "b2");
}


// --- Issue 37: every die of a hex ruleset is a chance step -------------------------------------

// Random games, each action checked by CheckStoppingAtEveryDie (conformance.h): applied on a
// Context that stops at chance it rolls no die itself; every die is a chance step, given there;
// and with those dice supplied instead it reaches the same State in a Session that rolls at once:
// stopping at a die changes nothing but where it is asked. `met` counts the chance steps met.
void PlayStoppingAtEveryDie(const std::string& spec, uint64_t games, std::map<std::string, int>* met) {
  auto g = LoadGame(spec);
  ASSERT_TRUE(g.ok()) << spec << ": " << g.errors().ToString();
  const Rules& rules = *(*g)->rules;
  const StepTable& t = rules.steps();
  for (uint64_t seed = 1; seed <= games; ++seed) {
    Session normal(*g, seed);
    RngState rng = SeedRng(seed * 977 + 5);
    RandomPlayer player(seed);
    for (int n = 0; n < 20000 && !normal.state().game_over; ++n) {
      const std::vector<Action> legal = normal.LegalActions();
      ASSERT_FALSE(legal.empty()) << spec << " seed " << seed;
      const Action a = player.Choose(**g, normal.state(), legal);
      std::vector<int> dice;
      const Status checked = CheckStoppingAtEveryDie(normal, a, &rng, &dice, [&](const State& s) {
        const std::string& name = t.Def(TopKind(s)).name;
        ++(*met)[name];
        // What a referee is asked: the die, by its step's prompt (Stars and Bars' own dice).
        if (name.size() > 5 && name.compare(name.size() - 5, 5, "_roll") == 0 && name != "combat_roll") {
          EXPECT_EQ(rules.DescribeDecision(s).rfind("roll a d" + std::to_string(PendingChance(t, s)->sides) + ": ", 0), 0u)
              << rules.DescribeDecision(s);
        }
      });
      ASSERT_TRUE(checked.ok()) << spec << " seed " << seed << " action " << n << ": " << ActionToText(**g, a) << ": "
                                << checked.ToString();
      normal.SupplyDice(dice);
      ASSERT_TRUE(normal.Apply(a).ok()) << spec << " seed " << seed << ": " << ActionToText(**g, a);
    }
    EXPECT_TRUE(normal.state().game_over) << spec << " seed " << seed;
  }
}

// The hex rulesets' dice are explicit chance steps (none is held: a held roll there would be a
// die still rolled inside an action); the tabletop's are held rolls (steps.h): the action waits
// at each die, with the dice given so far, and completes when its last die is given.
TEST(ChanceSteps, EveryDieOfEveryRulesetIsAChanceStep) {
  std::map<std::string, int> met;
  PlayStoppingAtEveryDie("stars_and_bars(optional=12.3+12.4+12.6)", 3, &met);
  for (const char* die : {"combat_roll", "bombardment_roll", "reorganization_roll", "union_initiative_roll"}) {
    EXPECT_GT(met[die], 0) << "Stars and Bars' " << die << " was never met: the test would prove nothing";
  }
  EXPECT_EQ(met["held_roll"], 0) << "a Stars and Bars die is still rolled inside an action";
  met.clear();
  PlayStoppingAtEveryDie("blue_and_gray(scenario=chattanooga)", 2, &met);
  EXPECT_GT(met["combat_roll"], 0);
  EXPECT_EQ(met["held_roll"], 0);
  met.clear();
  PlayStoppingAtEveryDie("skirmish", 5, &met);
  EXPECT_GT(met["combat_roll"], 0);
  EXPECT_EQ(met["held_roll"], 0);
  met.clear();
  PlayStoppingAtEveryDie("civil_war_miniatures", 3, &met);
  EXPECT_GT(met["held_roll"], 100) << "the tabletop's fire, melee, morale and livestock dice";
}

// A held roll, step by step: the State stays the one before the action, the chance step says
// the die and the rule, another action is refused, a die out of range is refused, and the dice
// given one by one reach the State a Session reaches with them supplied.
TEST(ChanceSteps, AHeldRollWaitsAtEachDieOfTheAction) {
  auto g = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  const Rules& rules = *(*g)->rules;
  const StepTable& t = rules.steps();
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Session normal(*g, seed);
    RandomPlayer player(seed);
    // Play at once until an action that rolls dice (a fire, a charge, a rally) is listed.
    for (int n = 0; n < 400 && !normal.state().game_over; ++n) {
      State s = normal.state();
      EventLog log;
      Context ctx(**g, nullptr, &log, &normal.scratch());
      ctx.StopAtChance(true);
      std::vector<Action> legal;
      rules.LegalActions(s, ctx, &legal);
      const Action a = player.Choose(**g, s, legal);
      ASSERT_TRUE(rules.Apply(s, a, ctx).ok());
      if (TopKind(s) != kHeldRollStep) {
        ASSERT_TRUE(normal.Apply(a).ok());
        continue;
      }
      // Held: nothing of the action happened yet.
      State before = normal.state();
      EXPECT_TRUE(log.events.empty());
      EXPECT_EQ(s.decision, before.decision);
      EXPECT_EQ(s.decision_side, before.decision_side);
      for (UnitId u = 0; u < s.num_units; ++u) EXPECT_EQ(std::memcmp(&s.unit(u), &before.unit(u), sizeof(UnitState)), 0);
      EXPECT_EQ(std::memcmp(s.ext.data(), before.ext.data(), s.ext.size()), 0);
      const ChanceDef* c = PendingChance(t, s);
      ASSERT_NE(c, nullptr);
      EXPECT_EQ(rules.DescribeDecision(s).rfind("roll a d" + std::to_string(c->sides) + ": " + c->label, 0), 0u)
          << rules.DescribeDecision(s);
      std::vector<Action> none;
      rules.LegalActions(s, ctx, &none);
      EXPECT_TRUE(none.empty());
      EXPECT_FALSE(rules.Apply(s, Action::EndPhase(), ctx).ok()) << "an action while a die is due";
      EXPECT_FALSE(ResolveChance(t, s, ctx, c->sides + 1).ok());
      EXPECT_EQ(TopKind(s), kHeldRollStep);
      ErrorList errs;
      CheckStepStack(t, s, &errs);
      EXPECT_TRUE(errs.ok()) << errs.ToString();
      std::vector<int> dice;
      RngState rng = SeedRng(seed);
      for (int k = 0; k < 200 && PendingChance(t, s); ++k) {
        EXPECT_EQ(s.held.num_dice, dice.size());
        dice.push_back(RollDie(rng, PendingChance(t, s)->sides));
        ASSERT_TRUE(ResolveChance(t, s, ctx, dice.back()).ok());
      }
      EXPECT_EQ(PendingChance(t, s), nullptr);
      int rolled = 0;
      for (const Event& e : log.events) rolled += e.type == EventType::kDieRoll;
      EXPECT_EQ(rolled, static_cast<int>(dice.size())) << "each die given is reported once, by the completed action";
      normal.SupplyDice(dice);
      ASSERT_TRUE(normal.Apply(a).ok());
      ++s.action_count;
      EXPECT_TRUE(s.Equals(normal.state())) << "seed " << seed;
      EXPECT_EQ(HashState(s), HashState(normal.state()));
      return;  // one held action is enough per game; the whole games are the test above
    }
  }
  FAIL() << "no action rolled a die in 20 games: the test proves nothing";
}

}  // namespace
}  // namespace wg
