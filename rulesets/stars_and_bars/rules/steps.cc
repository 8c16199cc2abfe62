// Stars and Bars: the step registration (RegisterSteps, RegisterProcedure, FinishSteps), Apply,
// old saves, and the ruleset's registration. The class SbRules: internal.h; RULES.md maps every
// rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"
#include "wargame/registry.h"

namespace wg::stars_and_bars {

// After the core's steps: the combat result's script (registered last, so the kinds saved
// States hold keep their numbers). An action, or a die's outcome, may owe captures (5.8: a
// convoy eliminated with an enemy unit in its hex): asked at the end of its handler, before
// the next die (StepTable::SetAfterHandler).
void SbRules::FinishSteps() {
  HexRules::FinishSteps();
  StepDef r = NewStep("combat_result", "7.3", DecisionType::kNone);
  r.resume = [this](State& s, Context& ctx, int result) { ResumeCombatResult(s, ctx, result); };
  step_combat_result_ = steps_.Register(std::move(r));
  RegisterChanceSteps();
  if (option_capture_) steps_.SetAfterHandler([this](State& s, Context&) { AskCaptures(s); });
}

// The dice rolled inside actions, each a chance step (a search enumerates its outcomes; a
// referee is asked for the die exactly there), registered after every other step so that
// the kinds saves hold keep their numbers.
void SbRules::RegisterChanceSteps() {
  StepDef f = NewStep("bombardment_fire", "8.2", DecisionType::kNone);
  f.resume = [this](State& s, Context& ctx, int) { ResumeBombardmentFire(s, ctx); };
  step_bombard_fire_ = steps_.Register(std::move(f));
  struct Die {
    const char* name;
    const char* rule;
    DecisionType decision;
    const char* label;
    void (SbRules::*resolve)(State&, Context&, int) const;
    StepKind* kind;
  };
  const Die dice[] = {
      {"bombardment_roll", "8.2", DecisionType::kBombard, "bombardment", &SbRules::ResolveBombardmentRoll, &step_bombard_roll_},
      {"cavalry_withdrawal_roll", "7.8", DecisionType::kBombard, "cavalry withdrawal", &SbRules::ResolveCavalryWithdrawal,
       &step_cav_withdrawal_},
      {"reorganization_roll", "9.0", DecisionType::kChoice, "reorganization", &SbRules::ResolveReorganization,
       &step_reorg_roll_},
      {"union_initiative_roll", "12.4.1", DecisionType::kMovement, "Union initiative", &SbRules::ResolveUnionInitiative,
       &step_initiative_},
  };
  for (const Die& d : dice) {
    StepDef c = NewStep(d.name, d.rule, d.decision);
    c.chance = ChanceDef{6, 1, d.label};
    c.prompt = [text = std::string("roll a d6: ") + d.label + " (" + d.rule + ")"](const State&) { return text; };
    c.resolve = [this, fn = d.resolve](State& s, Context& ctx, int roll) { (this->*fn)(s, ctx, roll); };
    *d.kind = steps_.Register(std::move(c));
  }
}

// Saves of format 1-4: what the combat_result script owes was in SbExt (legacy_*), and its
// losses and stand_or_retreat steps had no arguments.
void SbRules::LegacyFrameState(const State& s, State* old) const {
  HexRules::LegacyFrameState(s, old);
  for (int i = 0; i < old->steps.depth; ++i) {
    Step& st = old->steps.items[i];
    if (st.kind == step_losses_ || st.kind == step_stand_) st = Step{st.kind, st.side, st.rule, {}};
  }
  ProjectCavalryAdvance(old);
  const Step* f = FindFrame(s, step_combat_result_);
  if (f == nullptr) return;
  SbExt& x = Ext<SbExt>(*old);
  for (int k = 0; k < 2; ++k) {
    const ForceOwed o = Owed(*f, k);
    x.legacy_loss_e[k] = static_cast<uint8_t>(o.e);
    x.legacy_loss_d[k] = static_cast<uint8_t>(o.d);
    x.legacy_stand_d[k] = static_cast<uint8_t>(o.stand_d);
    x.legacy_retreat[k] = static_cast<uint8_t>(o.retreat);
    x.legacy_stand[k] = static_cast<uint8_t>(o.stand);
  }
}

// Saves of format 1-5: 7.8's advance was the advance step without arguments and an SbExt
// flag. Whether s has one.
bool SbRules::ProjectCavalryAdvance(State* old) const {
  bool found = false;
  for (int i = 0; i < old->steps.depth; ++i) {
    Step& st = old->steps.items[i];
    if (st.kind != step_advance_ || st.args[0] != kCavalryAdvanceArg) continue;
    st.args[0] = 0;
    Ext<SbExt>(*old).legacy_cavalry_advance = 1;
    found = true;
  }
  return found;
}

// Out of a combat result's script, the older code still held the last result's retreat and
// Stand decision (its losses were all taken or forgiven): the State with each pair they may
// have been per force ({0, 0} no retreat; a W or R result: stood or retreated).
void SbRules::LegacySaveStates(const State& s, int format, std::vector<State>* out) const {
  if (format == 5) {  // 7.8's advance was an SbExt flag
    State old = s;
    if (ProjectCavalryAdvance(&old)) out->push_back(old);
    return;
  }
  if (format > 5) return;
  const size_t first = out->size();
  HexRules::LegacySaveStates(s, format, out);
  if (FindFrame(s, step_combat_result_) != nullptr) return;
  static constexpr uint8_t kPairs[5][2] = {{0, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}};
  const size_t forms = out->size();
  for (size_t i = first; i < forms; ++i) {
    for (const auto& a : kPairs) {
      for (const auto& d : kPairs) {
        if (a[0] == 0 && d[0] == 0) continue;  // the form itself
        State v = (*out)[i];
        SbExt& x = Ext<SbExt>(v);
        x.legacy_retreat[0] = a[0];
        x.legacy_stand[0] = a[1];
        x.legacy_retreat[1] = d[0];
        x.legacy_stand[1] = d[1];
        out->push_back(v);
      }
    }
  }
}

// What happens at the points of the turn procedure (wargame/steps.h), each with its rule; the
// engine's stacking checkpoint (5.5, stacking_check: eliminate) runs after these.
void SbRules::RegisterProcedure() {
  const HexGameData& d = data();
  if (d.phase_combat >= 0) {
    procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(d.phase_combat)], "8.1",
                  "SbRules::EliminateUnsupportedBombardment (8.1.F)",
                  [this](State& s, Context& ctx) { EliminateUnsupportedBombardment(s, ctx); });
  }
  if (d.phase_movement >= 0) {
    procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(d.phase_movement)], "12.6",
                  "a forced march lasts one movement phase",
                  [](State& s, Context&) { Ext<SbExt>(s).forced_march_active = 0; });
  }
  procedure_.At(ProcedureAt::kGameEnd, "", "11.1", "SbRules::CountEndVp",
                [this](State& s, Context& ctx) { CountEndVp(s, ctx); });
  procedure_.At(ProcedureAt::kGameOver, "", "12.3", "SbRules::WithersDeclinedDraw",
                [this](State& s, Context& ctx) { WithersDeclinedDraw(s, ctx); });
}

// --- Listing and applying ---------------------------------------------------------------------

// --- Steps: registration ------------------------------------------------------------------------

// The procedures of Stars and Bars as named steps, each citing its rule. The phases of
// `turns:` are the steps of their names; the core's movement, combat, retreat and advance
// are refined (registered again under their names, calling the core's handlers).
void SbRules::RegisterSteps() {
  using Out = std::vector<Action>*;
  StepDef m = NewStep("movement", "5.0", DecisionType::kMovement, 0);
  m.begin = [this](State& s, Context& ctx) { BeginSbMovement(s, ctx); };
  m.list = [this](const State& s, Context& ctx, Out out) { ListSbMovement(s, ctx, out); };
  // One handler per action: a move or an entry (5.0, 5.7), a mode change (the core's), a
  // detachment or recombination (12.2), a convoy destroyed (5.8), a conversion, the end (5.7).
  using A = const Action&;
  m.On(ActionType::kMove, [this](State& s, A a, Context& ctx) { return ApplySbMove(s, a, ctx); });
  m.On(ActionType::kEnter, [this](State& s, A a, Context& ctx) { return ApplySbMove(s, a, ctx); });
  m.On(ActionType::kChangeMode, [this](State& s, A a, Context& ctx) { return ApplyModeChange(s, a, ctx); });
  m.On(ActionType::kDetach, [this](State& s, A a, Context& ctx) { return ApplyDetach(s, a, ctx); });
  m.On(ActionType::kRecombine, [this](State& s, A a, Context& ctx) { return ApplyRecombine(s, a, ctx); });
  m.On(ActionType::kDestroy, [this](State& s, A a, Context& ctx) { return ApplyDestroyConvoy(s, a, ctx); });
  m.On(ActionType::kConvert, [this](State& s, A a, Context& ctx) { return ApplyConvert(s, a, ctx); });
  m.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return EndSbMovement(s, ctx); });
  steps_.Register(std::move(m));
  StepDef c = NewStep("combat", "7.0", DecisionType::kCombat, Takes({ActionType::kAttack, ActionType::kEndPhase}));
  c.begin = [this](State& s, Context& ctx) { BeginSbCombat(s, ctx); };
  c.list = [this](const State& s, Context& ctx, Out out) { ListCombatStep(s, ctx, out); };
  c.On(ActionType::kAttack, [this](State& s, A a, Context& ctx) { return ApplySbAttack(s, a, ctx); });
  c.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return EndSbCombat(s, ctx); });
  steps_.Register(std::move(c));
  StepDef r = NewStep("retreat", "7.5.1", DecisionType::kRetreat, Takes(ActionType::kRetreat));
  r.list = [this](const State& s, Context& ctx, Out out) { ListRetreatStep(s, ctx, out); };
  r.apply = [this](State& s, const Action& a, Context& ctx) { return ApplySbRetreat(s, a, ctx); };
  steps_.Register(std::move(r));
  StepDef v = NewStep("advance", "7.6", DecisionType::kAdvance, Takes(ActionType::kAdvance));
  v.begin = [this](State& s, Context& ctx) { BeginSbAdvance(s, ctx); };
  v.list = [this](const State& s, Context& ctx, Out out) { ListSbAdvance(s, ctx, out); };
  v.apply = [this](State& s, const Action& a, Context& ctx) { return ApplySbAdvance(s, a, ctx); };
  steps_.Register(std::move(v));
  StepDef u = NewStep("untrained_advance", "12.1", DecisionType::kAdvance, 0);
  u.chance = ChanceDef{6, 1, "untrained advance"};
  u.resolve = [this](State& s, Context& ctx, int roll) { ResolveUntrainedAdvance(s, ctx, roll); };
  step_untrained_ = steps_.Register(std::move(u));
  StepDef l = NewStep("losses", "7.3", DecisionType::kLosses, 0);
  l.list = [this](const State& s, Context&, Out out) { ListLosses(s, out); };
  l.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyLossStep(s, a, ctx); };
  l.prompt = [](const State&) { return std::string("divide combat losses (7.3)"); };
  step_losses_ = steps_.Register(std::move(l));
  StepDef sr = NewStep("stand_or_retreat", "7.5.2", DecisionType::kStandOrRetreat, 0);
  sr.list = [](const State&, Context&, Out out) {
    out->push_back(Action::Of(ActionType::kStand));
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
  };
  sr.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyStandStep(s, a, ctx); };
  sr.prompt = [](const State&) { return std::string("stand or retreat (7.5.2)"); };
  step_stand_ = steps_.Register(std::move(sr));
  for (const char* phase : {"defensive_bombardment", "offensive_bombardment"}) {
    const bool defensive = std::string(phase) == "defensive_bombardment";
    StepDef b = NewStep(phase, defensive ? "8.0/7.8" : "8.0", DecisionType::kBombard, 0);
    b.begin = [this, defensive](State& s, Context& ctx) { BeginBombardment(s, ctx, defensive); };
    b.list = [this](const State& s, Context& ctx, Out out) { ListBombardStep(s, ctx, out); };
    // One handler per action: a bombardment, a cavalry withdrawal (7.8, the defensive phase), the end.
    b.On(ActionType::kBombard, [this](State& s, const Action& a, Context& ctx) { return ApplyBombard(s, a, ctx); });
    if (defensive) {
      b.On(ActionType::kRetreat,
           [this](State& s, const Action& a, Context& ctx) { return ApplyCavalryRetreat(s, a, ctx); });
    }
    b.On(ActionType::kEndPhase, [this](State& s, const Action&, Context& ctx) { return ApplyEndPhase(s, ctx); });
    b.prompt = [](const State&) { return std::string("bombard (8.0)"); };
    steps_.Register(std::move(b));
  }
  StepDef g = NewStep("reorganization", "9.0", DecisionType::kChoice, 0);
  g.begin = [this](State& s, Context& ctx) { BeginReorganization(s, ctx); };
  g.list = [this](const State& s, Context& ctx, Out out) {
    ListReorganize(s, ctx, out);
    out->push_back(Action::EndPhase());
  };
  g.On(ActionType::kCustom, [this](State& s, const Action& a, Context& ctx) {
    if (a.value != kCustomReorganize) return Status::Refused("9.0", "reorganize a unit or end the phase");
    return ApplyReorganize(s, a, ctx);
  });
  g.On(ActionType::kEndPhase, [this](State& s, const Action&, Context& ctx) { return ApplyEndPhase(s, ctx); });
  g.prompt = [](const State&) { return std::string("reorganize disrupted units (9.0)"); };
  step_reorg_ = steps_.Register(std::move(g));
  StepDef k = NewStep("stacking", "5.5", DecisionType::kChoice, 0);
  k.list = [this](const State& s, Context&, Out out) { ListStackingStep(s, out); };
  k.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyStackingStep(s, a, ctx); };
  k.prompt = [](const State&) { return std::string("eliminate excess units over the stacking limit (5.5)"); };
  step_stacking_ = steps_.Register(std::move(k));
  StepDef t = NewStep("turn_choice", "12.3/12.6", DecisionType::kChoice, 0);
  t.list = [](const State&, Context&, Out out) {
    out->push_back(Action::Of(ActionType::kChoice).Value(1));
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
  };
  t.apply = [this](State& s, const Action& a, Context& ctx) {
    if (a.type == ActionType::kChoice) return ApplyChoice(s, a, ctx);
    return Status::Refused("12.0", "answer the choice first ({choose: 1} or {choose: 0})");
  };
  t.prompt = [](const State& s) {
    switch (static_cast<SbChoice>(TopStep(s)->args[0])) {  // what the step asks (its argument 0)
      case kChoiceSill: return std::string("receive Sill's Division? (12.3)");
      case kChoiceWithers: return std::string("receive Withers' Division? (12.3)");
      case kChoiceForcedMarch: return std::string("use the forced march this turn? (12.6)");
      default: return std::string(DecisionPrompt(DecisionType::kChoice));
    }
  };
  step_choice_ = steps_.Register(std::move(t));
  StepDef su = NewStep("setup", "3.0", DecisionType::kSetup, Takes(ActionType::kChangeMode));
  su.list = [this](const State& s, Context&, Out out) { ListSetup(s, out); };
  su.apply = [this](State& s, const Action& a, Context& ctx) { return ApplySetup(s, a, ctx); };
  su.prompt = [this](const State& s) {
    return "set up " + game_.UnitLabel(static_cast<UnitId>(TopStep(s)->args[0])) +
           " limbered ({mode: [unit], value: 0}) or unlimbered (value: 1) (3.0)";
  };
  step_setup_ = steps_.Register(std::move(su));
  StepDef cp = NewStep("capture", "5.8", DecisionType::kChoice, Takes(ActionType::kChoice));
  cp.list = [this](const State& s, Context&, Out out) { ListCapture(s, out); };
  cp.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyCapture(s, a, ctx); };
  cp.prompt = [this](const State& s) {
    return "capture " + game_.UnitLabel(static_cast<UnitId>(TopStep(s)->args[0])) +
           "? (5.8): declare it captured (choose 1); leave it eliminated (choose 0)";
  };
  step_capture_ = steps_.Register(std::move(cp));
}

namespace {

Result<std::shared_ptr<const Game>> MakeStarsAndBars(const GameParams& params) {
  return LoadHexGame(FindRulesetFolder("stars_and_bars"), params, {"battery_parents"},
                     [](const Game& g, RulesetDocument& doc, ErrorList* errors) -> std::unique_ptr<Rules> {
                       return std::make_unique<SbRules>(g, doc, errors);
                     });
}

WG_REGISTER_RULESET((RulesetInfo{"stars_and_bars", "Stars and Bars (Perryville, 8 October 1862)", "stars_and_bars"}),
                    MakeStarsAndBars);

}  // namespace

}  // namespace wg::stars_and_bars
