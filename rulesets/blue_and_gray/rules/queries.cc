// Blue & Gray standard rules + Chattanooga exclusive rules: queries: night, control (17.15),
// ineffective units (10.0), fixed artillery (16.11), exposure (8.72), nearness of enemies (11.1).
// The class BgRules: rules.h; the helpers its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

// --- Queries -------------------------------------------------------------------------

bool BgRules::Night(const State& s) const {
  const int t = std::clamp(static_cast<int>(s.turn), 1, game_.turns.num_turns()) - 1;
  return game_.turns.turns[static_cast<size_t>(t)].night;
}

WG_RULE("17.15", BgRules::Control);
int BgRules::Control(const State& s, int hex) const {
  if (hex < 0) return -1;
  for (int i = 0; i < s.num_units; ++i) {
    if (s.units[static_cast<size_t>(i)].hex == hex) return s.units[static_cast<size_t>(i)].side;
  }
  return StoredControl(s, hex);
}

int BgRules::StoredControl(const State& s, int hex) const {
  const BgExt& x = Ext<BgExt>(s);
  const int v = (x.control[static_cast<size_t>(hex / 4)] >> ((hex % 4) * 2)) & 3;
  return v - 1;
}

void BgRules::SetControl(State& s, int hex, int side) const {
  if (hex < 0 || hex / 4 >= 192) return;
  BgExt& x = Ext<BgExt>(s);
  uint8_t& b = x.control[static_cast<size_t>(hex / 4)];
  const int shift = (hex % 4) * 2;
  b = static_cast<uint8_t>((b & ~(3 << shift)) | ((side + 1) << shift));
}

WG_RULE("10.0", BgRules::Ineffective);
bool BgRules::Ineffective(const State& s, UnitId u) const {
  const int m = ineffective_;
  return m >= 0 && s.unit(u).markers[m] > 0;
}

bool BgRules::IsArtillery(UnitId u) const {
  return data().artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == data().artillery_kind;
}

WG_RULE("16.11", BgRules::IsFixedArtillery);
bool BgRules::IsFixedArtillery(UnitId u) const {
  if (!cfg_.fixed_artillery) return false;
  const UnitDef& d = game_.units[static_cast<size_t>(u)];
  if (d.side != cfg_.fixed_side || d.kind != cfg_.fixed_kind) return false;
  return std::find(cfg_.fixed_except.begin(), cfg_.fixed_except.end(), u) == cfg_.fixed_except.end();
}

// 8.72: artillery attacking non-adjacent units never suffers an adverse result.
WG_RULE("8.72/10.3", BgRules::Exposed);
bool BgRules::Exposed(const State& s, UnitId u) const {
  if (!IsArtillery(u)) return true;
  const PendingCombat& c = s.combat;
  for (int k = 0; k < c.num_defender_hexes; ++k) {
    if (c.defender_hexes[k] >= 0 && Adjacent(s.unit(u).hex, c.defender_hexes[k])) return true;
  }
  return false;
}

// 8.42: a unit whose stack-mate already attacked (in another combat) may not attack.
// `stacks` (if not null): the units of each hex as s has them (the obligations' lists).
WG_RULE("8.42", BgRules::StackmateAttacked);
bool BgRules::StackmateAttacked(const State& s, UnitId u, const HexScratch* stacks) const {
  const UnitState& us = s.unit(u);
  if (stacks != nullptr && us.OnMap() && us.hex < game_.hex_board().map.size()) {
    for (int i = stacks->hex_head[static_cast<size_t>(us.hex)]; i >= 0; i = stacks->next_in_hex[static_cast<size_t>(i)]) {
      const UnitState& o = s.units[static_cast<size_t>(i)];
      if (i != u && o.side == us.side && o.Has(kUnitAttacked)) return true;
    }
    return false;
  }
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& o = s.units[static_cast<size_t>(i)];
    if (i != u && o.hex == us.hex && o.side == us.side && o.Has(kUnitAttacked)) return true;
  }
  return false;
}

int BgRules::NearestEnemy(const State& s, int hex, int side) const {
  int best = 1 << 20;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& o = s.units[static_cast<size_t>(i)];
    if (o.OnMap() && o.side != side) best = std::min(best, DistanceBetween(hex, o.hex));
  }
  return best;
}

// Sets (*mask)[h] = 1 for every hex h with NearestEnemy(s, h, side) < distance:
// the hexes within distance - 1 of an enemy unit, marked around each enemy hex
// (the same set as testing every hex against every enemy, far cheaper).
WG_RULE("11.1", BgRules::MarkNearEnemies);
void BgRules::MarkNearEnemies(const State& s, int side, int distance, std::vector<uint8_t>* mask) const {
  const HexGrid& grid = game_.hex_board().map.grid;
  const int radius = distance - 1;
  if (radius < 0) return;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& o = s.units[static_cast<size_t>(i)];
    if (!o.OnMap() || o.side == side) continue;
    const Hex e = grid.HexAt(o.hex);
    for (int dq = -radius; dq <= radius; ++dq) {
      const int lo = std::max(-radius, -dq - radius), hi = std::min(radius, -dq + radius);
      for (int dr = lo; dr <= hi; ++dr) {
        const int h = grid.Index(Hex(e.q + dq, e.r + dr));
        if (h >= 0) (*mask)[static_cast<size_t>(h)] = 1;
      }
    }
  }
}

}  // namespace wg::blue_and_gray
