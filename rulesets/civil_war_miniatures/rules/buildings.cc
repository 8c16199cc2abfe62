// Civil War miniatures: buildings (12.x). The class MiniRules and the helpers the files share:
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

// --- Buildings (12.x) ---------------------------------------------------------------

// Room left in the unit's building once the units listed before it are in.
WG_RULE("12.1/12.2", RoomFor);
int RoomFor(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  const TerrainArea& a = g.table().areas[mu.building - 1u];
  int used = 0;
  for (UnitId o = 0; o < u; ++o) {
    const MiniUnit& om = M(s).units[o];
    if (OnTable(s, o) && om.building == mu.building) used += om.figures - om.beside;
  }
  return std::max(0, a.capacity - used);
}

// 12.1-12.3: the figures inside; the line beside the building is not inside,
// and the figures waiting behind refill the building as it loses men.
int InsideFigures(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (mu.building == 0 || !OnTable(s, u)) return 0;
  return std::min(RoomFor(g, s, u), mu.figures - mu.beside);
}

// 12.3: the figures that do not fit in the building (in line beside it or waiting).
int Overflow(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (mu.building == 0 || !OnTable(s, u)) return 0;
  return mu.figures - std::min<int>(RoomFor(g, s, u), mu.figures);
}

int Waiting(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (mu.building == 0 || !OnTable(s, u)) return 0;
  return mu.figures - mu.beside - InsideFigures(g, s, u);
}

// 12.5: stands waiting behind the building (not those formed in line beside it).
WG_RULE("12.5", Disorganized);
bool Disorganized(const Game& g, const State& s, UnitId u) { return Waiting(g, s, u) > 0; }

bool HasLine(const State& s, UnitId u) {
  return OnTable(s, u) && M(s).units[u].building != 0 && M(s).units[u].beside > 0;
}

Footprint LineOf(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  return LineAt(g, s, u, Vec2{mu.line_x / 100.0, mu.line_y / 100.0}, mu.beside);
}

// After losses: the line never holds more figures than the unit; when only the
// line is left, it is the unit (it stands where the line stood, in line).
void KeepLineConsistent(const Game&, State& s, Context& ctx, UnitId u) {
  MiniUnit& mu = M(s).units[u];
  if (!OnTable(s, u) || mu.building == 0) {
    mu.beside = 0;
    return;
  }
  if (mu.beside > mu.figures) mu.beside = mu.figures;
  if (mu.beside > 0 && mu.beside == mu.figures) {
    mu.x = mu.line_x;
    mu.y = mu.line_y;
    mu.building = 0;
    mu.beside = 0;
    s.unit(u).face = 1;
    ctx.Emit(Ev(EventType::kNote, "12.3", "only the line beside the building is left: it is the unit", u));
  }
}

WG_RULE("12.1/12.2", EnterBuildingIfInside);
void EnterBuildingIfInside(const Game& g, State& s, Context& ctx, UnitId u) {
  MiniUnit& mu = M(s).units[u];
  mu.building = 0;
  mu.beside = 0;  // 12.3: a unit entering (or leaving) a building re-forms as one body
  s.unit(u).flags = static_cast<uint16_t>(s.unit(u).flags & ~kOfficerOutside);
  if (TypeOf(g, u).artillery) return;
  const Vec2 c = CenterOf(s, u);
  for (size_t a = 0; a < g.table().areas.size(); ++a) {
    if (IsBuilding(g.table().areas[a]) && g.table().areas[a].Contains(c)) {
      mu.building = static_cast<uint8_t>(a + 1);
      ctx.Emit(Ev(EventType::kNote, g.table().areas[a].kind == "barn" ? "12.1" : "12.2", "occupies a building",
                  u, InsideFigures(g, s, u), mu.figures - InsideFigures(g, s, u)));
    }
  }
}

}  // namespace wg::civil_war_miniatures
