// Stars and Bars: stacking checkpoints (5.5). The class SbRules: internal.h; RULES.md maps every
// rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Stacking checkpoints (5.5) --------------------------------------------------------

int SbRules::OverstackedSide(const State& s) const {
  // StackingCount per hex, counted once per side (not once per unit), in a buffer kept
  // by the thread (asked at every phase end: no allocation each time).
  thread_local std::vector<uint16_t> count;
  count.resize(static_cast<size_t>(game_.hex_board().map.size()));
  for (int side : {static_cast<int>(s.phasing_side), 1 - s.phasing_side}) {
    std::fill(count.begin(), count.end(), 0);
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.side == side && u.hex >= 0 && u.hex < game_.hex_board().map.size() && CountsForStacking(s, static_cast<UnitId>(i))) {
        ++count[static_cast<size_t>(u.hex)];
      }
    }
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.OnMap() && u.side == side && static_cast<int>(count[static_cast<size_t>(u.hex)]) > game_.hex_board().stacking.limit) {
        return side;
      }
    }
  }
  return -1;
}

WG_RULE("2.2.1.1/5.5", SbRules::StackingVictim);
bool SbRules::StackingVictim(const State& s, UnitId u) const {
  const UnitState& us = s.unit(u);
  if (!us.OnMap() || us.side != s.decision_side || !CountsForStacking(s, u)) return false;
  if (StackingCount(s, us.hex, us.side) <= game_.hex_board().stacking.limit) return false;
  if (!Def(u).trained) return true;
  // Untrained units go first.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId v = static_cast<UnitId>(i);
    if (s.unit(v).hex == us.hex && s.unit(v).side == us.side && CountsForStacking(s, v) && !Def(v).trained) return false;
  }
  return true;
}

// Ends the movement or combat phase, first asking owners to remove excess units.
WG_RULE("5.5", SbRules::BeginStackingCheck);
Status SbRules::BeginStackingCheck(State& s, Context& ctx) const {
  const int side = OverstackedSide(s);
  if (side < 0) {
    AdvancePhase(s, ctx);
    return Status::Ok();
  }
  CallStep(s, ctx, steps_, step_stacking_, side);
  return Status::Ok();
}

void SbRules::ListStackingStep(const State& s, std::vector<Action>* out) const {
  for (int i = 0; i < s.num_units; ++i) {
    if (StackingVictim(s, static_cast<UnitId>(i))) out->push_back(Action::Of(ActionType::kDestroy).AddUnit(static_cast<UnitId>(i)));
  }
}

WG_RULE("5.5", SbRules::ApplyStackingStep);
Status SbRules::ApplyStackingStep(State& s, const Action& a, Context& ctx) const {
  if (a.type != ActionType::kDestroy || a.num_units != 1) {
    return Status::Refused("5.5", "choose a unit to eliminate from an overstacked hex ({destroy: [unit]})");
  }
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units || !StackingVictim(s, u)) {
    return Status::Refused("5.5", "not a unit the owner may eliminate now (excess units, untrained first)");
  }
  Eliminate(s, ctx, u, "5.5", "over the stacking limit");
  EndStep(s, ctx, steps_);
  return BeginStackingCheck(s, ctx);
}

}  // namespace wg::stars_and_bars
