// Stacking checkpoints and the engine's invariants.
#include <algorithm>
#include <array>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

WG_RULE_KEY("stacking", HexRules::EnforceStacking);
void HexRules::EnforceStacking(State& s, Context& ctx, int side, const char* rule) const {
  // The hexes of the side's units (counted or not: an upper bound of StackingCount),
  // sorted, so only hexes that might be over the limit are counted; gathered again
  // after each elimination (its hook may change the position). A fixed array: no
  // allocation.
  const int map_size = game_.hex_board().map.size();
  std::array<int16_t, kMaxUnits> hexes;
  int n = 0;
  auto recount = [&] {
    n = 0;
    for (int i = 0; i < s.num_units && n < kMaxUnits; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.side == side && u.hex >= 0 && u.hex < map_size) hexes[static_cast<size_t>(n++)] = u.hex;
    }
    std::sort(hexes.begin(), hexes.begin() + n);
  };
  recount();
  // The hexes in ascending order, but only those of the side's units with more units
  // than the limit: the smallest such hex from `from` on (the map's size if none).
  const int limit = game_.hex_board().stacking.limit;
  auto next_over = [&](int from) {
    for (int i = 0; i < n;) {
      int j = i + 1;
      while (j < n && hexes[static_cast<size_t>(j)] == hexes[static_cast<size_t>(i)]) ++j;
      if (hexes[static_cast<size_t>(i)] >= from && j - i > limit) return static_cast<int>(hexes[static_cast<size_t>(i)]);
      i = j;
    }
    return map_size;
  };
  for (int h = next_over(0); h < map_size; h = next_over(h + 1)) {
    while (StackingCount(s, h, side) > limit) {
      // Eliminate the excess: the weakest first (combat.stacking_untrained_first:
      // untrained units before any other, as S&B 5.5 asks).
      int pick = -1;
      for (int i = 0; i < s.num_units; ++i) {
        const UnitId u = static_cast<UnitId>(i);
        const UnitState& us = s.unit(u);
        if (us.hex != h || us.side != side || !CountsForStacking(s, u)) continue;
        if (pick < 0) {
          pick = i;
          continue;
        }
        const UnitId p = static_cast<UnitId>(pick);
        const bool untrained_first = data().stacking_untrained_first;
        const bool ut = untrained_first && !game_.units[static_cast<size_t>(i)].trained;
        const bool pt = untrained_first && !game_.units[static_cast<size_t>(pick)].trained;
        if (ut != pt ? ut : DefenseStrength(s, u) < DefenseStrength(s, p)) pick = i;
      }
      if (pick < 0) break;
      Eliminate(s, ctx, static_cast<UnitId>(pick), rule, "over the stacking limit");
      recount();
    }
  }
}

// --- Invariants --------------------------------------------------------------------------

void HexRules::CheckInvariants(const State& s, ErrorList* out) const {
  CheckStepStack(steps_, s, out);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex >= game_.hex_board().map.size()) out->Add(Error{"", 0, 0, "", game_.UnitLabel(static_cast<UnitId>(i)) + " is off the grid", "invariant"});
    if (!u.OnMap()) continue;
    for (int j = i + 1; j < s.num_units; ++j) {
      const UnitState& v = s.units[static_cast<size_t>(j)];
      if (v.hex == u.hex && v.side != u.side) {
        out->Add(Error{"", 0, 0, "", "units of both sides in " + game_.HexLabel(u.hex), "invariant"});
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    int sum = 0;
    for (int t = 0; t < kMaxTurns; ++t) sum += s.vp_by_turn[side][t];
    if (sum != s.vp[side]) out->Add(Error{"", 0, 0, "", "VP ledger does not add up", "invariant"});
  }
  // Stacking of the side that cannot move, during the other's movement phase.
  if (s.decision == DecisionType::kMovement) {
    const int other = 1 - s.phasing_side;
    for (int h = 0; h < game_.hex_board().map.size(); ++h) {
      if (StackingCount(s, h, other) > game_.hex_board().stacking.limit) {
        out->Add(Error{"", 0, 0, "", "over the stacking limit in " + game_.HexLabel(h), "invariant"});
      }
    }
  }
}

}  // namespace wg
