// The computer player of the miniatures (issue 13): the ruleset's evaluation
// (Rules::Evaluate) and the moves a tabletop player plans (the listing every
// player chooses from). rules/internal.h forwards MiniRules::Evaluate and
// MiniRules::AppendPlannedMoves here.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "rules.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

// --- The computer player's knowledge (Rules::Evaluate) and the planned moves ---------------------

namespace {

// Expected figures lost by y if x fired at it now: dice times the chance a die
// hits at the range band, with the defender's cover and the attacker's bonuses
// (flank, officers, artillery opponent). A unit that could fire once it faces
// or forms line counts for `kNotReady` of that: one activation does both (1, M)
// before it fires, unless the unit has moved.
constexpr double kNotReady = 0.9;
double FirePotential(const Game& g, const State& s, UnitId x, UnitId y) {
  const MiniData& d = D(g);
  const UnitType& t = TypeOf(g, x);
  if (t.hits.empty() || s.unit(x).Has(kRouted)) return 0;
  const double reach = t.hits.back().up_to + 4;
  if (DistanceSquared(CenterOf(s, x), CenterOf(s, y)) > reach * reach) return 0;
  const Footprint tf = FootprintOf(g, s, y);
  const Vec2 from = CenterOf(s, x);
  Vec2 aim;
  const double range = RangeToPart(g, s, from, y, kBody, tf, &aim);
  const HitBand* band = BandFor(t, range);
  if (!band || !g.table().LineOfSightClear(from, tf.center)) return 0;
  const char* rule = "";
  const double ready = CannotFireAt(g, s, x, y, kBody, &rule) ? kNotReady : 1.0;
  const int mod = DefenderModifier(g, s, from, y, kBody, &rule);
  const int need = std::max(d.hit_floor, band->hit + mod - AttackerBonus(g, s, x, from, y, &tf));
  if (need > 6) return 0;
  const double per_hit = TypeOf(g, y).artillery ? 1.0 + d.vp_gun / 6.0 : 1.0;  // 11.1: a gun on a 6
  return ready * FireDice(g, s, x, kBody) * (7 - need) / 6.0 * per_hit;
}

// A stand's worth in victory points (a gun with its crew for a battery).
double StandValue(const Game& g, UnitId u) {
  const MiniData& d = D(g);
  const UnitType& t = TypeOf(g, u);
  return t.artillery ? d.vp_gun * d.vp_figure + t.crew_per_gun * d.vp_figure : d.figures_per_stand * d.vp_figure;
}

// 7.1-7.3: the chance u passes a morale test now.
double PassChance(const Game& g, const State& s, UnitId u) {
  const MiniData& d = D(g);
  const MiniUnit& mu = M(s).units[u];
  if (mu.officers & kDivisional) return 1;
  const int need = ((mu.officers & kRegimental) ? d.morale_regimental : 0) +
                   (Disorganized(g, s, u) ? d.mod_disorganized : 0) +
                   (TypeOf(g, u).artillery && mu.guns > 0 ? mu.guns : Stands(g, s, u));
  if (TypeOf(g, u).artillery && mu.guns > 0) {
    const double fail_one = std::clamp((d.battery_morale_die - need + 1.0) / d.battery_morale_die, 0.0, 1.0);
    return 1 - std::pow(fail_one, mu.guns);
  }
  return std::clamp((need - 1.0) / d.morale_die, 0.0, 1.0);
}

// The figures u's fire takes on one of its cards at its effective band (the
// second hit band), before modifiers.
double FireValue(const Game& g, const State& s, UnitId u) {
  const UnitType& t = TypeOf(g, u);
  if (t.hits.empty()) return 0;
  const HitBand& band = t.hits[t.hits.size() > 1 ? 1 : 0];
  return FireDice(g, s, u, kBody) * std::clamp(7.0 - band.hit, 0.0, 6.0) / 6.0;
}

// 10.1: a routed unit neither fires nor holds ground; on each of its cards it
// rallies with a morale test (PassChance) or falls back 12" again. Its cost is
// the fire it loses on the cards it is expected to spend routed in the turns
// left, plus the ground it gives up.
constexpr double kRoutedCost = 4;
double RoutedCost(const Game& g, const State& s, UnitId u) {
  const int left = std::max(1, g.turns.num_turns() - s.turn + 1);
  const double p = PassChance(g, s, u);
  const double cards = p > 0 ? (1 - std::pow(1 - p, left)) / p : left;
  return kRoutedCost + cards * FireValue(g, s, u);
}

// V: what taking the building y holds is worth to the side taking it (the
// holder's share goes, the taker's comes), 0 when y holds none.
constexpr double kHeldShare = 0.8;  // a building held now is most of its points at the end
double BuildingSwing(const Game& g, const State& s, UnitId y) {
  return M(s).units[y].building ? 2 * kHeldShare * D(g).vp_building : 0;
}

// 8.2 / 8.3: the stands u expects to lose as the melee's loser (the loss die,
// at most the stands it has) or its winner (the loss die over the divisor).
double ExpectedStandsLost(const Game& g, const State& s, UnitId u, bool winner) {
  const MiniData& d = D(g);
  const int stands = Stands(g, s, u);
  double sum = 0;
  for (int f = 1; f <= d.melee_loss_die; ++f) sum += std::min(stands, winner ? f / d.melee_winner_divisor : f);
  return sum / d.melee_loss_die;
}

// 2.4 / 8.1-8.4: the charger's side's expected gain from the melee of a pending
// charge, from the chart's dice: the loser's and the winner's losses, the
// loser's rout, the building a winning charger takes (C.3), and ties (8.4: a
// stand each, then the melee goes on at the same odds).
double PendingMelee(const Game& g, const State& s, UnitId att, UnitId def, bool flank) {
  const int ba = MeleeBonus(g, s, att, def, true, flank);
  const int bd = MeleeBonus(g, s, def, att, false, flank);
  const int die = D(g).melee_die;
  double win = 0, tie = 0;
  for (int a = 1; a <= die; ++a) {
    for (int b = 1; b <= die; ++b) {
      win += a + ba > b + bd;
      tie += a + ba == b + bd;
    }
  }
  win /= die * die;
  tie /= die * die;
  const double lose = 1 - win - tie;
  const double va = StandValue(g, att), vd = StandValue(g, def);
  const double won = ExpectedStandsLost(g, s, def, false) * vd + RoutedCost(g, s, def) + BuildingSwing(g, s, def) -
                     ExpectedStandsLost(g, s, att, true) * va;
  const double lost = ExpectedStandsLost(g, s, att, false) * va + RoutedCost(g, s, att) -
                      ExpectedStandsLost(g, s, def, true) * vd;
  const double tied = D(g).melee_tie_loss * (vd - va);
  return tie < 1 ? (win * won - lose * lost + tie * tied) / (1 - tie) : 0;
}

// 2.1-2.4: what x's side expects from x charging y now (0 when it cannot):
// the attacker's test, then the attackee's (fail: a stand and a rout; pass: the melee).
double ChargePotential(const Game& g, const State& s, UnitId x, UnitId y) {
  const MiniData& d = D(g);
  const UnitState& xs = s.unit(x);
  // 2.2 / 9.4: a pin lasts to the end of the turn. A unit pinned after its card (a failed
  // charge) has no card left this turn, so the pin costs it nothing: it can charge on its next.
  if (TypeOf(g, x).artillery || xs.Has(kRouted) || (xs.Has(kPinned) && !xs.Has(kActivated))) return 0;
  const double reach = d.charge_range + FootprintOf(g, s, x).Radius() + FootprintOf(g, s, y).Radius();
  if (DistanceSquared(CenterOf(s, x), CenterOf(s, y)) > reach * reach) return 0;
  if (FootprintDistance(FootprintOf(g, s, x), FootprintOf(g, s, y)) > d.charge_range) return 0;
  if (ChargePathBlocked(g, s, x, y)) return 0;
  const bool flank = ArcOf(FootprintOf(g, s, y), CenterOf(s, x)) != Arc::kFront;  // 6.2
  const double melee = PendingMelee(g, s, x, y, flank);
  const double pa = PassChance(g, s, x), pd = PassChance(g, s, y);
  // 2.3: the attackee that fails loses a stand and routs, and the charger takes its place (its building).
  const double routed = StandValue(g, y) + RoutedCost(g, s, y) + BuildingSwing(g, s, y);
  return pa * ((1 - pd) * routed + pd * melee) - (1 - pa) * 1.0;
}

}  // namespace

WG_RULE("AI", EvaluatePosition);
double EvaluatePosition(const Game& g, const State& s, int side) {
  const MiniData& d = D(g);
  const MiniState& m = M(s);
  const int n = g.num_units();
  double score = 0;
  for (UnitId u = 0; u < n; ++u) {
    if (!OnTable(s, u)) continue;
    const double sign = s.unit(u).side == side ? 1 : -1;
    const MiniUnit& mu = m.units[u];
    double v = mu.figures * d.vp_figure + mu.guns * d.vp_gun;  // strength, as victory counts it
    v += (mu.officers & kRegimental ? 2 : 0) + (mu.officers & kDivisional ? 4 : 0);
    if (s.unit(u).Has(kRouted)) v -= RoutedCost(g, s, u);  // morale state
    if (s.unit(u).Has(kPinned)) v -= 0.5;
    if (Disorganized(g, s, u)) v -= 1;
    score += sign * v;
  }
  // Objectives: the buildings held alone at the end score (V); the nearest fit unit walks to the others.
  for (size_t a = 0; a < g.table().areas.size(); ++a) {
    if (!IsBuilding(g.table().areas[a])) continue;
    int holder = -1;
    for (UnitId u = 0; u < n; ++u) {
      if (!OnTable(s, u) || m.units[u].building != a + 1) continue;
      holder = holder == -1 || holder == s.unit(u).side ? s.unit(u).side : -2;
    }
    if (holder >= 0) score += (holder == side ? kHeldShare : -kHeldShare) * d.vp_building;
    if (holder == side) continue;
    Vec2 mid{0, 0};
    for (Vec2 p : g.table().areas[a].polygon) mid = mid + p * (1.0 / static_cast<double>(g.table().areas[a].polygon.size()));
    double best = 1e18;
    for (UnitId u = 0; u < n; ++u) {
      if (OnTable(s, u) && s.unit(u).side == side && !TypeOf(g, u).artillery && !s.unit(u).Has(kRouted))
        best = std::min(best, DistanceSquared(CenterOf(s, u), mid));
    }
    if (best < 1e18) score -= 0.06 * std::sqrt(best);
  }
  // Fire: what each unit could do to its best target now, mine against theirs
  // (range bands, cover, flanks); and the approach of units still out of range.
  for (UnitId x = 0; x < n; ++x) {
    if (!OnTable(s, x)) continue;
    const bool mine = s.unit(x).side == side;
    double best = 0, nearest = 1e18;
    for (UnitId y = 0; y < n; ++y) {
      if (!OnTable(s, y) || s.unit(y).side == s.unit(x).side) continue;
      best = std::max(best, FirePotential(g, s, x, y));
      if (mine) best = std::max(best, ChargePotential(g, s, x, y));  // my charges, not theirs: close in
      nearest = std::min(nearest, DistanceSquared(CenterOf(s, x), CenterOf(s, y)));
    }
    score += (mine ? 0.7 : -0.7) * best;
    const UnitType& t = TypeOf(g, x);
    if (mine && nearest < 1e18 && !t.hits.empty()) {
      const double beyond = std::sqrt(nearest) - t.hits[t.hits.size() > 1 ? 1 : 0].up_to;  // the effective band
      if (beyond > 0) score -= 0.05 * beyond;
    }
  }
  // Livestock near my men: an overrun (9.4) or a dinner (10.3) is coming.
  for (const Herd& h : m.herds) {
    if (!h.alive) continue;
    for (UnitId u = 0; u < n; ++u) {
      if (OnTable(s, u) && s.unit(u).side == side &&
          DistanceSquared(HerdPos(h), CenterOf(s, u)) < (12 + d.dinner_radius) * (12 + d.dinner_radius))
        score -= 0.6;
    }
  }
  const PendingCharge c = PendingChargeOf(s);
  if (c.charger != kNone && OnTable(s, c.charger) && OnTable(s, c.target)) {
    score += (s.unit(c.charger).side == side ? 1 : -1) * PendingMelee(g, s, c.charger, c.target, c.flank);
  }
  return score;
}

// The moves a tabletop player plans, listed with the full moves in each
// heading: to each range band (and charge reach) of the nearest enemies, onto
// their flanks, to the buildings, half moves; and facing each of them. Every
// player chooses among the same list (the computer player, a random player, a
// person at the terminal or in the page, and the integer action ids of the
// Python module), so none of them has moves the others cannot make. A planned
// move that is already listed is not listed again.
WG_RULE("AI", AppendPlannedMoves);
void AppendPlannedMoves(const Game& g, const State& s, const std::function<bool(const Action&)>& legal,
                        std::vector<Action>* out) {
  if (s.game_over || PendingChargeOf(s).charger != kNone || ActiveCard(s) == kNone) return;  // 2.4: the legal two
  const MiniData& d = D(g);
  const UnitId u = ActiveCard(s);
  const UnitState& us = s.unit(u);
  if (us.Has(kRouted) || us.Has(kPinned) || us.Has(kMovedNow)) return;
  // One move per one-inch cell of the table: the integer action ids (action_space.h)
  // name a move by its unit and the cell it ends in. A planned move is skipped if a
  // move of u to its cell is listed, a planned facing if the same facing is (no
  // other action equals either): the cells and facings listed are gathered once.
  auto cell_of = [](const Action& x) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(x.value / 100)) << 32) |
           static_cast<uint32_t>(x.value2 / 100);
  };
  thread_local std::vector<uint64_t> cells;  // reused: no allocation once grown
  thread_local std::vector<int32_t> facings;
  cells.clear();
  facings.clear();
  for (const Action& x : *out) {
    if (x.type == ActionType::kMove && x.num_units > 0 && x.units[0] == u) cells.push_back(cell_of(x));
    if (x.type == ActionType::kCustom && x.value == kFace && x.num_units == 1 && x.units[0] == u && x.num_hexes == 0)
      facings.push_back(x.value2);
  }
  auto try_add = [&](const Action& a) {
    const bool move = a.type == ActionType::kMove;  // else a facing
    const uint64_t key = move ? cell_of(a) : 0;
    if (move ? std::find(cells.begin(), cells.end(), key) != cells.end()
             : std::find(facings.begin(), facings.end(), a.value2) != facings.end()) {
      return;
    }
    if (!legal(a)) return;
    out->push_back(a);
    if (move) {
      cells.push_back(key);
    } else {
      facings.push_back(a.value2);
    }
  };
  auto move_to = [&](Vec2 p) {
    p = g.table().Clamp(p);
    Action mv = Action::Of(ActionType::kMove).AddUnit(u);
    mv.value = H(p.x);
    mv.value2 = H(p.y);
    try_add(mv);
  };
  const Vec2 c = CenterOf(s, u);
  const UnitType& t = TypeOf(g, u);
  thread_local std::vector<std::pair<double, UnitId>> enemies;
  enemies.clear();
  for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
    if (OnTable(s, o) && s.unit(o).side != us.side) enemies.emplace_back(DistanceSquared(c, CenterOf(s, o)), o);
  }
  std::sort(enemies.begin(), enemies.end());
  if (enemies.size() > 3) enemies.resize(3);
  for (const auto& [d2, e] : enemies) {
    const Footprint ef = FootprintOf(g, s, e);
    const double dist = std::sqrt(d2);
    if (dist < 0.01) continue;
    const Vec2 away = (c - ef.center) * (1.0 / dist);
    thread_local std::vector<double> standoffs;
    standoffs.clear();
    for (const HitBand& b : t.hits) standoffs.push_back(b.up_to - 0.5);
    if (!t.artillery) standoffs.push_back(d.charge_range - 1);
    for (double so : standoffs) move_to(ef.center + away * (so + ef.depth / 2));
    for (double sideways : {-1.0, 1.0}) {
      move_to(ef.center + ef.Right() * sideways * (ef.width / 2 + 4));  // its flank
      if (!t.artillery) {  // behind its flank, in charge reach (2.1): a charge from there has the +2 (6.2, 8.1)
        move_to(ef.center + ef.Right() * sideways * (ef.width / 2 + 2) - ef.Forward() * (ef.depth / 2 + 3));
      }
    }
    if (!t.artillery) move_to(ef.center - ef.Forward() * (ef.depth / 2 + 4));  // its rear
    Action face = Action::Of(ActionType::kCustom).Value(kFace).AddUnit(u);
    face.value2 = FacingDegrees(away * -1.0);
    try_add(face);
  }
  if (!t.artillery) {
    for (const TerrainArea& a : g.table().areas) {
      if (!IsBuilding(a)) continue;
      Vec2 mid{0, 0};
      for (Vec2 p : a.polygon) mid = mid + p * (1.0 / static_cast<double>(a.polygon.size()));
      move_to(mid);
    }
  }
  const double half = std::max(t.move_column, t.move_line) / 2;
  for (int h = 0; h < kNumHeadings; ++h) move_to(c + HeadingVector(static_cast<Heading>(h)) * half);
}

}  // namespace wg::civil_war_miniatures
