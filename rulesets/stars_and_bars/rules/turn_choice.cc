// Stars and Bars: the choices at the start of a player-turn (12.3, 12.6). The class SbRules:
// internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Choices at the start of a player-turn (12.3, 12.6) -------------------------------

WG_RULE("12.3/12.6", SbRules::NextChoice);
void SbRules::NextChoice(State& s, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  SbChoice choice = kNoChoice;
  if (game_.OptionOn("12.3") && s.phasing_side == 0 && s.turn >= 9 && x.sill == 0) {
    choice = kChoiceSill;
  } else if (game_.OptionOn("12.3") && s.phasing_side == 1 && s.turn >= 12 && x.sill == 1 && x.withers == 0) {
    choice = kChoiceWithers;
  } else if (game_.OptionOn("12.6") && s.phasing_side == 1 && !x.forced_march_used && !x.forced_march_active && !x.moved_any &&
             s.decision == DecisionType::kMovement) {
    choice = kChoiceForcedMarch;
  }
  // The step carries what it asks (its argument 0).
  if (choice != kNoChoice) CallStep(s, ctx, steps_, step_choice_, s.phasing_side, {choice});
}

// The choice the turn_choice step on top asks (kNoChoice when it is not on top).
SbChoice SbRules::PendingChoice(const State& s) const {
  const Step* top = TopStep(s);
  if (top == nullptr || top->kind != step_choice_) return kNoChoice;
  return static_cast<SbChoice>(top->args[0]);
}

WG_RULE("12.0/12.3/12.6", SbRules::ApplyChoice);
Status SbRules::ApplyChoice(State& s, const Action& a, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  if (a.value != 0 && a.value != 1) return Status::Refused("12.0", "choose 1 (yes) or 0 (no)");
  const bool yes = a.value == 1;
  Event e;
  e.type = EventType::kChoice;
  e.side = static_cast<int8_t>(s.decision_side);
  e.a = a.value;
  auto withdraw_optional = [&](const char* formation) {
    const int f = game_.FormationIndex(formation);
    for (int i = 0; i < s.num_units; ++i) {
      const UnitId u = static_cast<UnitId>(i);
      if (Def(u).formation == f && f >= 0 && s.unit(u).hex == kNotYetEntered) Withdraw(s, u);
    }
  };
  const SbChoice choice = PendingChoice(s);
  if (choice == kChoiceSill) {
    x.sill = yes ? 1 : 2;
    e.rule = "12.3";
    e.text = yes ? "receive Sill's Division" : "decline Sill's Division";
    if (!yes) {
      withdraw_optional("sill");
      withdraw_optional("withers");
      if (cav_2nd_ >= 0 && s.unit(cav_2nd_).hex == kNotYetEntered) Withdraw(s, cav_2nd_);  // TRT note
    }
  } else if (choice == kChoiceWithers) {
    x.withers = yes ? 1 : 2;
    e.rule = "12.3";
    e.text = yes ? "receive Withers' Division" : "decline Withers' Division (draws become Confederate wins)";
    if (!yes) withdraw_optional("withers");
  } else if (choice == kChoiceForcedMarch) {
    e.rule = "12.6";
    e.text = yes ? "forced march" : "no forced march this turn";
    if (yes) {
      x.forced_march_used = 1;
      x.forced_march_active = 1;
    }
  } else {
    return Status::Refused("sequence", "no choice is pending");
  }
  ctx.Emit(e);
  // Back to the movement phase, unless another start-of-turn choice follows (12.3, then 12.6).
  EndStep(s, ctx, steps_);
  if (choice != kChoiceForcedMarch) NextChoice(s, ctx);
  return Status::Ok();
}

// 12.3: declining Withers turns a draw into a Confederate win.
WG_RULE("12.3", SbRules::WithersDeclinedDraw);
void SbRules::WithersDeclinedDraw(State& s, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  if (s.winner >= 0 || s.conceded_by != 0xFF || x.withers != 2) return;
  s.winner = 1;
  Event e;
  e.type = EventType::kGameEnd;
  e.side = 1;
  e.a = s.vp[0];
  e.b = s.vp[1];
  e.rule = "12.3";
  e.text = "a draw counts as a Confederate win (Withers declined)";
  ctx.Emit(e);
}

}  // namespace wg::stars_and_bars
