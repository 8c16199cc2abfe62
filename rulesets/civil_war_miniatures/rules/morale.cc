// Civil War miniatures: losses, officers and morale (4.x, 7.x, 11.x). The class MiniRules and the
// helpers the files share: internal.h.
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

// --- Losses, officers, morale ------------------------------------------------------

void Eliminate(State& s, Context& ctx, UnitId u, const char* rule, const char* why) {
  s.unit(u).hex = kEliminated;
  s.unit(u).flags = static_cast<uint16_t>(s.unit(u).flags & ~(kRouted | kPinned));
  M(s).units[u].building = 0;
  M(s).units[u].beside = 0;
  ctx.Emit(Ev(EventType::kEliminated, rule, why, u));
}

void CheckAlive(const Game& g, State& s, Context& ctx, UnitId u, const char* rule) {
  if (!OnTable(s, u)) return;
  const MiniUnit& mu = M(s).units[u];
  if (mu.figures == 0) Eliminate(s, ctx, u, rule, TypeOf(g, u).artillery ? "no crew left" : "no men left");
}

int LoseFigures(const Game& g, State& s, Context& ctx, UnitId u, int n, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  const int lost = std::min<int>(n, mu.figures);
  if (lost <= 0) return 0;
  mu.figures = static_cast<uint8_t>(mu.figures - lost);
  ctx.Emit(Ev(EventType::kLoss, rule, "figures", u, lost));
  CheckAlive(g, s, ctx, u, rule);
  KeepLineConsistent(g, s, ctx, u);
  return lost;
}

// A stand (base): figures_per_stand men, or one gun with its crew.
int LoseStands(const Game& g, State& s, Context& ctx, UnitId u, int n, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  const UnitType& t = TypeOf(g, u);
  int lost = 0;
  for (int i = 0; i < n && mu.figures > 0; ++i) {
    if (t.artillery && mu.guns > 0) {
      --mu.guns;
      mu.figures = static_cast<uint8_t>(std::max(0, mu.figures - t.crew_per_gun));
    } else {
      mu.figures = static_cast<uint8_t>(std::max(0, mu.figures - D(g).figures_per_stand));
    }
    ++lost;
  }
  if (lost > 0) ctx.Emit(Ev(EventType::kLoss, rule, "stands", u, lost));
  CheckAlive(g, s, ctx, u, rule);
  KeepLineConsistent(g, s, ctx, u);
  return lost;
}

bool Faces(const std::vector<int>& faces, int r) { return std::find(faces.begin(), faces.end(), r) != faces.end(); }

// 4.1-4.3: one die per casualty for each attached officer; the death faces are data.
WG_RULE("4.1/4.2/4.3", OfficerCheck);
void OfficerCheck(const Game& g, State& s, Context& ctx, UnitId u, int casualties) {
  if (casualties <= 0) return;
  const MiniData& d = D(g);
  MiniUnit& mu = M(s).units[u];
  const int n = std::min(casualties, 30);
  if (mu.officers & kRegimental) {
    bool killed = false;
    for (int i = 0; i < n; ++i) killed = Faces(d.regimental_death, ctx.Roll(s, d.officer_die, "regimental officer")) || killed;
    if (killed) {
      mu.officers = static_cast<uint8_t>(mu.officers & ~kRegimental);
      ctx.Emit(Ev(EventType::kNote, "4.1", "regimental officer killed", u));
    }
  }
  if (mu.officers & kDivisional) {
    bool killed = false;
    for (int i = 0; i < n; ++i) killed = Faces(d.divisional_death, ctx.Roll(s, d.officer_die, "divisional officer")) || killed;
    if (killed) {
      mu.officers = static_cast<uint8_t>(mu.officers & ~kDivisional);
      ctx.Emit(Ev(EventType::kNote, "4.2", "divisional officer killed", u));
    }
  }
}

// 7.1-7.3. True when the unit passes.
WG_RULE("4/7.1/7.2/7.3", TestMorale);
bool TestMorale(const Game& g, State& s, Context& ctx, UnitId u, const char* why) {
  const MiniData& d = D(g);
  const MiniUnit& mu = M(s).units[u];
  if (mu.officers & kDivisional) {
    ctx.Emit(Ev(EventType::kNote, "7.1", "passes morale: divisional officer attached", u));
    return true;
  }
  const int officer = (mu.officers & kRegimental) ? d.morale_regimental : 0;  // 4.1: counts during morale tests
  const int disorg = Disorganized(g, s, u) ? d.mod_disorganized : 0;  // 12.5
  const UnitType& t = TypeOf(g, u);
  bool pass = false;
  if (t.artillery && mu.guns > 0) {
    // 7.3: one D6 per gun; passes when a die is under the remaining guns.
    const int need = mu.guns + officer + disorg;
    for (int i = 0; i < mu.guns; ++i) {
      if (ctx.Roll(s, d.battery_morale_die, why) < need) pass = true;
    }
    ctx.Emit(Ev(EventType::kNote, "7.3", pass ? "battery passes morale" : "battery fails morale", u, need));
  } else {
    const int need = Stands(g, s, u) + officer + disorg;
    const int r = ctx.Roll(s, d.morale_die, why);
    pass = r < need;
    ctx.Emit(Ev(EventType::kNote, "7.2", pass ? "passes morale" : "fails morale", u, r, need));
  }
  return pass;
}

// 7.4 / 10.1 / C.2: falls back toward its own table edge, routed until rallied.
void Retreat(const Game& g, State& s, Context& ctx, UnitId u, double inches, const char* rule);

// 7.4 with 12.5: a failed test sends the unit to the rear; if it was waiting
// outside a building, the stands inside are captured.
WG_RULE("7.4/12.5", FailMorale);
void FailMorale(const Game& g, State& s, Context& ctx, UnitId u, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  if (Disorganized(g, s, u)) {
    const int inside = InsideFigures(g, s, u);
    mu.figures = static_cast<uint8_t>(mu.figures - inside);
    Event e = Ev(EventType::kCaptured, "12.5", "stands inside the building captured", u, inside);
    e.side = static_cast<int8_t>(1 - s.unit(u).side);
    ctx.Emit(e);
    if (mu.officers != 0 && !s.unit(u).Has(kOfficerOutside)) {  // 12.4: officers inside are taken too
      mu.officers = 0;
      ctx.Emit(Ev(EventType::kNote, "12.4", "officers inside the building captured", u));
    }
    mu.building = 0;
    mu.beside = 0;
    CheckAlive(g, s, ctx, u, "12.5");
  }
  Retreat(g, s, ctx, u, D(g).retreat, rule);
}

}  // namespace wg::civil_war_miniatures
