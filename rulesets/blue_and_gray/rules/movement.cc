// Blue & Gray standard rules + Chattanooga exclusive rules: movement (7.0, 9.0, 10.2, 15.12, 17.x,
// 19.12) and strategic and special movement (11.1, 17.2). The class BgRules: rules.h; the helpers
// its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

// --- Hooks: movement -------------------------------------------------------------------

WG_RULE("9.0/16.11/17.2", BgRules::Movable);
bool BgRules::Movable(const State& s, UnitId u, Status* why) const {
  auto refuse = [why](const std::string& rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  if (!HexRules::Movable(s, u, why)) return false;
  if (IsFixedArtillery(u)) {
    return refuse(cfg_.fixed_rule, [&] { return game_.UnitLabel(u) + ": Union artillery may not move (only Sherman may)"; });
  }
  if (Night(s)) {
    if (s.unit(u).side == cfg_.night_no_move_side) {
      return refuse(cfg_.night_rule, [&] {
        return "no " + game_.sides[static_cast<size_t>(cfg_.night_no_move_side)].name + " unit may move during a night game-turn";
      });
    }
    if (s.unit(u).side != cfg_.night_exit_side && s.unit(u).OnMap()) {
      // 9.0: units adjacent to enemy units may not move at night.
      const int side = s.unit(u).side;
      for (int d = 0; d < 6; ++d) {
        const int nb = game_.hex_board().map.grid.NeighborIndex(s.unit(u).hex, d);
        if (nb >= 0 && EnemyIn(s, nb, side)) {
          return refuse("9.0", [&] { return game_.UnitLabel(u) + " is adjacent to an enemy unit during a night turn"; });
        }
      }
    }
  }
  return true;
}

WG_RULE("10.0", BgRules::AttackStrength);
int BgRules::AttackStrength(const State& s, UnitId u) const {
  if (Ineffective(s, u)) return 0;  // 10.0: ineffective units may not attack
  return HexRules::AttackStrength(s, u);
}

WG_RULE("9.0/10.2/15.12/17.11/17.14/19.12", BgRules::CheckMove);
Status BgRules::CheckMove(const State& s, const Action& a, Context& ctx) const {
  Status why;
  MoveAllowed(s, a, ctx, MoveContextOf(s), &why);
  return why;
}

// 17.12: a reinforcement does not count against the quota before the exempt turn.
WG_RULE("17.12/17.13", BgRules::QuotaCounts);
bool BgRules::QuotaCounts(const State& s, UnitId u) const {
  const UnitDef& d = game_.units[static_cast<size_t>(u)];
  return !(d.reinforcement_turn > 0 && s.turn < cfg_.quota_exempt_before);
}

WG_RULE("17.11/17.13/17.14/17.16", BgRules::MoveContextOf);
BgRules::MoveContext BgRules::MoveContextOf(const State& s) const {
  MoveContext m;
  m.side = s.phasing_side;
  m.night = Night(s);
  m.quota = cfg_.quota && m.side == cfg_.quota_side;
  if (m.quota) {
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.side == m.side && u.Has(kUnitMoved) && QuotaCounts(s, static_cast<UnitId>(i))) ++m.moved;
    }
    m.bonus = cfg_.quota_key_hex >= 0 && Control(s, cfg_.quota_key_hex) == m.side;
    m.limit = cfg_.quota_units + (m.bonus ? cfg_.quota_bonus : 0);
  }
  return m;
}

bool BgRules::MoveAllowed(const State& s, const Action& a, Context& ctx, const MoveContext& m, Status* why) const {
  if (a.num_hexes == 0 || a.num_units == 0) return true;
  return MoveAllowedTo(s, a.units.data(), a.num_units, a.type, a.hexes[0], a.hexes[static_cast<size_t>(a.num_hexes - 1)],
                       ctx, m, why);
}

// MoveAllowed of a move of `units` of type `type` entering `first` and ending in
// `to` (the only path hexes its rules read).
WG_RULE("9.0/10.2/15.12/17.11/17.14/19.12", BgRules::MoveAllowedTo);
bool BgRules::MoveAllowedTo(const State& s, const UnitId* units, int num_units, ActionType type, int first, int to,
                            Context& ctx, const MoveContext& m, Status* why) const {
  auto refuse = [why](const std::string& rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  const int side = m.side;
  // 19.12: no unit may end its move in a ferry hex.
  if (cfg_.ferry_no_end && to >= 0 && cfg_.is_ferry[static_cast<size_t>(to)]) {
    return refuse("19.12", [&] { return "no unit may end its movement phase in a ferry hex (" + game_.HexLabel(to) + ")"; });
  }
  const bool to_ezoc = to >= 0 && (m.zoc != nullptr ? m.zoc->InEzoc(to) : InEnemyZoc(s, ctx, side, to));
  if (to_ezoc) {
    for (int i = 0; i < num_units; ++i) {
      if (Ineffective(s, units[i])) {
        return refuse("10.2", [&] {
          return game_.UnitLabel(units[i]) + " is ineffective and may not enter an enemy zone of control";
        });
      }
    }
    if (m.night) return refuse("9.0", [] { return "units may not enter enemy zones of control during night turns"; });
  }
  // 15.12: reinforcements may not enter an enemy-controlled entry hex.
  if (type == ActionType::kEnter && Control(s, first) == 1 - side) {
    return refuse("15.12", [&] { return "entry hex " + game_.HexLabel(first) + " is enemy controlled"; });
  }
  // 17.11-17.14: the Union movement quota.
  if (m.quota) {
    int adding = 0;
    for (int i = 0; i < num_units; ++i) adding += QuotaCounts(s, units[i]) ? 1 : 0;
    if (adding > 0 && m.moved + adding > m.limit) {
      return refuse(m.bonus ? "17.14" : cfg_.quota_rule, [&] {
        return "the Union may move at most " + std::to_string(m.limit) + " units this movement phase" +
               (m.bonus ? " (" + std::to_string(cfg_.quota_units) + " + " + std::to_string(cfg_.quota_bonus) +
                           " while holding " + game_.HexLabel(cfg_.quota_key_hex) + ")"
                         : "");
      });
    }
  }
  return true;
}

WG_RULE("17.15", BgRules::AfterMove);
void BgRules::AfterMove(State& s, const Action& a, Context& ctx) const {
  for (int k = 0; k < a.num_hexes; ++k) SetControl(s, a.hexes[static_cast<size_t>(k)], s.phasing_side);  // 17.15
  RefreshControl(s, ctx);
}

// 17.2: a unit of the side that may exit enemy ZOCs at night, starting in one.
WG_RULE("17.2", BgRules::NightExit);
bool BgRules::NightExit(const State& s, Context& ctx, UnitId u) const {
  const UnitState& us = s.unit(u);
  return Night(s) && us.side == cfg_.night_exit_side && us.OnMap() && InEnemyZoc(s, ctx, us.side, us.hex);
}

// 11.1: at least min_distance hexes from the nearest enemy unit at the start of the phase.
WG_RULE("11.1", BgRules::StrategicEligible);
bool BgRules::StrategicEligible(const State& s, UnitId u) const {
  const UnitState& us = s.unit(u);
  return cfg_.strategic && us.OnMap() && !us.Has(kUnitMoved) &&
         NearestEnemy(s, us.hex, us.side) >= cfg_.strategic_distance;
}

WG_RULE("11.1", BgRules::StrategicBlocked);
void BgRules::StrategicBlocked(const State& s, Context& ctx, int side, std::vector<uint8_t>* blocked) const {
  RefreshEnemyOccupancy(s, ctx, side);
  HexScratch& hs = Hs(ctx);
  // The mask is a function of the enemy-occupied hexes alone (hs.enemy: the on-map
  // units not of `side`, the units MarkNearEnemies marks around): the same enemy
  // generation, the same mask (the enemy does not move during a side's movement).
  const bool own = blocked == &hs.hex_mask;
  if (own && hs.hex_mask_gen != 0 && hs.hex_mask_enemy_gen == hs.enemy_gen) return;
  blocked->assign(hs.enemy.begin(), hs.enemy.end());
  MarkNearEnemies(s, side, cfg_.strategic_distance, blocked);
  if (own) {
    hs.HexMaskBuilt();  // the listing's moves by this mask may be cached
    hs.hex_mask_enemy_gen = hs.enemy_gen;
  }
}

WG_RULE("17.2", BgRules::SpecialQuery);
MoveQuery BgRules::SpecialQuery(const State& s, Context& ctx, const UnitId* units, int n, bool strategic,
                                std::vector<uint8_t>* blocked, bool blocked_ready) const {
  MoveQuery q = BuildQuery(s, ctx, units, n);
  if (strategic) {
    int bonus = 1 << 20;
    for (int i = 0; i < n; ++i) {
      const int kind = game_.units[static_cast<size_t>(units[i])].kind;
      bonus = std::min(bonus, cfg_.strategic_bonus[static_cast<size_t>(kind)]);
    }
    q.allowance += 2 * bonus;
    // May not move closer than min_distance hexes to the nearest enemy unit:
    // those hexes are closed to the search.
    if (!blocked_ready) StrategicBlocked(s, ctx, s.unit(units[0]).side, blocked);
    q.enemy = blocked->data();
  } else {
    q.started_in_ezoc = false;  // 17.2: may exit the enemy ZOC at night
  }
  return q;
}

WG_RULE("11.1/17.2", BgRules::ApplySpecialMove);
Status BgRules::ApplySpecialMove(State& s, const Action& a, Context& ctx, bool strategic) const {
  if (a.num_units == 0 || a.num_hexes == 0) return Status::Refused("7.0", "a move needs units and a path");
  const int start = s.unit(a.units[0]).hex;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= s.num_units) return Status::Refused("7.0", "no such unit");
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side || !us.OnMap()) return Status::Refused("7.0", game_.UnitLabel(u) + " cannot move");
    if (us.hex != start) return Status::Refused("7.0", "units moving together must start in the same hex");
    if (us.Has(kUnitMoved)) return Status::Refused("7.0", game_.UnitLabel(u) + " has already moved this phase");
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return Status::Refused("7.0", "a unit is listed twice");
    }
    Status st = CanMove(s, u);
    if (!st.ok()) return st;
    if (strategic && !StrategicEligible(s, u)) {
      return Status::Refused("11.1", game_.UnitLabel(u) + " is closer than " + std::to_string(cfg_.strategic_distance) +
                                         " hexes to an enemy unit and may not use strategic movement");
    }
  }
  if (strategic) {
    for (int k = 0; k < a.num_hexes; ++k) {
      const int h = a.hexes[static_cast<size_t>(k)];
      if (h < 0 || h >= game_.hex_board().map.size()) return Status::Refused("7.0", "no such hex");
      if (NearestEnemy(s, h, s.phasing_side) < cfg_.strategic_distance) {
        return Status::Refused("11.1", "strategic movement may not come closer than " +
                                           std::to_string(cfg_.strategic_distance) + " hexes to an enemy unit (" +
                                           game_.HexLabel(h) + ")");
      }
    }
  }
  {
    Status st = CheckMove(s, a, ctx);
    if (!st.ok()) return st;
  }
  // 11.1's mask is the scratch's (StrategicBlocked): built once for the enemy's
  // positions and reused while they stay, by the listing and by every move applied.
  const MoveQuery q = SpecialQuery(s, ctx, a.units.data(), a.num_units, strategic, &Hs(ctx).hex_mask);
  PathCheck pc;
  bool ezoc = false;
  {
    Status st = WalkPath(s, a, ctx, q, &pc, &ezoc);
    if (!st.ok()) return st;
  }
  FinishMove(s, a, ctx, start, pc.cost, ezoc, strategic ? "11.1" : cfg_.night_rule.c_str());
  return Status::Ok();
}

void BgRules::ListSpecialMoves(const State& s, Context& ctx) const {
  HexScratch& hs = Hs(ctx);
  std::vector<uint8_t>& blocked = hs.hex_mask;
  bool blocked_ready = false;  // the phasing side's mask, built at the first strategic unit
  // With a distance of at least 1 the mask holds exactly the hexes closer than it to
  // an enemy unit (the enemy hexes among them), so it answers StrategicEligible's
  // NearestEnemy test for a unit's hex without a scan of the units.
  const bool mask_decides = cfg_.strategic && cfg_.strategic_distance >= 1;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side || !us.OnMap() || us.Has(kUnitMoved) || !Movable(s, u, nullptr)) continue;
    if (mask_decides && !blocked_ready) {
      StrategicBlocked(s, ctx, s.phasing_side, &blocked);
      blocked_ready = true;
    }
    for (int pass = 0; pass < 2; ++pass) {
      const bool strategic = pass == 0;
      const bool eligible = mask_decides ? !blocked[static_cast<size_t>(us.hex)] : StrategicEligible(s, u);
      if (strategic ? !eligible : !NightExit(s, ctx, u)) continue;
      const MoveQuery q = SpecialQuery(s, ctx, &u, 1, strategic, &blocked, blocked_ready);
      blocked_ready = blocked_ready || strategic;
      // Cached per unit like ListMoves' (slots 1 and 2), by the query and the mask.
      ListUnitMoves(hs, u, q, ActionType::kMove, strategic ? 1 : 2, strategic ? 1 : 0);
    }
  }
}

}  // namespace wg::blue_and_gray
