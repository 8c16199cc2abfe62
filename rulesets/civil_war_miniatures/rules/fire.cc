// Civil War miniatures: fire (3, 5, 6). The class MiniRules and the helpers the files share:
// internal.h.
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

// --- Fire (3, 5, 6) ----------------------------------------------------------------

Footprint PartFootprint(const Game& g, const State& s, UnitId u, int part) {
  return part == kLine ? LineOf(g, s, u) : FootprintOf(g, s, u);
}

const HitBand* BandFor(const UnitType& t, double range) {
  for (const HitBand& b : t.hits) {
    if (range <= b.up_to + 1e-9) return &b;
  }
  return nullptr;
}

WG_RULE("3/12.1/12.2", FireDice);
int FireDice(const Game& g, const State& s, UnitId u, int part) {
  const MiniData& d = D(g);
  const UnitType& t = TypeOf(g, u);
  const MiniUnit& mu = M(s).units[u];
  const int per_die = d.figures_per_fire_die;  // 3 (CAL): one D6 for each figures_per_fire_die firing figures
  if (part == kLine) return HasLine(s, u) ? (mu.beside + per_die - 1) / per_die : 0;
  if (t.artillery) {
    const int manned = std::min<int>(mu.guns, mu.figures / std::max(1, t.crew_per_gun));
    return manned * t.dice_per_gun;
  }
  int figures = mu.figures;
  if (mu.building) {
    const int cap = d.areas[mu.building - 1u].barn ? d.barn_fire : d.house_fire;  // 12.1, 12.2
    figures = std::min(InsideFigures(g, s, u), cap);
  }
  return (figures + per_die - 1) / per_die;
}

// 5.x for the target part at centre c; a line beside a building (12.3) is not in it.
WG_RULE("5.1/5.2/5.3", DefenderModifier);
int DefenderModifier(const Game& g, const State& s, Vec2 from, UnitId target, int part, const char** rule) {
  const MiniData& d = D(g);
  const Vec2 c = PartFootprint(g, s, target, part).center;
  int mod = 0;
  *rule = part == kLine ? "12.3" : "3";
  if ((part == kBody && M(s).units[target].building != 0) || InAreaOf(g, c, &AreaGeometry::house) ||
      InAreaOf(g, c, &AreaGeometry::barn)) {
    mod += d.mod_building;  // 5.1
    *rule = "5.1";
  } else {
    bool cover = InAreaOf(g, c, &AreaGeometry::woods);
    const Segment line{from, c};
    for (size_t i = 0; i < d.obstacles.size(); ++i) {
      const ObstacleGeometry& o = d.obstacles[i];
      if (o.fence && BoxMayMeet(o.lo, o.hi, line) && g.table().obstacles[i].Crosses(line)) cover = true;
    }
    if (cover) {
      mod += d.mod_cover;  // 5.2
      *rule = "5.2";
    }
  }
  if (InAreaOf(g, c, &AreaGeometry::hill) && !InAreaOf(g, from, &AreaGeometry::hill)) {
    mod += d.mod_terrain;  // 5.3
    *rule = "5.3";
  }
  return mod;
}

// 6.x: `from` is the firing part's centre; tf the target part (nullptr: livestock).
WG_RULE("6.1/6.2/6.3/6.4", AttackerBonus);
int AttackerBonus(const Game& g, const State& s, UnitId firer, Vec2 from, UnitId target, const Footprint* tf) {
  const MiniData& d = D(g);
  int b = 0;
  if (target >= 0 && TypeOf(g, target).artillery) b += d.bonus_artillery;  // 6.1
  if (tf && ArcOf(*tf, from) != Arc::kFront) b += d.bonus_flank;           // 6.2
  if (M(s).units[firer].officers & kRegimental) b += d.bonus_regimental;   // 6.3
  if (M(s).units[firer].officers & kDivisional) b += d.bonus_divisional;   // 6.4
  return b;
}

// 12.1 / 12.2: occupants fire out of the front or the back: the building's
// two longer walls (the first pair for a square one). True when the line from
// inside to the aim point leaves through one of them.
WG_RULE("12.1/12.2", FiresThroughFrontOrBack);
bool FiresThroughFrontOrBack(const TerrainArea& a, Vec2 from, Vec2 aim) {
  if (a.polygon.size() != 4) return true;
  const std::vector<Vec2>& p = a.polygon;
  const double l01 = DistanceSquared(p[0], p[1]);
  const double l12 = DistanceSquared(p[1], p[2]);
  const int first = l01 >= l12 ? 0 : 1;  // walls first and first + 2
  const Segment line{from, aim};
  for (int w : {first, first + 2}) {
    if (SegmentsIntersect(line, Segment{p[static_cast<size_t>(w)], p[static_cast<size_t>((w + 1) % 4)]})) {
      return true;
    }
  }
  return false;
}

// C.5: whether the segment from a firer to its aim passes over another unit's
// base (not the firer's, not the target's): units block the line of sight.
bool UnitInTheWay(const Game& g, const State& s, UnitId firer, UnitId target, Segment line) {
  for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
    if (o == firer || o == target || !OnTable(s, o)) continue;
    if (SegmentMeetsFootprint(line, Shrunk(FootprintOf(g, s, o)))) return true;
    if (HasLine(s, o) && SegmentMeetsFootprint(line, Shrunk(LineOf(g, s, o)))) return true;
  }
  return false;
}

// Why a part of a unit cannot fire at a point at range `range`, or nullptr.
// `target` is the unit fired at (kNoUnit for livestock); `aim` the point of it
// nearest the firer, `centre` its centre: the line of sight may go to either.
WG_RULE("3.1/C.5", CannotFire);
const char* CannotFire(const Game& g, const State& s, UnitId u, Vec2 aim, double range, const char** rule,
                       int part, UnitId target, std::optional<Vec2> centre) {
  const UnitType& t = TypeOf(g, u);
  const UnitState& us = s.unit(u);
  *rule = part == kLine ? "12.3" : "3";
  if (us.Has(kRouted)) {
    *rule = "10.1";
    return "a routed unit cannot shoot until rallied";
  }
  if (us.Has(kPinned)) {
    *rule = PinRule(us);
    return "the unit cannot shoot this turn";
  }
  if (part == kLine && !HasLine(s, u)) return "no line is formed beside the building";
  const bool in_building = part == kBody && M(s).units[u].building != 0;
  if (part == kBody && us.face == 0 && !t.fire_in_column && !in_building)
    return t.artillery ? "a limbered battery cannot fire" : "a column cannot fire";
  if (in_building) {
    const TerrainArea& a = g.table().areas[M(s).units[u].building - 1u];
    if (!FiresThroughFrontOrBack(a, CenterOf(s, u), aim)) {
      *rule = a.kind == "barn" ? "12.1" : "12.2";
      return "fire goes out only of the front or the back of the building";
    }
  }
  if (FireDice(g, s, u, part) <= 0) return "no stand or manned gun can fire";
  if (!BandFor(t, range)) {
    *rule = part == kLine ? "12.3" : "3.1";
    return "the target is out of range";
  }
  const Footprint pf = PartFootprint(g, s, u, part);
  // C.5: a line (or a formation that fires in column) fires into its front arc;
  // the occupants of a building fire out of its front or back instead (12.1/12.2).
  if (!in_building && ArcOf(pf, aim, D(g).fire_arc) != Arc::kFront) {
    *rule = "C.5";
    return "the target is outside the firer's front arc";
  }
  const Vec2 from = pf.center;
  auto clear = [&](Vec2 p) {
    return g.table().LineOfSightClear(from, p) && !UnitInTheWay(g, s, u, target, Segment{from, p});
  };
  if (!clear(aim) && !(centre && clear(*centre))) {
    *rule = "C.5";
    return "no line of sight (terrain or a unit in the way)";
  }
  return nullptr;
}

// C.6: range from the firer's centre to the nearest part of the target part;
// to a unit inside a building, to the nearest part of the building.
WG_RULE("C.6", RangeToPart);
double RangeToPart(const Game& g, const State& s, Vec2 from, UnitId target, int part, const Footprint& tf,
                   Vec2* aim) {
  const MiniUnit& tu = M(s).units[target];
  if (part == kBody && tu.building != 0) {
    const TerrainArea& a = g.table().areas[tu.building - 1u];
    *aim = tf.center;
    return DistanceToPolygon(a.polygon, from);
  }
  *aim = tf.NearestPoint(from);
  return DistanceToFootprint(from, tf);
}

// Why no part of `firer` can fire at the target part, or nullptr (12.3: the
// main body and the line beside a building each fire if they can).
const char* CannotFireAt(const Game& g, const State& s, UnitId firer, UnitId target, int target_part,
                         const char** rule) {
  const Footprint tf = PartFootprint(g, s, target, target_part);
  Vec2 aim;
  const double range = RangeToPart(g, s, CenterOf(s, firer), target, target_part, tf, &aim);
  const char* why = CannotFire(g, s, firer, aim, range, rule, kBody, target, tf.center);
  if (!why || !HasLine(s, firer)) return why;
  const char* line_rule = "12.3";
  const Vec2 lc = LineOf(g, s, firer).center;
  const double lrange = RangeToPart(g, s, lc, target, target_part, tf, &aim);
  if (!CannotFire(g, s, firer, aim, lrange, &line_rule, kLine, target, tf.center)) return nullptr;
  return why;
}

// Rolls `dice` D6; returns hits.
int RollHits(const Game& g, State& s, Context& ctx, UnitId firer, int dice, int bonus, double range,
             int def_mod, const char* rule) {
  const MiniData& d = D(g);
  const HitBand* band = BandFor(TypeOf(g, firer), range);
  const int need = std::max(d.hit_floor, band->hit + def_mod - bonus);
  int hits = 0;
  if (need <= 6) {
    for (int i = 0; i < dice; ++i) {
      if (ctx.Roll(s, 6, "fire") >= need) ++hits;
    }
  }
  ctx.Emit(Ev(EventType::kCombatResult, rule, "hits", firer, hits, need));
  return hits;
}

WG_RULE("11.1", ApplyHits);
void ApplyHits(const Game& g, State& s, Context& ctx, UnitId target, int part, int hits) {
  if (hits <= 0 || !OnTable(s, target)) return;
  const UnitType& t = TypeOf(g, target);
  MiniUnit& mu = M(s).units[target];
  if (part == kLine) {  // 12.3: losses come off the line beside the building
    const int lost = std::min<int>(hits, mu.beside);
    mu.beside = static_cast<uint8_t>(mu.beside - lost);
    LoseFigures(g, s, ctx, target, lost, "12.3");
    if (OnTable(s, target)) OfficerCheck(g, s, ctx, target, lost);
    return;
  }
  if (!t.artillery) {
    // 12.3: fire at a building hits the figures inside, refilled from those
    // waiting behind it; the line beside it is not hit.
    const int lost = LoseFigures(g, s, ctx, target, std::min(hits, mu.figures - mu.beside), "3");
    if (OnTable(s, target)) OfficerCheck(g, s, ctx, target, lost);
    return;
  }
  // 11.1: a casualty per hit, then a D6 per hit (6 destroys a gun), then morale.
  const int lost = LoseFigures(g, s, ctx, target, hits, "11.1");
  for (int i = 0; i < hits && OnTable(s, target); ++i) {
    if (ctx.Roll(s, D(g).gun_hit_die, "gun hit") >= D(g).gun_destroyed_on && mu.guns > 0) {
      --mu.guns;
      ctx.Emit(Ev(EventType::kLoss, "11.1", "gun destroyed", target, 1));
    }
  }
  if (!OnTable(s, target)) return;
  OfficerCheck(g, s, ctx, target, lost);
  if (!TestMorale(g, s, ctx, target, "battery morale")) FailMorale(g, s, ctx, target, "11.1");
}

// 3: every part of the firer that can fire at the target part rolls its dice
// (12.3: the occupants of a building and the line beside it).
WG_RULE("3", Fire);
void Fire(const Game& g, State& s, Context& ctx, UnitId firer, UnitId target, int target_part) {
  const Footprint tf = PartFootprint(g, s, target, target_part);
  int hits = 0;
  for (int part = kBody; part <= kLine; ++part) {
    if (part == kLine && !HasLine(s, firer)) break;
    const Footprint pf = PartFootprint(g, s, firer, part);
    Vec2 aim;
    const double range = RangeToPart(g, s, pf.center, target, target_part, tf, &aim);
    const char* why_rule = "3";
    if (CannotFire(g, s, firer, aim, range, &why_rule, part, target, tf.center)) continue;
    const char* rule = "3";
    const int mod = DefenderModifier(g, s, pf.center, target, target_part, &rule);
    Event e = Ev(EventType::kBombard, part == kLine ? "12.3" : rule, part == kLine ? "line beside fires" : "fires",
                 firer, static_cast<int>(std::lround(range * 100)), mod);
    ctx.Emit(e);
    hits += RollHits(g, s, ctx, firer, FireDice(g, s, firer, part),
                     AttackerBonus(g, s, firer, pf.center, target, &tf), range, mod, "3");
  }
  ApplyHits(g, s, ctx, target, target_part, hits);
}

}  // namespace wg::civil_war_miniatures
