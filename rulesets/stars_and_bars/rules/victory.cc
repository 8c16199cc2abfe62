// Stars and Bars: victory points (11.0-11.2). The class SbRules: internal.h; RULES.md maps every
// rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

WG_RULE("11.1", SbRules::RaidCheck);
void SbRules::RaidCheck(State& s, Context& ctx, const Action& a) const {
  // 11.1: 2 VPs, once, for moving a (non-zero-strength) unit through the enemy army HQ.
  const int side = s.phasing_side;
  const int target = army_hq_hex_[1 - side];
  if (s.once_awarded & (1ull << side)) return;
  for (int k = 0; k < a.num_hexes; ++k) {
    if (a.hexes[static_cast<size_t>(k)] == target) {
      s.once_awarded |= 1ull << side;
      AwardVp(s, ctx, side, 2, "11.1", "raid through the enemy army HQ");
      return;
    }
  }
}

// 11.1: victory points, counted at the end of the game.
WG_RULE("11.0/11.1", SbRules::CountEndVp);
void SbRules::CountEndVp(State& s, Context& ctx) const {
  static const char* kReason = "end-of-game count";
  int vp[2];
  for (int side = 0; side < 2; ++side) vp[side] = EndVp(s, side);
  for (int side = 0; side < 2; ++side) AwardVp(s, ctx, side, vp[side], "11.1", kReason);
}

WG_RULE("11.0/11.1", SbRules::EndVp);
int SbRules::EndVp(const State& s, int side) const {
  int vp = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitDef& d = Def(u);
    const UnitState& us = s.unit(u);
    if (IsSupply(u)) {
      if (d.side != side && us.OnMap() && us.side == side) vp += 6;      // captured and held
      if (d.side != side && us.hex == kEliminated) vp += 3;             // eliminated
      continue;
    }
    if (d.side == side || us.hex == kWithdrawn || us.hex == kNotYetEntered) continue;
    if (us.hex == kEliminated) {
      if (IsHq(u)) vp += 1;
      else if (IsArtillery(u)) vp += d.back[attr_bombard_];
      else vp += d.front[data().defense];
    } else if (!IsArtillery(u)) {
      vp += us.markers[pl_];
    }
    // Detachments are not losses: subtract each detached regiment's AS (11.1 note 1).
    if (us.spare != 0 && IsRegiment(u)) vp -= d.front[data().attack];
  }
  if (objective_place_ >= 0 && s.place_control[objective_place_] == side + 1) vp += 1;  // objective
  return vp;
}

}  // namespace wg::stars_and_bars
