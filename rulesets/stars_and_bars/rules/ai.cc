// Stars and Bars: the computer opponent's knowledge (Rules::Evaluate). The class SbRules:
// internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

namespace wg::stars_and_bars {

// --- Computer opponent knowledge: Rules::Evaluate for the `ai` player ------------------------
//
// Not a rule: the `ai` player (libwargame/src/ai.cc) adds this to its generic evaluation. It
// values the victory points each side would have if the game ended now (11.1), counted toward
// the win thresholds (11.2), and the VPs at risk: zero-strength units (HQs, limbered artillery,
// 6.2) and convoys (5.8: 6 VPs when captured) that enemy combat units can reach. The raid
// (11.1) and the enemy convoys draw the side's units toward them.

namespace {
constexpr double kVpWeight = 3.0;        // per projected VP (material is counted by the AI)
constexpr double kWinningBonus = 12.0;   // the side would win if the game ended now (11.2)
constexpr double kRaidApproach = 0.4;    // per hex from the nearest unit to the enemy army HQ
constexpr double kConvoyApproach = 0.3;  // per hex from the nearest unit to an enemy convoy
// Per bombardment SP of an unreleased battery set up unlimbered (3.0's choice at set-up):
// it may bombard and defends with its BS before its release, when it could not unlimber (5.6),
// and it could not move anyway. With auto=setup no unreleased battery is ever unlimbered
// (the data sets them up limbered), so the term is 0 there.
constexpr double kBatteryReady = 1.0;
}  // namespace

double SbRules::Evaluate(const State& s, int side) const {
  if (s.game_over) return 0.0;  // the final VPs are in s.vp already
  const int opp = 1 - side;
  const int vp[2] = {s.vp[0] + EndVp(s, 0), s.vp[1] + EndVp(s, 1)};
  double score = kVpWeight * (vp[side] - vp[opp]);
  const int* need = game_.victory.thresholds;
  if (vp[side] >= need[side] && vp[side] > vp[opp]) score += kWinningBonus;
  if (vp[opp] >= need[opp] && vp[opp] > vp[side]) score -= kWinningBonus;

  // VPs at risk: a unit the enemy can take cheaply (zero strength, or a convoy) with no
  // friendly combat unit in its hex, near enemy combat units. One pass lists, per side,
  // the hexes of its combat units (AS > 0) and of its guards (DS >= 2, not a convoy),
  // so each unit at risk looks at those lists, not at every unit; the terms are added
  // to the score in unit order.
  const HexGrid& grid = game_.hex_board().map.grid;
  int attacker_q[2][kMaxUnits], attacker_r[2][kMaxUnits];
  int16_t guards[2][kMaxUnits], convoys[kMaxUnits];
  int num_attackers[2] = {0, 0}, num_guards[2] = {0, 0}, num_convoys = 0, ready[2] = {0, 0};
  bool combat_unit[kMaxUnits], at_risk[kMaxUnits];
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    combat_unit[i] = at_risk[i] = false;
    if (!us.OnMap()) continue;
    const int sd = us.side & 1;
    const int ds = DefenseStrength(s, u);
    const bool convoy = IsSupply(u);
    if (AttackStrength(s, u) > 0) {
      const Hex at = grid.HexAt(us.hex);
      attacker_q[sd][num_attackers[sd]] = at.q;
      attacker_r[sd][num_attackers[sd]++] = at.r;
      combat_unit[i] = !convoy;
    }
    if (ds >= 2 && !convoy) guards[sd][num_guards[sd]++] = us.hex;
    if (convoy && us.side == opp) convoys[num_convoys++] = us.hex;
    at_risk[i] = convoy || ds <= 0;
    if (IsArtillery(u) && us.face == 1 && !us.Has(kUnitReleased)) ready[sd] += Def(u).back[attr_bombard_];
  }
  score += kBatteryReady * (ready[side] - ready[opp]);
  int raid_dist = 1 << 20, convoy_dist = 1 << 20;
  const int enemy_hq = army_hq_hex_[opp];
  const bool raided = (s.once_awarded & (1ull << side)) != 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (!us.OnMap()) continue;
    if (us.side == side && combat_unit[i]) {
      if (!raided && enemy_hq >= 0) raid_dist = std::min(raid_dist, DistanceBetween(us.hex, enemy_hq));
      for (int c = 0; c < num_convoys; ++c) convoy_dist = std::min(convoy_dist, DistanceBetween(us.hex, convoys[c]));
    }
    if (!at_risk[i]) continue;
    // Guarded: another unit of its side in its hex with DS >= 2 (never the unit itself,
    // which is a convoy or has DS 0).
    const int sd = us.side & 1;
    if (std::find(guards[sd], guards[sd] + num_guards[sd], us.hex) != guards[sd] + num_guards[sd]) continue;
    // The VPs the enemy would score by taking it (a captured convoy retaken: the 6 VPs lost).
    const double at_stake = IsSupply(u) ? 6.0 : (IsHq(u) ? 1.0 : (IsArtillery(u) ? Def(u).back[attr_bombard_] : 1.0));
    const int nearest =
        NearestDistance(grid.HexAt(us.hex), attacker_q[1 - sd], attacker_r[1 - sd], num_attackers[1 - sd], 1 << 20);
    const double p = nearest <= 1 ? 0.6 : (nearest <= 3 ? 0.3 : (nearest <= 5 ? 0.1 : 0.0));
    score += (us.side == side ? -1.0 : 1.0) * p * kVpWeight * at_stake;
  }
  if (raid_dist < (1 << 20)) score -= kRaidApproach * raid_dist;
  if (convoy_dist < (1 << 20)) score -= kConvoyApproach * convoy_dist;
  return score;
}

}  // namespace wg::stars_and_bars
