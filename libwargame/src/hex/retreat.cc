// After a combat: the follow-up script (the retreats owed, one step per unit, then the advance),
// and the retreat step.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

// --- The follow-up: a script step -----------------------------------------------------------
// args[0]: the retreat length; args[1]: the defenders who owe a retreat (bit i: c.defenders[i]);
// args[2]: the attackers who do.

namespace {

// The bit of u in the follow-up's masks: {argument index, bit}; {0, 0} if u is not in the combat.
std::pair<int, int> OwedBit(const PendingCombat& c, UnitId u) {
  for (int i = 0; i < c.num_defenders; ++i) {
    if (c.defenders[i] == u) return {1, 1 << i};
  }
  for (int i = 0; i < c.num_attackers; ++i) {
    if (c.attackers[i] == u) return {2, 1 << i};
  }
  return {0, 0};
}

}  // namespace

Step* HexRules::CallFollowUp(State& s) const {
  if (Step* f = FindFrame(s, step_after_combat_)) return f;
  if (!PushStep(s, steps_, step_after_combat_, s.phasing_side)) return nullptr;
  return TopFrame(s);
}

void HexRules::BeginRetreats(State& s, Context&, bool attacker, int hexes) const {
  PendingCombat& c = s.combat;
  c.retreat_hexes = static_cast<int16_t>(hexes);  // the record of the result (the step holds the length)
  Step* f = CallFollowUp(s);
  if (f == nullptr) return;
  f->args[0] = static_cast<int16_t>(hexes);
  const int n = attacker ? c.num_attackers : c.num_defenders;
  for (int i = 0; i < n; ++i) {
    const UnitId u = attacker ? c.attackers[i] : c.defenders[i];
    if (s.unit(u).OnMap()) f->args[attacker ? 2 : 1] = static_cast<int16_t>(f->args[attacker ? 2 : 1] | (1 << i));
  }
}

void HexRules::OweRetreat(State& s, UnitId u, int length) const {
  const auto [arg, bit] = OwedBit(s.combat, u);
  Step* f = arg ? CallFollowUp(s) : nullptr;
  if (f == nullptr) return;
  f->args[0] = static_cast<int16_t>(length);
  f->args[arg] = static_cast<int16_t>(f->args[arg] | bit);
}

void HexRules::ForgiveRetreat(State& s, UnitId u) const {
  const auto [arg, bit] = OwedBit(s.combat, u);
  if (Step* f = arg ? FindFrame(s, step_after_combat_) : nullptr) f->args[arg] = static_cast<int16_t>(f->args[arg] & ~bit);
}

bool HexRules::OwesRetreat(const State& s, UnitId u) const {
  const auto [arg, bit] = OwedBit(s.combat, u);
  const Step* f = arg ? FindFrame(s, step_after_combat_) : nullptr;
  return f != nullptr && (f->args[arg] & bit) != 0;
}

void HexRules::FollowUpCombat(State& s, Context& ctx) const {
  CallFollowUp(s);
  Settle(s, ctx, steps_);
}

UnitId HexRules::RetreatingUnit(const State& s) const {
  const Step* r = FindFrame(s, step_retreat_);
  return r ? static_cast<UnitId>(r->args[0]) : kNoUnit;
}

int HexRules::RetreatLength(const State& s) const {
  const Step* r = FindFrame(s, step_retreat_);
  return r ? r->args[1] : 0;
}

void HexRules::LegacyFrameState(const State& s, State* old) const {
  std::memcpy(static_cast<void*>(old), &s, sizeof(State));
  const PendingCombat& c = s.combat;
  if (const Step* f = FindFrame(s, step_after_combat_)) {
    for (int i = 0; i < c.num_defenders; ++i) {
      if (f->args[1] & (1 << i)) old->unit(c.defenders[i]).flags |= kUnitLegacyRetreatOwed;
    }
    for (int i = 0; i < c.num_attackers; ++i) {
      if (f->args[2] & (1 << i)) old->unit(c.attackers[i]).flags |= kUnitLegacyRetreatOwed;
    }
  }
  const UnitId r = RetreatingUnit(s);
  if (r != kNoUnit) {
    old->unit(r).flags |= kUnitLegacyRetreatOwed;  // cleared when its retreat was applied
    old->combat.legacy_current = r;
  }
  // The stack without its scripts (their callees were pushed over the phase's step).
  StepStack& st = old->steps;
  int kept = 0;
  for (int i = 0; i < st.depth; ++i) {
    if (!IsScript(steps_, st.items[i].kind)) st.items[kept++] = st.items[i];
  }
  for (int i = kept; i < kMaxSteps; ++i) st.items[i] = Step{};
  st.depth = static_cast<uint8_t>(kept);
}

// The follow-up on top, entered or resumed (a retreat or the advance it called ended):
// what the combat owes next.
void HexRules::ResumeAfterCombat(State& s, Context& ctx) const {
  PendingCombat& c = s.combat;
  Step& f = *TopFrame(s);
  const int16_t hexes = f.args[0];
  // Retreats owed: defenders first, then attackers.
  for (int pass = 0; pass < 2; ++pass) {
    const int n = pass == 0 ? c.num_defenders : c.num_attackers;
    int16_t& owed = f.args[pass == 0 ? 1 : 2];
    for (int i = 0; i < n; ++i) {
      if ((owed & (1 << i)) == 0) continue;
      owed = static_cast<int16_t>(owed & ~(1 << i));
      const UnitId u = pass == 0 ? c.defenders[i] : c.attackers[i];
      UnitState& us = s.unit(u);
      if (!us.OnMap()) continue;
      HexScratch& hs = Hs(ctx);
      hs.actions.clear();
      RetreatPaths(s, ctx, u, hexes, &hs.actions);
      if (hs.actions.empty()) {
        Eliminate(s, ctx, u, data().Rule(RuleKey::kRetreat), "cannot retreat");
        continue;
      }
      CallStep(s, ctx, steps_, step_retreat_, us.side, {u, hexes});
      return;
    }
  }
  // Advance after combat into a vacated defender hex.
  if (c.vacated_hex < 0 && data().advance != HexGameData::Advance::kNone) {
    for (int k = 0; k < c.num_defender_hexes; ++k) {
      const int h = c.defender_hexes[k];
      if (h >= 0 && VacatedForAdvance(s, h)) {
        bool any_attacker = false;
        for (int i = 0; i < c.num_attackers; ++i) {
          const UnitState& us = s.unit(c.attackers[i]);
          any_attacker = any_attacker || (us.OnMap() && Adjacent(us.hex, h));
        }
        if (any_attacker) {
          c.vacated_hex = static_cast<int16_t>(h);
          break;
        }
      }
    }
    // Offered once: by the resume that finds the vacated hex (the advance's end resumes
    // here and finds it set), and only while the combat is on.
    if (c.vacated_hex >= 0 && c.active != 0) {
      HexScratch& hs = Hs(ctx);
      hs.actions.clear();
      ListAdvances(s, ctx, &hs.actions);
      if (hs.actions.size() > 1) {
        CallStep(s, ctx, steps_, step_advance_, s.phasing_side);
        return;
      }
    }
  }
  c.active = 0;
  // Back to the phase's step; AfterCombat may call a step of its own over it.
  EndStep(s, ctx, steps_);
  AfterCombat(s, ctx);
}

WG_RULE_KEY("retreat", HexRules::CheckRetreat);
Status HexRules::CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const {
  const HexScratch& hs = Hs(ctx);
  const char* rule = data().Rule(RuleKey::kRetreat);
  auto refuse = [&](const char* r, auto&& message) { return RefuseUnlessQuiet(hs, r, message); };
  const UnitState& us = s.unit(u);
  if (n != length) return refuse(rule, [&] { return "a retreat is exactly " + std::to_string(length) + " hexes"; });
  const ZocField& zoc = EnemyZoc(s, ctx, us.side);
  // EnemyIn of each map hex of the path read from the occupancy arrays (cached by
  // State; a retreat listing asks it of every path's hexes), not by walking the units;
  // read before any hook below runs (a hook may refresh the arrays for the other side).
  RefreshEnemyOccupancy(s, ctx, us.side);
  bool enemy_at[kMaxActionHexes] = {};
  const int map_size = game_.hex_board().map.size();
  if (n > kMaxActionHexes) return refuse(rule, [] { return std::string("the retreat path is too long"); });
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    enemy_at[i] = h >= 0 && (h < map_size ? hs.enemy[static_cast<size_t>(h)] != 0 : EnemyIn(s, h, us.side));
  }
  const auto& kinds = game_.kinds;
  const int cls = kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].movement_class;
  int prev = us.hex;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    const int dir = DirectionTo(game_.hex_board().map.grid.HexAt(prev), game_.hex_board().map.grid.HexAt(h));
    if (h < 0 || dir < 0) return refuse(rule, [] { return std::string("retreat hexes must be adjacent"); });
    std::string why;
    if (StepCost(game_.hex_board().map, data().movement, cls, prev, dir, hs.quiet_refusals > 0 ? nullptr : &why) ==
        kProhibitedCost) {
      return refuse(rule, [&] { return "cannot retreat there: " + why; });
    }
    if (enemy_at[i] && !Overrunnable(s, h, us.side)) {
      return refuse(rule, [&] { return "cannot retreat into an enemy-occupied hex " + game_.HexLabel(h); });
    }
    if (!data().retreat_through_ezoc && zoc.InEzoc(h)) {
      return refuse(rule, [&] { return "cannot retreat into an enemy zone of control (" + game_.HexLabel(h) + ")"; });
    }
    if (DistanceBetween(us.hex, h) != i + 1) {
      return refuse(rule, [] { return std::string("each retreat hex must be farther from the start"); });
    }
    prev = h;
  }
  if (data().stacking_check == HexGameData::StackingCheck::kRefuse &&
      StackingCount(s, path[n - 1], us.side) + (CountsForStacking(s, u) ? 1 : 0) > game_.hex_board().stacking.limit) {
    return refuse(data().Rule(RuleKey::kStacking), [&] { return "retreat would overstack " + game_.HexLabel(path[n - 1]); });
  }
  return Status::Ok();
}

// Every legal retreat path of u, each as an Action (only whether a path is legal is
// asked: the checks' refusals are quiet). Nothing changes s while the paths are checked
// (the follow-up's State too waits for the answer): pinned, the enemy ZOC and occupancy
// CheckRetreat reads are checked once, not once per path.
void HexRules::RetreatPaths(const State& s, Context& ctx, UnitId u, int hexes, std::vector<Action>* out) const {
  if (u < 0 || hexes <= 0 || hexes > 3) return;
  const QuietRefusals quiet(Hs(ctx));
  const HexStatePin pin(ctx, s);
  const auto& grid = game_.hex_board().map.grid;
  int16_t path[3];
  // Depth-first over paths of exactly `hexes` steps moving away each step.
  auto dfs = [&](auto& self, int from, int depth) -> void {
    if (depth == hexes) {
      if (CheckRetreat(s, ctx, u, path, hexes, hexes).ok()) {
        Action a = Action::Of(ActionType::kRetreat);
        a.AddUnit(u);
        for (int i = 0; i < hexes; ++i) a.AddHex(path[i]);
        out->push_back(a);
      }
      return;
    }
    if (depth >= 3) return;  // never: hexes <= 3 (tells the compiler path[] is large enough)
    for (int d = 0; d < 6; ++d) {
      const int nb = grid.NeighborIndex(from, d);
      if (nb < 0 || DistanceBetween(s.unit(u).hex, nb) != depth + 1) continue;
      path[depth] = static_cast<int16_t>(nb);
      self(self, nb, depth + 1);
    }
  };
  dfs(dfs, s.unit(u).hex, 0);
}

// --- The retreat step: one unit's retreat path ----------------------------------------------

void HexRules::ListRetreatStep(const State& s, Context& ctx, std::vector<Action>* out) const {
  const Step& top = *TopStep(s);
  RetreatPaths(s, ctx, static_cast<UnitId>(top.args[0]), top.args[1], out);
}

Status HexRules::ApplyRetreatStep(State& s, const Action& a, Context& ctx) const {
  if (a.type != ActionType::kRetreat) return RefuseOutOfSequence(*this, s, a, data().Rule(RuleKey::kSequence));
  return ApplyRetreat(s, a, ctx);
}

WG_RULE_KEY("retreat", HexRules::ApplyRetreat);
Status HexRules::ApplyRetreat(State& s, const Action& a, Context& ctx) const {
  const UnitId u = RetreatingUnit(s);
  if (a.num_units != 1 || a.units[0] != u) {
    return Status::Refused(data().Rule(RuleKey::kRetreat), "the retreating unit is " + game_.UnitLabel(u));
  }
  Status st = CheckRetreat(s, ctx, u, a.hexes.data(), a.num_hexes, RetreatLength(s));
  if (!st.ok()) return st;
  for (int i = 0; i < a.num_hexes; ++i) {
    const int h = a.hexes[static_cast<size_t>(i)];
    if (EnemyIn(s, h, s.unit(u).side)) OnOverrun(s, ctx, h, s.unit(u).side);
  }
  MoveUnit(s, ctx, u, a.hexes[static_cast<size_t>(a.num_hexes - 1)], EventType::kRetreat, data().Rule(RuleKey::kRetreat));
  EndStep(s, ctx, steps_, u);  // the follow-up resumes
  return Status::Ok();
}

}  // namespace wg
