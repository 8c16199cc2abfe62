// Blue & Gray standard rules + Chattanooga exclusive rules: retreat, displacement and advance
// after combat (8.5, 8.52, 8.6, 8.75, 10.2, 16.11, 19.13). The class BgRules: rules.h; the helpers
// its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

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

}  // namespace wg::blue_and_gray
