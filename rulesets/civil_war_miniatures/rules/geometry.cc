// Civil War miniatures: geometry: bases, facings, areas of the table, refusals (1, C.x), and the
// queries rules.h declares. The class MiniRules and the helpers the files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "wargame/rule_mark.h"

namespace wg::civil_war_miniatures {

// --- Geometry -------------------------------------------------------------------

// The unit's base at c facing `facing_deg`, in line (face 1) or column (0).
Footprint FootprintIn(const Game& g, const State& s, UnitId u, Vec2 c, double facing_deg, int face) {
  const MiniData& d = D(g);
  const UnitType& t = TypeOf(g, u);
  const MiniUnit& mu = M(s).units[u];
  Footprint f;
  f.center = c;
  f.facing = facing_deg * kPi / 180.0;
  const bool line = face == 1;
  if (t.artillery) {
    const int guns = std::max(1, static_cast<int>(mu.guns));
    f.width = line ? guns * t.gun_width : t.gun_width;
    f.depth = line ? t.gun_depth : guns * t.gun_depth;
  } else {
    const int figs = mu.building != 0 ? mu.figures - mu.beside : mu.figures;  // 12.3: not the line beside
    const int stands = std::max(1, (figs + d.figures_per_stand - 1) / d.figures_per_stand);
    const int files = d.column_files;  // 1: a column is column_files stands abreast
    f.width = line ? stands * d.stand_width : std::min(files, stands) * d.stand_width;
    f.depth = line ? d.stand_depth : ((stands + files - 1) / files) * d.stand_depth;
  }
  return f;
}

// Issue 15: the listing's fast paths (FastSweepProbe, the facing table, the planned
// moves' short duplicate list, the refusals without text) are switched off while a
// StraightforwardGeometry lives on the thread: then every move is swept on its own,
// sample by sample, every frame computes its cosine and sine, as before they came.
thread_local int straightforward_depth = 0;
bool Straightforward() { return straightforward_depth > 0; }

// f.Forward() of a base facing `deg` degrees (f.facing = deg * pi / 180, as FootprintIn
// sets it): from a table for the whole degrees -360..360 that every base of the rules
// faces, filled once by the same expression (Footprint::Forward of that facing, computed
// at run time, so the same library cosine and sine give the same bits); others computed.
Vec2 ForwardOfDegrees(double deg) {
  static const std::vector<Vec2> table = [] {
    std::vector<Vec2> t;
    volatile int last = 360;  // a bound the compiler cannot see: the values come from the library at run time
    for (int k = -360; k <= last; ++k) {
      Footprint f;
      f.facing = static_cast<double>(k) * kPi / 180.0;
      t.push_back(f.Forward());
    }
    return t;
  }();
  if (deg >= -360 && deg <= 360 && !Straightforward()) {
    const int k = static_cast<int>(deg);
    if (k == deg) return table[static_cast<size_t>(k + 360)];
  }
  Footprint f;
  f.facing = deg * kPi / 180.0;
  return f.Forward();
}

// MiniRules::Allowed asks only whether an action is legal: while it does, a refusal
// carries no texts (their strings are not built; StraightforwardGeometry: they are).
thread_local int probing_depth = 0;
Status Refused(const char* rule, const char* why) {
  if (probing_depth > 0 && !Straightforward()) return Status::Refused(std::string(), std::string());
  return Status::Refused(rule, why);
}
Status Refused(const char* rule, const std::string& why) {
  if (probing_depth > 0 && !Straightforward()) return Status::Refused(std::string(), std::string());
  return Status::Refused(rule, why);
}

// FootprintFrame(f) for a base facing `deg` degrees (f.facing = deg * pi / 180).
FootprintFrame FrameOf(const Footprint& f, double deg) {
  return Straightforward() ? FootprintFrame(f) : FootprintFrame(f, ForwardOfDegrees(deg));
}

// The same in the unit's own formation.
Footprint FootprintAt(const Game& g, const State& s, UnitId u, Vec2 c, double facing_deg) {
  return FootprintIn(g, s, u, c, facing_deg, s.unit(u).face);
}

// 12.3: a line of `figures` formed beside a building, centred on c, facing as the unit.
Footprint LineAt(const Game& g, const State& s, UnitId u, Vec2 c, int figures) {
  const MiniData& d = D(g);
  Footprint f;
  f.center = c;
  f.facing = M(s).units[u].facing * kPi / 180.0;
  f.width = std::max(1, (figures + d.figures_per_stand - 1) / d.figures_per_stand) * d.stand_width;
  f.depth = d.stand_depth;
  return f;
}

void PrepareTableGeometry(const Table& t, MiniData* d) {
  constexpr double kMargin = 1e-6;  // wider than the tests' kEps (1e-9): a box never cuts off a touch
  auto box = [](const std::vector<Vec2>& pts, Vec2* lo, Vec2* hi) {
    *lo = Vec2{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    *hi = *lo * -1.0;
    for (Vec2 p : pts) {
      *lo = Vec2{std::min(lo->x, p.x - kMargin), std::min(lo->y, p.y - kMargin)};
      *hi = Vec2{std::max(hi->x, p.x + kMargin), std::max(hi->y, p.y + kMargin)};
    }
  };
  d->areas.assign(t.areas.size(), AreaGeometry{});
  for (size_t i = 0; i < t.areas.size(); ++i) {
    AreaGeometry& a = d->areas[i];
    const std::string& kind = t.areas[i].kind;
    a.woods = kind == "woods";
    a.house = kind == "house";
    a.barn = kind == "barn";
    a.hill = kind == "hill";
    box(t.areas[i].polygon, &a.lo, &a.hi);
  }
  d->obstacles.assign(t.obstacles.size(), ObstacleGeometry{});
  for (size_t i = 0; i < t.obstacles.size(); ++i) {
    d->obstacles[i].fence = t.obstacles[i].kind == "fence";
    box(t.obstacles[i].points, &d->obstacles[i].lo, &d->obstacles[i].hi);
  }
}

// Whether p lies in an area of the kind (a flag of AreaGeometry).
bool InAreaOf(const Game& g, Vec2 p, bool AreaGeometry::*kind) {
  const MiniData& d = D(g);
  for (size_t i = 0; i < d.areas.size(); ++i) {
    const AreaGeometry& a = d.areas[i];
    if (a.*kind && BoxMayHold(a.lo, a.hi, p) && g.table().areas[i].Contains(p)) return true;
  }
  return false;
}

// --- The rules -------------------------------------------------------------------------

// A facing toward direction v in whole degrees, 0 east, counterclockwise, in
// (-180, 180]: one number for each facing (so -180 and 180 are not two actions).
int FacingDegrees(Vec2 v) {
  const int deg = static_cast<int>(std::lround(std::atan2(v.y, v.x) * 180.0 / kPi));
  return deg <= -180 ? deg + 360 : deg;
}

Vec2 CenterOf(const State& s, UnitId u) { return {M(s).units[u].x / 100.0, M(s).units[u].y / 100.0}; }

StraightforwardGeometry::StraightforwardGeometry() { ++straightforward_depth; }
StraightforwardGeometry::~StraightforwardGeometry() { --straightforward_depth; }

int Stands(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (TypeOf(g, u).artillery && mu.guns > 0) return mu.guns;
  const int fps = D(g).figures_per_stand;
  return (mu.figures + fps - 1) / fps;
}

Footprint FootprintOf(const Game& g, const State& s, UnitId u) {
  return FootprintAt(g, s, u, CenterOf(s, u), M(s).units[u].facing);
}

bool LineBesideOf(const Game& g, const State& s, UnitId u, Footprint* out) {
  if (!HasLine(s, u)) return false;
  *out = LineOf(g, s, u);
  return true;
}

int InsideOf(const Game& g, const State& s, UnitId u) { return InsideFigures(g, s, u); }
int WaitingOf(const Game& g, const State& s, UnitId u) { return Waiting(g, s, u); }

}  // namespace wg::civil_war_miniatures
