// Blue & Gray standard rules + Chattanooga exclusive rules: the hooks (see rules.h).
#include "rules.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/registry.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

namespace {

HexScratch& Hs(Context& ctx) { return static_cast<HexScratch&>(ctx.scratch()); }

constexpr int kColumn13 = 2;  // "1-3" on the CRT (8.73)

}  // namespace

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

// --- Hooks: sequence -----------------------------------------------------------------

WG_RULE("17.15/20.11", BgRules::Start);
void BgRules::Start(State& s, Context& ctx) const {
  // 17.15: a side controls the hexes its units occupy at the start: it counts
  // for 20.11 and 17.14 at once, and the state's place control shows it.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.OnMap()) SetControl(s, u.hex, u.side);
  }
  RefreshControl(s, ctx);
  HexRules::Start(s, ctx);
}

// 10.4: at the end of a night turn all ineffective units become effective again (run as the
// next game-turn begins).
WG_RULE("10.4", BgRules::RecoverAfterNight);
void BgRules::RecoverAfterNight(State& s, Context& ctx) const {
  if (s.turn <= 1) return;
  const int prev = s.turn - 2;
  if (!game_.turns.turns[static_cast<size_t>(prev)].night) return;
  const int m = ineffective_;  // looked up at load
  if (m < 0) return;
  for (int i = 0; i < s.num_units; ++i) {
    UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.markers[m] == 0) continue;
    u.markers[m] = 0;
    Event e;
    e.type = EventType::kNote;
    e.unit = static_cast<UnitId>(i);
    e.rule = "10.4";
    e.text = "effective again after the night turn";
    ctx.Emit(e);
  }
}

// The combat phase (8.0).
WG_RULE("10.2", BgRules::BeginBgCombat);
void BgRules::BeginBgCombat(State& s, Context& ctx) const {
  BeginCombatPhase(s, ctx);
  // 10.2: ineffective units in an enemy ZOC at the start of their combat phase retreat (no advance).
  const int side = s.phasing_side;
  UnitId must[kMaxCombatUnits];
  int n = 0;
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  for (int i = 0; i < s.num_units && n < kMaxCombatUnits; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.side == side && u.OnMap() && Ineffective(s, static_cast<UnitId>(i)) && zoc.InEzoc(u.hex)) {
      must[n++] = static_cast<UnitId>(i);
    }
  }
  if (n == 0) return;
  PendingCombat& c = s.combat;
  c = PendingCombat{};
  for (auto& h : c.defender_hexes) h = -1;
  c.active = 1;
  c.vacated_hex = -1;  // no defender hexes: none is vacated, so there is no advance (10.2)
  c.legacy_current = kNoUnit;
  c.retreat_hexes = 1;
  CallFollowUp(s);  // the retreats are owed in it
  c.num_attackers = static_cast<uint8_t>(n);
  for (int i = 0; i < n; ++i) {
    c.attackers[i] = must[i];
    Event e;
    e.type = EventType::kNote;
    e.unit = must[i];
    e.rule = "10.2";
    e.text = "ineffective in an enemy zone of control: must retreat";
    ctx.Emit(e);
    FlagRetreat(s, ctx, must[i], 1);  // 10.2: one hex
  }
  FollowUpCombat(s, ctx);
}

// What happens at the points of the turn procedure (wargame/steps.h), each with its rule.
void BgRules::RegisterProcedure() {
  procedure_.At(ProcedureAt::kTurnBegin, "", "10.4", "BgRules::RecoverAfterNight",
                [this](State& s, Context& ctx) { RecoverAfterNight(s, ctx); });
  if (data().phase_movement >= 0) {
    procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(data().phase_movement)], "15.12",
                  "BgRules::EliminateReinforcementsNotEntered",
                  [this](State& s, Context& ctx) { EliminateReinforcementsNotEntered(s, ctx); });
  }
  procedure_.At(ProcedureAt::kGameEnd, "", "20.12", "BgRules::CountEndVp",
                [this](State& s, Context& ctx) { CountEndVp(s, ctx); });
}

// 15.12: reinforcements that could not enter by the end of their turn are eliminated (as the
// movement phase of the deadline turn ends).
WG_RULE("15.12", BgRules::EliminateReinforcementsNotEntered);
void BgRules::EliminateReinforcementsNotEntered(State& s, Context& ctx) const {
  if (cfg_.deadline_turn > 0 && s.turn == cfg_.deadline_turn) {
    for (int i = 0; i < s.num_units; ++i) {
      UnitState& u = s.units[static_cast<size_t>(i)];
      const UnitDef& d = game_.units[static_cast<size_t>(i)];
      if (u.hex != kNotYetEntered || u.side != s.phasing_side || d.reinforcement_turn <= 0 ||
          d.reinforcement_turn > cfg_.deadline_turn) {
        continue;
      }
      u.hex = kEliminated;
      Event e;
      e.type = EventType::kEliminated;
      e.unit = static_cast<UnitId>(i);
      e.side = static_cast<int8_t>(u.side);
      e.rule = "15.12";
      e.text = "could not enter the map";
      ctx.Emit(e);
      OnEliminated(s, ctx, static_cast<UnitId>(i), -1);
    }
  }
}

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

// --- Hooks: combat ------------------------------------------------------------------------

WG_RULE("8.0/8.41/8.42/8.7/8.73/10.0/19.12", BgRules::CheckAttackRules);
Status BgRules::CheckAttackRules(const State& s, const Action& a, Context& ctx) const {
  bool all_artillery_at_range = a.num_units > 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= s.num_units) return Status::Refused("8.0", "no such unit");
    if (s.unit(u).side != s.phasing_side) continue;  // the core refuses it
    if (s.unit(u).Has(kUnitAttacked)) {
      return Status::Refused("8.41", game_.UnitLabel(u) + " has already attacked this combat phase");
    }
    if (Ineffective(s, u)) return Status::Refused("10.0", game_.UnitLabel(u) + " is ineffective and may not attack");
    if (StackmateAttacked(s, u)) {
      return Status::Refused("8.42", game_.UnitLabel(u) + ": units stacked together may not attack separate hexes");
    }
    if (cfg_.ferries && s.unit(u).OnMap() && cfg_.is_ferry[static_cast<size_t>(s.unit(u).hex)]) {
      return Status::Refused("19.12", "no unit may attack from a ferry hex");
    }
    bool adjacent = false;
    for (int k = 0; k < a.num_hexes; ++k) {
      adjacent = adjacent || (s.unit(u).OnMap() && Adjacent(s.unit(u).hex, a.hexes[static_cast<size_t>(k)]));
    }
    if (!IsArtillery(u) || adjacent) all_artillery_at_range = false;
    if (IsArtillery(u) && !adjacent && s.unit(u).OnMap()) {
      // 8.7: artillery adjacent to enemy units must attack the adjacent enemy units.
      for (int d = 0; d < 6; ++d) {
        const int nb = game_.hex_board().map.grid.NeighborIndex(s.unit(u).hex, d);
        if (nb >= 0 && EnemyIn(s, nb, s.phasing_side)) {
          return Status::Refused("8.7", game_.UnitLabel(u) + " is adjacent to enemy units and must attack them");
        }
      }
      Status st = CheckBombardment(s, u, a);
      if (!st.ok()) return st;
    }
  }
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (h >= 0 && h < game_.hex_board().map.size() && EnemyIn(s, h, s.phasing_side) && !HexAttackable(s, h, s.phasing_side)) {
      return Status::Refused("8.41", game_.HexLabel(h) + " holds a unit already attacked this combat phase");
    }
  }
  if (all_artillery_at_range) {
    // 8.73: artillery alone against non-adjacent units needs 1:3 or better.
    AttackPlan plan;
    Status st = PrepareAttack(s, a, ctx, &plan);
    if (!st.ok()) return st;
    if (plan.column == CombatTable::kBelowLowest || plan.column < kColumn13) {
      return Status::Refused("8.73", "artillery attacking alone at range needs odds of 1:3 or better (" +
                                         ColumnLabel(plan.column) + ")");
    }
  }
  return Status::Ok();
}

// 8.7 / 8.71 (with 8.74): artillery attacking at range needs one target hex within
// three hexes and a clear line of sight to it; each refusal cites its own rule.
WG_RULE("8.7/8.71", BgRules::CheckBombardment);
Status BgRules::CheckBombardment(const State& s, UnitId u, const Action& a) const {
  const int from = s.unit(u).hex;
  bool in_range = false;
  std::string blocked;
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (h < 0 || h >= game_.hex_board().map.size() || DistanceBetween(from, h) > data().artillery_range) continue;
    in_range = true;
    if (data().los->Clear(from, h)) return Status::Ok();
    blocked += (blocked.empty() ? "" : ", ") + game_.HexLabel(h);
  }
  if (!in_range) {
    return Status::Refused("8.7", game_.UnitLabel(u) + ": artillery attacks enemy units within " +
                                      std::to_string(data().artillery_range) + " hexes only");
  }
  return Status::Refused("8.71", game_.UnitLabel(u) + ": the line of sight to " + blocked +
                                     " is blocked (it crosses a forest or town hex)");
}

// 11.2: cavalry attacked solely by infantry or artillery may retreat two hexes first.
WG_RULE("11.2", BgRules::CavalryMayRetreat);
bool BgRules::CavalryMayRetreat(const State& s, Context& ctx, const Action& a) const {
  const int cav = game_.KindIndex("cavalry");
  if (cav < 0) return false;
  for (int i = 0; i < a.num_units; ++i) {
    if (game_.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].kind == cav) return false;
  }
  int nd = 0;
  for (int k = 0; k < a.num_hexes; ++k) {
    UnitId here[kMaxCombatUnits];
    const int n = UnitsIn(s, a.hexes[static_cast<size_t>(k)], 1 - s.phasing_side, here, kMaxCombatUnits);
    for (int i = 0; i < n; ++i) {
      if (game_.units[static_cast<size_t>(here[i])].kind != cav) return false;
      HexScratch& hs = Hs(ctx);
      hs.actions.clear();
      RetreatPaths(s, ctx, here[i], 2, &hs.actions);
      if (hs.actions.empty()) return false;
      ++nd;
    }
  }
  return nd > 0;
}

WG_RULE("11.2", BgRules::ApplyCavalryChoice);
Status BgRules::ApplyCavalryChoice(State& s, const Action& a, Context& ctx) const {
  BgExt& x = Ext<BgExt>(s);
  const Action pending = x.pending;
  x.pending = Action{};
  EndStep(s, ctx, steps_);
  if (a.value == 0) {
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(1 - s.phasing_side);
    e.rule = "11.2";
    e.text = "the cavalry stands";
    ctx.Emit(e);
    return ApplyAttack(s, pending, ctx);
  }
  if (a.value != 1) return Status::Refused("11.2", "choose 0 (stand) or 1 (retreat two hexes)");
  UnitId defenders[kMaxCombatUnits] = {};
  int nd = 0;
  for (int k = 0; k < pending.num_hexes; ++k) {
    nd += UnitsIn(s, pending.hexes[static_cast<size_t>(k)], 1 - s.phasing_side, defenders + nd, kMaxCombatUnits - nd);
  }
  FillCombat(s, pending, defenders, nd);
  for (auto& h : Ext<BgExt>(s).attacker_hexes) h = -1;  // the attackers stay: no defender advance
  for (int i = 0; i < s.combat.num_attackers; ++i) s.unit(s.combat.attackers[i]).flags |= kUnitAttacked;
  s.combat.retreat_hexes = 2;
  CallFollowUp(s);
  for (int i = 0; i < nd; ++i) {
    s.unit(defenders[i]).flags |= kUnitDefended;
    OweRetreat(s, defenders[i], 2);
  }
  Event e;
  e.type = EventType::kChoice;
  e.side = static_cast<int8_t>(1 - s.phasing_side);
  e.rule = "11.2";
  e.text = "the cavalry retreats two hexes before combat";
  ctx.Emit(e);
  FollowUpCombat(s, ctx);
  return Status::Ok();
}

WG_RULE("2.3/8.2/8.43/8.76/18.12", BgRules::CombatModifiers);
void BgRules::CombatModifiers(const State& s, Context&, CombatMods* mods) const {
  const PendingCombat& c = s.combat;
  const Map& map = game_.hex_board().map;
  const int rough = map.TerrainId("rough");
  const FeatureMask redoubt = map.FeatureBit("redoubt");
  const FeatureMask water = map.FeatureBit("stream") | map.FeatureBit("creek");
  const FeatureMask crossing = map.FeatureBit("bridge") | map.FeatureBit("ford");
  bool all_doubled = c.num_defender_hexes > 0;
  bool hex_doubled[6] = {false, false, false, false, false, false};
  const char* why = "";
  for (int k = 0; k < c.num_defender_hexes; ++k) {
    const int h = c.defender_hexes[k];
    if (h < 0) continue;
    bool doubled = false;
    if (rough >= 0 && map.HasTerrain(h, rough)) {
      doubled = true;
      why = "TEC: rough, defender doubled";
    }
    // 18.12 redoubt; TEC stream (reconstruction), 8.76: only units attacking across
    // a hexside (not artillery) decide; all of them must cross it.
    bool any = false, all_redoubt = true, all_stream = true;
    for (int i = 0; i < c.num_attackers; ++i) {
      const UnitId u = c.attackers[i];
      const int from = s.unit(u).hex;
      if (from < 0) continue;
      const int dir = DirectionTo(map.grid.HexAt(from), map.grid.HexAt(h));
      if (dir < 0) continue;  // artillery at range
      const bool redoubt_side = (map.Toward(from, dir) & redoubt) != 0;
      all_redoubt = all_redoubt && redoubt_side;
      if (!IsArtillery(u)) {
        any = true;
        const FeatureMask side = map.Side(from, dir);
        all_stream = all_stream && (side & water) && !(side & crossing);
      }
    }
    if (any && all_redoubt && redoubt) {
      doubled = true;
      why = "18.12: attacked only across redoubt hexsides, defender doubled";
    }
    if (any && all_stream && water) {
      doubled = true;
      why = "TEC (reconstruction): attacked only across stream hexsides, defender doubled (8.76)";
    }
    all_doubled = all_doubled && doubled;
    hex_doubled[k] = doubled;
  }
  if (all_doubled) {
    mods->Multiply(2, why);  // doublings do not add
    return;
  }
  // 8.43 with 8.2: in an attack on several hexes only the units in the hexes
  // that qualify are doubled; their strength is added once more.
  int bonus = 0;
  for (int k = 0; k < c.num_defender_hexes; ++k) {
    if (!hex_doubled[k]) continue;
    for (int i = 0; i < c.num_defenders; ++i) {
      if (s.unit(c.defenders[i]).hex == c.defender_hexes[k]) bonus += DefenseStrength(s, c.defenders[i]);
    }
  }
  if (bonus > 0) {
    mods->defense_bonus += bonus;
    mods->Note(why);
  }
}

WG_RULE("16.11", BgRules::FlagRetreat);
void BgRules::FlagRetreat(State& s, Context& ctx, UnitId u, int length) const {
  if (!s.unit(u).OnMap()) return;
  if (IsFixedArtillery(u)) {
    Eliminate(s, ctx, u, cfg_.fixed_rule.c_str(), "Union artillery forced to retreat is eliminated");
    return;
  }
  OweRetreat(s, u, length);
}

WG_RULE("8.3/8.72/10.0/10.1/10.3", BgRules::ApplyCombatResult);
void BgRules::ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const {
  PendingCombat& c = s.combat;
  bool exposed[kMaxCombatUnits];
  for (int i = 0; i < c.num_attackers; ++i) exposed[i] = Exposed(s, c.attackers[i]);
  c.retreat_hexes = static_cast<int16_t>(data().retreat_hexes);
  BgExt& x = Ext<BgExt>(s);
  for (int i = 0; i < kMaxCombatUnits; ++i) {
    x.attacker_hexes[i] = static_cast<int16_t>(i < c.num_attackers && exposed[i] ? s.unit(c.attackers[i]).hex : -1);
  }
  const int marker = ineffective_;  // looked up at load
  for (const auto& t : r.tokens) {
    if (t.code == "AE") {
      for (int i = 0; i < c.num_attackers; ++i) {
        if (exposed[i]) Eliminate(s, ctx, c.attackers[i], "8.3", "AE");
      }
    } else if (t.code == "AR") {
      for (int i = 0; i < c.num_attackers; ++i) {
        if (!exposed[i]) continue;  // 8.72, 10.3
        if (marker >= 0 && !Ineffective(s, c.attackers[i])) AddMarker(s, ctx, c.attackers[i], marker, 1, "10.0");
        FlagRetreat(s, ctx, c.attackers[i], data().retreat_hexes);
      }
    } else if (t.code == "DE") {
      for (int i = 0; i < c.num_defenders; ++i) Eliminate(s, ctx, c.defenders[i], "8.3", "DE");
    } else if (t.code == "DR") {
      for (int i = 0; i < c.num_defenders; ++i) FlagRetreat(s, ctx, c.defenders[i], data().retreat_hexes);
    } else if (t.code == "EX") {
      int owed = 0;
      for (int i = 0; i < c.num_defenders; ++i) owed += game_.Printed(s, c.defenders[i], data().defense);
      for (int i = 0; i < c.num_defenders; ++i) Eliminate(s, ctx, c.defenders[i], "8.3", "EX");
      int available = 0;
      for (int i = 0; i < c.num_attackers; ++i) {
        if (exposed[i] && s.unit(c.attackers[i]).OnMap()) available += game_.Printed(s, c.attackers[i], data().attack);
      }
      if (available <= owed) {
        for (int i = 0; i < c.num_attackers; ++i) {
          if (exposed[i]) Eliminate(s, ctx, c.attackers[i], "8.3", "EX");
        }
      } else {
        CallStep(s, ctx, steps_, step_exchange_, s.phasing_side, {static_cast<int16_t>(owed)});
      }
    }
  }
}

// The exchange step's argument 0: the strength the attacker must lose.
WG_RULE("8.3", BgRules::ListExLosses);
void BgRules::ListExLosses(const State& s, std::vector<Action>* out) const {
  const PendingCombat& c = s.combat;
  const int owed = TopStep(s)->args[0];
  UnitId cand[kMaxCombatUnits];
  int strength[kMaxCombatUnits];
  int n = 0;
  for (int i = 0; i < c.num_attackers && n < kMaxActionUnits; ++i) {
    const UnitId u = c.attackers[i];
    if (!s.unit(u).OnMap() || !Exposed(s, u)) continue;
    cand[n] = u;
    strength[n++] = game_.Printed(s, u, data().attack);
  }
  for (int mask = 1; mask < (1 << n); ++mask) {
    int total = 0, min_in = 1 << 20;
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) {
        total += strength[i];
        min_in = std::min(min_in, strength[i]);
      }
    }
    if (total < owed || total - min_in >= owed) continue;  // enough, and every unit needed
    Action a = Action::Of(ActionType::kLoss);
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) a.AddUnit(cand[i]);
    }
    out->push_back(a);
  }
}

WG_RULE("8.3", BgRules::ApplyExLosses);
Status BgRules::ApplyExLosses(State& s, const Action& a, Context& ctx) const {
  const PendingCombat& c = s.combat;
  const int owed = TopStep(s)->args[0];
  int total = 0, min_in = 1 << 20;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    bool attacker = false;
    for (int k = 0; k < c.num_attackers; ++k) attacker = attacker || c.attackers[k] == u;
    if (!attacker || !s.unit(u).OnMap() || !Exposed(s, u)) {
      return Status::Refused("8.3", "EX: " + game_.UnitLabel(u) + " is not an attacking unit that can be lost");
    }
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return Status::Refused("8.3", "a unit is listed twice");
    }
    const int st = game_.Printed(s, u, data().attack);
    total += st;
    min_in = std::min(min_in, st);
  }
  if (total < owed) {
    return Status::Refused("8.3", "EX: the units lost must total at least the defenders' printed strength (" +
                                      std::to_string(owed) + "), not " + std::to_string(total));
  }
  if (total - min_in >= owed) {
    return Status::Refused("8.3", "EX: lose only the units needed to reach " + std::to_string(owed));
  }
  for (int i = 0; i < a.num_units; ++i) Eliminate(s, ctx, a.units[static_cast<size_t>(i)], "8.3", "EX");
  EndStep(s, ctx, steps_);  // the combat's follow-up resumes
  return Status::Ok();
}

// 8.41: no unit may be attacked more than once a combat phase, and an attack is
// on every unit of the hex (8.1), so a hex holding a unit already attacked may
// not be attacked again (a unit that retreated into a friendly hex shelters it).
WG_RULE("8.41", BgRules::HexAttackable);
bool BgRules::HexAttackable(const State& s, int hex, int attacker_side, const HexScratch* stacks) const {
  bool any = false;
  if (stacks != nullptr && hex >= 0 && hex < game_.hex_board().map.size()) {
    for (int i = stacks->hex_head[static_cast<size_t>(hex)]; i >= 0; i = stacks->next_in_hex[static_cast<size_t>(i)]) {
      const UnitState& e = s.units[static_cast<size_t>(i)];
      if (e.side == attacker_side) continue;
      if (e.Has(kUnitDefended)) return false;
      any = true;
    }
    return any;
  }
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    if (e.hex != hex || e.side == attacker_side) continue;
    if (e.Has(kUnitDefended)) return false;
    any = true;
  }
  return any;
}

// The units of each hex are read from the obligations' lists when they are s's (the
// hooks are asked while BuildDuties works them out), else by a walk of every unit.
WG_RULE("8.0", BgRules::MustAttack);
bool BgRules::MustAttack(const State& s, Context& ctx, UnitId u) const {
  const HexScratch* stacks = Hs(ctx).StacksOf(s);
  if (Ineffective(s, u) || StackmateAttacked(s, u, stacks)) return false;  // 10.0, 8.42
  if (!HexRules::MustAttack(s, ctx, u)) return false;
  // 8.0 with 8.41: only while an adjacent enemy hex may still be attacked.
  const UnitState& us = s.unit(u);
  for (int d = 0; d < 6; ++d) {
    const int nb = game_.hex_board().map.grid.NeighborIndex(us.hex, d);
    if (nb >= 0 && HexAttackable(s, nb, us.side, stacks)) return true;
  }
  return false;
}

// 8.0: "All enemy units in friendly ZOC's must be attacked", by any unit that may
// still attack them (the core's obligations: CanStillAttack, InAttackReach, which
// count a battery in range, 8.7), except in a hex holding a unit already attacked.
WG_RULE("8.0/8.41", BgRules::MustBeAttacked);
bool BgRules::MustBeAttacked(const State& s, Context& ctx, UnitId u) const {
  if (!HexRules::MustBeAttacked(s, ctx, u)) return false;
  const UnitState& us = s.unit(u);
  return HexAttackable(s, us.hex, 1 - us.side, Hs(ctx).StacksOf(s));  // 8.41
}

// 8.0 obligations over the phase: may u still take part in an attack? Not once
// it attacked (8.41), nor when ineffective (10.0: AttackStrength is then 0), nor
// once a stack-mate attacked (8.42: "the phasing player may attack with only one
// of the units ... and not attack at all with the other": the other is excused,
// the core does not hold a declaration against a unit it bars), nor from a ferry
// hex (19.12: "no unit may attack from a Ferry Hex").
WG_RULE("8.0/8.41/8.42/10.0/19.12", BgRules::CanStillAttack);
bool BgRules::CanStillAttack(const State& s, UnitId u, const HexScratch* stacks) const {
  if (!HexRules::CanStillAttack(s, u, stacks) || StackmateAttacked(s, u, stacks)) return false;
  return !(cfg_.ferries && cfg_.is_ferry[static_cast<size_t>(s.unit(u).hex)]);
}

// Is a unit of `side` next to `hex` (the enemy units there may be in its ZOC)? One walk of
// the units, each against the six neighbours (not a walk per neighbour).
bool BgRules::NextToSide(const State& s, int hex, int side) const {
  const int32_t* nb = game_.hex_board().map.grid.Neighbors(hex);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& o = s.units[static_cast<size_t>(i)];
    if (o.side != side || o.hex < 0) continue;  // a neighbour off the map is -1: never a unit's hex here
    for (int d = 0; d < 6; ++d) {
      if (nb[d] == o.hex) return true;
    }
  }
  return false;
}

// A battery b not adjacent to an enemy unit meets obligations at range only if it
// may fire alone at every enemy hex it could be left, all at once: the hexes
// within three hexes in line of sight (8.7, 8.71), none of whose units was
// attacked (8.41), next to a unit of b's side (the only ones that can be owed an
// attack, 8.0), at 1:3 or better against them together (8.73; alone at range only
// the defender's rough doubles, as CombatModifiers, 8.76). Then any of them it is
// left, one or several, it can attack in one combat, so the obligations can be
// met together (a battery may attack only once, 8.41).
WG_RULE("8.0/8.7/8.73", BgRules::BatteryMayFireAtAll);
bool BgRules::BatteryMayFireAtAll(const State& s, UnitId b) const {
  const int from = s.unit(b).hex, side = s.unit(b).side;
  struct Target {
    int hex, defense;
    bool defended;
  };
  Target t[64];
  int n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    if (!e.OnMap() || e.side == side) continue;
    const int d = DistanceBetween(from, e.hex);
    if (d <= 1) return false;  // 8.7: it must attack the adjacent enemy units
    if (d > data().artillery_range) continue;
    int k = 0;
    while (k < n && t[k].hex != e.hex) ++k;
    if (k == n) {
      if (n == 64) continue;
      t[n++] = Target{e.hex, 0, false};
    }
    t[k].defense += DefenseStrength(s, static_cast<UnitId>(i));
    t[k].defended = t[k].defended || e.Has(kUnitDefended);
  }
  const int rough = game_.hex_board().map.TerrainId("rough");
  int defense = 0;
  for (int k = 0; k < n; ++k) {
    if (t[k].defended || !NextToSide(s, t[k].hex, side) || !data().los->Clear(from, t[k].hex)) continue;
    defense += t[k].defense * (rough >= 0 && game_.hex_board().map.HasTerrain(t[k].hex, rough) ? 2 : 1);
  }
  const int column = data().crt.ColumnFor(AttackStrength(s, b), defense);
  return column != CombatTable::kBelowLowest && column >= kColumn13;
}

// What u can attack: an adjacent enemy hex (8.41: infantry and cavalry attack
// adjacent hexes); a battery also, at range, an enemy hex next to a friendly unit
// within three hexes in line of sight (8.7, 8.71), if BatteryMayFireAtAll (8.73).
WG_RULE("8.0/8.7", BgRules::InAttackReach);
bool BgRules::InAttackReach(const State& s, UnitId u, int hex) const {
  const int from = s.unit(u).hex;
  if (Adjacent(from, hex)) return true;
  if (!IsArtillery(u) || DistanceBetween(from, hex) > data().artillery_range) return false;
  return NextToSide(s, hex, s.unit(u).side) && data().los->Clear(from, hex) && BatteryMayFireAtAll(s, u);
}

// The standard retreat checks, with 8.52: a retreat into a full friendly hex is
// allowed if one unit there can be displaced to an adjacent hex.
WG_RULE("8.5/8.51/8.52", BgRules::CheckRetreat);
Status BgRules::CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const {
  const HexScratch& hs = Hs(ctx);
  auto refuse = [&](const char* rule, auto&& message) { return RefuseUnlessQuiet(hs, rule, message); };
  auto text = [](const char* message) { return [message] { return std::string(message); }; };
  const UnitState& us = s.unit(u);
  if (n != length) return refuse("8.5", [&] { return "a retreat is exactly " + std::to_string(length) + " hexes"; });
  const ZocField& zoc = EnemyZoc(s, ctx, us.side);
  const int cls = game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].movement_class;
  int prev = us.hex;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    if (h < 0 || h >= game_.hex_board().map.size()) return refuse("8.51", text("units may not retreat off the map"));
    const int dir = DirectionTo(game_.hex_board().map.grid.HexAt(prev), game_.hex_board().map.grid.HexAt(h));
    if (dir < 0) return refuse("8.5", text("retreat hexes must be adjacent"));
    std::string why;
    if (StepCost(game_.hex_board().map, data().movement, cls, prev, dir, hs.quiet_refusals > 0 ? nullptr : &why) ==
        kProhibitedCost) {
      return refuse("8.51", [&] { return "cannot retreat there: " + why; });
    }
    if (EnemyIn(s, h, us.side)) return refuse("8.51", [&] { return "cannot retreat into an enemy-occupied hex " + game_.HexLabel(h); });
    if (zoc.InEzoc(h)) return refuse("8.51", [&] { return "cannot retreat into an enemy zone of control (" + game_.HexLabel(h) + ")"; });
    if (DistanceBetween(us.hex, h) != i + 1) return refuse("8.5", text("each retreat hex must be farther from the start"));
    prev = h;
  }
  const int to = path[n - 1];
  if (StackingCount(s, to, us.side) + (CountsForStacking(s, u) ? 1 : 0) > game_.hex_board().stacking.limit) {
    UnitId who;
    int where;
    if (!DisplacementHex(s, ctx, to, us.side, u, &who, &where)) {
      return refuse("8.52", [&] { return "retreat would overstack " + game_.HexLabel(to) + " and no unit there can be displaced"; });
    }
  }
  return Status::Ok();
}

WG_RULE("8.52/16.11", BgRules::DisplacementOk);
bool BgRules::DisplacementOk(const State& s, const ZocField& zoc, int hex, UnitId who, int to) const {
  const int side = s.unit(who).side;
  if (s.unit(who).hex != hex || to < 0 || !Adjacent(hex, to)) return false;
  if (EnemyIn(s, to, side) || zoc.InEzoc(to)) return false;
  if (cfg_.ferries && cfg_.is_ferry[static_cast<size_t>(to)]) return false;
  const int cls = game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(who)].kind)].movement_class;
  const int dir = DirectionTo(game_.hex_board().map.grid.HexAt(hex), game_.hex_board().map.grid.HexAt(to));
  std::string why;
  if (StepCost(game_.hex_board().map, data().movement, cls, hex, dir, &why) == kProhibitedCost) return false;
  if (IsFixedArtillery(who)) return false;  // 16.11: it may not be moved
  return StackingCount(s, to, side) + (CountsForStacking(s, who) ? 1 : 0) <= game_.hex_board().stacking.limit;
}

bool BgRules::DisplacementHex(const State& s, Context& ctx, int hex, int side, UnitId except, UnitId* who,
                              int* to) const {
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& o = s.units[static_cast<size_t>(i)];
    if (o.hex != hex || o.side != side || i == except) continue;
    for (int d = 0; d < 6; ++d) {
      const int nb = game_.hex_board().map.grid.NeighborIndex(hex, d);
      if (DisplacementOk(s, zoc, hex, static_cast<UnitId>(i), nb)) {
        *who = static_cast<UnitId>(i);
        *to = nb;
        return true;
      }
    }
  }
  return false;
}

// The displacement step's arguments: {the overstacked hex, the unit that retreated there}.
void BgRules::ListDisplacements(const State& s, Context& ctx, std::vector<Action>* out) const {
  const int hex = TopStep(s)->args[0];
  const UnitId except = static_cast<UnitId>(TopStep(s)->args[1]);
  const int side = s.unit(except).side;
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& o = s.units[static_cast<size_t>(i)];
    if (o.hex != hex || o.side != side || i == except) continue;
    for (int d = 0; d < 6; ++d) {
      const int nb = game_.hex_board().map.grid.NeighborIndex(hex, d);
      if (!DisplacementOk(s, zoc, hex, static_cast<UnitId>(i), nb)) continue;
      Action a = Action::Of(ActionType::kRetreat);
      a.AddUnit(static_cast<UnitId>(i)).AddHex(nb);
      out->push_back(a);
    }
  }
}

// 8.52: the owner moves one of the units of the overstacked hex to an adjacent hex.
WG_RULE("8.52", BgRules::ApplyDisplacement);
Status BgRules::ApplyDisplacement(State& s, const Action& a, Context& ctx) const {
  const int hex = TopStep(s)->args[0];
  const UnitId except = static_cast<UnitId>(TopStep(s)->args[1]);
  const int side = s.unit(except).side;
  if (a.num_units != 1 || a.num_hexes != 1 || a.units[0] == except || a.units[0] < 0 || a.units[0] >= s.num_units ||
      s.unit(a.units[0]).side != side) {
    return Status::Refused("8.52", "move one other unit of " + game_.HexLabel(hex) + " to an adjacent hex");
  }
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  if (!DisplacementOk(s, zoc, hex, a.units[0], a.hexes[0])) {
    return Status::Refused("8.52", game_.UnitLabel(a.units[0]) + " cannot be displaced to " + game_.HexLabel(a.hexes[0]) +
                                       " (enemy unit or ZOC, prohibited terrain, ferry or stacking)");
  }
  MoveUnit(s, ctx, a.units[0], a.hexes[0], EventType::kRetreat, "8.52");
  SetControl(s, a.hexes[0], side);
  RefreshControl(s, ctx);
  EndStep(s, ctx, steps_);  // the combat's follow-up resumes
  return Status::Ok();
}

WG_RULE("8.5/8.52/19.13", BgRules::ApplyBgRetreat);
Status BgRules::ApplyBgRetreat(State& s, const Action& a, Context& ctx) const {
  const UnitId u = RetreatingUnit(s);
  if (a.num_units != 1 || a.units[0] != u) return Status::Refused("8.5", "the retreating unit is " + game_.UnitLabel(u));
  Status st = CheckRetreat(s, ctx, u, a.hexes.data(), a.num_hexes, RetreatLength(s));
  if (!st.ok()) return st;
  const int side = s.unit(u).side;
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  for (int k = 0; k < a.num_hexes; ++k) SetControl(s, a.hexes[static_cast<size_t>(k)], side);
  if (cfg_.ferry_retreat_eliminates && cfg_.is_ferry[static_cast<size_t>(to)]) {
    Eliminate(s, ctx, u, "19.13", "retreated into a ferry hex");
  } else {
    const bool over = StackingCount(s, to, side) + (CountsForStacking(s, u) ? 1 : 0) > game_.hex_board().stacking.limit;
    MoveUnit(s, ctx, u, to, EventType::kRetreat, "8.5");
    if (over) {
      // 8.52: the owner now displaces one of the other units (CheckRetreat made sure one can go).
      GotoStep(s, ctx, steps_, step_displace_, side, {static_cast<int16_t>(to), u});  // in place of the retreat step
      RefreshControl(s, ctx);
      return Status::Ok();
    }
  }
  RefreshControl(s, ctx);
  EndStep(s, ctx, steps_);  // the combat's follow-up resumes
  return Status::Ok();
}

void BgRules::LegacyFrameState(const State& s, State* old) const {
  HexRules::LegacyFrameState(s, old);
  BgExt& x = Ext<BgExt>(*old);
  for (int i = 0; i < old->steps.depth; ++i) {
    Step& st = old->steps.items[i];
    if (st.kind == step_displace_) {
      old->combat.legacy_current = static_cast<UnitId>(st.args[1]);  // the retreated unit
      x.legacy_displace_hex = static_cast<int16_t>(st.args[0] + 1);
      x.legacy_displace_except = static_cast<int16_t>(st.args[1] + 1);
    } else if (st.kind == step_exchange_) {
      x.legacy_ex_owed = st.args[0];
    } else if (st.kind == step_defender_advance_) {
      x.legacy_defender_advance = 1;
    } else {
      continue;
    }
    st = Step{st.kind, st.side, st.rule, {}};  // pushed without arguments then
  }
}

WG_RULE("8.6", BgRules::AfterCombat);
void BgRules::AfterCombat(State& s, Context& ctx) const {
  // 8.6: a hex of the attackers cleared (AE, AR): one defending unit may advance.
  const BgExt& x = Ext<BgExt>(s);
  bool may_advance = false;
  for (int i = 0; i < s.combat.num_defenders && !may_advance; ++i) {
    for (int k = 0; k < kMaxCombatUnits; ++k) {
      if (DefenderMayAdvance(s, ctx, s.combat.defenders[i], x.attacker_hexes[k])) may_advance = true;
    }
  }
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.OnMap()) SetControl(s, u.hex, u.side);
  }
  RefreshControl(s, ctx);
  if (may_advance && !s.game_over) CallStep(s, ctx, steps_, step_defender_advance_, 1 - s.phasing_side);
}

WG_RULE("8.42/8.43", BgRules::ListMultiHexAttacks);
void BgRules::ListMultiHexAttacks(const State& s, Context& ctx, std::vector<Action>* out) const {
  // 8.43: every unit of a hex against all the undefended enemy hexes adjacent to it
  // (the core lists single-hex attacks only; 8.42 can make this the only way). A hex is
  // undefended if the last enemy unit in it (in unit order) was not attacked. The units
  // of each hex are read from the obligations' lists of s (BuildDuties: cached, the attack
  // listing built them), not by a walk of every unit per hex.
  BuildDuties(s, ctx);
  const HexScratch& hs = Hs(ctx);
  const int side = s.phasing_side;
  const auto& grid = game_.hex_board().map.grid;
  auto first_of_side = [&](int hex) {
    int f = hs.hex_head[static_cast<size_t>(hex)];
    while (f >= 0 && s.units[static_cast<size_t>(f)].side != side) f = hs.next_in_hex[static_cast<size_t>(f)];
    return f;
  };
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& f = s.units[static_cast<size_t>(i)];
    if (f.side != side || !f.OnMap() || first_of_side(f.hex) != i) continue;  // each hex once, at its first unit
    Action a = Action::Of(ActionType::kAttack);
    for (int d = 0; d < 6; ++d) {
      const int nb = grid.NeighborIndex(f.hex, d);
      if (nb < 0 || !(hs.hex_duty[static_cast<size_t>(nb)] & kDutyEnemy)) continue;
      bool target = false;
      for (int j = hs.hex_head[static_cast<size_t>(nb)]; j >= 0; j = hs.next_in_hex[static_cast<size_t>(j)]) {
        const UnitState& e = s.units[static_cast<size_t>(j)];
        if (e.side != side) target = !e.Has(kUnitDefended);
      }
      if (target) a.AddHex(nb);
    }
    if (a.num_hexes < 2) continue;
    for (int j = hs.hex_head[static_cast<size_t>(f.hex)]; j >= 0; j = hs.next_in_hex[static_cast<size_t>(j)]) {
      const UnitState& g = s.units[static_cast<size_t>(j)];
      if (g.side == side && !g.Has(kUnitAttacked) && AttackStrength(s, static_cast<UnitId>(j)) > 0) {
        a.AddUnit(static_cast<UnitId>(j));
      }
    }
    if (a.num_units > 0) out->push_back(a);
  }
}

// 10.2: an ineffective unit may not enter an enemy ZOC by any means (an advance included).
WG_RULE("10.2", BgRules::IneffectiveIntoEzoc);
bool BgRules::IneffectiveIntoEzoc(const State& s, Context& ctx, UnitId u, int hex) const {
  return hex >= 0 && hex < game_.hex_board().map.size() && Ineffective(s, u) && InEnemyZoc(s, ctx, s.unit(u).side, hex);
}

WG_RULE("8.6/8.75/10.2", BgRules::DefenderMayAdvance);
bool BgRules::DefenderMayAdvance(const State& s, Context& ctx, UnitId u, int hex) const {
  if (hex < 0 || u < 0 || !s.unit(u).OnMap() || IsArtillery(u)) return false;  // 8.75
  const BgExt& x = Ext<BgExt>(s);
  bool listed = false;
  for (int k = 0; k < kMaxCombatUnits; ++k) listed = listed || x.attacker_hexes[k] == hex;
  bool defender = false;
  for (int i = 0; i < s.combat.num_defenders; ++i) defender = defender || s.combat.defenders[i] == u;
  return listed && defender && CountIn(s, hex, -1) == 0 && Adjacent(s.unit(u).hex, hex) &&
         !IneffectiveIntoEzoc(s, ctx, u, hex);
}

void BgRules::ListDefenderAdvances(const State& s, Context& ctx, std::vector<Action>* out) const {
  out->push_back(Action::Of(ActionType::kAdvance));  // decline
  const BgExt& x = Ext<BgExt>(s);
  for (int i = 0; i < s.combat.num_defenders; ++i) {
    for (int k = 0; k < kMaxCombatUnits; ++k) {
      const int h = x.attacker_hexes[k];
      bool seen = false;
      for (int j = 0; j < k; ++j) seen = seen || x.attacker_hexes[j] == h;
      if (seen || !DefenderMayAdvance(s, ctx, s.combat.defenders[i], h)) continue;
      Action a = Action::Of(ActionType::kAdvance);
      a.AddUnit(s.combat.defenders[i]).AddHex(h);
      out->push_back(a);
    }
  }
}

// 8.6: the hexes of the combat cleared of all units, that an attacker may advance into.
int BgRules::ClearedHexes(const State& s, int* out) const {
  const PendingCombat& c = s.combat;
  int n = 0;
  for (int k = 0; k < c.num_defender_hexes; ++k) {
    const int h = c.defender_hexes[k];
    if (h >= 0 && CountIn(s, h, -1) == 0) out[n++] = h;
  }
  return n;
}

// 8.6: "if more than one hex is cleared, the advance is still limited to one
// unit": the player names the cleared hex it advances into.
WG_RULE("8.6/8.75", BgRules::ListAttackerAdvances);
void BgRules::ListAttackerAdvances(const State& s, std::vector<Action>* out) const {
  int cleared[6];
  const int n = ClearedHexes(s, cleared);
  if (n < 2) return;  // the core's listing (no hex: the one cleared hex)
  out->clear();
  out->push_back(Action::Of(ActionType::kAdvance));  // decline
  const PendingCombat& c = s.combat;
  for (int i = 0; i < c.num_attackers; ++i) {
    const UnitId u = c.attackers[i];
    if (!s.unit(u).OnMap() || IsArtillery(u)) continue;  // 8.75
    for (int k = 0; k < n; ++k) {
      if (!Adjacent(s.unit(u).hex, cleared[k])) continue;
      Action a = Action::Of(ActionType::kAdvance);
      a.AddUnit(u).AddHex(cleared[k]);
      out->push_back(a);
    }
  }
}

WG_RULE("8.6/10.2", BgRules::ApplyAttackerAdvance);
Status BgRules::ApplyAttackerAdvance(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 0) return ApplyAdvance(s, a, ctx);  // declined
  int cleared[6];
  const int n = ClearedHexes(s, cleared);
  int target = s.combat.vacated_hex;
  if (a.num_hexes == 0 && n > 1) {
    return Status::Refused("8.6", "several hexes were cleared: name the hex the unit advances into (target)");
  }
  if (a.num_hexes > 0) {
    target = a.num_hexes == 1 ? a.hexes[0] : -1;
    if (std::find(cleared, cleared + n, target) == cleared + n) {
      return Status::Refused("8.6", "a unit may advance only into a hex this combat cleared");
    }
  }
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u >= 0 && u < s.num_units && IneffectiveIntoEzoc(s, ctx, u, target)) {
      return Status::Refused("10.2", game_.UnitLabel(u) + " is ineffective and may not advance into an enemy zone of control");
    }
  }
  const int16_t before = s.combat.vacated_hex;
  s.combat.vacated_hex = static_cast<int16_t>(target);
  Status st = ApplyAdvance(s, a, ctx);
  if (!st.ok()) s.combat.vacated_hex = before;  // refused: nothing changed
  return st;
}

WG_RULE("8.6/10.2", BgRules::ApplyDefenderAdvance);
Status BgRules::ApplyDefenderAdvance(State& s, const Action& a, Context& ctx) const {
  if (a.num_units > 1) return Status::Refused("8.6", "only one unit may advance");
  if (a.num_units == 1) {
    const UnitId u = a.units[0];
    const int h = a.num_hexes == 1 ? a.hexes[0] : -1;
    if (u >= 0 && u < s.num_units && IneffectiveIntoEzoc(s, ctx, u, h)) {
      return Status::Refused("10.2", game_.UnitLabel(u) + " is ineffective and may not advance into an enemy zone of control");
    }
    if (!DefenderMayAdvance(s, ctx, u, h)) {
      return Status::Refused("8.6", "advance one defending unit (not artillery) into an adjacent hex the attackers left");
    }
    MoveUnit(s, ctx, u, h, EventType::kAdvance, "8.6");
    SetControl(s, h, s.unit(u).side);
  }
  EndStep(s, ctx, steps_);
  RefreshControl(s, ctx);
  return Status::Ok();
}

// --- Steps: registration -------------------------------------------------------------------------

// The procedures of Blue & Gray as named steps, each citing its rule. The core's movement,
// combat, retreat and advance are refined (registered again under their names).
void BgRules::RegisterSteps() {
  using Out = std::vector<Action>*;
  using A = const Action&;
  StepDef m = NewStep("movement", "7.0", DecisionType::kMovement);
  m.begin = [this](State& s, Context& ctx) { BeginMovementPhase(s, ctx); };
  m.list = [this](const State& s, Context& ctx, Out out) { ListBgMovement(s, ctx, out); };
  // One handler per action: a move (7.0, 11.1 strategic, 9.0 a night exit), the core's entry,
  // mode change and end.
  m.On(ActionType::kMove, [this](State& s, A a, Context& ctx) { return ApplyBgMove(s, a, ctx); });
  m.On(ActionType::kEnter, [this](State& s, A a, Context& ctx) { return ApplyEnter(s, a, ctx); });
  m.On(ActionType::kChangeMode, [this](State& s, A a, Context& ctx) { return ApplyModeChange(s, a, ctx); });
  m.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return ApplyEndPhase(s, ctx); });
  steps_.Register(std::move(m));
  StepDef c = NewStep("combat", "8.0", DecisionType::kCombat);
  c.applies = [this](const State& s) { return !Night(s); };  // 9.0: no combat phase during night turns
  c.begin = [this](State& s, Context& ctx) { BeginBgCombat(s, ctx); };
  c.list = [this](const State& s, Context& ctx, Out out) { ListBgCombat(s, ctx, out); };
  c.On(ActionType::kAttack, [this](State& s, A a, Context& ctx) { return ApplyBgAttack(s, a, ctx); });
  c.On(ActionType::kEndPhase, [this](State& s, A a, Context& ctx) { return EndBgCombat(s, a, ctx); });
  steps_.Register(std::move(c));
  StepDef r = NewStep("retreat", "8.5", DecisionType::kRetreat, Takes(ActionType::kRetreat));
  r.list = [this](const State& s, Context& ctx, Out out) { ListRetreatStep(s, ctx, out); };
  r.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyBgRetreat(s, a, ctx); };
  steps_.Register(std::move(r));
  StepDef v = NewStep("advance", "8.6", DecisionType::kAdvance, Takes(ActionType::kAdvance));
  v.list = [this](const State& s, Context& ctx, Out out) {
    ListAdvanceStep(s, ctx, out);
    ListAttackerAdvances(s, out);
  };
  v.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyAttackerAdvance(s, a, ctx); };
  steps_.Register(std::move(v));
  StepDef d = NewStep("displacement", "8.52", DecisionType::kRetreat, 0);
  d.list = [this](const State& s, Context& ctx, Out out) { ListDisplacements(s, ctx, out); };
  d.On(ActionType::kRetreat, [this](State& s, const Action& a, Context& ctx) { return ApplyDisplacement(s, a, ctx); });
  d.prompt = [this](const State& s) {
    return "8.52: move one unit of " + game_.HexLabel(TopStep(s)->args[0]) + " to an adjacent hex";
  };
  step_displace_ = steps_.Register(std::move(d));
  StepDef x = NewStep("exchange", "8.3", DecisionType::kLosses, 0);
  x.list = [this](const State& s, Context&, Out out) { ListExLosses(s, out); };
  x.On(ActionType::kLoss, [this](State& s, const Action& a, Context& ctx) { return ApplyExLosses(s, a, ctx); });
  x.prompt = [](const State& s) {
    return "8.3 EX: the attacker chooses units totalling at least " + std::to_string(TopStep(s)->args[0]) +
           " strength to lose";
  };
  step_exchange_ = steps_.Register(std::move(x));
  StepDef k = NewStep("cavalry_retreat", "11.2", DecisionType::kChoice, 0);
  k.list = [](const State&, Context&, Out out) {
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
    out->push_back(Action::Of(ActionType::kChoice).Value(1));
  };
  k.apply = [this](State& s, const Action& a, Context& ctx) {
    if (a.type == ActionType::kChoice) return ApplyCavalryChoice(s, a, ctx);
    return Status::Refused("11.2", "the cavalry must choose: stand (0) or retreat two hexes (1)");
  };
  k.prompt = [](const State&) { return std::string("11.2: the cavalry stands (choose 0) or retreats two hexes (choose 1)"); };
  steps_.Register(std::move(k));
  StepDef g = NewStep("defender_advance", "8.6", DecisionType::kAdvance, 0);
  g.list = [this](const State& s, Context& ctx, Out out) { ListDefenderAdvances(s, ctx, out); };
  g.apply = [this](State& s, const Action& a, Context& ctx) {
    if (a.type == ActionType::kAdvance) return ApplyDefenderAdvance(s, a, ctx);
    return Status::Refused("8.6", "the defender may advance one unit into the hex the attackers left, or decline");
  };
  g.prompt = [](const State&) {
    return std::string("8.6: the defender may advance one unit into the hex the attackers left (or decline)");
  };
  step_defender_advance_ = steps_.Register(std::move(g));
}

// --- Steps: movement and combat ------------------------------------------------------------------

// Moves, strategic and night moves (11.1, 9.0), the end of the phase; less what CheckMove refuses.
void BgRules::ListBgMovement(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListMoves(s, ctx);  // these two list into the scratch's listed_runs (placed first)
  ListSpecialMoves(s, ctx);
  // The movement step always accepts the end of the movement phase (the core's
  // ApplyMovementStep): listed without trying it on a copy of the State.
  out->push_back(Action::EndPhase());
  KeepAccepted(s, ctx, out);
}

// Attacks, attacks on several hexes (8.2), the end of the phase; less what the hooks refuse.
void BgRules::ListBgCombat(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListAttacks(s, ctx, out);
  ListMultiHexAttacks(s, ctx, out);
  ListEndCombatPhase(s, ctx, out);
  KeepAccepted(s, ctx, out);
}

// Drops what the hooks refuse (19.12, 9.0, 10.2, 17.11, 8.42, 8.73, 10.0...).
void BgRules::KeepAccepted(const State& s, Context& ctx, std::vector<Action>* out) const {
  MoveContext m = MoveContextOf(s);
  // Without attacks in the list (a movement listing) nothing below recomputes the
  // scratch's ZOC field for the other side, so the moves read it directly.
  if (std::none_of(out->begin(), out->end(), [](const Action& a) { return a.type == ActionType::kAttack; })) {
    m.zoc = &EnemyZoc(s, ctx, m.side);
  }
  HexScratch& hs = Hs(ctx);
  hs.FilterRuns([&](HexScratch::RunEdit& edit) {
    // A run is one unit's moves of one type (ListUnitMoves). A cached kMove's rules
    // (MoveAllowedTo) read only its end hex, kept beside the cached Action, and the
    // unit: the unit's part (10.2 ineffective, 9.0 night, 17.11 quota) is decided once
    // for its run; 19.12's ferry hexes are never candidates (NoMoveEnd), so a unit
    // that may enter enemy ZOCs keeps its run whole, and one that may not drops the
    // enemy ZOC's hexes from its set (64 hexes a word).
    HexScratch::UnitMoves& slot = edit.slot();
    const UnitId u = static_cast<UnitId>(edit.run().cache / HexScratch::kMoveSlots);
    const uint32_t n = static_cast<uint32_t>(slot.size());
    if (!(slot.valid && slot.key.type == ActionType::kMove)) {
      const Action* all = slot.BuildAll();  // every Action is checked
      for (uint32_t i = 0; i < n; ++i) {
        if (edit.Kept(i) && !MoveAllowed(s, all[i], ctx, m, nullptr)) edit.Drop(i);
      }
      return;
    }
    if (m.quota && QuotaCounts(s, u) && m.moved + 1 > m.limit) {  // 17.11-17.14: none
      edit.DropAll();
      return;
    }
    if (m.night || Ineffective(s, u)) {  // 9.0, 10.2
      edit.AndNotMap(hs.ZocWords(m.zoc != nullptr ? *m.zoc : EnemyZoc(s, ctx, m.side)));
    }
  });
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    const Action& a = (*out)[i];
    bool ok = true;
    if ((a.type == ActionType::kMove || a.type == ActionType::kEnter)) {
      ok = MoveAllowed(s, a, ctx, m, nullptr);
    } else if (a.type == ActionType::kAttack) {
      ok = CheckAttackRules(s, a, ctx).ok();
      if (ok) {
        AttackPlan plan;
        ok = PrepareAttack(s, a, ctx, &plan).ok();
      }
    }
    if (!ok) continue;
    if (kept != i) (*out)[kept] = a;
    ++kept;
  }
  out->resize(kept);
  DropRepeatedAttacks(out);
}

// The same attackers against the same hexes, in whatever order they are named, is
// one attack: the core's listing, the obligations' (8.0) and the 8.43 multi-hex
// listing may each name it (a battery adjacent to two enemy hexes, say).
void BgRules::DropRepeatedAttacks(std::vector<Action>* out) const {
  auto canonical = [](Action a) {
    std::sort(a.units.begin(), a.units.begin() + a.num_units);
    std::sort(a.hexes.begin(), a.hexes.begin() + a.num_hexes);
    return a;
  };
  // The fields Action::operator== compares, in order.
  auto less = [](const Action& x, const Action& y) {
    if (std::tie(x.type, x.num_units, x.num_hexes, x.value, x.value2) != std::tie(y.type, y.num_units, y.num_hexes, y.value, y.value2)) {
      return std::tie(x.type, x.num_units, x.num_hexes, x.value, x.value2) < std::tie(y.type, y.num_units, y.num_hexes, y.value, y.value2);
    }
    const auto xu = x.units.begin(), yu = y.units.begin();
    if (!std::equal(xu, xu + x.num_units, yu)) return std::lexicographical_compare(xu, xu + x.num_units, yu, yu + y.num_units);
    const auto xh = x.hexes.begin(), yh = y.hexes.begin();
    return std::lexicographical_compare(xh, xh + x.num_hexes, yh, yh + y.num_hexes);
  };
  // Each attack's canonical form with its index, sorted (by index among equals): of
  // a run of equal forms only the first listed is kept. n log n, not n^2.
  // Reused buffers: no allocation once grown.
  thread_local std::vector<std::pair<Action, size_t>> attacks;
  thread_local std::vector<uint8_t> repeated;
  attacks.clear();
  for (size_t i = 0; i < out->size(); ++i) {
    if ((*out)[i].type == ActionType::kAttack) attacks.emplace_back(canonical((*out)[i]), i);
  }
  if (attacks.size() < 2) return;
  std::sort(attacks.begin(), attacks.end(), [&](const auto& x, const auto& y) {
    if (less(x.first, y.first)) return true;
    if (less(y.first, x.first)) return false;
    return x.second < y.second;
  });
  repeated.assign(out->size(), 0);
  for (size_t k = 1; k < attacks.size(); ++k) {
    if (attacks[k].first == attacks[k - 1].first) repeated[attacks[k].second] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    if (repeated[i]) continue;
    if (kept != i) (*out)[kept] = (*out)[i];
    ++kept;
  }
  out->resize(kept);
}

// 11.1: a move with value 1 is strategic movement; 9.0: a night move off the map.
WG_RULE("7.0/11.1", BgRules::ApplyBgMove);
Status BgRules::ApplyBgMove(State& s, const Action& a, Context& ctx) const {
  if (a.value == 1) {
    if (!cfg_.strategic) return Status::Refused("11.1", "strategic movement is not allowed in this game");
    return ApplySpecialMove(s, a, ctx, true);
  }
  if (a.value != 0) return Status::Refused("7.0", "unknown kind of move");
  if (a.num_units > 0 && a.units[0] >= 0 && a.units[0] < s.num_units && NightExit(s, ctx, a.units[0])) {
    return ApplySpecialMove(s, a, ctx, false);
  }
  return ApplyMove(s, a, ctx);
}

// The end of the combat phase: the mandatory attacks (8.0) are made.
WG_RULE("8.0", BgRules::EndBgCombat);
Status BgRules::EndBgCombat(State& s, const Action& a, Context& ctx) const {
  Status st = EndCombatPhase(s, ctx);
  if (!st.ok()) return Status::Refused("8.0", st.error().message);
  return ApplyCombatStep(s, a, ctx);
}

// An attack; 11.2: cavalry attacked by infantry or artillery alone may first choose to retreat
// (the cavalry_retreat step, the defender's).
WG_RULE("11.2", BgRules::ApplyBgAttack);
Status BgRules::ApplyBgAttack(State& s, const Action& a, Context& ctx) const {
  Status st = CheckAttackRules(s, a, ctx);
  if (!st.ok()) return st;
  if (CavalryMayRetreat(s, ctx, a)) {
    AttackPlan plan;
    st = PrepareAttack(s, a, ctx, &plan);
    if (!st.ok()) return st;
    Ext<BgExt>(s).pending = a;
    CallStep(s, ctx, steps_, steps_.Find("cavalry_retreat"), 1 - s.phasing_side);
    Event e;
    e.type = EventType::kNote;
    e.rule = "11.2";
    e.text = "cavalry attacked by infantry/artillery only may retreat two hexes before combat";
    ctx.Emit(e);
    return Status::Ok();
  }
  return ApplyCombatStep(s, a, ctx);
}

// The core's refusals cite generic keys ("movement", "combat"...): cite the rule numbers.
WG_RULE("2.1", BgRules::Apply);
Status BgRules::Apply(State& s, const Action& a, Context& ctx) const {
  Status st = HexRules::Apply(s, a, ctx);
  if (st.ok()) return st;
  const auto it = data().rule_numbers.find(st.error().rule);
  if (it == data().rule_numbers.end()) return st;
  return Status::Refused(it->second, st.error().message);
}


// --- Victory points ----------------------------------------------------------------------

WG_RULE("20.11", BgRules::OnEliminated);
void BgRules::OnEliminated(State& s, Context& ctx, UnitId u, int) const {
  for (const VpAward& a : cfg_.awards) {
    if (a.kind == VpAward::Kind::kUnitEliminated && !a.at_end && game_.units[static_cast<size_t>(u)].side == a.of_side) {
      AwardVp(s, ctx, a.side, a.points, a.rule.c_str(), "enemy unit eliminated");
    }
  }
}

// 17.15: the state's place control (what the AI weighs and the state file
// shows) follows Control(): a tracked place is controlled by the side that
// controls every hex of it.
void BgRules::IndexControlPlaces() {
  const auto& kinds = data().control_kinds;
  const auto& places = game_.hex_board().map.places;
  control_slot_.assign(static_cast<size_t>(std::max(0, game_.hex_board().map.size())), -1);
  for (size_t p = 0; p < places.size() && p < static_cast<size_t>(kMaxPlaces); ++p) {
    if (places[p].hexes.empty() || std::find(kinds.begin(), kinds.end(), places[p].kind) == kinds.end()) continue;
    control_places_.push_back(static_cast<int>(p));
    for (int h : places[p].hexes) {
      if (h >= 0 && h < static_cast<int>(control_slot_.size()) && control_slot_[static_cast<size_t>(h)] < 0) {
        control_slot_[static_cast<size_t>(h)] = static_cast<int16_t>(num_control_slots_++);
      }
    }
  }
}

// 17.15: a place is controlled by the side that controls all its hexes. The side
// of the first unit standing in each of the places' hexes comes from one pass over
// the units (what Control() finds scanning the units per hex).
WG_RULE("17.15", BgRules::SyncPlaceControl);
void BgRules::SyncPlaceControl(State& s, Context& ctx) const {
  constexpr int kSlots = 512;
  constexpr int8_t kEmpty = -2;
  int8_t first[kSlots];
  const bool indexed = num_control_slots_ <= kSlots;
  if (indexed) {
    std::fill(first, first + num_control_slots_, kEmpty);
    for (int i = 0; i < s.num_units; ++i) {
      const int h = s.units[static_cast<size_t>(i)].hex;
      if (h < 0 || h >= static_cast<int>(control_slot_.size())) continue;
      const int slot = control_slot_[static_cast<size_t>(h)];
      if (slot >= 0 && first[slot] == kEmpty) first[slot] = static_cast<int8_t>(s.units[static_cast<size_t>(i)].side);
    }
  }
  auto control = [&](int h) {
    if (!indexed || h < 0 || h >= static_cast<int>(control_slot_.size())) return Control(s, h);
    const int8_t f = first[control_slot_[static_cast<size_t>(h)]];
    return f != kEmpty ? static_cast<int>(f) : StoredControl(s, h);
  };
  for (int p : control_places_) {
    const Place& place = game_.hex_board().map.places[static_cast<size_t>(p)];
    const int side = control(place.hexes.front());
    bool all = side >= 0;
    for (int h : place.hexes) all = all && control(h) == side;
    if (!all || s.place_control[p] == side + 1) continue;
    s.place_control[p] = static_cast<uint8_t>(side + 1);
    Event e;
    e.type = EventType::kControl;
    e.side = static_cast<int8_t>(side);
    e.hex = static_cast<int16_t>(place.hexes.front());
    e.a = p;
    e.rule = "17.15";
    ctx.Emit(e);
  }
}

// 20.11: hexes the side controls for the first time (once per hex).
WG_RULE("17.15/20.11", BgRules::RefreshControl);
void BgRules::RefreshControl(State& s, Context& ctx) const {
  SyncPlaceControl(s, ctx);
  int bit = 0;
  for (const VpAward& a : cfg_.awards) {
    if (a.kind != VpAward::Kind::kHexEverControlled) continue;
    for (int h : a.hexes) {
      if (bit < 64 && !((s.once_awarded >> bit) & 1u) && Control(s, h) == a.side) {
        s.once_awarded |= uint64_t{1} << bit;
        AwardVp(s, ctx, a.side, a.points, a.rule.c_str(), "hex controlled");
      }
      ++bit;
    }
  }
}

// 5.0 / 20.12: a unit's ZOC is the six hexes adjacent to it, not its own hex: a
// hex counts only through the units of the award's kinds in the hexes around it
// (5.3 applies: not across creek or river hexsides).
WG_RULE("5.0/20.12", BgRules::InZocOfAdjacent);
bool BgRules::InZocOfAdjacent(const State& s, Context& ctx, const VpAward& a, int hex) const {
  HexScratch& hs = Hs(ctx);
  hs.sources.clear();
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    const int kind = game_.units[static_cast<size_t>(i)].kind;
    if (!u.OnMap() || u.side != a.side || u.hex == hex || !Adjacent(u.hex, hex)) continue;
    if (!a.unit_kinds.empty() && std::find(a.unit_kinds.begin(), a.unit_kinds.end(), kind) == a.unit_kinds.end()) continue;
    hs.sources.push_back(ZocSource{u.hex, ZocKind::kSix});
  }
  if (hs.sources.empty()) return false;
  hs.zoc.Compute(game_.hex_board().map, data().zoc, hs.sources);
  return hs.zoc.InEzoc(hex);
}

// 20.12 (and the scenario's other end-of-game awards).
WG_RULE("20.0/20.12", BgRules::CountEndVp);
void BgRules::CountEndVp(State& s, Context& ctx) const {
  for (const VpAward& a : cfg_.awards) {
    if (!a.at_end) continue;
    int count = 0;
    if (a.kind == VpAward::Kind::kHexControlledAtEnd) {
      for (int h : a.hexes) count += Control(s, h) == a.side ? 1 : 0;
    } else if (a.kind == VpAward::Kind::kHexInZoc) {
      for (int h : a.hexes) count += InZocOfAdjacent(s, ctx, a, h) ? 1 : 0;
    }
    AwardVp(s, ctx, a.side, count * a.points, a.rule.c_str(), "end of game award");
  }
}

// --- Loading -----------------------------------------------------------------------------

namespace {

Result<std::shared_ptr<const Game>> MakeBlueAndGray(const GameParams& params) {
  return LoadHexGame(FindRulesetFolder("blue_and_gray"), params,
                     {"exclusive_rules", "strategic_movement", "victory_points"},
                     [](const Game& game, RulesetDocument& doc, ErrorList*) -> std::unique_ptr<Rules> {
                       return std::make_unique<BgRules>(game, ReadConfig(game, doc));
                     });
}

}  // namespace

WG_REGISTER_RULESET((RulesetInfo{"blue_and_gray", "Blue & Gray (SPI, 1975): Chattanooga", "blue_and_gray"}),
                    MakeBlueAndGray);

}  // namespace wg::blue_and_gray
