// Stars and Bars: set-up (3.0), mode changes (5.3, 7.4.3), reinforcements (5.7) and the start of
// the game. The class SbRules: internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Set-up (3.0) ------------------------------------------------------------------------------

UnitId SbRules::NextSetupBattery(const State& s, UnitId after) const {
  auto it = setup_order_.begin();
  if (after != kNoUnit) {
    it = std::find(setup_order_.begin(), setup_order_.end(), after);
    if (it != setup_order_.end()) ++it;
  }
  for (; it != setup_order_.end(); ++it) {
    if (*it < s.num_units && s.unit(*it).OnMap()) return *it;
  }
  return kNoUnit;
}

// The battery of the set-up step: the scenario's mode first (the default), then the other.
WG_RULE("3.0", SbRules::ListSetup);
void SbRules::ListSetup(const State& s, std::vector<Action>* out) const {
  const Step* top = TopStep(s);
  if (top == nullptr) return;
  const UnitId b = static_cast<UnitId>(top->args[0]);
  const int face = s.unit(b).face;
  out->push_back(Action::Of(ActionType::kChangeMode).AddUnit(b).Value(face));
  out->push_back(Action::Of(ActionType::kChangeMode).AddUnit(b).Value(1 - face));
}

WG_RULE("3.0", SbRules::ApplySetup);
Status SbRules::ApplySetup(State& s, const Action& a, Context& ctx) const {
  const Step* top = TopStep(s);
  if (top == nullptr) return Status::Refused("3.0", "no battery to set up");
  const UnitId b = static_cast<UnitId>(top->args[0]);
  if (a.type != ActionType::kChangeMode || a.num_units != 1 || a.units[0] != b || (a.value != 0 && a.value != 1)) {
    return Status::Refused("3.0", "set up " + game_.UnitLabel(b) + " first: {mode: [" + Def(b).id +
                                      "], value: 0} limbered or {mode: [" + Def(b).id + "], value: 1} unlimbered");
  }
  UnitState& us = s.unit(b);
  us.face = static_cast<uint8_t>(a.value);
  Event e;
  e.type = EventType::kModeChange;
  e.side = static_cast<int8_t>(us.side);
  e.unit = b;
  e.hex = us.hex;
  e.a = us.face;
  e.rule = "3.0";
  e.text = us.face ? "unlimbered at set-up" : "limbered at set-up";  // "... changes mode to unlimbered at set-up"
  ctx.Emit(e);
  const UnitId next = NextSetupBattery(s, b);
  if (next != kNoUnit) {
    ReplaceStep(s, steps_, step_setup_, s.unit(next).side, {next});
    return Status::Ok();
  }
  PopStep(s, steps_);
  BeginPlay(s, ctx);
  return Status::Ok();
}

// 5.3: may the artillery unit of `a` change mode now? `why` (if not null) gets the
// refusal; the listing passes null (no State copy, no message).
WG_RULE("5.3/5.6/7.4.3", SbRules::ModeChangeAllowed);
bool SbRules::ModeChangeAllowed(const State& s, const Action& a, Context& ctx, Status* why) const {
  auto refuse = [why](const char* rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  if (a.num_units != 1) return refuse("5.3", [] { return "change the mode of one artillery unit"; });
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units || !IsArtillery(u)) return refuse("5.3", [] { return "only artillery changes mode"; });
  const UnitState& us = s.unit(u);
  if (us.side != s.phasing_side || !us.OnMap()) {
    return refuse("5.3", [&] { return game_.UnitLabel(u) + " is not a phasing unit on the map"; });
  }
  if (!us.Has(kUnitReleased)) return refuse("5.6", [] { return "unreleased artillery may not change mode"; });
  if (us.markers[dis_] > 0) return refuse("7.4.3", [] { return "disrupted artillery cannot change mode"; });
  const int left = 2 * Def(u).front[data().movement_attribute] - us.spare;
  if (left < 4) return refuse("5.3", [&] { return "changing mode costs 2 MPs and " + game_.UnitLabel(u) + " has fewer left"; });
  if (InEnemyZoc(s, ctx, us.side, us.hex)) {
    bool covered = false;
    for (int i = 0; i < s.num_units && !covered; ++i) {
      const UnitState& f = s.units[static_cast<size_t>(i)];
      covered = f.hex == us.hex && f.side == us.side && !IsArtillery(static_cast<UnitId>(i));
    }
    if (!covered) {
      return refuse("5.3", [] { return "in an enemy zone of control artillery must be stacked with a non-artillery unit to change mode"; });
    }
  }
  return true;
}

WG_RULE("5.3/7.4.3", SbRules::ApplyModeChange);
Status SbRules::ApplyModeChange(State& s, const Action& a, Context& ctx) const {
  {
    Status why;
    if (!ModeChangeAllowed(s, a, ctx, &why)) return why;
  }
  const UnitId u = a.units[0];
  UnitState& us = s.unit(u);
  us.face ^= 1;
  us.spare = static_cast<int16_t>(us.spare + 4);
  Event e;
  e.type = EventType::kModeChange;
  e.unit = u;
  e.hex = us.hex;
  e.a = us.face;
  e.rule = "5.3";
  e.text = us.face ? "unlimbered" : "limbered";
  ctx.Emit(e);
  return Status::Ok();
}

WG_RULE("5.7", SbRules::ReinforcementCanEnter);
bool SbRules::ReinforcementCanEnter(const State& s, Context& ctx) const {
  // 5.7: reinforcements must enter on their turn (or the first possible phase after).
  HexScratch& hs = Hs(ctx);
  for (const UnitId u : entering_) {  // the units with an entry place, in unit order
    if (u >= s.num_units) break;
    const UnitDef& d = Def(u);
    if (s.unit(u).side != s.phasing_side || s.unit(u).hex != kNotYetEntered) continue;
    if (ReinforcementTurn(s, u) == 0 || ReinforcementTurn(s, u) > s.turn) continue;
    const Place& place = game_.hex_board().map.places[static_cast<size_t>(d.entry_place)];
    MoveQuery q = BuildQuery(s, ctx, &u, 1);
    q.EnterFrom(place.hexes);
    const Reachable& r = hs.pathfinder.Search(q);
    // Every entry path the search found (built before any check: a check may search
    // again), in the order of the reached hexes; into a reused buffer, no allocation.
    std::vector<Action>& entries = hs.ruleset_actions;
    entries.clear();
    for (int h : r.hexes()) {
      if (r.CanEnd(h)) AppendPathAction(r, ActionType::kEnter, u, q.start, h, &entries);
    }
    // An entry counts only if the ruleset's own checks (12.4, zero-strength
    // units and enemy zones, ...) accept it, as the listed entries are.
    if (entries.empty()) continue;
    const MoveFacts facts = MoveFactsOf(s, entries.front());  // the unit's facts, not the path's
    for (const Action& a : entries) {
      if (MoveAllowed(s, a, ctx, facts, nullptr)) return true;  // CheckMove's rules, no message
    }
  }
  return false;
}

// --- Phases ------------------------------------------------------------------------------------

WG_RULE("3.0/10.1/10.3/12.4.2", SbRules::Start);
void SbRules::Start(State& s, Context& ctx) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitDef& d = Def(u);
    // 10.1: regiment counters not on the map form the detachment pool.
    if (IsRegiment(u) && s.unit(u).hex == kNotYetEntered && d.reinforcement_turn == 0) Withdraw(s, u);
    // 3.0 / 5.3: artillery may set up unlimbered; the data gives the face.
  }
  // 10.3: the 7th Arkansas begins detached from Liddell's Brigade.
  if (liddell_ >= 0 && liddell_reg_ >= 0 && s.unit(liddell_reg_).OnMap()) {
    s.unit(liddell_reg_).spare = static_cast<int16_t>(liddell_ + 1);
    s.unit(liddell_).flags |= kSbHasDetached;
  }
  if (game_.OptionOn("12.4") && gilbert_ >= 0) s.unit(gilbert_).flags |= kUnitReleased;  // 12.4.2
  // 3.0: "Artillery units may be set up either limbered or unlimbered at the owner's option":
  // each owner is asked (the `setup` step, one battery at a time); with auto=setup the
  // scenario's face stands.
  if (option_setup_) {
    const UnitId b = NextSetupBattery(s, kNoUnit);
    if (b != kNoUnit) {
      PushStep(s, steps_, step_setup_, s.unit(b).side, {b});
      return;
    }
  }
  BeginPlay(s, ctx);
}

WG_RULE("11.1", SbRules::BeginPlay);
void SbRules::BeginPlay(State& s, Context& ctx) const {
  // 11.1: a side occupying the objective at the start is its last occupant.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).OnMap() && DefenseStrength(s, u) > 0) TouchHex(s, ctx, s.unit(u).hex, s.unit(u).side);
  }
  HexRules::Start(s, ctx);
}

}  // namespace wg::stars_and_bars
