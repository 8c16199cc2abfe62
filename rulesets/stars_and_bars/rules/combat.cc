// Stars and Bars: combat (7.1-7.5, 8.4): attacks, modifiers, results, losses, stand or retreat.
// The class SbRules: internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Combat (7.1-7.8, 8.4) ------------------------------------------------------------

WG_RULE("8.1", SbRules::CheckAttack);
Status SbRules::CheckAttack(const State& s, const Action& a, Context&) const {
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (IsArtillery(u) && s.unit(u).Has(kUnitBombarded)) {
      return Status::Refused("8.1", game_.UnitLabel(u) + " bombarded this player-turn and may not also attack");
    }
  }
  return Status::Ok();
}

WG_RULE("7.1", SbRules::MustAttack);
bool SbRules::MustAttack(const State& s, Context& ctx, UnitId u) const {
  if (IsArtillery(u) && s.unit(u).Has(kUnitBombarded)) return false;  // 7.1 exception, 8.1
  return HexRules::MustAttack(s, ctx, u);
}

bool SbRules::CavAdvanced(const State& s, UnitId u) const {
  const SbExt& x = Ext<SbExt>(s);
  for (int i = 0; i < x.num_cav_advanced && i < 8; ++i) {
    if (x.cav_advanced[i] == u) return true;
  }
  return false;
}

WG_RULE("7.1/7.8", SbRules::MustBeAttacked);
bool SbRules::MustBeAttacked(const State& s, Context& ctx, UnitId u) const {
  if (Ext<SbExt>(s).num_cav_advanced == 0) return HexRules::MustBeAttacked(s, ctx, u);
  // 7.8: units that advanced after a cavalry retreat before combat "cannot then create
  // new combat situations": their ZOC obliges no attack.
  const UnitState& us = s.unit(u);
  if (!us.OnMap()) return false;
  const ZocRules& z = data().zoc;
  if (game_.hex_board().map.terrain[static_cast<size_t>(us.hex)] & z.not_into) return false;
  for (int d = 0; d < 6; ++d) {
    const int nb = game_.hex_board().map.grid.NeighborIndex(us.hex, d);
    const FeatureMask side = game_.hex_board().map.Side(us.hex, d);
    if (nb < 0 || ((side & z.blocked_by) && !(side & z.unblocked_by))) continue;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitId f = static_cast<UnitId>(i);
      if (s.unit(f).hex == nb && s.unit(f).side != us.side && !CavAdvanced(s, f) && ZocOf(s, f) == ZocKind::kSix) return true;
    }
  }
  return false;
}

WG_RULE("7.1", SbRules::AutomaticAttack);
const char* SbRules::AutomaticAttack(const State&, const AttackPlan& plan) const {
  // 7.1: "If alone, it is automatically eliminated if attacked by any unit with an AS greater than zero."
  return plan.defense == 0 ? "7.1: zero-strength unit attacked alone is eliminated (no die roll)" : nullptr;
}

WG_RULE("7.6", SbRules::VacatedForAdvance);
bool SbRules::VacatedForAdvance(const State& s, int hex) const {
  // 7.6: "HQs by themselves do not prevent advance after combat"; any other unit does.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).hex == hex && (!IsHq(u) || s.unit(u).side == s.phasing_side)) return false;
  }
  return true;
}

WG_RULE("6.2", SbRules::CurrentValue);
int SbRules::CurrentValue(const Game& g, const State& s, UnitId u, int attribute) const {
  if (attribute == data().attack) return AttackStrength(s, u);    // 6.2, 8.1, 8.4
  if (attribute == data().defense) return DefenseStrength(s, u);  // 7.4, 8.4
  if (attribute == attr_bombard_) return Bombard(s, u);           // 7.4.3, 8.4
  if (attribute == data().movement_attribute) {
    return std::max(0, g.Printed(s, u, attribute) - (s.unit(u).markers[dis_] > 0 ? 1 : 0));  // 7.4.3
  }
  return HexRules::CurrentValue(g, s, u, attribute);
}

WG_RULE("7.1/7.6", SbRules::ApplyZeroStrengthAttack);
Status SbRules::ApplyZeroStrengthAttack(State& s, const Action& a, Context& ctx, const AttackPlan& plan) const {
  SbExt& x = Ext<SbExt>(s);
  FillCombat(s, a, plan.defenders, plan.num_defenders);
  for (int i = 0; i < a.num_units; ++i) s.unit(a.units[static_cast<size_t>(i)]).flags |= kUnitAttacked;
  x.num_convoys = 0;
  x.advance_rolled = 0;
  ++s.combat_count;
  if (x.first_combat_turn == 0) x.first_combat_turn = s.turn;  // 12.4.1
  for (int i = 0; i < plan.num_defenders; ++i) {
    const UnitId d = plan.defenders[i];
    s.unit(d).flags |= kUnitDefended;
    Eliminate(s, ctx, d, "7.1", "zero-strength unit attacked alone");
  }
  // 7.6: the attackers may advance into the emptied hex (a convoy is then captured, 5.8).
  FollowUpCombat(s, ctx);
  return Status::Ok();
}

WG_RULE("7.7/7.7.1/7.7.2/7.7.3/7.7.4/8.4", SbRules::CombatModifiers);
void SbRules::CombatModifiers(const State& s, Context&, CombatMods* mods) const {
  const PendingCombat& c = s.combat;
  const auto& grid = game_.hex_board().map.grid;
  bool all_up = true, all_river = true, all_creek = true;
  for (int i = 0; i < c.num_attackers; ++i) {
    const int from = s.unit(c.attackers[i]).hex;
    bool up = true, river = true, creek = true, any = false;
    for (int k = 0; k < c.num_defender_hexes; ++k) {
      const int to = c.defender_hexes[k];
      for (int d = 0; d < 6; ++d) {
        if (grid.NeighborIndex(from, d) != to) continue;
        any = true;
        up = up && (game_.hex_board().map.Toward(from, d) & slope_);
        const FeatureMask side = game_.hex_board().map.Side(from, d);
        river = river && (side & river_);
        creek = creek && (side & creek_);
      }
    }
    all_up = all_up && any && up;
    all_river = all_river && any && river;
    all_creek = all_creek && any && creek;
  }
  if (all_up || all_river) {
    // 7.7.2 / 7.7.3: doubled, never more than doubled; 8.4: artillery is never doubled.
    const char* why = all_up ? "7.7.2: defender doubled (all attackers upslope)" : "7.7.3: defender doubled (all attackers across a river)";
    int arty = 0, others = 0;
    for (int i = 0; i < c.num_defenders; ++i) {
      (IsArtillery(c.defenders[i]) ? arty : others) += DefenseStrength(s, c.defenders[i]);
    }
    if (arty == 0) {
      mods->Multiply(2, why);
    } else {
      mods->defense_bonus += others;
      mods->Note("8.4: defender doubled except its artillery");
    }
  }
  if (all_creek) mods->Drm(-1, "7.7.4: -1 DRM (all attackers across a creek)");
  bool cover = c.num_defender_hexes > 0;
  for (int k = 0; k < c.num_defender_hexes; ++k) {
    const int h = c.defender_hexes[k];
    cover = cover && (game_.hex_board().map.HasTerrain(h, woods_) || game_.hex_board().map.HasTerrain(h, stone_wall_));
  }
  if (cover) mods->Drm(-1, "7.7.1/TEC: -1 DRM (defender in woods or the stone wall)");
}

WG_RULE("7.2.1/7.3", SbRules::ApplyCombatResult);
void SbRules::ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const {
  SbExt& x = Ext<SbExt>(s);
  PendingCombat& c = s.combat;
  if (x.first_combat_turn == 0) x.first_combat_turn = s.turn;  // 12.4.1
  ForceOwed owed[2] = {};
  x.num_convoys = 0;
  x.advance_rolled = 0;
  for (int i = 0; i < c.num_defenders; ++i) {
    UnitState& d = s.unit(c.defenders[i]);
    if (!d.Has(kUnitReleased)) d.flags |= kSbReleaseNext;  // 5.6
  }
  for (int k = 0; k < 2; ++k) {
    const auto& toks = r.two_sided ? (k == 0 ? r.attacker : r.defender) : (k == 0 ? r.tokens : r.defender);
    for (const auto& t : toks) {
      if (t.code == "AE" && k == 0) {
        for (int i = 0; i < c.num_attackers; ++i) Eliminate(s, ctx, c.attackers[i], "7.2.1", "odds below 1-4");
      } else if (t.code == "E") {
        owed[k].e += t.number;
      } else if (t.code == "D") {
        owed[k].d += t.number;
      } else if (t.code == "W") {
        owed[k].retreat = std::max(owed[k].retreat, 1);
      } else if (t.code == "R") {
        owed[k].retreat = 2;
      }
    }
  }
  // 7.5.1: units with an AS retreat first; zero-AS units then go with them.
  auto normal_first = [&](UnitId* units, int n) {
    std::stable_partition(units, units + n, [&](UnitId u) { return AttackStrength(s, u) > 0; });
  };
  normal_first(c.attackers, c.num_attackers);
  normal_first(c.defenders, c.num_defenders);
  // 7.3-7.5.2: the result's script, called over the combat's follow-up (which then does
  // the retreats it owes and the advance).
  Step frame;
  for (int k = 0; k < 2; ++k) SetOwed(frame, k, owed[k]);
  CallStep(s, ctx, steps_, step_combat_result_, s.phasing_side,
           {frame.args[0], frame.args[1], frame.args[2], frame.args[3]});
}

WG_RULE("7.3/7.5.2", SbRules::LossEligible);
bool SbRules::LossEligible(const State& s, UnitId u, int k, bool stand) const {
  if (!s.unit(u).OnMap() || !InForce(s, u, k)) return false;
  if (stand && !Def(u).trained) return false;  // 7.5.2: untrained units take no Stand losses
  if (IsHq(u)) {
    // 7.3: HQs last.
    const PendingCombat& c = s.combat;
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      const UnitId v = k == 0 ? c.attackers[i] : c.defenders[i];
      if (s.unit(v).OnMap() && !IsHq(v)) return false;
    }
  }
  return true;
}

void SbRules::CheckDeath(State& s, Context& ctx, UnitId u, const char* rule) const {
  if (s.unit(u).OnMap() && ShouldDie(s, u)) Eliminate(s, ctx, u, rule, "losses exceed its strength");
}

// After all losses of a force: zero-strength units share the fate of their stack (7.1).
WG_RULE("7.1", SbRules::SettleForce);
void SbRules::SettleForce(State& s, Context& ctx, int k) const {
  const PendingCombat& c = s.combat;
  const int n = k == 0 ? c.num_attackers : c.num_defenders;
  bool normal_left = false;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    normal_left = normal_left || (s.unit(u).OnMap() && DefenseStrength(s, u) > 0);
  }
  if (normal_left) return;
  bool any_lost = false;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    any_lost = any_lost || !s.unit(u).OnMap();  // a unit of the stack was eliminated
  }
  if (!any_lost) return;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    if (s.unit(u).OnMap()) Eliminate(s, ctx, u, "7.1", "zero-strength unit shares the fate of its stack");
  }
}

// The combat_result script's frame: per force k (0 the attacker, 1 the defender), the CRT
// losses still owed in args[k] (permanent | disruption << 8, 7.3) and its retreat in
// args[2 + k] (the result's 0 none / 1 W / 2 R | stand: 0 undecided, 1 stood, 2 retreats
// << 4 | the Stand disruption still owed << 8, 7.5.2).
SbRules::ForceOwed SbRules::Owed(const Step& f, int k) {
  ForceOwed o;
  o.e = f.args[k] & 0xFF;
  o.d = (f.args[k] >> 8) & 0x7F;
  o.retreat = f.args[2 + k] & 0xF;
  o.stand = (f.args[2 + k] >> 4) & 0xF;
  o.stand_d = (f.args[2 + k] >> 8) & 0x7F;
  return o;
}

void SbRules::SetOwed(Step& f, int k, const ForceOwed& o) {
  f.args[k] = static_cast<int16_t>(std::clamp(o.e, 0, 0xFF) | std::clamp(o.d, 0, 0x7F) << 8);
  f.args[2 + k] = static_cast<int16_t>(o.retreat | o.stand << 4 | std::clamp(o.stand_d, 0, 0x7F) << 8);
}

// The script on top, entered (kEntered) or resumed with what its callee ended with: a loss
// taken (kLossTaken), a Stand (kStood) or a retreat (kRetreats) chosen.
WG_RULE("7.3/7.5.2", SbRules::ResumeCombatResult);
void SbRules::ResumeCombatResult(State& s, Context& ctx, int result) const {
  Step& f = *TopFrame(s);
  if (result != kEntered) {
    const int k = (result >> 9) & 1;
    ForceOwed o = Owed(f, k);
    if (result & kLossTaken) {
      const int amount = result & 0xFF;
      if (!(result & kDisruptionTaken)) {
        o.e -= amount;
      } else if (o.e || o.d) {
        o.d -= amount;
      } else {
        o.stand_d -= amount;
      }
    } else if (result & kStood) {
      o.stand = 1;
      o.stand_d = result & 0xFF;
    } else if (result & kRetreats) {
      o.stand = 2;
    }
    SetOwed(f, k, o);
  }
  auto any_eligible = [&](int k, bool stand) {
    const PendingCombat& c = s.combat;
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      if (LossEligible(s, k == 0 ? c.attackers[i] : c.defenders[i], k, stand)) return true;
    }
    return false;
  };
  // 1. CRT losses, defender first (7.3), then each side's retreat-or-stand (7.5.2).
  for (int k : {1, 0}) {
    ForceOwed o = Owed(f, k);
    if ((o.e || o.d) && !any_eligible(k, false)) {
      o.e = o.d = 0;
      SetOwed(f, k, o);
    }
    if (o.e || o.d) {
      CallStep(s, ctx, steps_, step_losses_, ForceSide(s, k),
               {static_cast<int16_t>(k), static_cast<int16_t>(o.e), static_cast<int16_t>(o.d), 0});
      return;
    }
  }
  // Zero-strength units left without normal units share their fate (7.1).
  SettleForce(s, ctx, 1);
  SettleForce(s, ctx, 0);
  for (int k : {1, 0}) {
    ForceOwed o = Owed(f, k);
    if (!o.retreat || o.stand == 2) continue;
    if (o.stand == 0) {
      // Only a force with trained units may Stand (7.5.2.C/E).
      if (!any_eligible(k, true)) {
        o.stand = 2;
        SetOwed(f, k, o);
        continue;
      }
      CallStep(s, ctx, steps_, step_stand_, ForceSide(s, k), {static_cast<int16_t>(k), static_cast<int16_t>(o.retreat)});
      return;
    }
    if (o.stand_d && !any_eligible(k, true)) {
      // Trained units could not absorb it all: the rest must retreat (7.5.2.C).
      o.stand_d = 0;
      o.stand = 2;
      SetOwed(f, k, o);
      continue;
    }
    if (o.stand_d) {
      CallStep(s, ctx, steps_, step_losses_, ForceSide(s, k),
               {static_cast<int16_t>(k), 0, 0, static_cast<int16_t>(o.stand_d)});
      return;
    }
  }
  SettleForce(s, ctx, 1);
  SettleForce(s, ctx, 0);
  for (int k : {1, 0}) {
    const ForceOwed o = Owed(f, k);
    if (o.retreat && o.stand == 2) BeginRetreats(s, ctx, k == 0, data().retreat_hexes);  // 7.5.1
  }
  EndStep(s, ctx, steps_);  // the combat's follow-up resumes
}

// The losses step's arguments: {force k, permanent losses owed, disruption owed, Stand
// disruption owed} (a Stand's losses when the CRT's are 0, 7.5.2).
void SbRules::ListLosses(const State& s, std::vector<Action>* out) const {
  const Step& top = *TopStep(s);
  const int k = top.args[0];
  const int e = top.args[1], d = top.args[2];
  const bool stand = !(e || d);
  const PendingCombat& c = s.combat;
  const int n = k == 0 ? c.num_attackers : c.num_defenders;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    if (!LossEligible(s, u, k, stand)) continue;
    for (int m : {pl_, dis_}) {
      if (!stand && ((m == pl_ && !e) || (m == dis_ && !d))) continue;
      if (stand && m == pl_) continue;
      Action a = Action::Of(ActionType::kLoss);
      a.AddUnit(u);
      a.value = 1;
      a.value2 = m;
      out->push_back(a);
    }
  }
}

// One loss taken; the step ends with it (its caller counts what is still owed).
WG_RULE("7.3/7.4", SbRules::ApplyLoss);
Status SbRules::ApplyLoss(State& s, const Action& a, Context& ctx) const {
  const Step& top = *TopStep(s);
  const int k = top.args[0];
  const int e = top.args[1], d = top.args[2], stand_d = top.args[3];
  const bool stand = !(e || d);
  if (a.num_units != 1 || a.value < 1) return Status::Refused("7.3", "assign a positive loss to one unit");
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units || !InForce(s, u, k)) return Status::Refused("7.3", "losses go to units of this combat");
  if (!LossEligible(s, u, k, stand)) {
    if (IsHq(u)) return Status::Refused("7.3", "HQs may not take losses until every other unit in the combat is eliminated");
    if (stand && !Def(u).trained) return Status::Refused("7.5.2", "untrained units may not take Stand losses");
    return Status::Refused("7.3", game_.UnitLabel(u) + " cannot take this loss");
  }
  const int m = a.value2;
  int owed = 0;
  if (m == pl_ && !stand) owed = e;
  if (m == dis_) owed = stand ? stand_d : d;
  if (owed == 0) return Status::Refused("7.3", "no such loss is owed");
  const int room = BaseDefense(s, u) + 1 - Losses(s, u);
  const int amount = std::min(a.value, std::max(1, room));
  if (a.value > owed) return Status::Refused("7.3", "only " + std::to_string(owed) + " owed");
  if (a.value > std::max(1, room)) return Status::Refused("7.4", game_.UnitLabel(u) + " can absorb only " + std::to_string(std::max(1, room)));
  AddMarker(s, ctx, u, m, amount, stand ? "7.5.2" : "7.3");
  CheckDeath(s, ctx, u, "7.4");
  EndStep(s, ctx, steps_, kLossTaken | k << 9 | (m == dis_ ? kDisruptionTaken : 0) | amount);
  return Status::Ok();
}

// The stand_or_retreat step's arguments: {force k, the result's retreat (1 W, 2 R)}. It ends
// with the Stand and its extra disruption, or the retreat.
WG_RULE("7.5.2", SbRules::ApplyStand);
Status SbRules::ApplyStand(State& s, const Action& a, Context& ctx) const {
  const Step& top = *TopStep(s);
  const int k = top.args[0];
  if (a.type == ActionType::kStand) {
    int extra = top.args[1] == 2 ? 2 : 1;  // 7.5.2.B
    const PendingCombat& c = s.combat;
    bool wall = false;  // 7.5.2.D: one less in the stone wall hex
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
      wall = wall || (s.unit(u).OnMap() && game_.hex_board().map.HasTerrain(s.unit(u).hex, stone_wall_));
    }
    if (wall) --extra;
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(s.decision_side);
    e.a = extra;
    e.rule = wall ? "7.5.2.D" : "7.5.2";
    e.text = "Stand";
    ctx.Emit(e);
    EndStep(s, ctx, steps_, kStood | k << 9 | extra);
  } else {
    EndStep(s, ctx, steps_, kRetreats | k << 9);
  }
  return Status::Ok();
}

WG_RULE("5.3/6.2/7.5.1", SbRules::CheckRetreat);
Status SbRules::CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const {
  auto refuse = [&](const char* rule, const char* message) { return RefuseUnlessQuiet(Hs(ctx), rule, [=] { return std::string(message); }); };
  if (Unlimbered(s, u)) return refuse("7.5.1", "unlimbered artillery may never retreat");
  if (AttackStrength(s, u) <= 0) {
    // 6.2: only a unit with an AS retreats through a hex held by enemy zero-strength units.
    // EnemyIn of a map hex read from the occupancy arrays (cached; the core's check below
    // reads them too), not by a walk of the units.
    const int side = s.unit(u).side;
    RefreshEnemyOccupancy(s, ctx, side);
    const std::vector<uint8_t>& enemy = Hs(ctx).enemy;
    for (int i = 0; i < n; ++i) {
      const int h = path[i];
      if (h >= 0 && (h < map_size_ ? enemy[static_cast<size_t>(h)] != 0 : EnemyIn(s, h, side))) {
        return refuse("6.2", "units without an attack strength may never enter an enemy-occupied hex");
      }
    }
  }
  if (IsArtillery(u) && LeavesWoodsOffPath(s.unit(u).hex, path, n)) {
    return refuse("5.3", "artillery may leave a woods hex only along a road or trail");
  }
  int prev = s.unit(u).hex;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    const int dir = h >= 0 ? DirectionTo(game_.hex_board().map.grid.HexAt(prev), game_.hex_board().map.grid.HexAt(h)) : -1;
    if (dir >= 0) {
      const FeatureMask side = game_.hex_board().map.Side(prev, dir);
      if ((side & river_) && !(side & bridge_ford_)) return refuse("7.5.1", "units may not retreat across river hexsides");
    }
    if (h >= 0) prev = h;
  }
  return HexRules::CheckRetreat(s, ctx, u, path, n, length);
}

void SbRules::OnEliminated(State& s, Context&, UnitId u, int hex) const {
  SbExt& x = Ext<SbExt>(s);
  if (IsSupply(u) && s.combat.active && x.num_convoys < 4) {
    x.convoy_unit[x.num_convoys] = u;
    x.convoy_hex[x.num_convoys] = static_cast<int16_t>(hex);
    ++x.num_convoys;
  }
}

WG_RULE("5.8", SbRules::AfterCombat);
void SbRules::AfterCombat(State& s, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  // 5.8: a convoy eliminated in combat with an enemy unit in its hex may be captured.
  for (int i = 0; i < x.num_convoys; ++i) {
    const UnitId u = x.convoy_unit[i];
    const int hex = x.convoy_hex[i];
    if (s.unit(u).hex != kEliminated) continue;
    const int owner = s.unit(u).side;
    if (CountIn(s, hex, 1 - owner) > 0 && CountIn(s, hex, owner) == 0) OfferCapture(s, ctx, u, hex, 1 - owner);
  }
  x.num_convoys = 0;
  x.advance_rolled = 0;
  for (int i = 0; i < s.num_units; ++i) s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~kSbNoAdvance);
}

}  // namespace wg::stars_and_bars
