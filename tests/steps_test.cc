// The step stack (wargame/steps.h): the mirror of decision / decision_side,
// capacity, the table, dispatch by the top step, chance steps; and that nothing
// but the step functions writes whose decision it is.
#include "wargame/steps.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "wargame/game.h"
#include "wargame/game_loader.h"
#include "wargame/hex_rules.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/rule_index.h"
#include "wargame/session.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

StepTable TwoSteps(StepKind* a, StepKind* b) {
  StepTable t;
  StepDef da;
  da.name = "alpha";
  da.rule = "1.1";
  da.decision = DecisionType::kMovement;
  *a = t.Register(da);
  StepDef db;
  db.name = "beta";
  db.rule = "2.2";
  db.decision = DecisionType::kLosses;
  *b = t.Register(db);
  return t;
}

TEST(Steps, TheDecisionMirrorsTheTopStep) {
  StepKind a = 0, b = 0;
  const StepTable t = TwoSteps(&a, &b);
  State s;
  ResetState(&s);
  EXPECT_EQ(s.decision, DecisionType::kNone);
  ASSERT_TRUE(PushStep(s, t, a, 1));
  EXPECT_EQ(s.decision, DecisionType::kMovement);
  EXPECT_EQ(s.decision_side, 1);
  ASSERT_TRUE(PushStep(s, t, b, 0, {7, -3}));
  EXPECT_EQ(s.decision, DecisionType::kLosses);
  EXPECT_EQ(s.decision_side, 0);
  EXPECT_EQ(TopStep(s)->args[0], 7);
  EXPECT_EQ(TopStep(s)->args[1], -3);
  EXPECT_EQ(t.RuleText(TopStep(s)->rule), "2.2");
  PopStep(s, t);
  EXPECT_EQ(s.decision, DecisionType::kMovement);
  EXPECT_EQ(s.decision_side, 1);
  ReplaceStep(s, t, b, 0);
  EXPECT_EQ(StepDepth(s), 1);
  EXPECT_EQ(s.decision, DecisionType::kLosses);
  PopStep(s, t);
  // No step: no decision; who decided last stays recorded.
  EXPECT_EQ(s.decision, DecisionType::kNone);
  EXPECT_EQ(s.decision_side, 0);
  ErrorList errors;
  CheckStepStack(t, s, &errors);
  EXPECT_TRUE(errors.ok()) << errors.ToString();
}

TEST(Steps, APushOverCapacityChangesNothing) {
  StepKind a = 0, b = 0;
  const StepTable t = TwoSteps(&a, &b);
  State s;
  ResetState(&s);
  for (int i = 0; i < kMaxSteps; ++i) ASSERT_TRUE(PushStep(s, t, a, 0));
  State before = s;
  EXPECT_FALSE(PushStep(s, t, b, 1));
  EXPECT_TRUE(s.Equals(before));
  PopStepsTo(s, t, 2);
  EXPECT_EQ(StepDepth(s), 2);
  ClearSteps(s);
  EXPECT_EQ(StepDepth(s), 0);
  EXPECT_EQ(s.decision, DecisionType::kNone);
}

TEST(Steps, RegisteringANameAgainRefinesTheStepAndKeepsItsKind) {
  StepKind a = 0, b = 0;
  StepTable t = TwoSteps(&a, &b);
  StepDef again;
  again.name = "alpha";
  again.rule = "1.9";
  again.decision = DecisionType::kChoice;
  EXPECT_EQ(t.Register(again), a);
  EXPECT_EQ(t.Find("alpha"), a);
  EXPECT_EQ(t.Def(a).rule, "1.9");
  EXPECT_EQ(t.Find("gamma"), kNoStep);
}

TEST(Steps, TheStackIsAtTheEndOfTheState) {
  // Saves of format 1 hashed the bytes before it (HashStatePrefix); then the held roll, which
  // HashState reads only when one is held (saves of formats 2-5 hashed the State without it).
  EXPECT_EQ(kStatePrefixBytes + sizeof(StepStack), kStateHeldAt);
  EXPECT_EQ(kStateHeldAt + sizeof(HeldRoll), sizeof(State));
  State s;
  ResetState(&s);
  const uint64_t prefix = HashStatePrefix(s);
  StepKind a = 0, b = 0;
  const StepTable t = TwoSteps(&a, &b);
  s.decision_side = 1;  // test set-up: the step below sets the same side
  const uint64_t with_side = HashStatePrefix(s);
  PushStep(s, t, a, 1);
  EXPECT_NE(HashStatePrefix(s), with_side);  // decision (in the prefix) changed
  PopStep(s, t);
  EXPECT_EQ(HashStatePrefix(s), with_side);
  EXPECT_NE(prefix, with_side);
}

// The test rules below: a game of their own steps, begun with `first_` on the stack and
// dispatched by the step table, an action out of sequence refused citing `sequence`.
class StepRules : public Rules {
 public:
  explicit StepRules(const char* sequence) : sequence_(sequence) {}
  void Start(State& s, Context&) const override { PushStep(s, steps_, first_, 0); }
  void LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const override { ListStep(steps_, s, ctx, out); }
  Status Apply(State& s, const Action& a, Context& ctx) const override { return ApplyStep(*this, steps_, s, a, ctx, sequence_); }

 protected:
  StepKind first_ = kNoStep;

 private:
  const char* sequence_;
};

// A rules object with one step that takes only kChoice, and a chance step.
class ChanceRules : public StepRules {
 public:
  ChanceRules() : StepRules("3.0") {
    StepDef pick;
    pick.name = "pick";
    pick.rule = "3.1";
    pick.decision = DecisionType::kChoice;
    pick.takes = Takes(ActionType::kChoice);
    pick.list = [](const State&, Context&, std::vector<Action>* out) { out->push_back(Action::Of(ActionType::kChoice)); };
    pick.apply = [this](State& s, const Action&, Context&) {
      PushStep(s, steps_, roll_, 0);
      return Status::Ok();
    };
    pick_ = steps_.Register(pick);
    StepDef roll;
    roll.name = "roll";
    roll.rule = "3.2";
    roll.decision = DecisionType::kChoice;
    roll.chance = ChanceDef{6, 2, "two dice"};
    roll.resolve = [this](State& s, Context&, int value) {
      last = value;
      PopStep(s, steps_);
    };
    roll_ = steps_.Register(roll);
    first_ = pick_;
  }
  mutable int last = 0;
  StepKind pick_ = kNoStep, roll_ = kNoStep;
};

TEST(Steps, AnActionTheStepDoesNotTakeIsRefusedCitingTheSequenceRule) {
  Game g;
  ChanceRules r;
  State s;
  ResetState(&s);
  Context ctx(g, nullptr, nullptr, nullptr);
  r.Start(s, ctx);
  const State before = s;
  const Status st = r.Apply(s, Action::Of(ActionType::kMove), ctx);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().rule, "3.0");
  EXPECT_NE(st.error().message.find("a move action is not allowed now"), std::string::npos) << st.error().message;
  EXPECT_TRUE(s.Equals(before));
}

TEST(Steps, AChanceStepIsRolledAtOnceUnlessTheContextStopsThere) {
  Game g;
  ChanceRules r;
  State s;
  ResetState(&s);
  s.rng = SeedRng(3);
  Context ctx(g, nullptr, nullptr, nullptr);
  r.Start(s, ctx);
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice), ctx).ok());
  EXPECT_GE(r.last, 2);
  EXPECT_LE(r.last, 12);
  EXPECT_EQ(TopKind(s), r.pick_);
  // Stopping at chance: the die is the caller's to give.
  Context stop(g, nullptr, nullptr, nullptr);
  stop.StopAtChance(true);
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice), stop).ok());
  ASSERT_EQ(TopKind(s), r.roll_);
  const ChanceDef* c = PendingChance(r.steps(), s);
  ASSERT_NE(c, nullptr);
  const auto outcomes = ChanceOutcomes(*c);
  ASSERT_EQ(outcomes.size(), 11u);  // 2..12
  double sum = 0;
  for (const auto& [v, p] : outcomes) sum += p;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_EQ(outcomes.front().first, 2);
  EXPECT_NEAR(outcomes[5].second, 6.0 / 36.0, 1e-12);  // a 7
  EXPECT_FALSE(ResolveChance(r.steps(), s, stop, 13).ok());
  EXPECT_EQ(TopKind(s), r.roll_);
  ASSERT_TRUE(ResolveChance(r.steps(), s, stop, 7).ok());
  EXPECT_EQ(r.last, 7);
  EXPECT_EQ(TopKind(s), r.pick_);
  EXPECT_FALSE(ResolveChance(r.steps(), s, stop, 3).ok());  // no die is due
}

// What a handler owes at its end (StepTable::SetAfterHandler) runs after the handler and
// after each die's outcome, before the next die is rolled.
class AfterHandlerRules : public ChanceRules {
 public:
  AfterHandlerRules() {
    steps_.SetAfterHandler([this](State& s, Context&) {
      log.push_back(TopKind(s) == roll_ ? "after, a die to roll" : "after");
    });
    StepDef roll = steps_.Def(roll_);
    roll.resolve = [this, resolve = roll.resolve](State& s, Context& ctx, int value) {
      log.push_back("roll " + std::to_string(value));
      resolve(s, ctx, value);
    };
    steps_.Register(roll);
  }
  mutable std::vector<std::string> log;
};

TEST(Steps, WhatAHandlerOwesIsDoneAtItsEndBeforeTheNextDie) {
  Game g;
  AfterHandlerRules r;
  State s;
  ResetState(&s);
  Context ctx(g, nullptr, nullptr, nullptr);
  s.rng = SeedRng(3);
  r.Start(s, ctx);
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice), ctx).ok());
  ASSERT_EQ(r.log.size(), 3u);
  EXPECT_EQ(r.log[0], "after, a die to roll");
  EXPECT_EQ(r.log[1], "roll " + std::to_string(r.last));
  EXPECT_EQ(r.log[2], "after");
}

// A step that holds an action (StepDef::holds_action): `pick` calls `wait`, which holds the
// action it goes on with; `wait`'s answer takes it back. The action is the step's alone.
class HoldRules : public StepRules {
 public:
  HoldRules() : StepRules("4.0") {
    StepDef pick = NewStep("pick", "4.1", DecisionType::kChoice, Takes(ActionType::kChoice));
    pick.apply = [this](State& s, const Action& a, Context& ctx) {
      CallStep(s, ctx, steps_, wait_, 1);
      HoldAction(s, steps_, Action::Of(ActionType::kChoice).Value(a.value + 100));
      return Status::Ok();
    };
    pick_ = steps_.Register(pick);
    StepDef wait = NewStep("wait", "4.2", DecisionType::kChoice, Takes(ActionType::kChoice));
    wait.holds_action = true;
    wait.apply = [this](State& s, const Action&, Context& ctx) {
      taken = TakeHeldAction(s, steps_).value;
      EndStep(s, ctx, steps_);
      return Status::Ok();
    };
    wait_ = steps_.Register(wait);
    first_ = pick_;
  }
  mutable int taken = 0;
  StepKind pick_ = kNoStep, wait_ = kNoStep;
};

TEST(Steps, AStepHoldsTheActionItGoesOnWithAndItGoesWithTheStep) {
  Game g;
  HoldRules r;
  State s;
  ResetState(&s);
  Context ctx(g, nullptr, nullptr, nullptr);
  r.Start(s, ctx);
  EXPECT_FALSE(HoldAction(s, r.steps(), Action::Of(ActionType::kChoice)));  // pick holds nothing
  EXPECT_FALSE(HoldsAction(s));
  const uint64_t empty_hash = HashState(s);
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice).Value(3), ctx).ok());
  ASSERT_EQ(TopKind(s), r.wait_);
  ASSERT_TRUE(HoldsAction(s));
  EXPECT_FALSE(HoldAction(s, r.steps(), Action::Of(ActionType::kChoice)));  // one at a time
  ErrorList errors;
  CheckStepStack(r.steps(), s, &errors);
  EXPECT_TRUE(errors.ok()) << errors.ToString();
  // The held action is part of the State's hash.
  State other = s;
  other.held.action[4] ^= 1;
  EXPECT_NE(HashState(other), HashState(s));
  // Popping the step drops it; a held action without its step is an invariant violation.
  State popped = s;
  PopStep(popped, r.steps());
  EXPECT_FALSE(HoldsAction(popped));
  State stray = popped;
  stray.held.action[4] = 1;
  CheckStepStack(r.steps(), stray, &errors);
  EXPECT_FALSE(errors.ok());
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice), ctx).ok());
  EXPECT_EQ(r.taken, 103);
  EXPECT_FALSE(HoldsAction(s));
  EXPECT_EQ(TopKind(s), r.pick_);
  EXPECT_EQ(HashState(s), empty_hash);
}

// Call, goto, end: a phase calls a script; the script calls `ask` twice and is resumed
// with each answer (kept in its own arguments), then ends with their sum, which resumes
// the phase. An answer of 0 makes `ask` go to `confirm` in its place: confirm's end
// resumes the script as ask's would have.
class CallRules : public StepRules {
 public:
  CallRules() : StepRules("1.0") {
    StepDef phase = NewStep("phase", "1.0", DecisionType::kMovement, Takes(ActionType::kChoice));
    phase.apply = [this](State& s, const Action&, Context& ctx) {
      CallStep(s, ctx, steps_, script_, 0, {0, 0});
      return Status::Ok();
    };
    phase.resume = [this](State&, Context&, int result) { last = result; };
    phase_ = steps_.Register(phase);
    StepDef script = NewStep("script", "2.0", DecisionType::kNone);
    script.resume = [this](State& s, Context& ctx, int result) {
      Step& f = *TopFrame(s);
      if (result == kEntered) {
        ++entered;
      } else {
        ++f.args[0];
        f.args[1] = static_cast<int16_t>(f.args[1] + result);
      }
      if (f.args[0] < 2) {
        CallStep(s, ctx, steps_, ask_, 1, {f.args[0]});
        return;
      }
      EndStep(s, ctx, steps_, f.args[1]);
    };
    script_ = steps_.Register(script);
    StepDef ask = NewStep("ask", "2.1", DecisionType::kChoice, Takes(ActionType::kChoice));
    ask.apply = [this](State& s, const Action& a, Context& ctx) {
      if (a.value == 0) {
        GotoStep(s, ctx, steps_, confirm_, 0);
      } else {
        EndStep(s, ctx, steps_, a.value);
      }
      return Status::Ok();
    };
    ask.prompt = [](const State& s) { return "answer " + std::to_string(TopStep(s)->args[0] + 1) + " of 2"; };
    ask_ = steps_.Register(ask);
    StepDef confirm = NewStep("confirm", "2.2", DecisionType::kChoice, Takes(ActionType::kChoice));
    confirm.apply = [this](State& s, const Action&, Context& ctx) {
      EndStep(s, ctx, steps_, 100);
      return Status::Ok();
    };
    confirm_ = steps_.Register(confirm);
    first_ = phase_;
  }
  mutable int last = -1;
  mutable int entered = 0;  // times the script was entered (not resumed by a callee)
  StepKind phase_ = kNoStep, script_ = kNoStep, ask_ = kNoStep, confirm_ = kNoStep;
};

TEST(Steps, ACallIsResumedWithItsCalleesResultAndTheFrameKeepsItsArguments) {
  Game g;
  CallRules r;
  State s;
  ResetState(&s);
  Context ctx(g, nullptr, nullptr, nullptr);
  r.Start(s, ctx);
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice), ctx).ok());
  // The script ran at once (it asks nothing) and called the first ask over itself.
  ASSERT_EQ(StepDepth(s), 3);
  EXPECT_EQ(TopKind(s), r.ask_);
  EXPECT_EQ(s.steps.items[1].kind, r.script_);
  EXPECT_EQ(s.decision, DecisionType::kChoice);
  EXPECT_EQ(s.decision_side, 1);
  EXPECT_EQ(StepPrompt(r.steps(), s), "answer 1 of 2");
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice).Value(5), ctx).ok());
  // Resumed with 5: its frame counts one answer and holds the sum; the second ask is up.
  ASSERT_EQ(StepDepth(s), 3);
  EXPECT_EQ(s.steps.items[1].args[0], 1);
  EXPECT_EQ(s.steps.items[1].args[1], 5);
  EXPECT_EQ(StepPrompt(r.steps(), s), "answer 2 of 2");
  // 0: ask goes to confirm in its place; confirm ends to the script with 100.
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice).Value(0), ctx).ok());
  ASSERT_EQ(StepDepth(s), 3);
  EXPECT_EQ(TopKind(s), r.confirm_);
  EXPECT_EQ(r.last, -1);
  ASSERT_TRUE(r.Apply(s, Action::Of(ActionType::kChoice), ctx).ok());
  // The script ended with 105 and the phase was resumed with it.
  EXPECT_EQ(StepDepth(s), 1);
  EXPECT_EQ(TopKind(s), r.phase_);
  EXPECT_EQ(r.last, 105);
  EXPECT_EQ(r.entered, 1);
  ErrorList errors;
  CheckStepStack(r.steps(), s, &errors);
  EXPECT_TRUE(errors.ok()) << errors.ToString();
}

TEST(Steps, AScriptLeftOnTopIsAnInvariantViolationAndSettleRunsIt) {
  Game g;
  CallRules r;
  State s;
  ResetState(&s);
  Context ctx(g, nullptr, nullptr, nullptr);
  r.Start(s, ctx);
  ASSERT_TRUE(PushStep(s, r.steps(), r.script_, 0));
  ErrorList errors;
  CheckStepStack(r.steps(), s, &errors);
  EXPECT_NE(errors.ToString().find("script step (script) was left on top"), std::string::npos) << errors.ToString();
  Settle(s, ctx, r.steps());
  EXPECT_EQ(TopKind(s), r.ask_);
  ErrorList after;
  CheckStepStack(r.steps(), s, &after);
  EXPECT_TRUE(after.ok()) << after.ToString();
}

// Every game's position keeps the mirror: the conformance invariants check it
// after every action (CheckStepStack); here the first positions of each ruleset.
TEST(Steps, EveryRulesetStartsWithAPhaseStepOnTheStack) {
  for (const char* spec : {"stars_and_bars", "blue_and_gray", "civil_war_miniatures"}) {
    auto game = LoadGame(spec);
    ASSERT_TRUE(game.ok()) << spec;
    Session s(*game, 1);
    ASSERT_GE(StepDepth(s.state()), 1) << spec;
    ErrorList errors;
    CheckStepStack((*game)->rules->steps(), s.state(), &errors);
    EXPECT_TRUE(errors.ok()) << spec << ": " << errors.ToString();
    const StepDef& top = (*game)->rules->steps().Def(TopKind(s.state()));
    EXPECT_FALSE(top.rule.empty()) << spec << ": step " << top.name << " cites no rule";
  }
}

// What a combat owes is read from the steps (issue 11): the advance after combat is
// decided at most once a combat (one advance action, taken or declined, before the
// combat is back at its phase's step), and the byte that kept its stage
// (PendingCombat::legacy_stage) stays 0, over whole random games.
TEST(Steps, TheAdvanceIsOfferedOnceACombatFromTheSteps) {
  for (const char* spec : {"stars_and_bars", "blue_and_gray(scenario=chattanooga)"}) {
    auto game = LoadGame(spec);
    ASSERT_TRUE(game.ok()) << spec;
    const StepKind advance = (*game)->rules->steps().Find("advance");
    ASSERT_NE(advance, kNoStep) << spec;
    int offers = 0;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Session s(*game, seed);
      s.set_playout(true);
      RandomPlayer p(seed);
      int decided = 0;  // advance actions since the phase's step was on top
      for (int i = 0; i < 5000 && !s.over(); ++i) {
        const bool at_advance = TopKind(s.state()) == advance;
        const Action a = p.Choose(**game, s.state(), s.LegalActions());
        ASSERT_TRUE(s.Apply(a).ok());
        ASSERT_EQ(s.state().combat.legacy_stage, 0) << spec << " seed " << seed << " action " << i;
        if (at_advance && a.type == ActionType::kAdvance) {
          ++offers;
          EXPECT_EQ(++decided, 1) << spec << " seed " << seed << " action " << i;
        }
        if (StepDepth(s.state()) <= 1) decided = 0;
      }
    }
    EXPECT_GT(offers, 0) << spec << ": no advance was offered in these games";
  }
}

TEST(Steps, TheRulesetsRegisterTheirProceduresByName) {
  auto sb = LoadGame("stars_and_bars");
  ASSERT_TRUE(sb.ok());
  const StepTable& t = (*sb)->rules->steps();
  for (const char* name : {"movement", "reorganization", "defensive_bombardment", "offensive_bombardment", "combat",
                           "losses", "stand_or_retreat", "retreat", "advance", "untrained_advance", "stacking",
                           "turn_choice"}) {
    EXPECT_NE(t.Find(name), kNoStep) << name;
  }
  EXPECT_EQ(t.Def(t.Find("stand_or_retreat")).rule, "7.5.2");
  EXPECT_EQ(t.Def(t.Find("untrained_advance")).chance.sides, 6);
  auto bg = LoadGame("blue_and_gray");
  ASSERT_TRUE(bg.ok());
  const StepTable& u = (*bg)->rules->steps();
  for (const char* name : {"movement", "combat", "retreat", "advance", "displacement", "exchange", "cavalry_retreat",
                           "defender_advance"}) {
    EXPECT_NE(u.Find(name), kNoStep) << name;
  }
  EXPECT_EQ(u.Def(u.Find("exchange")).rule, "8.3");
  auto mini = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(mini.ok());
  EXPECT_NE((*mini)->rules->steps().Find("activation"), kNoStep);
  EXPECT_NE((*mini)->rules->steps().Find("charge_response"), kNoStep);
  EXPECT_NE((*mini)->rules->steps().Find("melee"), kNoStep);
}

// Only the step functions (libwargame/src/steps.cc) write whose decision it is.
// (A StepDef's `decision` field is the step's definition, not a State: the
// variables a file declares as StepDef are skipped.)
TEST(Steps, NothingButTheStepFunctionsWritesTheDecision) {
  const std::regex write(R"((\w+)\s*(\.|->)\s*decision(_side)?\s*=[^=])");
  const std::regex step_def(R"(StepDef\s+(\w+))");
  const fs::path root = WG_SOURCE_DIR;
  int files = 0;
  for (const char* dir : {"libwargame", "rulesets", "examples", "python"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cc" && ext != ".h" && ext != ".cpp")) continue;
      if (e.path() == root / "libwargame" / "src" / "steps.cc") continue;
      ++files;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      const std::string all = text.str();
      std::set<std::string> defs;
      for (auto it = std::sregex_iterator(all.begin(), all.end(), step_def); it != std::sregex_iterator(); ++it) {
        defs.insert((*it)[1].str());
      }
      std::istringstream lines(all);
      std::string line;
      for (int n = 1; std::getline(lines, line); ++n) {
        for (auto it = std::sregex_iterator(line.begin(), line.end(), write); it != std::sregex_iterator(); ++it) {
          EXPECT_TRUE(defs.count((*it)[1].str()) > 0) << e.path().string() << ":" << n << ": " << line;
        }
      }
    }
  }
  EXPECT_GT(files, 50);
}

// --- The turn procedure (issue 37) --------------------------------------------------------------

// A ruleset's handlers on every point of the procedure, over whole random games of the
// data-only skirmish (its own turns: and phases:): each runs where the procedure says, as often.
// A handler changes only the State and emits events (the engine tries an end of phase on a copy
// of the State to list it): each emits a note naming its point.
class ProcedureProbe : public HexRules {
 public:
  explicit ProcedureProbe(const Game& g) : HexRules(g) {
    Note(ProcedureAt::kTurnBegin, "", "T.1", "T");
    Note(ProcedureAt::kTurnEnd, "", "T.2", "t");
    Note(ProcedureAt::kPhaseEnd, "combat", "T.3", "c");
    Note(ProcedureAt::kPhaseEnd, "", "T.4", "p");
    Note(ProcedureAt::kGameEnd, "", "T.5", "E");
    Note(ProcedureAt::kGameOver, "", "T.6", "O");
  }

 private:
  void Note(ProcedureAt at, const char* phase, const char* rule, const char* text) {
    procedure_.At(at, phase, rule, "note", [rule, text](State& s, Context& ctx) {
      Event e;
      e.type = EventType::kNote;
      e.rule = rule;
      e.text = text;
      e.a = s.turn;
      e.side = static_cast<int8_t>(s.game_over ? 9 : s.phasing_side);
      ctx.Emit(e);
    });
  }
};

TEST(Procedure, HandlersRunAtTheirPointsOfTheTurnTrack) {
  const std::string folder = std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish";
  auto g = LoadHexGame(folder, GameParams{"skirmish", folder + "/scenarios/meeting.yaml", {}, {}, {}}, {},
                       [](const Game& game, RulesetDocument&, ErrorList*) -> std::unique_ptr<Rules> {
                         return std::make_unique<ProcedureProbe>(game);
                       });
  ASSERT_TRUE(g.ok()) << g.errors().ToString();
  const Game& game = **g;
  Session s(*g, 3);
  RandomPlayer p(3);
  for (int i = 0; i < 5000 && !s.over(); ++i) ASSERT_TRUE(s.Apply(p.Choose(game, s.state(), s.LegalActions())).ok());
  ASSERT_TRUE(s.over());
  ASSERT_EQ(s.state().conceded_by, 0xFF);
  // The expected log, from turns: alone: each game-turn begins, each player-turn's phases end
  // (the combat phase's handler before the every-phase one: registration order), the game-turn
  // ends; after the last, the game ends and is over.
  std::vector<std::string> want, got;
  const int turns = game.turns.num_turns();
  for (int t = 1; t <= turns; ++t) {
    want.push_back("T" + std::to_string(t));
    for (int side : game.turns.order) {
      for (const std::string& phase : game.turns.phases) {
        if (phase == "combat") want.push_back("c" + std::to_string(t) + std::to_string(side));
        want.push_back("p" + std::to_string(t) + std::to_string(side));
      }
    }
    want.push_back("t" + std::to_string(t));
  }
  want.push_back("E" + std::to_string(turns));
  want.push_back("O" + std::to_string(turns) + "9");  // after the game is over
  for (const Event& e : s.events()) {
    if (e.type != EventType::kNote || e.rule == nullptr || std::string(e.rule).rfind("T.", 0) != 0) continue;
    std::string x = std::string(e.text) + std::to_string(e.a);
    if (x[0] == 'c' || x[0] == 'p' || x[0] == 'O') x += std::to_string(e.side);
    got.push_back(x);
  }
  EXPECT_EQ(got, want);
  // Each is listed by `wargame rules` with its rule and where it was registered.
  std::vector<RuleSource> sources;
  game.rules->RuleSources(&sources);
  int listed = 0;
  for (const RuleSource& r : sources) {
    if (r.kind != "procedure" || r.rule.rfind("T.", 0) != 0) continue;
    ++listed;
    EXPECT_NE(r.where.find("tests/steps_test.cc:"), std::string::npos) << r.where;
  }
  EXPECT_EQ(listed, 6);
}

TEST(Procedure, TheRulesetsHandlersAreListedWithTheirRuleAndSource) {
  for (const auto& [spec, rule, file] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"blue_and_gray", "10.4", "rulesets/blue_and_gray/rules/steps.cc:"},
           {"blue_and_gray", "15.12", "rulesets/blue_and_gray/rules/steps.cc:"},
           {"stars_and_bars", "8.1", "rulesets/stars_and_bars/rules/steps.cc:"},
           {"stars_and_bars", "11.1", "rulesets/stars_and_bars/rules/steps.cc:"},
           {"stars_and_bars", "5.5", "libwargame/src/hex/sequence.cc:"}}) {
    auto g = LoadGame(spec);
    ASSERT_TRUE(g.ok()) << spec;
    std::vector<RuleSource> sources;
    (*g)->rules->RuleSources(&sources);
    bool found = false;
    for (const RuleSource& r : sources) found = found || (r.kind == "procedure" && r.rule == rule && r.where.find(file) == 0);
    EXPECT_TRUE(found) << spec << " " << rule;
  }
}

}  // namespace
}  // namespace wg
