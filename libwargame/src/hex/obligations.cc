// Combat obligations over a whole combat phase (hex_rules.h, "Combat
// obligations"): switched on by `combat: {obligations: true}` (Stars and Bars
// 7.1, Blue & Gray 8.0).
//
// The obligations form a bipartite graph: phasing units that may still attack
// on one side, enemy-held hexes that may still be attacked on the other, an
// edge where the unit may attack the hex (InAttackReach). A unit that owes an
// attack, and a hex owed one, must each get an edge. Every obligation that has
// an edge can be met at once: a minimal set of edges touching each of them has
// no path of three edges (the middle edge could go), so it is a set of stars,
// each a legal attack (one hex by several units, or several hexes by one unit),
// and the stars share no unit and no hex. Hence a declaration is checked one
// obligation at a time, and ListDutyAttacks lists such a set of stars.
#include <algorithm>
#include <cstring>
#include <memory>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

namespace {


// A minimal cover: drops an edge (.u, .h) whose two ends stay met without it (an end
// needs an edge only if owes(u) / owed(h)).
template <class Edge, class Owes, class Owed>
void DropRedundantEdges(std::vector<Edge>* cover, const Owes& owes, const Owed& owed) {
  for (size_t k = 0; k < cover->size();) {
    const Edge e = (*cover)[k];
    int du = 0, dh = 0;
    for (const Edge& f : *cover) {
      du += f.u == e.u;
      dh += f.h == e.h;
    }
    if ((du > 1 || !owes(e.u)) && (dh > 1 || !owed(e.h))) {
      cover->erase(cover->begin() + static_cast<long>(k));
      k = 0;
    } else {
      ++k;
    }
  }
}

// Keeps the actions `keep` accepts, once each: the same attackers against the same
// hexes, in whatever order they are named, is one attack. In place, in order; `seen`
// is a buffer for the canonical forms kept.
template <class Keep>
void KeepDistinct(std::vector<Action>* out, std::vector<Action>* seen, const Keep& keep) {
  auto canonical = [](Action a) {
    if (a.type == ActionType::kAttack) {
      std::sort(a.units.begin(), a.units.begin() + a.num_units);
      std::sort(a.hexes.begin(), a.hexes.begin() + a.num_hexes);
    }
    return a;
  };
  seen->clear();
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    const Action& a = (*out)[i];
    if (!keep(a)) continue;
    const Action c = canonical(a);
    if (std::find(seen->begin(), seen->end(), c) != seen->end()) continue;
    seen->push_back(c);
    if (kept != i) (*out)[kept] = a;
    ++kept;
  }
  out->resize(kept);
}

bool Declares(const Action* a, UnitId u) {
  if (a == nullptr) return false;
  for (int i = 0; i < a->num_units; ++i) {
    if (a->units[static_cast<size_t>(i)] == u) return true;
  }
  return false;
}

bool Targets(const Action* a, int hex) {
  if (a == nullptr) return false;
  for (int k = 0; k < a->num_hexes; ++k) {
    if (a->hexes[static_cast<size_t>(k)] == hex) return true;
  }
  return false;
}

}  // namespace

// --- Default hooks -------------------------------------------------------------------

bool HexRules::CanStillAttack(const State& s, UnitId u, const HexScratch* stacks) const {
  const UnitState& us = s.unit(u);
  if (!us.OnMap() || us.side != s.phasing_side || us.Has(kUnitAttacked)) return false;
  return (stacks != nullptr ? PinnedAttackStrength(s, *stacks, u) : AttackStrength(s, u)) > 0;
}

bool HexRules::InAttackReach(const State& s, UnitId u, int hex) const {
  const int from = s.unit(u).hex;
  if (Adjacent(from, hex)) return true;
  // Mirrors PrepareAttack: artillery with a range attacks in range and line of sight.
  const HexGameData& d = data();
  if (d.artillery_range <= 1) return false;
  const bool artillery = d.artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == d.artillery_kind;
  return artillery && DistanceBetween(from, hex) <= d.artillery_range && d.los->Clear(from, hex);
}

// --- The snapshot --------------------------------------------------------------------
//
// Only the obligations some attack can still meet (Owed | Possible) are enforced: the
// listing, the checks and the end of the phase read nothing else. So MustAttack and
// MustBeAttacked are asked only where an attack could meet the obligation (a unit with a
// target, a hex with an attacker): most units of a phase are nowhere near the enemy.
// CombatDuties reports every obligation (`full`: the hooks asked of every unit).

namespace {

// Does hex h hold enemy units none of which was attacked yet (an attack on it is open)?
bool OpenHex(const HexScratch& hs, int h) {
  return (hs.hex_duty[static_cast<size_t>(h)] & (kDutyEnemy | kDutyDefended)) == kDutyEnemy;
}

// A hex_duty bit while BuildDuties runs (cleared before it returns: the enforcement
// compares whole values): an open enemy hex some phasing unit next to it can attack.
constexpr uint8_t kDutyReached = 16;
static_assert((kDutyReached & (kDutyEnemy | kDutyDefended | kDutyOwed | kDutyPossible)) == 0);

}  // namespace

void HexRules::BuildDuties(const State& s, Context& ctx, bool full) const {
  HexScratch& hs = Hs(ctx);
  if (hs.duty_valid && (hs.duty_full || !full) && hs.CacheFresh(hs.duty_pin, hs.duty_state, s)) return;
  // Nothing changes s while the duties are worked out: pinned, the hooks' ZOC and
  // occupancy caches check it once, not once per unit (MustAttack, MustBeAttacked).
  const HexStatePin pin(ctx, s);
  hs.duty_valid = false;
  IndexDuties(s, hs);
  AttackerDuties(s, ctx, full);
  DefenderDuties(s, ctx, full);
  std::sort(hs.duty_units.begin(), hs.duty_units.end());  // the attackers', then the defenders' (a few)
  CopyLiveState(&hs.duty_state, s);
  hs.duty_pin = hs.PinOf(s);
  hs.duty_full = full;
  hs.duty_valid = true;
}

// The units of each map hex (hex_head / next_in_hex, in unit order), the enemy hexes with
// their Enemy and Defended bits, the phasing units on the map (duty_able, in unit order);
// every unit's duty and CanStillAttack cleared.
void HexRules::IndexDuties(const State& s, HexScratch& hs) const {
  const int side = s.phasing_side;
  for (int h : hs.enemy_hexes) hs.hex_duty[static_cast<size_t>(h)] = 0;
  hs.enemy_hexes.clear();
  hs.duty_able.clear();
  std::fill(hs.hex_head.begin(), hs.hex_head.end(), static_cast<int16_t>(-1));
  for (int i = s.num_units - 1; i >= 0; --i) {
    const UnitState& us = s.units[static_cast<size_t>(i)];
    hs.unit_duty[static_cast<size_t>(i)] = 0;
    if (!us.OnMap() || us.hex >= game_.hex_board().map.size()) continue;
    const size_t h = static_cast<size_t>(us.hex);
    hs.next_in_hex[static_cast<size_t>(i)] = hs.hex_head[h];
    hs.hex_head[h] = static_cast<int16_t>(i);
    if (us.side == side) {
      hs.duty_able.push_back(static_cast<UnitId>(i));
      continue;
    }
    if (!(hs.hex_duty[h] & kDutyEnemy)) hs.enemy_hexes.push_back(static_cast<int16_t>(h));
    hs.hex_duty[h] |= kDutyEnemy;
    if (us.Has(kUnitDefended)) hs.hex_duty[h] |= kDutyDefended;
  }
  std::reverse(hs.duty_able.begin(), hs.duty_able.end());
  hs.duty_lists_pin = hs.PinOf(s);  // BuildDuties pinned s
  hs.duty_can.assign(static_cast<size_t>(s.num_units), 0);
  hs.duty_units.clear();
  hs.duty_hexes.clear();
}

// The phasing units: CanStillAttack of those that could attack something (duty_can: next to
// an open enemy hex, or any if artillery has a range; duty_able keeps them), the open hexes
// each can attack next to it (kDutyReached), MustAttack of those with a target (HasTarget's
// neighbours; a unit attacking at range asks MustAttack first, as its targets are costly
// to find), or of all if `full`.
void HexRules::AttackerDuties(const State& s, Context& ctx, bool full) const {
  HexScratch& hs = Hs(ctx);
  const HexGameData& d = data();
  const auto& grid = game_.hex_board().map.grid;
  const bool reach_far = d.artillery_range > 1;  // InAttackReach may then look past the neighbours
  size_t able = 0;
  for (const UnitId u : hs.duty_able) {
    const size_t i = static_cast<size_t>(u);
    const UnitState& us = s.units[i];
    const int32_t* nb = grid.Neighbors(us.hex);
    bool open = reach_far;
    for (int k = 0; k < 6 && !open; ++k) open = nb[k] >= 0 && OpenHex(hs, nb[k]);
    const bool can = open && CanStillAttack(s, u, &hs);
    hs.duty_can[i] = can;
    if (can) hs.duty_able[able++] = u;
    bool target = false;
    for (int k = 0; k < 6 && can; ++k) {
      if (nb[k] < 0 || !OpenHex(hs, nb[k]) || !InAttackReach(s, u, nb[k])) continue;
      target = true;
      hs.hex_duty[static_cast<size_t>(nb[k])] |= kDutyReached;
    }
    if (us.Has(kUnitAttacked)) continue;
    uint8_t& duty = hs.unit_duty[i];
    if (reach_far && game_.units[i].kind == d.artillery_kind) {
      if (MustAttack(s, ctx, u)) duty = HasTarget(s, ctx, u, nullptr) ? kDutyOwed | kDutyPossible : kDutyOwed;
    } else if ((target || full) && MustAttack(s, ctx, u)) {
      duty = target ? kDutyOwed | kDutyPossible : kDutyOwed;
    }
    if (duty == (kDutyOwed | kDutyPossible)) hs.duty_units.push_back(u);
  }
  hs.duty_able.resize(able);
}

// The enemy hexes: MustBeAttacked of the units of a hex some unit next to it can still
// attack (kDutyReached), or of every enemy unit if `full` or if artillery attacks at range
// (a battery in range is then looked for only for a hex owed an attack: HasAttacker's).
void HexRules::DefenderDuties(const State& s, Context& ctx, bool full) const {
  HexScratch& hs = Hs(ctx);
  const HexGameData& d = data();
  const int side = s.phasing_side;
  const bool ranged = d.artillery_range > 1 && d.artillery_kind >= 0;
  auto ranged_attacker = [&](int h) {
    for (int f = 0; f < s.num_units; ++f) {
      const UnitState& fs = s.units[static_cast<size_t>(f)];
      if (game_.units[static_cast<size_t>(f)].kind == d.artillery_kind && fs.OnMap() && !Adjacent(fs.hex, h) &&
          fs.side == side && hs.duty_can[static_cast<size_t>(f)] && InAttackReach(s, static_cast<UnitId>(f), h)) {
        return true;
      }
    }
    return false;
  };
  for (int h : hs.enemy_hexes) {
    uint8_t& hd = hs.hex_duty[static_cast<size_t>(h)];
    const bool open = !(hd & kDutyDefended);
    const bool adjacent = (hd & kDutyReached) != 0;
    hd &= static_cast<uint8_t>(~kDutyReached);
    if (!(adjacent || full || (ranged && open))) continue;
    for (int e = hs.hex_head[static_cast<size_t>(h)]; e >= 0; e = hs.next_in_hex[static_cast<size_t>(e)]) {
      const UnitState& us = s.units[static_cast<size_t>(e)];
      if (us.side == side || us.Has(kUnitDefended) || !MustBeAttacked(s, ctx, static_cast<UnitId>(e))) continue;
      hs.unit_duty[static_cast<size_t>(e)] = kDutyOwed;
      hd |= kDutyOwed;
    }
    if (!(hd & kDutyOwed) || !open || !(adjacent || (ranged && ranged_attacker(h)))) continue;
    hd |= kDutyPossible;
    hs.duty_hexes.push_back(static_cast<int16_t>(h));
    for (int e = hs.hex_head[static_cast<size_t>(h)]; e >= 0; e = hs.next_in_hex[static_cast<size_t>(e)]) {
      uint8_t& ud = hs.unit_duty[static_cast<size_t>(e)];
      if (s.units[static_cast<size_t>(e)].side == side || !(ud & kDutyOwed)) continue;
      ud |= kDutyPossible;
      hs.duty_units.push_back(static_cast<UnitId>(e));
    }
  }
}

// May u (in `view`) still attack some enemy hex that is neither attacked already
// nor a target of `declared`? Reads the snapshot of the State before `declared`.
bool HexRules::HasTarget(const State& view, Context& ctx, UnitId u, const Action* declared) const {
  const HexScratch& hs = Hs(ctx);
  if (!CanStillAttack(view, u, &hs)) return false;
  auto open = [&](int h) {
    const uint8_t d = hs.hex_duty[static_cast<size_t>(h)];
    return (d & kDutyEnemy) && !(d & kDutyDefended) && !Targets(declared, h) && InAttackReach(view, u, h);
  };
  const bool ranged = data().artillery_range > 1 && game_.units[static_cast<size_t>(u)].kind == data().artillery_kind;
  const int from = view.unit(u).hex;
  const int32_t* nb = game_.hex_board().map.grid.Neighbors(from);
  for (int d = 0; d < 6; ++d) {
    if (nb[d] >= 0 && open(nb[d])) return true;
  }
  if (!ranged) return false;
  // At range, every other enemy hex (the neighbours first: a hex next to the unit is
  // found without asking InAttackReach of the hexes in range, the costly answers).
  for (int h : hs.enemy_hexes) {
    if (!Adjacent(from, h) && open(h)) return true;
  }
  return false;
}

// May some phasing unit (in `view`, not in `declared`) still attack `hex`?
bool HexRules::HasAttacker(const State& view, Context& ctx, int hex, const Action* declared) const {
  const HexScratch& hs = Hs(ctx);
  const uint8_t hd = hs.hex_duty[static_cast<size_t>(hex)];
  if (!(hd & kDutyEnemy) || (hd & kDutyDefended) || Targets(declared, hex)) return false;
  auto can = [&](UnitId f) {
    return view.unit(f).side == view.phasing_side && !Declares(declared, f) && CanStillAttack(view, f, &hs) &&
           InAttackReach(view, f, hex);
  };
  const int32_t* nb = game_.hex_board().map.grid.Neighbors(hex);
  for (int d = 0; d < 6; ++d) {
    if (nb[d] < 0) continue;
    for (int f = hs.hex_head[static_cast<size_t>(nb[d])]; f >= 0; f = hs.next_in_hex[static_cast<size_t>(f)]) {
      if (can(static_cast<UnitId>(f))) return true;
    }
  }
  if (data().artillery_range > 1 && data().artillery_kind >= 0) {
    for (int i = 0; i < view.num_units; ++i) {
      const UnitId f = static_cast<UnitId>(i);
      if (game_.units[static_cast<size_t>(i)].kind == data().artillery_kind && view.unit(f).OnMap() &&
          !Adjacent(view.unit(f).hex, hex) && can(f)) {
        return true;
      }
    }
  }
  return false;
}

WG_RULE_KEY("combat", HexRules::CombatDuties);
void HexRules::CombatDuties(const State& s, Context& ctx, std::vector<CombatDuty>* out) const {
  out->clear();
  if (!data().obligations || !IsPhase(s, data().phase_combat)) return;
  BuildDuties(s, ctx, /*full=*/true);
  const HexScratch& hs = Hs(ctx);
  for (int i = 0; i < s.num_units; ++i) {
    const uint8_t d = hs.unit_duty[static_cast<size_t>(i)];
    if (!(d & kDutyOwed)) continue;
    CombatDuty duty;
    duty.attacker = s.units[static_cast<size_t>(i)].side == s.phasing_side;
    duty.unit = static_cast<UnitId>(i);
    duty.hex = s.units[static_cast<size_t>(i)].hex;
    duty.possible = (d & kDutyPossible) != 0;
    out->push_back(duty);
  }
}

// --- Enforcement ---------------------------------------------------------------------

namespace {

// CheckDutiesAfter's view of s with a declaration made, as the rules see it once made
// (its attackers attacked, the enemy units in its hexes defended), built at its first
// use: a check with nothing left to enforce builds none. It is the scratch's duty_view
// (a check nested in a hook's call, should one ever be, builds its own).
class DeclaredView {
 public:
  DeclaredView(HexScratch& hs, const State& s, const Action& a, int map_size)
      : hs_(hs), s_(s), a_(a), map_size_(map_size) {}
  ~DeclaredView() {
    if (view_ == &hs_.duty_view) hs_.duty_view_busy = false;
  }
  DeclaredView(const DeclaredView&) = delete;
  DeclaredView& operator=(const DeclaredView&) = delete;

  const State& Get() {
    if (view_ == nullptr) Build();
    return *view_;
  }

 private:
  void Build() {
    if (!hs_.duty_view_busy) {
      hs_.duty_view_busy = true;
      view_ = &hs_.duty_view;
    } else {
      own_ = std::make_unique<State>();
      view_ = own_.get();
    }
    State& view = *view_;
    CopyLiveState(&view, s_);  // what rules read of a State (no unit past num_units)
    for (int i = 0; i < a_.num_units; ++i) {
      const UnitId u = a_.units[static_cast<size_t>(i)];
      if (u >= 0 && u < s_.num_units) view.unit(u).flags |= kUnitAttacked;
    }
    // The enemy units in the declared hexes: from the hex lists (BuildDuties' of s), or
    // by a walk of every unit for a hex off the map.
    for (int k = 0; k < a_.num_hexes; ++k) {
      const int h = a_.hexes[static_cast<size_t>(k)];
      if (h < 0) continue;  // no unit on the map is there
      if (h >= map_size_) {
        for (int i = 0; i < s_.num_units; ++i) {
          UnitState& us = view.units[static_cast<size_t>(i)];
          if (us.hex == h && us.side != s_.phasing_side) us.flags |= kUnitDefended;
        }
        continue;
      }
      for (int i = hs_.hex_head[static_cast<size_t>(h)]; i >= 0; i = hs_.next_in_hex[static_cast<size_t>(i)]) {
        UnitState& us = view.units[static_cast<size_t>(i)];
        if (us.side != s_.phasing_side) us.flags |= kUnitDefended;
      }
    }
  }

  HexScratch& hs_;
  const State& s_;
  const Action& a_;
  const int map_size_;
  State* view_ = nullptr;
  std::unique_ptr<State> own_;
};

}  // namespace

Status HexRules::CheckDutiesAfter(const State& s, Context& ctx, const Action& a) const {
  BuildDuties(s, ctx);
  HexScratch& hs = Hs(ctx);
  if (hs.duty_units.empty() && hs.duty_hexes.empty()) return Status::Ok();  // nothing left to meet
  DeclaredView view(hs, s, a, game_.hex_board().map.size());
  const int side = s.phasing_side;
  const char* rule = data().Rule(RuleKey::kCombat);
  for (const UnitId u : hs.duty_units) {
    if (s.unit(u).side != side || Declares(&a, u)) continue;
    // A unit that could have joined, were the attack not already as large as one may be, is excused.
    bool could_join = a.num_units >= kMaxActionUnits;
    for (int k = 0; k < a.num_hexes && could_join; ++k) could_join = InAttackReach(s, u, a.hexes[static_cast<size_t>(k)]);
    // A unit the declaration itself bars from attacking is excused (B&G 8.42: its
    // stack-mate attacks and it need "not attack at all").
    if (!could_join && CanStillAttack(view.Get(), u, &hs) && !HasTarget(view.Get(), ctx, u, &a)) {
      return RefuseUnlessQuiet(hs, rule, [&] {
        return game_.UnitLabel(u) + " is in an enemy zone of control and must take part in an attack: this attack "
                                    "would leave it none (include it, or attack with it first)";
      });
    }
  }
  for (int h : hs.duty_hexes) {
    if (Targets(&a, h)) continue;
    if (!HasAttacker(view.Get(), ctx, h, &a)) {
      return RefuseUnlessQuiet(hs, rule, [&] {
        return "the enemy units in " + game_.HexLabel(h) +
               " are in a friendly zone of control and must be attacked: this attack would leave no unit able to "
               "attack them (include that hex or attack it first)";
      });
    }
  }
  return Status::Ok();
}

Status HexRules::DutiesMet(const State& s, Context& ctx) const {
  BuildDuties(s, ctx);
  const HexScratch& hs = Hs(ctx);
  if (hs.duty_units.empty()) return Status::Ok();
  const char* rule = data().Rule(RuleKey::kCombat);
  const UnitId u = hs.duty_units.front();  // the first in unit order
  if (s.unit(u).side == s.phasing_side) {
    return Status::Refused(rule, game_.UnitLabel(u) + " is in an enemy zone of control and must attack");
  }
  return Status::Refused(rule, game_.UnitLabel(u) + " is in a friendly zone of control and must be attacked");
}

// Appends a set of attacks meeting every obligation that can be met (the stars
// of a minimal cover), and each unit's attack on all the hexes it reaches; then
// keeps only the attacks that leave every other obligation possible.
void HexRules::ListDutyAttacks(const State& s, Context& ctx, std::vector<Action>* out) const {
  BuildDuties(s, ctx);
  HexScratch& ws = Hs(ctx);  // the buffers below (kept: no allocation per listing)
  const HexScratch& hs = ws;
  const int side = s.phasing_side;
  using Edge = HexScratch::DutyEdge;
  std::vector<Edge>& cover = ws.duty_cover;
  cover.clear();
  auto owes = [&](UnitId u) { return hs.unit_duty[static_cast<size_t>(u)] == (kDutyOwed | kDutyPossible); };
  auto owed = [&](int h) { return hs.hex_duty[static_cast<size_t>(h)] == (kDutyEnemy | kDutyOwed | kDutyPossible); };
  // The phasing units that can still attack, in unit order: BuildDuties asked CanStillAttack
  // of every one that could attack anything (the others have no edge below).
  const std::vector<UnitId>& able = hs.duty_able;
  const std::vector<uint8_t>& can = hs.duty_can;
  // InAttackReach is adjacency alone when no artillery has a range: then tested here
  // (the cover's loops ask it of every owed hex and able unit).
  const bool adjacent_only = data().artillery_range <= 1;
  auto edge = [&](UnitId u, int h) {
    const uint8_t d = hs.hex_duty[static_cast<size_t>(h)];
    if (!(d & kDutyEnemy) || (d & kDutyDefended) || !can[static_cast<size_t>(u)]) return false;
    return adjacent_only ? Adjacent(s.unit(u).hex, h) : InAttackReach(s, u, h);
  };
  auto covered_unit = [&](UnitId u) {
    return std::any_of(cover.begin(), cover.end(), [&](const Edge& e) { return e.u == u; });
  };
  auto covered_hex = [&](int h) {
    return std::any_of(cover.begin(), cover.end(), [&](const Edge& e) { return e.h == h; });
  };
  // Each owed hex by an owing unit if it can, else by any unit; then each owing unit left.
  for (int pass = 0; pass < 2; ++pass) {
    for (int h : hs.duty_hexes) {  // the owed hexes, in enemy_hexes' order
      if (covered_hex(h)) continue;
      for (const UnitId u : able) {
        if ((pass == 1 || owes(u)) && edge(u, h)) {
          cover.push_back({u, static_cast<int16_t>(h)});
          break;
        }
      }
    }
  }
  for (const UnitId u : hs.duty_units) {  // the owing units (and owed enemies), in unit order
    if (s.unit(u).side != side || covered_unit(u)) continue;
    for (int pass = 0; pass < 2 && !covered_unit(u); ++pass) {
      for (int h : hs.enemy_hexes) {
        if ((pass == 1 || owed(h)) && edge(u, h)) {
          cover.push_back({u, static_cast<int16_t>(h)});
          break;
        }
      }
    }
  }
  DropRedundantEdges(&cover, owes, owed);
  // The stars: a unit with several hexes, or a hex with its units.
  std::vector<uint8_t>& used = ws.duty_used;
  used.assign(cover.size(), 0);
  for (size_t k = 0; k < cover.size(); ++k) {
    if (used[k]) continue;
    Action a = Action::Of(ActionType::kAttack);
    int du = 0;
    for (const Edge& f : cover) du += f.u == cover[k].u;
    for (size_t j = k; j < cover.size(); ++j) {
      if (used[j]) continue;
      if (du > 1 ? cover[j].u == cover[k].u : cover[j].h == cover[k].h) {
        used[j] = 1;
        if (du > 1) {
          a.AddHex(cover[j].h);
        } else {
          a.AddUnit(cover[j].u);
        }
      }
    }
    if (du > 1) {
      a.AddUnit(cover[k].u);
    } else {
      a.AddHex(cover[k].h);
    }
    // Stack-mates the cover does not use attack with their stack (no obligation needs them).
    const int n = a.num_units;
    for (int i = 0; i < n; ++i) {
      const int hex = s.unit(a.units[static_cast<size_t>(i)]).hex;
      for (int v = hs.hex_head[static_cast<size_t>(hex)]; v >= 0; v = hs.next_in_hex[static_cast<size_t>(v)]) {
        const UnitId m = static_cast<UnitId>(v);
        if (s.unit(m).side != side || covered_unit(m) || Declares(&a, m) || !can[static_cast<size_t>(m)]) continue;
        bool reach = true;
        for (int j = 0; j < a.num_hexes; ++j) reach = reach && InAttackReach(s, m, a.hexes[static_cast<size_t>(j)]);
        if (reach) a.AddUnit(m);
      }
    }
    out->push_back(a);
  }
  // Each unit against every enemy hex it reaches (one attack, 7.1 / 8.43): only a unit
  // next to two open enemy hexes or more has one to list.
  const auto& grid = game_.hex_board().map.grid;
  for (const UnitId u : able) {
    const int32_t* nb = grid.Neighbors(s.unit(u).hex);
    int open = 0;
    for (int k = 0; k < 6; ++k) open += nb[k] >= 0 && OpenHex(hs, nb[k]);
    if (open < 2) continue;
    Action a = Action::Of(ActionType::kAttack);
    a.AddUnit(u);
    for (int h : hs.enemy_hexes) {
      if (Adjacent(s.unit(u).hex, h) && edge(u, h)) a.AddHex(h);  // adjacency first: edge may look for a line of sight
    }
    if (a.num_hexes > 1) out->push_back(a);
  }
  // Keep what breaks no obligation, once each (only whether it does is asked).
  const QuietRefusals quiet(ws);
  KeepDistinct(out, &ws.duty_seen,
               [&](const Action& a) { return a.type != ActionType::kAttack || CheckDutiesAfter(s, ctx, a).ok(); });
}

}  // namespace wg
