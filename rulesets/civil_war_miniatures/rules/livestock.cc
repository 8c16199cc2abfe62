// Civil War miniatures: livestock (9.x, 10.3). The class MiniRules and the helpers the files
// share: internal.h.
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

// --- Livestock (9.x, 10.3) ---------------------------------------------------------

// Squared distance from a path to a base (0 when the path meets it).
double SegmentToFootprintSquared(Segment seg, const Footprint& f) {
  if (SegmentMeetsFootprint(seg, f)) return 0;
  const auto c = f.Corners();
  double best = 1e18;
  for (size_t i = 0; i < 4; ++i)
    best = std::min(best, SegmentSegmentDistanceSquared(seg, Segment{c[i], c[(i + 1) % 4]}));
  return best;
}

WG_RULE("9.4/10.3", LivestockPasses);
void LivestockPasses(const Game& g, State& s, Context& ctx, Segment path) {
  const MiniData& d = D(g);
  const double radius2 = (d.dinner_radius + 1e-9) * (d.dinner_radius + 1e-9);
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (!OnTable(s, u)) continue;
    double dist2 = SegmentToFootprintSquared(path, FootprintOf(g, s, u));
    if (HasLine(s, u)) dist2 = std::min(dist2, SegmentToFootprintSquared(path, LineOf(g, s, u)));  // 12.3
    if (dist2 <= 0) {  // 9.4: overrun
      ctx.Emit(Ev(EventType::kNote, "9.4", "overrun by livestock", u));
      if (TestMorale(g, s, ctx, u, "overrun morale")) {
        s.unit(u).flags |= kPinned | kPinnedByLivestock;
        ctx.Emit(Ev(EventType::kNote, "9.4", "cannot move or shoot this turn", u));
      } else {
        FailMorale(g, s, ctx, u, "9.4");
      }
    } else if (dist2 <= radius2) {  // 10.3
      const uint8_t off = M(s).units[u].officers;
      if (off & kDivisional) {
        ctx.Emit(Ev(EventType::kNote, "10.3", "men go hungry: divisional officer present", u));
        continue;
      }
      const int need = (off & kRegimental) ? d.dinner_roll_officer : d.dinner_roll;
      const int r = ctx.Roll(s, d.dinner_die, "dinner");
      if (r >= need) {
        const int men = ctx.Roll(s, d.dinner_men_die, "men chasing dinner");
        ctx.Emit(Ev(EventType::kNote, "10.3", "men chase the livestock for dinner", u, men));
        LoseFigures(g, s, ctx, u, men, "10.3");
      }
    }
  }
}

void MoveHerd(const Game& g, State& s, Context& ctx, int h, Vec2 dir, double inches, const char* rule) {
  Herd& herd = M(s).herds[h];
  const Vec2 from = HerdPos(herd);
  const Move m = g.table().MoveAlong(from, dir, inches);
  herd.x = H(m.position.x);
  herd.y = H(m.position.y);
  herd.penned = 0;
  ctx.Emit(Ev(EventType::kNote, rule, h < 4 ? "cows move" : "pigs move", kNoUnit, herd.x, herd.y));
  LivestockPasses(g, s, ctx, Segment{from, m.position});
}

// 9.2: pigs on their "closest unit" face run 2D6" at the closest unit in line of sight.
WG_RULE("9.2", HerdAtClosestUnit);
void HerdAtClosestUnit(const Game& g, State& s, Context& ctx, int h, double dist) {
  MiniState& m = M(s);
  const Vec2 p = HerdPos(m.herds[h]);
  UnitId best = kNoUnit;
  double bd = 1e18;
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (!OnTable(s, u)) continue;
    const double dd = DistanceSquared(p, CenterOf(s, u));
    if (dd < bd && g.table().LineOfSightClear(p, CenterOf(s, u))) bd = dd, best = u;
  }
  if (best == kNoUnit) return;
  const Move mv = g.table().MoveToward(p, CenterOf(s, best), dist);
  m.herds[h].x = H(mv.position.x);
  m.herds[h].y = H(mv.position.y);
  ctx.Emit(Ev(EventType::kNote, "9.2", "pigs run at the closest unit", best, m.herds[h].x, m.herds[h].y));
  LivestockPasses(g, s, ctx, Segment{p, mv.position});
}

// 9.1 / 9.2: one card for a kind (first = 0 cows, 4 pigs); the direction
// table, its die and the 2D6 of movement are data (chart.livestock).
WG_RULE("9.1/9.2", LivestockCard);
void LivestockCard(const Game& g, State& s, Context& ctx, int first) {
  const MiniData& d = D(g);
  MiniState& m = M(s);
  const bool pigs = first == 4;
  const char* rule = pigs ? "9.2" : "9.1";
  int alive = 0;
  for (int h = first; h < first + 4; ++h) alive += m.herds[h].alive;
  if (alive == 0) return;
  if (pigs && m.herds[first].alive && m.herds[first].penned) {
    if (s.turn >= d.pig_auto_turn) {
      ctx.Emit(Ev(EventType::kNote, "9.2", "pigs escape their pen (third turn)"));
    } else if (ctx.Roll(s, d.herd_direction_die, "pigs escape") >= d.pig_escape_roll) {
      ctx.Emit(Ev(EventType::kNote, "9.2", "pigs escape their pen"));
    } else {
      ctx.Emit(Ev(EventType::kNote, "9.2", "pigs stay in their pen"));
      return;
    }
    m.herds[first].penned = 0;
  }
  const std::vector<HerdFace>& table = pigs ? d.pig_faces : d.cow_faces;
  const int dir = ctx.Roll(s, d.herd_direction_die, pigs ? "pig direction" : "cow direction");
  const HerdFace face = dir >= 1 && dir <= static_cast<int>(table.size()) ? table[dir - 1u] : HerdFace{};
  if (face.move == HerdMove::kStay) {
    ctx.Emit(Ev(EventType::kNote, rule, pigs ? "pigs do not move" : "cows do not move"));
    return;
  }
  const double dist = ctx.RollSum(s, d.herd_move_dice, d.herd_move_die, pigs ? "pig movement" : "cow movement");
  if (face.move == HerdMove::kDirection) {
    for (int h = first; h < first + 4; ++h) {
      if (m.herds[h].alive) MoveHerd(g, s, ctx, h, face.dir, dist, rule);
    }
  } else if (face.move == HerdMove::kScatter) {
    if (alive == 1) {  // the herd splits into four groups
      int src = first;
      while (!m.herds[src].alive) ++src;
      const Herd base = m.herds[src];
      for (int h = first; h < first + 4; ++h) m.herds[h] = base;
    }
    for (int h = first; h < first + 4; ++h) {
      const Vec2 v = d.scatter.size() == 4 ? d.scatter[static_cast<size_t>(h - first)] : Vec2{0, 0};
      if (m.herds[h].alive) MoveHerd(g, s, ctx, h, v, dist, rule);
    }
  } else {  // kClosestUnit
    for (int h = first; h < first + 4; ++h) {
      if (m.herds[h].alive) HerdAtClosestUnit(g, s, ctx, h, dist);
    }
  }
}

}  // namespace wg::civil_war_miniatures
