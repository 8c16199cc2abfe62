// Civil War miniatures: movement (1, M). The class MiniRules and the helpers the files share:
// internal.h.
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

// --- Movement (1, M) -------------------------------------------------------------------

// Computes where a move toward `dest` ends. Returns the refusal text or nullptr.
WG_RULE("M/C.1/C.3", PlanMove);
const char* PlanMove(const Game& g, const State& s, UnitId u, Vec2 dest, Footprint* out, const char** rule) {
  const UnitType& t = TypeOf(g, u);
  const UnitState& us = s.unit(u);
  *rule = "M";
  if (us.Has(kRouted)) {
    *rule = "10.1";
    return "a routed unit cannot move until rallied";
  }
  if (us.Has(kPinned)) {
    *rule = PinRule(us);
    return "the unit cannot move this turn";
  }
  if (us.Has(kMovedNow)) return "the unit has already moved in this activation";
  double rate = us.face == 1 ? t.move_line : t.move_column;
  if (rate <= 0) return "cannot move in this formation (unlimbered artillery must limber)";
  const Table& table = g.table();
  const Vec2 c = CenterOf(s, u);
  const Vec2 delta = dest - c;
  const double want = delta.Length();
  if (want < 0.01) return "the destination is where the unit stands";
  if (!table.Contains(dest)) return "the destination is off the table";
  rate = Allowance(g, Segment{c, c + delta * (std::min(want, rate) / want)}, rate);
  if (rate <= 0.01) return "not enough movement to cross the fence";
  const double facing = std::round(std::atan2(delta.y, delta.x) * 180.0 / kPi);
  // 12.3: a unit leaving its building moves as one body (its line beside rejoins it).
  Footprint f = FootprintAt(g, s, u, c, facing);
  if (M(s).units[u].building != 0) {
    State whole = s;
    M(whole).units[u].building = 0;
    M(whole).units[u].beside = 0;
    f = FootprintAt(g, whole, u, c, facing);
  }
  const FootprintFrame frame = FrameOf(f, facing);  // its corners are f.Corners(), term by term
  for (Vec2 p : Straightforward() ? f.Corners() : frame.Corners()) {
    if (!table.Contains(p)) return "the unit cannot wheel there: it would leave the table";
  }
  *rule = "C.1";
  const double go = std::min(want, rate);
  // want >= 0.01 and go > 0.01: it tests the start. The sweep's direction is delta, of length want.
  const Path p = Straightforward() ? SweepStraight(g, s, u, f, delta, go, kNoUnit)
                                   : SweepFast(g, s, u, frame, delta, want, go, kNoUnit);
  if (p.start_blocker != kNoUnit) return "the unit cannot wheel there: it would stand on another unit";
  if (p.blocker != kNoUnit && p.moved < go - 0.01)
    return "units may not move through or onto other units (friends do not interpenetrate)";
  *rule = "C.3";
  if (p.building) return "a building the enemy holds is entered only by charge and melee";
  *rule = "M";
  *out = p.end;
  return nullptr;
}

}  // namespace wg::civil_war_miniatures
