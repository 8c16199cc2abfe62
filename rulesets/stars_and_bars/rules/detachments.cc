// Stars and Bars: detachments (10.1-10.3). The class SbRules: internal.h; RULES.md maps every rule
// to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Detachments (10.1-10.3) -----------------------------------------------------------------

Status SbRules::CheckDetach(const State& s, const Action& a) const {
  Status why;
  CheckDetachAllowed(s, a, &why);
  return why;
}

// CheckDetach's rules; `why` (if not null) gets the refusal (the listing passes null).
// What detaching (10.1) and recombining (10.2) both require: the start of the movement
// phase, a brigade and a regiment named, the brigade the phasing side's and on the map.
// The refusals name the act: `acts` ("detachments happen"), `may` ("detach a regiment").
// A message is built only when `why` is given (the listing passes null).
bool SbRules::BrigadeMayActOnRegiment(const State& s, const Action& a, const char* rule, const char* acts,
                                      const char* may, Status* why) const {
  auto refuse = [why, rule](const char* message, const char* tail = "") {
    if (why) *why = Status::Refused(rule, std::string(message) + tail);
    return false;
  };
  if (s.decision != DecisionType::kMovement) return refuse(acts, " in the movement phase");
  if (Ext<SbExt>(s).moved_any) return refuse("only at the start of the movement phase, before any unit moves");
  if (a.num_units != 2) return refuse("name the brigade and the regiment");
  const UnitId b = a.units[0], r = a.units[1];
  if (b < 0 || r < 0 || b >= s.num_units || r >= s.num_units) return refuse("no such unit");
  if (!IsBrigade(b) || s.unit(b).side != s.phasing_side || !s.unit(b).OnMap()) {
    return refuse("only a phasing brigade on the map may ", may);
  }
  return true;
}

WG_RULE("2.2.2.2/10.1", SbRules::CheckDetachAllowed);
bool SbRules::CheckDetachAllowed(const State& s, const Action& a, Status* why) const {
  auto refuse = [why](const char* rule, const char* message) {
    if (why) *why = Status::Refused(rule, message);
    return false;
  };
  if (!BrigadeMayActOnRegiment(s, a, "10.1", "detachments happen", "detach a regiment", why)) return false;
  const UnitId b = a.units[0], r = a.units[1];
  if (s.unit(b).markers[pl_] > 0) return refuse("10.1", "the brigade must be at full strength (no permanent loss)");
  if (s.unit(b).Has(kSbHasDetached)) return refuse("10.1", "no brigade may have more than one regiment detached");
  if (!RegimentAvailable(s, r)) return refuse("10.1", "that regiment counter is not available");
  return true;
}

// CheckDetachAllowed's test of the regiment alone (it does not read the brigade).
bool SbRules::RegimentAvailable(const State& s, UnitId r) const {
  return IsRegiment(r) && Def(r).side == s.phasing_side && s.unit(r).hex == kWithdrawn && s.unit(r).spare == 0 &&
         (Def(r).optional_rule.empty() || game_.OptionOn(Def(r).optional_rule));
}

Status SbRules::CheckRecombine(const State& s, const Action& a) const {
  Status why;
  CheckRecombineAllowed(s, a, &why);
  return why;
}

// CheckRecombine's rules; `why` (if not null) gets the refusal (the listing passes null).
WG_RULE("10.2", SbRules::CheckRecombineAllowed);
bool SbRules::CheckRecombineAllowed(const State& s, const Action& a, Status* why) const {
  auto refuse = [why](const char* rule, const char* message) {
    if (why) *why = Status::Refused(rule, message);
    return false;
  };
  if (!BrigadeMayActOnRegiment(s, a, "10.2", "recombination happens", "recombine", why)) return false;
  const UnitId b = a.units[0], r = a.units[1];
  if (!IsRegiment(r) || s.unit(r).side != s.phasing_side || s.unit(r).hex != s.unit(b).hex || s.unit(r).spare == 0) {
    return refuse("10.2", "the regiment must be a detached regiment in the brigade's hex");
  }
  const int as = Def(r).front[data().attack] - s.unit(r).markers[pl_];
  if (as <= 0) return refuse("10.2", "the regiment has no attack strength left to restore");
  if (s.unit(b).markers[pl_] < as) return refuse("10.2", "the brigade's permanent loss must be at least the regiment's AS");
  return true;
}

// 10.1: a regiment detached from its brigade.
WG_RULE("10.1", SbRules::ApplyDetach);
Status SbRules::ApplyDetach(State& s, const Action& a, Context& ctx) const {
  Status st = CheckDetach(s, a);
  if (!st.ok()) return st;
  const UnitId b = a.units[0], r = a.units[1];
  UnitState& rs = s.unit(r);
  rs.hex = s.unit(b).hex;
  rs.side = s.unit(b).side;
  rs.face = 0;
  std::memset(rs.markers, 0, sizeof(rs.markers));
  rs.flags = static_cast<uint16_t>(static_cast<uint16_t>(kUnitReleased) | static_cast<uint16_t>(kSbDetachedNow));
  rs.spare = static_cast<int16_t>(b + 1);
  s.unit(b).flags |= kSbHasDetached;
  AddMarker(s, ctx, b, pl_, Def(r).front[data().attack], "10.1");
  Event e;
  e.type = EventType::kNote;
  e.unit = r;
  e.unit2 = b;
  e.hex = rs.hex;
  e.rule = "10.1";
  e.text = "regiment detached";
  ctx.Emit(e);
  return Status::Ok();
}

// 10.2: a detached regiment recombined with a brigade.
WG_RULE("7.4.1/10.2", SbRules::ApplyRecombine);
Status SbRules::ApplyRecombine(State& s, const Action& a, Context& ctx) const {
  Status st = CheckRecombine(s, a);
  if (!st.ok()) return st;
  const UnitId b = a.units[0], r = a.units[1];
  const int as = Def(r).front[data().attack] - s.unit(r).markers[pl_];
  s.unit(b).markers[pl_] = static_cast<uint8_t>(s.unit(b).markers[pl_] - as);
  const UnitId origin = static_cast<UnitId>(s.unit(r).spare - 1);
  if (origin >= 0 && origin < s.num_units) s.unit(origin).flags &= static_cast<uint16_t>(~kSbHasDetached);
  UnitState& rs = s.unit(r);
  rs.hex = kWithdrawn;
  rs.spare = 0;
  rs.side = static_cast<uint8_t>(Def(r).side);
  std::memset(rs.markers, 0, sizeof(rs.markers));
  rs.flags = 0;
  Event e;
  e.type = EventType::kRecover;
  e.unit = b;
  e.unit2 = r;
  e.hex = s.unit(b).hex;
  e.a = as;
  e.rule = "10.2";
  e.text = "permanent loss (regiment recombined)";
  ctx.Emit(e);
  return Status::Ok();
}

}  // namespace wg::stars_and_bars
