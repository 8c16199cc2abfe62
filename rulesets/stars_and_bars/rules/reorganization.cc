// Stars and Bars: reorganization (9.0, 12.5). The class SbRules: internal.h; RULES.md maps every
// rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Reorganization (9.0, 12.5) ----------------------------------------------------------

WG_RULE("12.5", SbRules::HqServes);
bool SbRules::HqServes(UnitId hq, UnitId u) const {
  if (!game_.OptionOn("12.5")) return true;
  if (IsKind(u, kind_cavalry_) || IsSupply(u) || IsRegiment(u)) return true;  // 12.5
  const UnitDef& d = Def(u);
  int formation = d.formation;
  const int parent = battery_parent_[static_cast<size_t>(u)];
  if (parent >= 0) formation = game_.units[static_cast<size_t>(parent)].formation;
  if (formation < 0) return false;
  const Formation& f = game_.formations[static_cast<size_t>(formation)];
  if (d.side == 0) {
    // Union: the corps HQ.
    return Def(hq).size == "corps" && CorpsNumber(hq) != 0 && CorpsNumber(hq) == CorpsNumber(u);
  }
  // Confederate: the divisional HQ.
  return !f.hq.empty() && game_.UnitIndex(f.hq) == hq;
}

WG_RULE("4.2/9.0/12.5", SbRules::CheckReorganize);
Status SbRules::CheckReorganize(const State& s, Context& ctx, const Action& a, int* column) const {
  // The listing asks under QuietRefusals: its refusals build no message.
  const HexScratch& hs = Hs(ctx);
  auto refuse = [&](const char* rule, auto message) { return RefuseUnlessQuiet(hs, rule, message); };
  if (a.num_units < 1 || a.num_units > 2) {
    return refuse("9.0", [] { return std::string("reorganize one unit, optionally aided by one HQ"); });
  }
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units) return refuse("9.0", [] { return std::string("no such unit"); });
  const UnitState& us = s.unit(u);
  if (us.side != s.phasing_side || !us.OnMap()) {
    return refuse("9.0", [] { return std::string("only phasing units on the map reorganize"); });
  }
  if (us.markers[dis_] == 0) return refuse("9.0", [&] { return game_.UnitLabel(u) + " is not disrupted"; });
  if (us.Has(kSbReorganized)) {
    return refuse("9.0", [&] { return game_.UnitLabel(u) + " has already tried to reorganize"; });
  }
  if (InEnemyZoc(s, ctx, us.side, us.hex)) {
    return refuse("9.0", [] { return std::string("a unit in an enemy zone of control may not reorganize"); });
  }
  *column = 0;
  if (a.num_units == 2) {
    const UnitId h = a.units[1];
    if (h < 0 || h >= s.num_units || !IsHq(h) || s.unit(h).side != us.side || !s.unit(h).OnMap()) {
      return refuse("9.0", [] { return std::string("the aiding unit must be a friendly HQ on the map"); });
    }
    if (h == buell_ || h == bragg_) {
      return refuse("9.0", [] { return std::string("the Bragg and Buell HQs may not aid reorganization"); });
    }
    if (s.unit(h).spare >= 2) return refuse("9.0", [&] { return game_.UnitLabel(h) + " has already aided two units"; });
    if (!HqServes(h, u)) {
      return refuse("12.5", [&] { return game_.UnitLabel(h) + " does not command " + game_.UnitLabel(u); });
    }
    const int dist = DistanceBetween(s.unit(h).hex, us.hex);
    if (dist > 3) return refuse("9.0", [] { return std::string("the HQ must be within three hexes"); });
    *column = dist == 0 ? 2 : 1;
  }
  return Status::Ok();
}

WG_RULE("9.0", SbRules::ApplyReorganize);
Status SbRules::ApplyReorganize(State& s, const Action& a, Context& ctx) const {
  int column = 0;
  Status st = CheckReorganize(s, ctx, a, &column);
  if (!st.ok()) return st;
  const UnitId u = a.units[0];
  UnitState& us = s.unit(u);
  us.flags |= kSbReorganized;
  if (a.num_units == 2) ++s.unit(a.units[1]).spare;
  const int drm = us.Has(kUnitMoved) && !IsHq(u) ? -1 : 0;  // 9.0: -1 if it moved
  CallStep(s, ctx, steps_, step_reorg_roll_, us.side,
           {static_cast<int16_t>(u), static_cast<int16_t>(column), static_cast<int16_t>(drm)});
  return Status::Ok();
}

// The reorganization's die (9.0): args {unit, column, DRM}.
WG_RULE("9.0", SbRules::ResolveReorganization);
void SbRules::ResolveReorganization(State& s, Context& ctx, int roll) const {
  const Step f = *TopStep(s);
  const UnitId u = static_cast<UnitId>(f.args[0]);
  UnitState& us = s.unit(u);
  const DieTableCell& cell = data().tables.Find("reorganization")->Lookup(roll + f.args[2], f.args[1]);
  const int removed = std::min<int>(cell.is_int ? cell.number : 0, us.markers[dis_]);
  if (removed > 0) {
    us.markers[dis_] = static_cast<uint8_t>(us.markers[dis_] - removed);
    Event e;
    e.type = EventType::kRecover;
    e.unit = u;
    e.hex = us.hex;
    e.a = removed;
    e.rule = "9.0";
    e.text = "disruption";
    ctx.Emit(e);
  }
  EndStep(s, ctx, steps_);
}

void SbRules::ListReorganize(const State& s, Context& ctx, std::vector<Action>* out) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side || !us.OnMap() || us.markers[dis_] == 0 || us.Has(kSbReorganized)) continue;
    Action a = Action::Of(ActionType::kCustom);
    a.value = kCustomReorganize;
    a.AddUnit(u);
    int column;
    const QuietRefusals quiet(Hs(ctx));  // only whether it may is asked
    if (!CheckReorganize(s, ctx, a, &column).ok()) continue;
    out->push_back(a);
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId h = static_cast<UnitId>(j);
      if (!IsHq(h) || s.unit(h).side != us.side || !s.unit(h).OnMap()) continue;
      Action b = a;
      b.AddUnit(h);
      if (CheckReorganize(s, ctx, b, &column).ok()) out->push_back(b);
    }
  }
}

// 9.0: the reorganization phase; over at once when no unit may reorganize.
WG_RULE("4.2/9.0", SbRules::BeginReorganization);
void SbRules::BeginReorganization(State& s, Context& ctx) const {
  for (int i = 0; i < s.num_units; ++i) {
    UnitState& us = s.units[static_cast<size_t>(i)];
    us.flags &= static_cast<uint16_t>(~kSbReorganized);
    if (IsHq(static_cast<UnitId>(i))) us.spare = 0;
  }
  std::vector<Action>& tmp = Hs(ctx).ruleset_actions;  // reused: no allocation
  tmp.clear();
  ListReorganize(s, ctx, &tmp);
  if (tmp.empty()) PopStep(s, steps_);
}

}  // namespace wg::stars_and_bars
