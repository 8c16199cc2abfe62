// Civil War miniatures: the actions of the activated unit, one function each (T.2), and the
// charged unit's answer (2.4). The class MiniRules and the helpers the files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

bool IsActive(const Action& a, UnitId u, int i) { return a.num_units > i && a.units[static_cast<size_t>(i)] == u; }

// The action's i-th unit, kNoUnit if there is none or it is out of range.
UnitId UnitArg(const Game& g, const Action& a, int i) {
  if (a.num_units <= i) return kNoUnit;
  const UnitId o = a.units[static_cast<size_t>(i)];
  return o >= 0 && o < static_cast<UnitId>(g.num_units()) ? o : kNoUnit;
}

// 2.4: the charged unit answers (stand and fire, or countercharge): the charge_response
// step's handler of a choice. A charge that ends in contact calls the melee step (8.x),
// whose end ends the charger's activation (charge_response's resume); one that does not
// ends it here.
WG_RULE("2.4", AnswerCharge);
Status AnswerCharge(State& s, const Action& a, Context& ctx) {
  if (a.value < 0 || a.value > 1) {
    return Refused("2.4", "the charged unit must choose: 0 stand and fire, 1 countercharge");
  }
  const Game& g = ctx.game();
  const MiniData& d = D(g);
  const PendingCharge charge = PendingChargeOf(s);
  const UnitId att = charge.charger, def = charge.target;
  Event e =
      Ev(EventType::kChoice, "2.4", a.value ? "countercharge" : "stand, fire, then melee", def, a.value);
  e.side = static_cast<int8_t>(s.unit(def).side);
  ctx.Emit(e);
  bool contact = false;
  if (a.value == 0) {
    const char* rule = "";
    if (!CannotFireAt(g, s, def, att, kBody, &rule)) {
      Fire(g, s, ctx, def, att);
    } else {
      ctx.Emit(Ev(EventType::kNote, "2.4", "the charged unit cannot fire", def));
    }
    if (OnTable(s, att) && !s.unit(att).Has(kRouted)) contact = CloseIn(g, s, ctx, att, def, d.charge_range, "charges home");
  } else {
    CloseIn(g, s, ctx, def, att, d.countercharge_move, "countercharges");
    CloseIn(g, s, ctx, att, def, d.countercharge_move, "charges");
    contact = CloseIn(g, s, ctx, att, def, d.charge_range, "charges home");  // close any gap left to contact
  }
  if (OnTable(s, att) && OnTable(s, def) && !s.unit(att).Has(kRouted)) {
    if (contact) {
      CallStep(s, ctx, g.rules->steps(), kMeleeStep, s.unit(att).side,
               {static_cast<int16_t>(att), static_cast<int16_t>(def), static_cast<int16_t>(charge.flank)});
      return Status::Ok();
    }
    ctx.Emit(Ev(EventType::kNote, "C.2", "the charge is stopped short of its target: no melee", att, 0, def));
  }
  EndActivation(g, s, ctx);  // the charger's (its step under this one); the next card clears both
  return Status::Ok();
}

// 1: a change of formation (column or line).
WG_RULE("1", CheckFormation);
Status CheckFormation(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1) return Refused("T.1", "only the activated unit may act");
  if (a.value != 0 && a.value != 1) return Refused("1", "formation is 0 (column) or 1 (line)");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit must rally first");
  if (us.Has(kFormationChanged)) return Refused("1", "formation may change only once per turn");
  if (a.value == us.face) return Refused("1", "the unit is already in that formation");
  // The base in the new formation (the check writes nothing unless it applies).
  const Footprint f = FootprintIn(g, s, u, CenterOf(s, u), m.units[u].facing, a.value);
  bool ok = true;
  for (Vec2 p : f.Corners()) ok = ok && g.table().Contains(p);
  const bool crowded = ok && Blocker(g, s, u, f) != kNoUnit;
  if (!ok || crowded) {
    return crowded ? Refused("C.1", "no room for that formation: it would stand on another unit")
                   : Refused("1", "no room on the table for that formation");
  }
  if (!apply) return Status::Ok();
  us.face = static_cast<uint8_t>(a.value);
  us.flags |= kFormationChanged;
  ctx.Emit(Ev(EventType::kModeChange, "1", a.value ? "line" : "column", u, a.value));
  return Status::Ok();
}

// M: a move of the activated unit.
Status CheckMoveAction(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1) return Refused("T.1", "only the activated unit may act");
  Footprint f;
  const char* rule = "M";
  const char* why = PlanMove(g, s, u, Vec2{a.value / 100.0, a.value2 / 100.0}, &f, &rule);
  if (why) return Refused(rule, why);
  if (!apply) return Status::Ok();
  MiniUnit& mu = m.units[u];
  mu.x = H(f.center.x);
  mu.y = H(f.center.y);
  mu.facing = static_cast<int16_t>(std::lround(f.facing * 180.0 / kPi));
  us.flags |= kMovedNow;
  ctx.Emit(Ev(EventType::kMove, "M", "moves", u, mu.x, mu.y));
  EnterBuildingIfInside(g, s, ctx, u);
  return Status::Ok();
}

// custom kFace, M: the unit wheels to a facing.
Status CheckFace(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1)
    return Refused("T.1", "only the activated unit may act");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit cannot move until rallied");
  if (us.Has(kPinned)) return Refused(PinRule(us), "the unit cannot move this turn");
  if (us.Has(kMovedNow)) return Refused("M", "facing counts as the unit's move");
  const Footprint f = FootprintAt(g, s, u, CenterOf(s, u), a.value2);
  for (Vec2 p : f.Corners()) {
    if (!g.table().Contains(p))
      return Refused("M", "the unit cannot wheel there: it would leave the table");
  }
  if (Blocker(g, s, u, f) != kNoUnit)
    return Refused("C.1", "the unit cannot wheel there: it would stand on another unit");
  if (HasLine(s, u)) {  // 12.3: the line beside the building wheels in place with it
    Footprint l = LineOf(g, s, u);
    l.facing = a.value2 * kPi / 180.0;
    for (Vec2 p : l.Corners()) {
      if (!g.table().Contains(p))
        return Refused("12.3", "the line beside the building cannot wheel there: off the table");
    }
    if (Blocker(g, s, u, l) != kNoUnit)
      return Refused("C.1", "the line beside the building cannot wheel there: it would stand on another unit");
  }
  if (!apply) return Status::Ok();
  m.units[u].facing = static_cast<int16_t>(((a.value2 % 360) + 360) % 360);
  us.flags |= kMovedNow;
  ctx.Emit(Ev(EventType::kMove, "M", "faces", u, m.units[u].facing));
  return Status::Ok();
}

// custom kRally, 10.1: a routed unit rallies.
WG_RULE("10.1", CheckRally);
Status CheckRally(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0)) return Refused("T.1", "only the activated unit may act");
  if (!us.Has(kRouted)) return Refused("10.1", "only a routed unit rallies");
  if (!apply) return Status::Ok();
  if (TestMorale(g, s, ctx, u, "rally")) {
    us.flags = static_cast<uint16_t>(us.flags & ~kRouted);
    ctx.Emit(Ev(EventType::kRecover, "10.1", "rallied", u));
  } else {
    Retreat(g, s, ctx, u, d.retreat, "10.1");
  }
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// custom kManGuns, 11.2: crew man a depleted battery.
WG_RULE("11.2", CheckManGuns);
Status CheckManGuns(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  const UnitId o = UnitArg(g, a, 1);
  if (!IsActive(a, u, 0) || o == kNoUnit)
    return Refused("11.2", "{custom: 3, units: [crew, battery]}");
  const UnitType& t = TypeOf(g, u);
  if (!t.artillery || !TypeOf(g, o).artillery)
    return Refused("11.2", "only gun crews man batteries");
  if (us.Has(kRouted)) return Refused("11.2", "crews must be rallied first");
  if (!OnTable(s, o) || s.unit(o).side != us.side || o == u)
    return Refused("11.2", "not a friendly battery");
  const int spare = m.units[u].figures - m.units[u].guns * t.crew_per_gun;
  const int need = m.units[o].guns * TypeOf(g, o).crew_per_gun - m.units[o].figures;
  if (spare <= 0) return Refused("11.2", "no crew without a gun");
  if (need <= 0) return Refused("11.2", "that battery is not depleted");
  if (FootprintDistance(FootprintOf(g, s, u), FootprintOf(g, s, o)) > t.move_column) {
    return Refused("11.2", "the battery is beyond one move");
  }
  if (!apply) return Status::Ok();
  const int n = std::min(spare, need);
  m.units[u].figures = static_cast<uint8_t>(m.units[u].figures - n);
  m.units[o].figures = static_cast<uint8_t>(m.units[o].figures + n);
  ctx.Emit(Ev(EventType::kNote, "11.2", "crew man a depleted battery", o, n));
  CheckAlive(g, s, ctx, u, "11.2");
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// custom kOfficerPlace, 12.4: the officers' place in a building.
WG_RULE("12.4", CheckOfficerPlace);
Status CheckOfficerPlace(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1)
    return Refused("T.1", "only the activated unit may act");
  if (m.units[u].building == 0 || m.units[u].officers == 0) {
    return Refused("12.4", "only a unit with officers in a building designates where they are");
  }
  if (a.value2 != 0 && a.value2 != 1) return Refused("12.4", "value2: 0 inside, 1 outside");
  if (us.Has(kDesignated))
    return Refused("12.4", "officers are designated once per activation");
  if (!apply) return Status::Ok();
  us.flags |= kDesignated;
  if (a.value2) {
    us.flags |= kOfficerOutside;
  } else {
    us.flags = static_cast<uint16_t>(us.flags & ~kOfficerOutside);
  }
  ctx.Emit(Ev(EventType::kNote, "12.4", a.value2 ? "officers wait outside" : "officers inside", u));
  return Status::Ok();
}

// custom kFormBeside, 12.3: the figures that do not fit form a line beside the building.
WG_RULE("12.3", CheckFormBeside);
Status CheckFormBeside(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1)
    return Refused("T.1", "only the activated unit may act");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit must rally first");
  if (us.Has(kPinned)) return Refused(PinRule(us), "the unit cannot move this turn");
  MiniUnit& mu = m.units[u];
  if (mu.building == 0)
    return Refused("12.3", "only a unit occupying a building places the figures that do not fit");
  const int over = Overflow(g, s, u);
  if (over <= 0) return Refused("12.3", "every figure of the unit fits in the building");
  const int max_stands = (over + d.figures_per_stand - 1) / d.figures_per_stand;
  if (a.value2 < 0 || a.value2 > max_stands) {
    return Refused("12.3", "value2: the stands formed in line beside the building, 0 to " +
                                       std::to_string(max_stands));
  }
  if (mu.arranged) return Refused("12.3", "the figures outside are placed once per activation");
  const int figs = std::min(a.value2 * d.figures_per_stand, over);
  if (figs >= mu.figures)  // the building is full of other units: nobody of this one is inside
    return Refused("12.3", "the whole unit would stand outside the building: move it instead");
  Vec2 c{mu.line_x / 100.0, mu.line_y / 100.0};
  if (figs > 0) {
    if (const char* why = PlaceLineBeside(g, s, u, figs, &c)) return Refused("12.3", why);
  }
  {  // C.1: the main body grows when figures come back from the line
    State after = s;
    M(after).units[u].beside = static_cast<uint8_t>(figs);
    if (Blocker(g, after, u, FootprintOf(g, after, u)) != kNoUnit)
      return Refused("C.1", "the main body would stand on another unit");
  }
  if (!apply) return Status::Ok();
  mu.beside = static_cast<uint8_t>(figs);
  mu.line_x = H(c.x);
  mu.line_y = H(c.y);
  mu.arranged = 1;
  ctx.Emit(Ev(EventType::kNote, "12.3",
              figs > 0 ? "figures outside form in line beside the building" : "figures outside wait behind",
              u, figs, Waiting(g, s, u)));
  return Status::Ok();
}

// 3: fire at an enemy unit, its line beside a building (12.3) or livestock (9.3).
WG_RULE("3/9.3", CheckFire);
Status CheckFire(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0)) return Refused("T.1", "only the activated unit may act");
  const char* rule = "3";
  if (a.num_units == 1 && a.value >= kHerdTarget && a.value < kHerdTarget + kNumHerds) {  // 9.3
    const int h = a.value - kHerdTarget;
    if (!m.herds[h].alive) return Refused("9.3", "no livestock there");
    const Vec2 p = HerdPos(m.herds[h]);
    const double range = DistanceBetween(CenterOf(s, u), p);
    if (const char* why = CannotFire(g, s, u, p, range, &rule)) return Refused(rule, why);
    if (!apply) return Status::Ok();
    const int hits = RollHits(g, s, ctx, u, FireDice(g, s, u, kBody),
                              AttackerBonus(g, s, u, CenterOf(s, u), kNoUnit, nullptr), range, 0, "3");
    if (hits > 0) {
      m.herds[h].alive = 0;
      ctx.Emit(Ev(EventType::kNote, "9.3", "livestock shot", u, h));
    }
    EndActivation(g, s, ctx);
    return Status::Ok();
  }
  const UnitId t = UnitArg(g, a, 1);
  if (a.num_units != 2 || t == kNoUnit) return Refused("3", "{bombard: [firer, target]}");
  if (!OnTable(s, t) || s.unit(t).side == us.side)
    return Refused("3", "the target must be an enemy unit on the table");
  if (a.value != kBody && a.value != kAtLineBeside)
    return Refused("3", "value: 0 the unit, 1 its line beside a building (12.3)");
  if (a.value == kAtLineBeside && !HasLine(s, t))
    return Refused("12.3", "the target has no line formed beside a building");
  if (const char* why = CannotFireAt(g, s, u, t, a.value, &rule)) return Refused(rule, why);
  if (!apply) return Status::Ok();
  Fire(g, s, ctx, u, t, a.value);
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// 2: a charge; the attackee answers in the charge_response step (2.4).
WG_RULE("2.1/2.2/2.3", CheckCharge);
Status CheckCharge(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  const UnitId t = UnitArg(g, a, 1);
  if (!IsActive(a, u, 0) || a.num_units != 2 || t == kNoUnit)
    return Refused("2", "{attack: [charger, target]}");
  if (!OnTable(s, t) || s.unit(t).side == us.side)
    return Refused("2", "the target must be an enemy unit");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit cannot charge until rallied");
  if (us.Has(kPinned)) return Refused(PinRule(us), "the unit cannot move this turn");
  if (us.Has(kMovedNow))
    return Refused("2.1", "a charge is the unit's move: it has already moved");
  if (TypeOf(g, u).artillery) return Refused("2", "artillery does not charge");
  const Footprint uf = FootprintOf(g, s, u), tf = FootprintOf(g, s, t);
  // Centres farther apart than both radii and the range: the bases are surely
  // farther apart than the range (the same refusal, without the exact distance).
  const double reach = uf.Radius() + tf.Radius() + d.charge_range + 1e-6;
  const double dist = DistanceSquared(uf.center, tf.center) > reach * reach ? reach : FootprintDistance(uf, tf);
  if (dist > d.charge_range + 1e-9) {
    return RefusedWith("2.1", [range = d.charge_range] {  // chart.charge_range (8")
      char why[64];
      std::snprintf(why, sizeof(why), "charges must be within %g\" of the chosen target", range);
      return std::string(why);
    });
  }
  if (const char* why = ChargePathBlocked(g, s, u, t)) return Refused("C.4", why);
  if (!apply) return Status::Ok();
  ctx.Emit(Ev(EventType::kAttack, "2.1", "charges", u, static_cast<int>(std::lround(dist * 100)), t));
  us.flags |= kMovedNow;
  if (!TestMorale(g, s, ctx, u, "charge: attacker")) {  // 2.2
    us.flags |= kPinned;
    ctx.Emit(Ev(EventType::kNote, "2.2", "charge fails: cannot move or shoot", u));
    EndActivation(g, s, ctx);
    return Status::Ok();
  }
  if (!TestMorale(g, s, ctx, t, "charge: attackee")) {  // 2.3
    const Vec2 old = CenterOf(s, t);
    if (Disorganized(g, s, t)) {
      FailMorale(g, s, ctx, t, "2.3");
    } else {
      Retreat(g, s, ctx, t, d.retreat, "2.3");
    }
    const int lost = LoseStands(g, s, ctx, t, 1, "2.3");
    if (OnTable(s, t)) OfficerCheck(g, s, ctx, t, lost);  // 4.1/4.2: it was attacked and took losses
    Occupy(g, s, ctx, u, old, "2.3");
    EndActivation(g, s, ctx);
    return Status::Ok();
  }
  const int16_t flank = ArcOf(FootprintOf(g, s, t), CenterOf(s, u)) != Arc::kFront ? 1 : 0;  // 6.2
  PushStep(s, g.rules->steps(), kChargeResponseStep, s.unit(t).side, {u, t, flank});  // 2.4
  return Status::Ok();
}

// T.1 / 10.1: the activated unit's player ends its activation; a routed unit that did
// not rally keeps falling back.
WG_RULE("10.1", CheckEndActivation);
Status CheckEndActivation(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!apply) return Status::Ok();
  if (us.Has(kRouted)) Retreat(g, s, ctx, u, d.retreat, "10.1");  // not rallied: keeps going
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// 10.2: no merge exists; a recombination is refused.
WG_RULE("10.2", CheckRecombine);
Status CheckRecombine(const ActionCheck&) {
  return Refused("10.2", "fragments of infantry units cannot be consolidated");
}

}  // namespace wg::civil_war_miniatures
