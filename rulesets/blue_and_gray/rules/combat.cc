// Blue & Gray standard rules + Chattanooga exclusive rules: combat (8.0-8.4, 8.7, 10.0, 11.2,
// 18.12, 19.12): attacks, bombardment, cavalry retreat, modifiers, results. The class BgRules:
// rules.h; the helpers its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

namespace {

constexpr int kColumn13 = 2;  // "1-3" on the CRT (8.73)

}  // namespace

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
  if (a.value != 0 && a.value != 1) return Status::Refused("11.2", "choose 0 (stand) or 1 (retreat two hexes)");
  const Action pending = TakeHeldAction(s, steps_);  // the attack, held by the step
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

}  // namespace wg::blue_and_gray
