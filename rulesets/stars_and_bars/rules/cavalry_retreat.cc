// Stars and Bars: cavalry retreat before combat (7.8) and retreat companions (7.5.1). The class
// SbRules: internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Cavalry retreat before combat (7.8) -------------------------------------------------

WG_RULE("7.8", SbRules::CheckCavalryRetreat);
Status SbRules::CheckCavalryRetreat(const State& s, Context& ctx, const Action& a) const {
  if (a.num_units != 1 || a.num_hexes != 2) return Status::Refused("7.8", "a cavalry retreat before combat is one unit, two hexes");
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units) return Status::Refused("7.8", "only cavalry may retreat before combat");
  Status st;
  if (!CavalryMayRetreat(s, u, &st)) return st;
  int16_t path[2] = {a.hexes[0], a.hexes[1]};
  return CheckRetreat(s, ctx, u, path, 2, 2);  // as a two-hex combat retreat (7.5.1)
}

// 7.8's tests of the unit (not of its path): cavalry of the deciding side, on the map,
// not retreated yet, with an enemy unit adjacent.
WG_RULE("7.8", SbRules::CavalryMayRetreat);
bool SbRules::CavalryMayRetreat(const State& s, UnitId u, Status* why) const {
  auto refuse = [why](auto&& message) {  // the text only when asked (the listing does not)
    if (why) *why = Status::Refused("7.8", message());
    return false;
  };
  if (!IsKind(u, kind_cavalry_)) return refuse([] { return "only cavalry may retreat before combat"; });
  const UnitState& us = s.unit(u);
  if (us.side != s.decision_side || !us.OnMap() || us.Has(kSbCavRetreated)) {
    return refuse([&] { return game_.UnitLabel(u) + " cannot retreat before combat now"; });
  }
  bool adjacent = false;
  for (int i = 0; i < s.num_units && !adjacent; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    adjacent = e.OnMap() && e.side != us.side && Adjacent(e.hex, us.hex);
  }
  if (!adjacent) return refuse([] { return "no enemy unit is adjacent"; });
  return true;
}

WG_RULE("7.8", SbRules::ApplyCavalryRetreat);
Status SbRules::ApplyCavalryRetreat(State& s, const Action& a, Context& ctx) const {
  Status st = CheckCavalryRetreat(s, ctx, a);
  if (!st.ok()) return st;
  const UnitId u = a.units[0];
  bool enemy_cavalry = false;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    if (e.OnMap() && e.side != s.unit(u).side && Adjacent(e.hex, s.unit(u).hex) && IsKind(static_cast<UnitId>(i), kind_cavalry_)) enemy_cavalry = true;
  }
  const int from = s.unit(u).hex;
  for (int k = 0; k < 2; ++k) {
    if (EnemyIn(s, a.hexes[static_cast<size_t>(k)], s.unit(u).side)) OnOverrun(s, ctx, a.hexes[static_cast<size_t>(k)], s.unit(u).side);  // 6.2
  }
  MoveUnit(s, ctx, u, a.hexes[1], EventType::kRetreat, "7.8");
  s.unit(u).flags |= kSbCavRetreated;
  for (int k = 0; k < 2; ++k) TouchHex(s, ctx, a.hexes[static_cast<size_t>(k)], s.unit(u).side);  // 11.1
  RetreatCompanions(s, ctx, u, from, a.hexes.data(), 2, /*in_combat=*/false);
  if (CountIn(s, from, -1) == 0) {
    // The attacker may advance units that were adjacent (7.6); they count as having attacked.
    PendingCombat& c = s.combat;
    c = PendingCombat{};
    for (auto& h : c.defender_hexes) h = -1;
    c.legacy_current = kNoUnit;
    c.vacated_hex = static_cast<int16_t>(from);
    for (int i = 0; i < s.num_units && c.num_attackers < kMaxCombatUnits; ++i) {
      const UnitId v = static_cast<UnitId>(i);
      const UnitState& vs = s.unit(v);
      if (vs.OnMap() && vs.side == s.phasing_side && Adjacent(vs.hex, from) && AttackStrength(s, v) > 0 && !IsArtillery(v)) {
        c.attackers[c.num_attackers++] = v;
      }
    }
    // The advance step, called as 7.8's (its argument 0).
    if (c.num_attackers > 0) CallStep(s, ctx, steps_, step_advance_, s.phasing_side, {kCavalryAdvanceArg});
  }
  const DieTable& t = *data().tables.Find("cavalry_withdrawal");
  // The column least favourable to the cavalry: "cavalry" if any adjacent enemy is cavalry.
  const int column = t.ColumnByKey(enemy_cavalry ? "cavalry" : "infantry");
  CallStep(s, ctx, steps_, step_cav_withdrawal_, s.unit(u).side, {static_cast<int16_t>(u), static_cast<int16_t>(column)});
  return Status::Ok();
}

// The cavalry withdrawal's die (7.8): args {unit, column}.
WG_RULE("7.8", SbRules::ResolveCavalryWithdrawal);
void SbRules::ResolveCavalryWithdrawal(State& s, Context& ctx, int roll) const {
  const Step f = *TopStep(s);
  const UnitId u = static_cast<UnitId>(f.args[0]);
  if (data().tables.Find("cavalry_withdrawal")->Lookup(roll, f.args[1]).text == "D") {
    AddMarker(s, ctx, u, dis_, 1, "7.8");
    CheckDeath(s, ctx, u, "7.8");
  }
  EndStep(s, ctx, steps_);
}

void SbRules::ListCavalryRetreats(const State& s, Context& ctx, std::vector<Action>* out) const {
  // CheckCavalryRetreat's tests of the unit, of each cavalry unit (no other may retreat so);
  // the paths from the first that may on (ListCavalryRetreatPaths: its State view is made
  // only then, not for every listing).
  for (size_t k = 0; k < cavalry_.size(); ++k) {
    const UnitId u = cavalry_[k];
    if (u >= s.num_units) break;
    if (CavalryMayRetreat(s, u, nullptr)) {
      ListCavalryRetreatPaths(s, ctx, k, out);
      return;
    }
  }
}

// The retreat paths of the cavalry units cavalry_[first] (which may retreat) and after
// that may retreat, each path checked as a two-hex combat retreat (7.5.1) against s, pinned
// (nothing changes it while the paths are checked). Only whether a path is legal is asked:
// the refusals are quiet.
void SbRules::ListCavalryRetreatPaths(const State& s, Context& ctx, size_t first, std::vector<Action>* out) const {
  const QuietRefusals quiet(Hs(ctx));
  const HexStatePin pin(ctx, s);
  const auto& grid = game_.hex_board().map.grid;
  for (size_t k = first; k < cavalry_.size(); ++k) {
    const UnitId u = cavalry_[k];
    if (u >= s.num_units) break;
    if (k != first && !CavalryMayRetreat(s, u, nullptr)) continue;
    const UnitState& us = s.unit(u);
    for (int d1 = 0; d1 < 6; ++d1) {
      const int h1 = grid.NeighborIndex(us.hex, d1);
      if (h1 < 0) continue;
      for (int d2 = 0; d2 < 6; ++d2) {
        const int h2 = grid.NeighborIndex(h1, d2);
        if (h2 < 0 || DistanceBetween(us.hex, h2) != 2) continue;
        const int16_t path[2] = {static_cast<int16_t>(h1), static_cast<int16_t>(h2)};
        if (!CheckRetreat(s, ctx, u, path, 2, 2).ok()) continue;
        Action a = Action::Of(ActionType::kRetreat);
        a.AddUnit(u).AddHex(h1).AddHex(h2);
        out->push_back(a);
      }
    }
  }
}

WG_RULE("5.2/5.8/7.6", SbRules::MayAdvanceInto);
Status SbRules::MayAdvanceInto(const State& s, UnitId u, int to) const {
  const int from = s.unit(u).hex;
  const int dir = from >= 0 && to >= 0 ? DirectionTo(game_.hex_board().map.grid.HexAt(from), game_.hex_board().map.grid.HexAt(to)) : -1;
  const int cls = game_.kinds[static_cast<size_t>(Def(u).kind)].movement_class;
  std::string why;
  if (dir < 0 || StepCost(game_.hex_board().map, data().movement, cls, from, dir, &why) == kProhibitedCost) {
    if (IsSupply(u)) return Status::Refused("5.8", "supply convoys move only along roads and trails, an advance too");
    return Status::Refused("5.2", game_.UnitLabel(u) + " may not advance there: " + why);
  }
  return Status::Ok();
}

// 7.5.1: "Other units with a zero AS (including HQs) automatically retreat with the units
// they are stacked with" (also a cavalry retreat before combat, 7.8, when no unit with an
// AS stays behind). A unit whose terrain forbids the path retreats on its own in combat.
WG_RULE("6.2/7.5.1/7.8", SbRules::RetreatCompanions);
void SbRules::RetreatCompanions(State& s, Context& ctx, UnitId u, int from, const int16_t* path, int n,
                                bool in_combat) const {
  const int side = s.unit(u).side;
  for (int i = 0; i < s.num_units && !in_combat; ++i) {
    const UnitId v = static_cast<UnitId>(i);
    if (v != u && s.unit(v).hex == from && s.unit(v).side == side && AttackStrength(s, v) > 0) return;
  }
  // The retreating unit eliminates enemy zero-strength units on the path (6.2): not in the way.
  State view;
  std::memcpy(static_cast<void*>(&view), &s, sizeof(State));
  for (int i = 0; i < view.num_units; ++i) {
    UnitState& e = view.units[static_cast<size_t>(i)];
    for (int k = 0; k < n && e.OnMap(); ++k) {
      if (e.side != side && e.hex == path[k] && Overrunnable(s, path[k], side)) e.hex = kEliminated;
    }
  }
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId v = static_cast<UnitId>(i);
    UnitState& vs = s.unit(v);
    if (v == u || vs.hex != from || vs.side != side || AttackStrength(s, v) > 0) continue;
    if (in_combat && !OwesRetreat(s, v)) continue;
    const QuietRefusals quiet(Hs(ctx));  // only whether it may go is asked
    if (!CheckRetreat(view, ctx, v, path, n, n).ok()) continue;
    MoveUnit(s, ctx, v, path[n - 1], EventType::kRetreat, in_combat ? "7.5.1" : "7.8");
    ForgiveRetreat(s, v);
  }
}

}  // namespace wg::stars_and_bars
