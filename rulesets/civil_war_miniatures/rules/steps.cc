// Civil War miniatures: the steps: the activation's table of actions and their registration (T.1,
// T.2), old saves, the dice. The class MiniRules and the helpers the files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

// T.2: the actions of the activated unit, one function each (a custom action's code,
// Action::value, has its own). The activation step registers one handler per action
// type from this table (StepDef::On; custom actions: one handler that finds the code's
// function here), and listing checks a candidate with the same function without
// applying it (MiniRules::Allowed).
using ActivationCheck = Status (*)(const ActionCheck&);
constexpr int kAnyCode = -1;
struct ActivationAction {
  ActionType type;
  int code;  // a custom action's code (Action::value); kAnyCode for the other types
  ActivationCheck check;
};
constexpr ActivationAction kActivationActions[] = {
    {ActionType::kEndPhase, kAnyCode, CheckEndActivation},
    {ActionType::kRecombine, kAnyCode, CheckRecombine},
    {ActionType::kChangeMode, kAnyCode, CheckFormation},
    {ActionType::kMove, kAnyCode, CheckMoveAction},
    {ActionType::kBombard, kAnyCode, CheckFire},
    {ActionType::kAttack, kAnyCode, CheckCharge},
    {ActionType::kCustom, kRally, CheckRally},
    {ActionType::kCustom, kFace, CheckFace},
    {ActionType::kCustom, kManGuns, CheckManGuns},
    {ActionType::kCustom, kOfficerPlace, CheckOfficerPlace},
    {ActionType::kCustom, kFormBeside, CheckFormBeside},
};

// T.2: the table's entry for `a` (its type, and a custom action's code), or nullptr.
WG_RULE("T.2", ActivationActionFor);
const ActivationAction* ActivationActionFor(const Action& a) {
  for (const ActivationAction& x : kActivationActions) {
    if (x.type == a.type && (x.code == kAnyCode || x.code == a.value)) return &x;
  }
  return nullptr;
}

// T.1: an action of the activated unit (the activation step's args[0]) by its
// function: checked, and applied when `apply`.
Status RunActivationAction(const ActivationAction& x, State& s, const Action& a, Context& ctx, bool apply) {
  const uint8_t active = ActiveCard(s);
  if (active == kNone) return Refused("T.1", "no unit is activated");
  const Game& g = ctx.game();
  const UnitId u = active;
  return x.check({g, D(g), s, M(s), a, ctx, apply, u, s.unit(u)});
}

// T.2: a custom action goes to its code's function (1 rally, 2 face, 3 man guns,
// 4 officers' place, 5 line beside a building).
Status ApplyCustomAction(State& s, const Action& a, Context& ctx) {
  const ActivationAction* x = ActivationActionFor(a);
  if (x == nullptr) {
    return Refused("T.2",
                   "unknown custom code (1 rally, 2 face, 3 man guns, 4 officers' place, 5 line beside a building)");
  }
  return RunActivationAction(*x, s, a, ctx, true);
}

void MiniRules::RegisterSteps() {
  StepDef act = NewStep("activation", "T.1", DecisionType::kMovement);
  act.list = [this](const State& s, Context& ctx, std::vector<Action>* out) { ListActivation(s, ctx, out); };
  for (const ActivationAction& x : kActivationActions) {  // one handler per action type (T.2)
    if (x.type == ActionType::kCustom) continue;
    act.On(x.type, [p = &x](State& s, const Action& a, Context& ctx) { return RunActivationAction(*p, s, a, ctx, true); });
  }
  act.On(ActionType::kCustom, ApplyCustomAction);
  act.prompt = [this](const State& s) {
    const uint8_t active = ActiveCard(s);
    if (active == kNone) return std::string(DecisionPrompt(DecisionType::kMovement));
    const std::string who = game_ ? game_->UnitLabel(active) : std::to_string(active);
    return "activation of " + who +
           (s.unit(active).Has(kRouted) ? ": rally or end (10.1)" : ": formation, move, face, fire, charge, man guns or end");
  };
  const StepKind activation = steps_.Register(std::move(act));
  StepDef charge = NewStep("charge_response", "2.4", DecisionType::kChoice);
  charge.list = [](const State&, Context&, std::vector<Action>* out) {
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
    out->push_back(Action::Of(ActionType::kChoice).Value(1));
  };
  charge.On(ActionType::kChoice, AnswerCharge);
  // The melee it called (8.x) has ended: so has the charger's activation (its step under this one).
  charge.resume = [](State& s, Context& ctx, int) { EndActivation(ctx.game(), s, ctx); };
  charge.prompt = [](const State&) { return std::string("charged: 0 = stand, fire, then melee; 1 = countercharge (2.4)"); };
  const StepKind response = steps_.Register(std::move(charge));
  StepDef melee = NewStep("melee", "8.1", DecisionType::kNone);
  melee.resume = [](State& s, Context& ctx, int) { ResumeMelee(s, ctx); };
  const StepKind melee_kind = steps_.Register(std::move(melee));
  // The kinds rules.h reads.
  assert(activation == kActivationStep && response == kChargeResponseStep && melee_kind == kMeleeStep);
  (void)activation;
  (void)response;
  (void)melee_kind;
}

bool MiniRules::Allowed(const State& s, const Action& a, const Game& g) const {
  const ActivationAction* x = ActivationActionFor(a);
  if (x == nullptr) return false;
  Context probe(g, nullptr, nullptr, nullptr);
  ++probing_depth;
  const bool ok = RunActivationAction(*x, const_cast<State&>(s), a, probe, false).ok();
  --probing_depth;
  return ok;
}

// Every die of the chart (ruleset.yaml `chart:`) and the fire D6 (3).
int MiniRules::MaxDieFaces() const {
  if (!game_) return 6;
  const MiniData& d = D(*game_);
  return std::max({6, d.morale_die, d.battery_morale_die, d.officer_die, d.melee_die, d.melee_loss_die, d.dinner_die,
                   d.dinner_men_die, d.herd_direction_die, d.herd_move_die, d.gun_hit_die});
}

// Format 1 and 2 saves hashed the card that was up and the pending charge in
// MiniState (now `legacy`, always 0), and steps without arguments: the older code
// left the charger, target and unit as the steps say (kNone when none), and the
// flank of the last charge made, which no step keeps: the State with each of the two.
void MiniRules::LegacySaveStates(const State& s, int format, std::vector<State>* out) const {
  if (format > 2) return;
  const PendingCharge c = PendingChargeOf(s);
  for (uint8_t flank = 0; flank <= 1; ++flank) {
    out->push_back(s);
    for (int i = 0; i < out->back().steps.depth; ++i) {
      for (int16_t& arg : out->back().steps.items[i].args) arg = 0;
    }
    MiniState& m = M(out->back());
    m.legacy[0] = ActiveCard(s);
    m.legacy[1] = c.charger;
    m.legacy[2] = c.target;
    m.legacy[3] = flank;
  }
}

std::unique_ptr<Rules> MakeMiniRules(const Game* game) {
  auto r = std::make_unique<MiniRules>();
  r->set_game(game);
  return r;
}

}  // namespace wg::civil_war_miniatures
