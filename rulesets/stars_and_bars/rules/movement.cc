// Stars and Bars: strengths, ZOC and stacking counts (2.5, 6.0, 6.2, 5.5, 12.2) and movement
// (5.1-5.7, 6.2, 12.4.1, 12.6). The class SbRules: internal.h; RULES.md maps every rule to its
// hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Strengths, ZOC, stacking (2.5, 6.0, 6.2, 7.4, 8.4, 5.5, 12.2) -------------------

WG_RULE("2.5.1/2.2.1.3/6.2/8.1", SbRules::AttackStrength);
int SbRules::AttackStrength(const State& s, UnitId u) const {
  if (DefenseStrength(s, u) <= 0) return 0;  // 6.2: zero-strength units have AS 0
  if (IsArtillery(u)) {
    // 8.1: BS used as AS when adjacent, unless it bombarded this player-turn.
    if (s.unit(u).Has(kUnitBombarded) && s.unit(u).side == s.phasing_side) return 0;
    return Bombard(s, u);
  }
  // game_.Current(s, u, attack), with its reducing markers read at load.
  int reduction = 0;
  for (int m : attack_reducers_) reduction += s.unit(u).markers[static_cast<size_t>(m)];
  return std::max(0, printed_attack_[2 * static_cast<size_t>(u) + (s.unit(u).face == 1 ? 1 : 0)] - reduction);
}

WG_RULE("6.1/6.2", SbRules::ZocOf);
ZocKind SbRules::ZocOf(const State& s, UnitId u) const {
  if (DefenseStrength(s, u) <= 0) return ZocKind::kNone;                 // 6.2
  if (IsArtillery(u) || IsSupply(u)) return ZocKind::kOwnHex;             // 6.1
  return ZocKind::kSix;
}

WG_RULE("2.2.1.5/5.5/12.2", SbRules::CountsForStacking);
bool SbRules::CountsForStacking(const State& s, UnitId u) const {
  if (IsHq(u)) return false;            // 5.5
  if (FreeBattery(s, u)) return false;  // 12.2
  return true;
}

// --- Movement (5.1-5.8, 6.1, 6.2, 12.4, 12.6) --------------------------------------

WG_RULE("2.5.3/7.4.3/12.6", SbRules::MovementAllowance);
int SbRules::MovementAllowance(const State& s, UnitId u) const {
  return Allowance(s, u, Ext<SbExt>(s).forced_march_active != 0);
}

// The allowance with or without the 12.6 forced march (nothing else reads it).
WG_RULE("2.5.3/5.3/7.4.3/12.6", SbRules::Allowance);
int SbRules::Allowance(const State& s, UnitId u, bool forced_march) const {
  const UnitState& us = s.unit(u);
  int ma = printed_ma_[static_cast<size_t>(u)];  // Def(u).front[data().movement_attribute]
  if (us.markers[dis_] > 0) --ma;  // 7.4.3
  if (forced_march && us.side == 1 && IsKind(u, kind_infantry_) && !us.Has(kSbStartedInEzoc)) {
    ma *= 2;  // 12.6
  }
  int half = 2 * std::max(0, ma);
  if (IsArtillery(u)) half -= us.spare;  // 5.3: MPs spent changing mode
  return std::max(0, half);
}

WG_RULE("12.3", SbRules::ReinforcementTurn);
int SbRules::ReinforcementTurn(const State& s, UnitId u) const {
  // 12.3 / TRT note: the 2nd Cavalry comes with Sill's Division when it is received.
  if (u == cav_2nd_ && Ext<SbExt>(s).sill == 1) return std::min(9, Def(u).reinforcement_turn);
  return Def(u).reinforcement_turn;
}

WG_RULE("5.3/5.6", SbRules::Movable);
bool SbRules::Movable(const State& s, UnitId u, Status* why) const {
  if (!s.unit(u).Has(kUnitReleased)) {
    if (why) *why = Status::Refused("5.6", game_.UnitLabel(u) + " is not released yet");
    return false;
  }
  if (Unlimbered(s, u)) {
    if (why) *why = Status::Refused("5.3", game_.UnitLabel(u) + " is unlimbered and may not move");
    return false;
  }
  return true;
}

int SbRules::CorpsNumber(UnitId u) const {
  if (static_cast<size_t>(u) < corps_.size()) return corps_[static_cast<size_t>(u)];
  return CorpsOf(u);
}

WG_RULE("2.2.2.3", SbRules::CorpsOf);
int SbRules::CorpsOf(UnitId u) const {
  const std::string& c = Def(u).corps;
  return c == "I" ? 1 : c == "II" ? 2 : c == "III" ? 3 : 0;
}

WG_RULE("12.4.1", SbRules::InitiativeAffects);
bool SbRules::InitiativeAffects(const State& s, UnitId u) const {
  const int corps = Ext<SbExt>(s).initiative_corps;
  if (corps == 0 || s.unit(u).side != 0 || CorpsNumber(u) != corps) return false;
  return !(IsKind(u, kind_cavalry_) || IsSupply(u) || IsRegiment(u));  // 12.4.1
}

WG_RULE("5.3", SbRules::LeavesWoodsOffPath);
bool SbRules::LeavesWoodsOffPath(int from, const int16_t* path, int n) const {
  const FeatureMask paths = road_trail_;  // looked up once at load
  const Map& map = *map_;
  int prev = from;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    if (prev >= 0 && h >= 0 && map.HasTerrain(prev, woods_)) {
      const int dir = DirectionTo(map.grid.HexAt(prev), map.grid.HexAt(h));
      if (dir >= 0 && !(map.Side(prev, dir) & paths)) return true;
    }
    prev = h;
  }
  return false;
}

WG_RULE("5.3/5.7/6.2/12.4.1/12.6", SbRules::CheckMove);
Status SbRules::CheckMove(const State& s, const Action& a, Context& ctx) const {
  Status why;
  MoveAllowed(s, a, ctx, MoveFactsOf(s, a), &why);
  return why;
}

SbRules::MoveFacts SbRules::MoveFactsOf(const State& s, const Action& a) const {
  MoveFacts f;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (IsArtillery(u)) f.artillery = true;
    if (AttackStrength(s, u) > 0) f.any_attack = true;
    if (DefenseStrength(s, u) > 0) f.any_normal = true;
    if (InitiativeAffects(s, u)) f.initiative_limit[i] = (s.unit(u).Has(kSbStartedWithHq) || IsHq(u)) ? 2 : 1;
  }
  return f;
}

// CheckMove's rules, with the facts about the moving units (MoveFactsOf: the same
// for every destination of a unit); `why` (if not null) gets the refusal. The
// listing passes null, so a refused destination formats no message.
WG_RULE("5.3/5.7/6.2/12.4.1/12.6", SbRules::MoveAllowed);
bool SbRules::MoveAllowed(const State& s, const Action& a, Context& ctx, const MoveFacts& f, Status* why,
                          int path_bits) const {
  auto refuse = [why](const char* rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  if (path_bits >= 0 && (path_bits & kPathOffMap)) path_bits = -1;
  if (path_bits >= 0) {
    // The listing's one-unit move: the path facts were worked out when it was cached.
    if (f.artillery && a.type == ActionType::kMove && (path_bits & kPathWoodsExit)) {
      return refuse("5.3", [] { return "artillery may leave a woods hex only along a road or trail"; });
    }
  } else if (f.artillery && a.type == ActionType::kMove) {
    for (int i = 0; i < a.num_units; ++i) {
      const UnitId u = a.units[static_cast<size_t>(i)];
      if (IsArtillery(u) && LeavesWoodsOffPath(s.unit(u).hex, a.hexes.data(), a.num_hexes)) {
        return refuse("5.3", [] { return "artillery may leave a woods hex only along a road or trail"; });
      }
    }
  }
  const bool any_attack = f.any_attack, any_normal = f.any_normal;
  const int side = s.phasing_side;
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  if (!any_attack && path_bits >= 0) {
    if (path_bits & kPathEnemyHex) {
      return refuse("6.2", [] { return "units without an attack strength may never enter an enemy-occupied hex"; });
    }
  } else if (!any_attack) {
    // EnemyIn per path hex, read from the (cached) occupancy map for map hexes.
    RefreshEnemyOccupancy(s, ctx, side);
    const std::vector<uint8_t>& enemy = Hs(ctx).enemy;
    const int map_size = game_.hex_board().map.size();
    for (int k = 0; k < a.num_hexes; ++k) {
      const int h = a.hexes[static_cast<size_t>(k)];
      const bool occupied = (h >= 0 && h < map_size) ? enemy[static_cast<size_t>(h)] != 0 : EnemyIn(s, h, side);
      if (occupied) {
        return refuse("6.2", [] { return "units without an attack strength may never enter an enemy-occupied hex"; });
      }
    }
  }
  // 12.4.1: the restricted corps moves one hex (two if it began stacked with an HQ).
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const int limit = f.initiative_limit[i];
    if (limit == 0) continue;
    if (a.num_hexes > limit) {  // an entering unit counts its first hex (5.7)
      return refuse("12.4.1", [&] {
        return game_.UnitLabel(u) + "'s corps lacks initiative this turn: at most " + std::to_string(limit) + " hex" +
               (limit > 1 ? "es" : "");
      });
    }
  }
  const bool fm = Ext<SbExt>(s).forced_march_active != 0;
  if (!any_normal || fm) {
    const ZocField& zoc = f.zoc != nullptr ? *f.zoc : EnemyZoc(s, ctx, side);
    if (!any_normal && zoc.InEzoc(to)) {
      // 6.2: a zero-strength unit enters an EZOC only with or joining a normal unit.
      bool joins = false;
      if (f.normal_friend != nullptr && to >= 0 && to < game_.hex_board().map.size()) {
        joins = f.normal_friend[static_cast<size_t>(to)] != 0;
      } else {
        for (int i = 0; i < s.num_units && !joins; ++i) {
          const UnitState& o = s.units[static_cast<size_t>(i)];
          joins = o.hex == to && o.side == side && DefenseStrength(s, static_cast<UnitId>(i)) > 0;
        }
      }
      if (!joins) return refuse("6.2", [] { return "a zero-strength unit may not enter an enemy zone of control alone"; });
    }
    if (fm && zoc.InEzoc(to)) {
      for (int i = 0; i < a.num_units; ++i) {
        const UnitId u = a.units[static_cast<size_t>(i)];
        if (s.unit(u).side != 1 || !IsKind(u, kind_infantry_)) continue;
        // 12.6: a unit ending in an EZOC may not have used the doubled allowance: the
        // move's query with the allowances as if the march were off (the forced march
        // changes nothing else the query reads: occupancy and ZOCs do not depend on it).
        MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
        q.allowance = 1 << 20;
        for (int j = 0; j < a.num_units; ++j) q.allowance = std::min(q.allowance, Allowance(s, a.units[static_cast<size_t>(j)], false));
        if (a.type == ActionType::kEnter) {
          const Place& p = game_.hex_board().map.places[static_cast<size_t>(Def(u).entry_place)];
          q.EnterFrom(p.hexes);
        }
        int path[kMaxActionHexes];
        std::copy(a.hexes.begin(), a.hexes.begin() + a.num_hexes, path);
        if (!Hs(ctx).pathfinder.CheckPath(q, std::span<const int>(path, static_cast<size_t>(a.num_hexes)), data().move_labels).ok) {
          return refuse("12.6", [] { return "force-marching units may not end their move in an enemy zone of control"; });
        }
        break;
      }
    }
  }
  return true;
}

// MoveAllowed's path facts of a cached candidate (a function of the query and the
// path: the start hex, the map, the query's enemy array).
WG_RULE("5.3/6.2/12.4.1", SbRules::CandidateBits);
uint8_t SbRules::CandidateBits(const MoveQuery& q, UnitId u, const Action& a) const {
  uint8_t bits = 0;
  const int map_size = map_size_;
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (h < 0 || h >= map_size || q.enemy == nullptr) return kPathOffMap;
    if (q.enemy[h]) bits |= kPathEnemyHex;  // 6.2
  }
  if (a.type == ActionType::kMove && IsArtillery(u) && LeavesWoodsOffPath(q.start, a.hexes.data(), a.num_hexes)) {
    bits |= kPathWoodsExit;  // 5.3
  }
  if (a.num_hexes > 1) bits |= kPathOver1;  // 12.4.1
  if (a.num_hexes > 2) bits |= kPathOver2;
  return bits;
}

// CandidateBits of a path extended by the step from -> to: a hex off the map decides
// nothing (kPathOffMap alone, absorbing); 6.2's enemy hex, 5.3's woods exit by this
// step, 12.4.1's lengths.
WG_RULE("5.3/6.2/12.4.1", SbRules::StepCandidateBits);
uint8_t SbRules::StepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, uint8_t pred_bits, int from, int to,
                                   int num_hexes) const {
  if (pred_bits & kPathOffMap) return kPathOffMap;
  if (to < 0 || to >= map_size_ || q.enemy == nullptr) return kPathOffMap;
  uint8_t bits = pred_bits;
  if (q.enemy[to]) bits |= kPathEnemyHex;  // 6.2
  if (type == ActionType::kMove && IsArtillery(u) && !(bits & kPathWoodsExit)) {
    const int16_t step = static_cast<int16_t>(to);
    if (LeavesWoodsOffPath(from, &step, 1)) bits |= kPathWoodsExit;  // 5.3
  }
  if (num_hexes > 1) bits |= kPathOver1;  // 12.4.1
  if (num_hexes > 2) bits |= kPathOver2;
  return bits;
}

// StepCandidateBits of every linked candidate of a fill (CandidateBits of each root),
// with what does not change from one candidate to the next read once: the query's
// enemy array, whether the woods rule (5.3) concerns the move.
void SbRules::FillStepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, const HexScratch::UnitMoves& c,
                                    uint8_t* bits) const {
  const int32_t* link = c.link.data();
  const int16_t* ends = c.ends.data();
  const uint8_t* lengths = c.lengths.data();
  const size_t n = c.size();
  const uint8_t* enemy = q.enemy;
  const auto map_size = static_cast<unsigned>(map_size_);
  const bool woods = type == ActionType::kMove && IsArtillery(u);
  for (size_t i = 0; i < n; ++i) {
    const int32_t f = link[i];
    if (f < 0) {
      bits[i] = CandidateBits(q, u, c.roots[static_cast<size_t>(-1 - f)]);
      continue;
    }
    const uint8_t pred = bits[f];
    const int to = ends[i];
    // A hex off the map, or no enemy array, decides nothing (kPathOffMap alone,
    // absorbing); never so for a searched path, so tested once, last.
    if ((pred & kPathOffMap) || static_cast<unsigned>(to) >= map_size || enemy == nullptr) [[unlikely]] {
      bits[i] = kPathOffMap;
      continue;
    }
    const uint8_t length = lengths[i];
    uint8_t b = static_cast<uint8_t>(pred | (enemy[to] != 0 ? kPathEnemyHex : 0) |  // 6.2
                                     (length > 1 ? kPathOver1 : 0) | (length > 2 ? kPathOver2 : 0));  // 12.4.1
    if (woods && !(b & kPathWoodsExit)) {
      const int16_t step = static_cast<int16_t>(to);
      if (LeavesWoodsOffPath(ends[f], &step, 1)) b |= kPathWoodsExit;  // 5.3
    }
    bits[i] = b;
  }
}

WG_RULE("6.2", SbRules::Overrunnable);
bool SbRules::Overrunnable(const State& s, int hex, int moving_side) const {
  // 6.2: a hex held only by zero-strength units may be entered and passed through.
  bool any = false;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex != hex || u.side == moving_side) continue;
    if (DefenseStrength(s, static_cast<UnitId>(i)) > 0) return false;
    any = true;
  }
  return any;
}

// Overrunnable for every enemy hex in one pass over the other side's units (not one per
// hex): a hex is overrunnable if it holds units of the other side and none has a defence
// strength.
void SbRules::MarkOverrunnable(const State& s, int, const std::vector<uint8_t>& enemy, std::span<const UnitId> others,
                               std::vector<uint8_t>* overrun) const {
  std::vector<uint8_t>& o = *overrun;  // 1: only zero-strength units so far; 2: a normal unit
  const size_t n = enemy.size();
  int16_t hexes[kMaxUnits];  // the hexes of the other side's units, for the second pass
  int num_hexes = 0;
  for (const UnitId i : others) {  // on the map, not of the moving side, in unit order
    const UnitState& u = s.unit(i);
    if (static_cast<size_t>(u.hex) >= n) continue;
    hexes[num_hexes++] = u.hex;
    if (!enemy[static_cast<size_t>(u.hex)]) continue;
    uint8_t& m = o[static_cast<size_t>(u.hex)];
    m = DefenseStrength(s, i) > 0 ? 2 : (m == 2 ? 2 : 1);
  }
  // Only the enemy units' hexes were marked (the rest are 0 already).
  for (int k = 0; k < num_hexes; ++k) {
    uint8_t& m = o[static_cast<size_t>(hexes[k])];
    m = m == 1 ? 1 : 0;
  }
}

}  // namespace wg::stars_and_bars
