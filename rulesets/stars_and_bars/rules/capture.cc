// Stars and Bars: overrun and the capture of convoys (5.8, 6.2, 7.6). The class SbRules:
// internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

WG_RULE("5.8/6.2/7.6", SbRules::OnOverrun);
void SbRules::OnOverrun(State& s, Context& ctx, int hex, int moving_side) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).hex != hex || s.unit(u).side == moving_side) continue;
    if (IsSupply(u)) {
      OfferCapture(s, ctx, u, hex, moving_side);  // 5.8: capture / recapture
    } else {
      if (s.decision == DecisionType::kAdvance) {
        Eliminate(s, ctx, u, "7.6", "enemy HQ alone in the hex eliminated by the advance");
      } else {
        Eliminate(s, ctx, u, "6.2", "zero-strength unit overrun");
      }
    }
  }
}

WG_RULE("2.2.1.4/2.5.8/5.8", SbRules::Capture);
void SbRules::Capture(State& s, Context& ctx, UnitId u, int hex, int side) const {
  UnitState& us = s.unit(u);
  us.hex = static_cast<int16_t>(hex);
  us.side = static_cast<uint8_t>(side);
  us.face = side == Def(u).side ? 0 : 1;
  us.markers[pl_] = 0;
  us.markers[dis_] = 0;
  us.flags |= kUnitReleased;
  Event e;
  e.type = EventType::kCaptured;
  e.side = static_cast<int8_t>(side);
  e.unit = u;
  e.hex = static_cast<int16_t>(hex);
  e.rule = "5.8";
  e.text = us.face ? "captured" : "recaptured";
  ctx.Emit(e);
}

WG_RULE("5.8", SbRules::OfferCapture);
void SbRules::OfferCapture(State& s, Context& ctx, UnitId u, int hex, int side) const {
  if (!option_capture_) return Capture(s, ctx, u, hex, side);
  SbExt& x = Ext<SbExt>(s);
  for (const auto& p : x.pending_capture) {
    if (p[0] == u + 1) return;  // already owed (eliminated by an overrun in a combat's retreat or advance)
  }
  // 5.8: "results in the supply convoy's elimination": an overrun convoy is eliminated first.
  if (s.unit(u).OnMap()) {
    Eliminate(s, ctx, u, "5.8", "overrun");
    // Owed once: not again by AfterCombat when the combat it was overrun in ends.
    int kept = 0;
    for (int i = 0; i < x.num_convoys; ++i) {
      if (x.convoy_unit[i] == u) continue;
      x.convoy_unit[kept] = x.convoy_unit[i];
      x.convoy_hex[kept++] = x.convoy_hex[i];
    }
    for (int i = kept; i < x.num_convoys; ++i) x.convoy_unit[i] = x.convoy_hex[i] = 0;
    x.num_convoys = static_cast<uint8_t>(kept);
  }
  for (auto& p : x.pending_capture) {
    if (p[0] != 0) continue;
    p[0] = static_cast<int16_t>(u + 1);
    p[1] = static_cast<int16_t>(hex);
    return;
  }
  Capture(s, ctx, u, hex, side);  // a third convoy in one action (none in the game's set-up): captured
}

// Pushes the capture steps owed (5.8), the first owed on top, at the end of the handler
// (or die's outcome) that eliminated the convoys: a die the action goes on to roll is
// rolled after them. Not once the game is over.
void SbRules::AskCaptures(State& s) const {
  SbExt& x = Ext<SbExt>(s);
  if (x.pending_capture[0][0] == 0 || s.game_over) return;
  for (int i = 1; i >= 0; --i) {
    auto& p = x.pending_capture[i];
    if (p[0] == 0) continue;
    const UnitId u = static_cast<UnitId>(p[0] - 1);
    PushStep(s, steps_, step_capture_, 1 - s.unit(u).side, {u, p[1]});
    p[0] = p[1] = 0;
  }
}

void SbRules::CheckInvariants(const State& s, ErrorList* out) const {
  HexRules::CheckInvariants(s, out);
  if (!s.game_over && Ext<SbExt>(s).pending_capture[0][0] != 0) {
    out->Add(Error{"", 0, 0, "", "a capture (5.8) is owed outside the capture step", "invariant"});
  }
}

// 5.8: capture (the default, offered first) or leave the convoy eliminated.
void SbRules::ListCapture(const State&, std::vector<Action>* out) const {
  out->push_back(Action::Of(ActionType::kChoice).Value(1));
  out->push_back(Action::Of(ActionType::kChoice).Value(0));
}

WG_RULE("5.8", SbRules::ApplyCapture);
Status SbRules::ApplyCapture(State& s, const Action& a, Context& ctx) const {
  const Step* top = TopStep(s);
  if (a.type != ActionType::kChoice || (a.value != 0 && a.value != 1) || top == nullptr) {
    return Status::Refused("5.8", "declare the convoy captured ({choose: 1}) or leave it eliminated ({choose: 0})");
  }
  const UnitId u = static_cast<UnitId>(top->args[0]);
  const int hex = top->args[1];
  const int side = s.decision_side;
  PopStep(s, steps_);
  if (a.value == 1) {
    Capture(s, ctx, u, hex, side);
  } else {
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(side);
    e.unit = u;
    e.hex = static_cast<int16_t>(hex);
    e.rule = "5.8";
    e.text = "not to declare the convoy captured (it stays eliminated)";
    ctx.Emit(e);
  }
  return Status::Ok();
}

}  // namespace wg::stars_and_bars
