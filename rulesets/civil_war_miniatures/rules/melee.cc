// Civil War miniatures: charges and melee (2.x, 8.x). The class MiniRules and the helpers the
// files share: internal.h.
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

// --- Melee (8.x) ------------------------------------------------------------------

WG_RULE("6.1/6.2/6.3/6.4/8.1", MeleeBonus);
int MeleeBonus(const Game& g, const State& s, UnitId u, UnitId enemy, bool attacker, bool flank) {
  const MiniData& d = D(g);
  int b = 0;
  if (TypeOf(g, enemy).artillery) b += d.bonus_artillery;  // 6.1: artillery opponent, in melee as in fire
  if (M(s).units[u].officers & kRegimental) b += d.bonus_regimental;
  if (M(s).units[u].officers & kDivisional) b += d.bonus_divisional;
  if (Disorganized(g, s, u)) b += d.mod_disorganized;
  if (attacker && flank) b += d.bonus_flank;
  if (!attacker) {
    const char* rule = "";
    b += DefenderModifier(g, s, CenterOf(s, enemy), u, kBody, &rule);
  }
  return b;
}

void EnterBuildingIfInside(const Game& g, State& s, Context& ctx, UnitId u);

// 2.3 / C.3: the attacker moves to the position the attackee held (a path, C.2);
// into its building when it held one.
WG_RULE("2.3/C.3", Occupy);
void Occupy(const Game& g, State& s, Context& ctx, UnitId u, Vec2 old, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  const uint8_t building = mu.building, beside = mu.beside;
  mu.building = 0;
  mu.beside = 0;  // it leaves any building as one body
  const Footprint f = FootprintOf(g, s, u);
  const Path p = Sweep(g, s, u, f, old - f.center, DistanceBetween(old, f.center));
  if (p.moved <= 0) {  // blocked at once: it stays as it stood (in its building, its line beside)
    mu.building = building;
    mu.beside = beside;
    if (const char* why = PathStop(p)) ctx.Emit(Ev(EventType::kNote, "C.2", why, u, 0, p.blocker));
    return;
  }
  PlaceAt(s, ctx, u, p, EventType::kAdvance, rule, "occupies the attackee's position");
  EnterBuildingIfInside(g, s, ctx, u);
}

// 8.1-8.4 (dice and halving from chart.melee). Returns the winner (kNoUnit when a tie
// left either unit with no stand, or after the last round).
WG_RULE("8.1/8.2/8.3/8.4", Melee);
UnitId Melee(const Game& g, State& s, Context& ctx, UnitId att, UnitId def, bool flank) {
  const MiniData& d = D(g);
  ctx.Emit(Ev(EventType::kNote, "8.1", "melee", att, 0, def));
  for (int round = 0; round < d.melee_max_rounds && OnTable(s, att) && OnTable(s, def); ++round) {
    const int ra = ctx.Roll(s, d.melee_die, "melee attacker") + MeleeBonus(g, s, att, def, true, flank);
    const int rd = ctx.Roll(s, d.melee_die, "melee defender") + MeleeBonus(g, s, def, att, false, flank);
    ctx.Emit(Ev(EventType::kCombatResult, "8.1", "melee", att, ra, rd));
    if (ra == rd) {  // 8.4
      const int la = LoseStands(g, s, ctx, att, d.melee_tie_loss, "8.4");
      const int ld = LoseStands(g, s, ctx, def, d.melee_tie_loss, "8.4");
      if (OnTable(s, att)) OfficerCheck(g, s, ctx, att, la);
      if (OnTable(s, def)) OfficerCheck(g, s, ctx, def, ld);
      continue;
    }
    const UnitId winner = ra > rd ? att : def;
    const UnitId loser = ra > rd ? def : att;
    const Vec2 held = CenterOf(s, def);
    const bool in_building = M(s).units[def].building != 0;
    const int ll = LoseStands(g, s, ctx, loser, ctx.Roll(s, d.melee_loss_die, "melee loser losses"), "8.2");
    const int lw = LoseStands(g, s, ctx, winner,
                              ctx.Roll(s, d.melee_loss_die, "melee winner losses") / d.melee_winner_divisor, "8.3");
    if (OnTable(s, loser)) OfficerCheck(g, s, ctx, loser, ll);
    if (OnTable(s, winner)) OfficerCheck(g, s, ctx, winner, lw);
    if (OnTable(s, loser)) Retreat(g, s, ctx, loser, d.retreat, "8.2");
    // C.3: a building is taken by charge and melee: the winning charger goes in.
    if (winner == att && in_building && OnTable(s, att)) Occupy(g, s, ctx, att, held, "C.3");
    return winner;
  }
  return kNoUnit;
}

// 8.x as a step: the melee a charge comes to (2.4), a script the charge's answer calls
// with args {attacker, defender, from the flank (6.2)}. Run when it is entered, it ends
// with the winner's side (-1: neither), and its caller goes on.
void ResumeMelee(State& s, Context& ctx) {
  const Game& g = ctx.game();
  const Step frame = *TopFrame(s);
  const UnitId winner = Melee(g, s, ctx, frame.args[0], frame.args[1], frame.args[2] != 0);
  EndStep(s, ctx, g.rules->steps(), winner == kNoUnit ? -1 : s.unit(winner).side);
}

// 2.1 / C.4: the way a base slides to meet another by the shortest path: from
// its nearest part to the other's (two bases that do not overlap are nearest at
// a corner of one and an edge of the other). Sliding that far along it brings
// the two into contact, so a charge within 8" (measured between the nearest
// parts) reaches its target in 8". The centres' line when they overlap.
Vec2 TowardNearestPart(const Footprint& f, const Footprint& tf) {
  const auto closest = [](Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double l2 = Dot(d, d);
    return l2 > 0 ? a + d * std::clamp(Dot(p - a, d) / l2, 0.0, 1.0) : a;
  };
  const auto fc = f.Corners(), tc = tf.Corners();
  double best = 1e18;
  Vec2 dir = tf.center - f.center;
  for (int k = 0; k < 2; ++k) {  // f's corners to tf's edges, then tf's corners to f's edges
    const auto& from = k == 0 ? fc : tc;
    const auto& to = k == 0 ? tc : fc;
    for (size_t i = 0; i < 4; ++i) {
      for (size_t j = 0; j < 4; ++j) {
        const Vec2 q = closest(from[i], to[j], to[(j + 1) % 4]);
        const Vec2 v = k == 0 ? q - from[i] : from[i] - q;
        const double d2 = Dot(v, v);
        if (d2 < best) {
          best = d2;
          dir = v;
        }
      }
    }
  }
  return best > 1e-12 && !FootprintsOverlap(f, tf) ? dir : tf.center - f.center;
}

// 2.1 / 2.4 / C.2: u moves up to `inches` toward the target's nearest part (the
// way the 8" of 2.1 is measured: a charge within 8" reaches contact in 8") and
// stops at contact with it, or short of it at another unit or a building the
// enemy holds. True when the two are in contact at the end.
WG_RULE("2.4/C.2", CloseIn);
bool CloseIn(const Game& g, State& s, Context& ctx, UnitId u, UnitId target, double inches, const char* text) {
  const Footprint tf = FootprintOf(g, s, target);
  if (FootprintDistance(FootprintOf(g, s, u), tf) <= kContact * 2) return true;
  MiniUnit& mu = M(s).units[u];
  const uint8_t building = mu.building, beside = mu.beside;
  mu.building = 0;  // a unit leaving its building moves as one body
  mu.beside = 0;
  const Footprint f = FootprintOf(g, s, u);
  const Path p = Sweep(g, s, u, f, TowardNearestPart(f, tf), inches, target);
  if (p.moved > 0) {
    PlaceAt(s, ctx, u, p, EventType::kAdvance, "2.4", text);
  } else {
    mu.building = building;  // it did not move: it stays where it was
    mu.beside = beside;
  }
  return FootprintDistance(FootprintOf(g, s, u), tf) <= kContact * 2;
}

// C.4: a charge needs a clear path: sliding toward the target's nearest part
// (the closing move's path, CloseIn), the charger's base meets the target before
// any other unit or a building the enemy holds.
WG_RULE("C.4", ChargePathBlocked);
const char* ChargePathBlocked(const Game& g, const State& s, UnitId u, UnitId target) {
  const Footprint f = FootprintOf(g, s, u), tf = FootprintOf(g, s, target);
  if (FootprintDistance(f, tf) <= kContact * 2) return nullptr;
  const Vec2 dir = TowardNearestPart(f, tf);
  const Path p = Sweep(g, s, u, f, dir, dir.Length() + 1, target);
  if (p.blocker == target) return nullptr;
  if (p.blocker != kNoUnit) return "no clear path to the target: another unit is in the way";
  if (p.building) return "no clear path to the target: a building the enemy holds is in the way";
  return "no clear path to the target";
}

}  // namespace wg::civil_war_miniatures
