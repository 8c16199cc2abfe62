// Stars and Bars: bombardment (8.0-8.5). The class SbRules: internal.h; RULES.md maps every rule
// to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// --- Bombardment (8.0-8.5) -------------------------------------------------------------

WG_RULE("7.8/8.1/8.2", SbRules::CheckBombard);
Status SbRules::CheckBombard(const State& s, const Action& a, int* strength) const {
  const SbExt& x = Ext<SbExt>(s);
  if (a.num_units == 0 || a.num_hexes != 1) return Status::Refused("8.2", "bombard one target hex with one or more artillery units");
  const int target = a.hexes[0];
  const int side = s.decision_side;
  if (side != s.phasing_side && CavalryRetreatDeclared(s, side)) {
    return Status::Refused("7.8", "a cavalry retreat before combat is declared at the end of defensive bombardment: "
                                  "no bombardment after it");
  }
  if (target < 0 || target >= game_.hex_board().map.size() || !EnemyIn(s, target, side)) return Status::Refused("8.2", "the target hex holds no enemy unit");
  for (int i = 0; i < x.num_bombarded; ++i) {
    if (x.bombarded_hexes[i] == target) return Status::Refused("8.2", "that hex has already been bombarded this phase (all artillery on one hex fires together)");
  }
  Status why;
  BombardStrength(s, a, target, strength, &why);
  return why;
}

// 7.8: a unit of `side` retreated before combat this phase.
bool SbRules::CavalryRetreatDeclared(const State& s, int side) const {
  for (int i = 0; i < s.num_units; ++i) {
    if (s.units[static_cast<size_t>(i)].side == side && s.units[static_cast<size_t>(i)].Has(kSbCavRetreated)) return true;
  }
  return false;
}

// CheckBombard's tests of the bombarding units (8.0-8.5), and their strength into
// *strength; on a refusal false, and *why gets it if `why` is not null (the listing asks
// without one: no message is built).
WG_RULE("8.0/8.1/8.2/8.3/8.5", SbRules::BombardStrength);
bool SbRules::BombardStrength(const State& s, const Action& a, int target, int* strength, Status* why) const {
  auto refuse = [why](const char* rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  auto text = [](const char* message) { return [message] { return std::string(message); }; };
  const int side = s.decision_side;
  int total = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= s.num_units) return refuse("8.0", text("no such unit"));
    const UnitState& us = s.unit(u);
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return refuse("8.2", text("a unit is listed twice"));
    }
    if (us.side != side || !us.OnMap() || !IsArtillery(u)) return refuse("8.0", [&] { return game_.UnitLabel(u) + " is not friendly artillery on the map"; });
    if (!Unlimbered(s, u)) return refuse("8.0", text("only unlimbered artillery may bombard"));
    if (us.Has(kUnitBombarded)) return refuse("8.2", [&] { return game_.UnitLabel(u) + " has already bombarded this phase"; });
    const int range = DistanceBetween(us.hex, target);
    const int bs = Bombard(s, u);
    if (range > 3) return refuse("8.1", text("out of range"));
    if (range == 3 && bs <= 0) return refuse("8.5", text("artillery with no bombardment strength may not fire at extended range"));
    if (range >= 2 && !data().los->Clear(us.hex, target)) return refuse("8.3", [&] { return "no line of sight from " + game_.HexLabel(us.hex); });
    total += range == 3 ? 1 : bs;  // 8.5
  }
  total = std::min(total, 6);  // 8.2
  if (total <= 0) return refuse("8.2", text("no bombardment strength"));
  *strength = total;
  return true;
}

WG_RULE("8.2", SbRules::ApplyBombard);
Status SbRules::ApplyBombard(State& s, const Action& a, Context& ctx) const {
  int strength = 0;
  Status st = CheckBombard(s, a, &strength);
  if (!st.ok()) return st;
  SbExt& x = Ext<SbExt>(s);
  const int target = a.hexes[0];
  if (x.num_bombarded < 24) x.bombarded_hexes[x.num_bombarded++] = static_cast<int16_t>(target);
  for (int i = 0; i < a.num_units; ++i) s.unit(a.units[static_cast<size_t>(i)]).flags |= kUnitBombarded;
  Event e;
  e.type = EventType::kBombard;
  e.side = static_cast<int8_t>(s.decision_side);
  e.hex = static_cast<int16_t>(target);
  e.a = strength;
  e.rule = "8.2";
  ctx.Emit(e);
  const DieTable& table = *data().tables.Find("bombardment");
  const int column = table.ColumnForValue(strength);
  const int drm = (game_.hex_board().map.HasTerrain(target, woods_) || game_.hex_board().map.HasTerrain(target, stone_wall_)) ? -1 : 0;
  UnitId here[kMaxCombatUnits];
  const int n = UnitsIn(s, target, 1 - s.decision_side, here, kMaxCombatUnits);
  bool others = false;  // units stacking freely are ignored unless alone (8.2, 12.2)
  for (int i = 0; i < n; ++i) others = others || CountsForStacking(s, here[i]);
  // One die per unit hit, each a chance step, called by the bombardment_fire script.
  CallStep(s, ctx, steps_, step_bombard_fire_, s.decision_side,
           {static_cast<int16_t>(target), static_cast<int16_t>(column < 0 ? 0 : column), static_cast<int16_t>(drm),
            static_cast<int16_t>(others ? 1 : 0)});
  return Status::Ok();
}

// The bombardment_fire script (8.2): args {target hex, column, DRM, next unit << 1 | others};
// calls a bombardment_roll for each enemy unit in the target hex, in unit order (units
// stacking freely are ignored unless alone: `others`), then ends.
WG_RULE("8.2", SbRules::ResumeBombardmentFire);
void SbRules::ResumeBombardmentFire(State& s, Context& ctx) const {
  Step& f = *TopFrame(s);
  const int target = f.args[0];
  const int others = f.args[3] & 1;
  const int side = 1 - f.side;  // the bombarded side
  for (int i = f.args[3] >> 1; i < s.num_units && i < kMaxUnits; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).hex != target || s.unit(u).side != side) continue;
    if (others && !CountsForStacking(s, u)) continue;
    f.args[3] = static_cast<int16_t>((i + 1) << 1 | others);
    if (!s.unit(u).Has(kUnitReleased)) s.unit(u).flags |= kSbReleaseNext;  // 5.6
    CallStep(s, ctx, steps_, step_bombard_roll_, f.side, {static_cast<int16_t>(u), f.args[1], f.args[2]});
    return;
  }
  EndStep(s, ctx, steps_);
}

// A bombardment_roll (8.2): args {unit, column, DRM}.
WG_RULE("8.2", SbRules::ResolveBombardmentRoll);
void SbRules::ResolveBombardmentRoll(State& s, Context& ctx, int roll) const {
  const Step f = *TopStep(s);
  const UnitId u = static_cast<UnitId>(f.args[0]);
  const DieTableCell& cell = data().tables.Find("bombardment")->Lookup(roll + f.args[2], f.args[1]);
  if (cell.is_int && cell.number > 0) {
    AddMarker(s, ctx, u, dis_, cell.number, "8.2");
    CheckDeath(s, ctx, u, "8.2");
  }
  EndStep(s, ctx, steps_);
}

// CheckBombard of each unlimbered artillery unit against each enemy hex in range, with
// the tests of the phase (7.8) and of each target (8.2) asked once, not per unit: the
// targets are the hexes of the other side's units on the map, each once, in the unit
// order of the first unit in it (on the map and held by the enemy, as CheckBombard asks),
// found once per listing.
void SbRules::ListBombards(const State& s, Context& ctx, std::vector<Action>* out) const {
  const int side = s.decision_side;
  if (side != s.phasing_side && CavalryRetreatDeclared(s, side)) return;  // 7.8: none at all
  int16_t targets[kMaxUnits];
  Hex at[kMaxUnits];  // their coordinates (the range test)
  int num_targets = -1;  // not yet found
  const auto& grid = game_.hex_board().map.grid;
  for (const UnitId u : artillery_) {
    if (u >= s.num_units) break;
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap() || !Unlimbered(s, u) || us.Has(kUnitBombarded)) continue;
    if (num_targets < 0) num_targets = BombardTargets(s, Hs(ctx), targets, at);
    const Hex from = grid.HexAt(us.hex);
    for (int t = 0; t < num_targets; ++t) {
      if (Distance(from, at[t]) > 3) continue;  // DistanceBetween
      Action a = Action::Of(ActionType::kBombard);
      a.AddUnit(u).AddHex(targets[t]);
      int strength;
      if (BombardStrength(s, a, targets[t], &strength, nullptr)) out->push_back(a);
    }
  }
}

// ListBombards' targets into targets[] (and their coordinates into at[]); returns how
// many. Each hex once: HexScratch::hex_seen marks the hexes met (ListAttacks' marks, all
// 0 between uses: reset before returning).
WG_RULE("8.2", SbRules::BombardTargets);
int SbRules::BombardTargets(const State& s, HexScratch& hs, int16_t* targets, Hex* at) const {
  const SbExt& x = Ext<SbExt>(s);
  const int side = s.decision_side;
  int16_t met[kMaxUnits];
  int num_met = 0, n = 0;
  for (int j = 0; j < s.num_units; ++j) {
    const UnitState& e = s.units[static_cast<size_t>(j)];
    if (!e.OnMap() || e.side == side) continue;
    uint8_t& seen = hs.hex_seen[static_cast<size_t>(e.hex)];
    if (seen) continue;
    seen = 1;
    met[num_met++] = e.hex;
    // 8.2: a hex bombarded this phase is no target any more.
    if (std::find(x.bombarded_hexes, x.bombarded_hexes + x.num_bombarded, e.hex) != x.bombarded_hexes + x.num_bombarded) {
      continue;
    }
    at[n] = game_.hex_board().map.grid.HexAt(e.hex);
    targets[n++] = e.hex;
  }
  for (int k = 0; k < num_met; ++k) hs.hex_seen[static_cast<size_t>(met[k])] = 0;
  return n;
}

// 8.0: the defensive (non-phasing artillery, and 7.8 cavalry) or offensive bombardment phase;
// over at once when there is nothing to do.
WG_RULE("4.3/4.3.1/4.3.2/8.0", SbRules::BeginBombardment);
void SbRules::BeginBombardment(State& s, Context& ctx, bool defensive) const {
  SbExt& x = Ext<SbExt>(s);
  x.num_bombarded = 0;
  if (defensive) {
    for (int i = 0; i < s.num_units; ++i) s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~kUnitBombarded);
  }
  const Step top = *TopStep(s);
  ReplaceStep(s, steps_, top.kind, defensive ? 1 - s.phasing_side : s.phasing_side);
  std::vector<Action>& tmp = Hs(ctx).ruleset_actions;  // reused: no allocation
  tmp.clear();
  ListBombards(s, ctx, &tmp);
  if (defensive) ListCavalryRetreats(s, ctx, &tmp);
  if (tmp.empty()) PopStep(s, steps_);
}

// 8.1.F: phasing artillery that bombarded from an EZOC is eliminated if an enemy unit whose
// ZOC it is in was not attacked (as the combat phase ends).
WG_RULE("8.1", SbRules::EliminateUnsupportedBombardment);
void SbRules::EliminateUnsupportedBombardment(State& s, Context& ctx) const {
  const int side = s.phasing_side;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap() || !IsArtillery(u) || !us.Has(kUnitBombarded)) continue;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId e = static_cast<UnitId>(j);
      const UnitState& es = s.unit(e);
      if (!es.OnMap() || es.side == side || es.Has(kUnitDefended) || !Adjacent(es.hex, us.hex)) continue;
      if (ZocOf(s, e) != ZocKind::kSix) continue;
      // A river without a bridge or ford blocks the ZOC (6.1).
      int dir = DirectionTo(game_.hex_board().map.grid.HexAt(es.hex), game_.hex_board().map.grid.HexAt(us.hex));
      const FeatureMask sd = dir >= 0 ? game_.hex_board().map.Side(es.hex, dir) : 0;
      if ((sd & river_) && !(sd & bridge_ford_)) continue;
      Eliminate(s, ctx, u, "8.1", "bombarded from an enemy zone of control and the enemy was not attacked");
      break;
    }
  }
}

void SbRules::ListBombardStep(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListBombards(s, ctx, out);
  if (PhaseName(s) == "defensive_bombardment") ListCavalryRetreats(s, ctx, out);
  out->push_back(Action::EndPhase());
}

}  // namespace wg::stars_and_bars
