// Stars and Bars: the combat phase's steps and their follow-ups: retreat and advance (7.0, 7.5,
// 7.6, 7.8, 12.1). The class SbRules: internal.h; RULES.md maps every rule to its hook.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {

// The combat phase (7.0): 7.8's advancing units are treated as having attacked: they may
// not attack and owe no attack.
WG_RULE("7.8", SbRules::BeginSbCombat);
void SbRules::BeginSbCombat(State& s, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  BeginCombatPhase(s, ctx);
  for (int i = 0; i < x.num_cav_advanced && i < 8; ++i) {
    if (s.unit(x.cav_advanced[i]).OnMap()) s.unit(x.cav_advanced[i]).flags |= kUnitAttacked;
  }
}

// --- Steps: the combat phase and its follow-ups --------------------------------------------------

// 7.1: a zero-strength unit attacked alone is eliminated without the table; the end of the
// phase is a stacking checkpoint (5.5).
// The end of the combat phase: the attack obligations (7.1) are met, then the stacking check (5.5).
WG_RULE("5.5/7.1", SbRules::EndSbCombat);
Status SbRules::EndSbCombat(State& s, Context& ctx) const {
  Status st = EndCombatPhase(s, ctx);
  if (!st.ok()) return st;
  return BeginStackingCheck(s, ctx);
}

// An attack; one with no CRT roll (6.2: zero-strength defenders) is resolved at once.
Status SbRules::ApplySbAttack(State& s, const Action& a, Context& ctx) const {
  AttackPlan plan;
  Status st = PrepareAttack(s, a, ctx, &plan);
  if (!st.ok()) return st;
  if (AutomaticAttack(s, plan) != nullptr) return ApplyZeroStrengthAttack(s, a, ctx, plan);
  return ApplyCombatStep(s, a, ctx);
}

Status SbRules::ApplyLossStep(State& s, const Action& a, Context& ctx) const {
  if (a.type == ActionType::kLoss) return ApplyLoss(s, a, ctx);
  return Status::Refused("7.3", "losses must be divided first (a loss action)");
}

Status SbRules::ApplyStandStep(State& s, const Action& a, Context& ctx) const {
  if (a.type == ActionType::kStand || (a.type == ActionType::kChoice && a.value == 0)) return ApplyStand(s, a, ctx);
  return Status::Refused("7.5.2", "choose stand, or {choose: 0} to retreat");
}

// 7.5.1: zero-AS units (HQs, limbered artillery) retreat with the units they are stacked
// with; 11.1: a retreat moves the unit through its hexes (zero-strength units take no objective).
Status SbRules::ApplySbRetreat(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 1 && a.units[0] == RetreatingUnit(s) && a.num_hexes > 0 && AttackStrength(s, a.units[0]) > 0) {
    Status check = CheckRetreat(s, ctx, a.units[0], a.hexes.data(), a.num_hexes, RetreatLength(s));
    if (!check.ok()) return check;
    RetreatCompanions(s, ctx, a.units[0], s.unit(a.units[0]).hex, a.hexes.data(), a.num_hexes, /*in_combat=*/true);
  }
  const bool one = a.num_units == 1 && a.units[0] >= 0 && a.units[0] < s.num_units;
  Status st = ApplyRetreatStep(s, a, ctx);
  if (!st.ok()) return st;
  if (one && DefenseStrength(s, a.units[0]) > 0) {
    for (int k = 0; k < a.num_hexes; ++k) TouchHex(s, ctx, a.hexes[static_cast<size_t>(k)], s.unit(a.units[0]).side);
  }
  return Status::Ok();
}

// 7.6 / 12.1: the core's advances less those a unit may not make, then the zero-AS units
// stacked with an advancing attacker that may go along.
void SbRules::ListSbAdvance(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListAdvanceStep(s, ctx, out);
  out->erase(std::remove_if(out->begin(), out->end(),
                            [&](const Action& a) {
                              for (int i = 0; i < a.num_units; ++i) {
                                const UnitId u = a.units[static_cast<size_t>(i)];
                                if (s.unit(u).Has(kSbNoAdvance)) return true;
                                if (s.combat.vacated_hex >= 0 && !MayAdvanceInto(s, u, s.combat.vacated_hex).ok()) return true;
                              }
                              return a.num_units > 0 && s.combat.vacated_hex >= 0 &&
                                     StackingCount(s, s.combat.vacated_hex, s.phasing_side) +
                                             (CountsForStacking(s, a.units[0]) ? 1 : 0) > game_.hex_board().stacking.limit;
                            }),
             out->end());
  const size_t n = out->size();
  for (size_t i = 0; i < n; ++i) {
    const Action a = (*out)[i];
    if (a.num_units != 1) continue;
    Action with = a;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId v = static_cast<UnitId>(j);
      if (v != a.units[0] && s.unit(v).hex == s.unit(a.units[0]).hex && s.unit(v).side == s.phasing_side &&
          AttackStrength(s, v) == 0 && !IsArtillery(v) && MayAdvanceInto(s, v, s.combat.vacated_hex).ok()) {
        with.AddUnit(v);
      }
    }
    if (with.num_units > 1) out->push_back(with);
  }
}

WG_RULE("7.6/12.1", SbRules::ApplySbAdvance);
Status SbRules::ApplySbAdvance(State& s, const Action& a, Context& ctx) const {
  // 7.6: zero-AS units (HQs) may advance with the attacking units they are stacked with.
  Action attackers = Action::Of(ActionType::kAdvance);
  UnitId companions[kMaxActionUnits];
  int nc = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= s.num_units) return Status::Refused("7.6", "no such unit");
    if (IsArtillery(u)) return Status::Refused("7.6", "artillery may never advance after combat (even if limbered)");
    if (s.combat.vacated_hex >= 0 && s.unit(u).OnMap()) {
      Status st = MayAdvanceInto(s, u, s.combat.vacated_hex);
      if (!st.ok()) return st;
    }
    bool attacker = false;
    for (int k = 0; k < s.combat.num_attackers; ++k) attacker = attacker || s.combat.attackers[k] == u;
    if (attacker) {
      attackers.AddUnit(u);
    } else {
      companions[nc++] = u;
    }
  }
  for (int i = 0; i < nc; ++i) {
    const UnitId u = companions[i];
    bool with = false;
    for (int k = 0; k < attackers.num_units; ++k) with = with || s.unit(attackers.units[static_cast<size_t>(k)]).hex == s.unit(u).hex;
    if (s.unit(u).side != s.phasing_side || !s.unit(u).OnMap() || AttackStrength(s, u) > 0 || IsArtillery(u) || !with) {
      return Status::Refused("7.6", game_.UnitLabel(u) + " may advance only with attacking units it is stacked with");
    }
  }
  if (TopStep(s)->args[0] == kCavalryAdvanceArg) return ApplyCavalryAdvance(s, attackers, a, ctx);
  if (nc > 0) {
    if (attackers.num_units == 0) return Status::Refused("7.6", "zero-AS units advance only with attacking units");
    for (int i = 0; i < nc; ++i) MoveUnit(s, ctx, companions[i], s.combat.vacated_hex, EventType::kAdvance, "7.6");
    return ApplySbAdvance(s, attackers, ctx);
  }
  int counted = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (s.unit(u).Has(kSbNoAdvance)) return Status::Refused("12.1", game_.UnitLabel(u) + " failed its untrained advance roll");
    if (CountsForStacking(s, u)) ++counted;
  }
  if (s.combat.vacated_hex >= 0 && counted > 0 &&
      StackingCount(s, s.combat.vacated_hex, s.phasing_side) + counted > game_.hex_board().stacking.limit) {
    return Status::Refused("7.6", "advance only up to the stacking limit");
  }
  return ApplyAdvanceStep(s, a, ctx);
}

// 7.8: the advance after a cavalry retreat before combat; back to the defensive bombardment.
WG_RULE("7.6/7.8", SbRules::ApplyCavalryAdvance);
Status SbRules::ApplyCavalryAdvance(State& s, const Action& attackers, const Action& a, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  PendingCombat& c = s.combat;
  int counted = 0;
  for (int i = 0; i < attackers.num_units; ++i) {
    const UnitId u = attackers.units[static_cast<size_t>(i)];
    if (!Adjacent(s.unit(u).hex, c.vacated_hex)) return Status::Refused("7.8", game_.UnitLabel(u) + " is not adjacent");
    if (CountsForStacking(s, u)) ++counted;
  }
  if (StackingCount(s, c.vacated_hex, s.phasing_side) + counted > game_.hex_board().stacking.limit) {
    return Status::Refused("7.6", "advance only up to the stacking limit");
  }
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    TouchHex(s, ctx, c.vacated_hex, s.phasing_side);
    MoveUnit(s, ctx, u, c.vacated_hex, EventType::kAdvance, "7.8");
    s.unit(u).flags |= kUnitAttacked;  // treated as having attacked (kept into the combat phase)
    if (x.num_cav_advanced < 8) x.cav_advanced[x.num_cav_advanced++] = u;
  }
  c = PendingCombat{};
  for (auto& h : c.defender_hexes) h = -1;
  c.vacated_hex = -1;
  c.legacy_current = kNoUnit;
  x.advance_rolled = 0;
  for (int i = 0; i < s.num_units; ++i) s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~kSbNoAdvance);
  EndStep(s, ctx, steps_);
  return Status::Ok();
}

// 12.1: before any advance, each untrained attacker that could advance rolls: a chance step
// per unit, over the advance step.
WG_RULE("12.1", SbRules::BeginSbAdvance);
void SbRules::BeginSbAdvance(State& s, Context&) const {
  SbExt& x = Ext<SbExt>(s);
  if (!game_.OptionOn("12.1") || x.advance_rolled) return;
  x.advance_rolled = 1;
  const int i = NextUntrainedAdvance(s, 0);
  if (i >= 0) PushStep(s, steps_, step_untrained_, s.phasing_side, {static_cast<int16_t>(i)});
}

// The index (in s.combat.attackers) of the next untrained attacker from `from` that rolls, -1 none.
int SbRules::NextUntrainedAdvance(const State& s, int from) const {
  const PendingCombat& c = s.combat;
  for (int i = from; i < c.num_attackers; ++i) {
    const UnitId u = c.attackers[i];
    if (Def(u).trained || !s.unit(u).OnMap() || IsArtillery(u) || !Adjacent(s.unit(u).hex, c.vacated_hex)) continue;
    return i;
  }
  return -1;
}

WG_RULE("12.1", SbRules::ResolveUntrainedAdvance);
void SbRules::ResolveUntrainedAdvance(State& s, Context& ctx, int roll) const {
  const PendingCombat& c = s.combat;
  const int i = TopStep(s)->args[0];
  const UnitId u = c.attackers[i];
  const DieTable& t = *data().tables.Find("untrained_advance");
  if (t.Lookup(roll, 0).text == "must_advance" && MayAdvanceInto(s, u, c.vacated_hex).ok() &&
      StackingCount(s, c.vacated_hex, s.phasing_side) + (CountsForStacking(s, u) ? 1 : 0) <= game_.hex_board().stacking.limit) {
    TouchHex(s, ctx, c.vacated_hex, s.phasing_side);
    MoveUnit(s, ctx, u, c.vacated_hex, EventType::kAdvance, "12.1");
  }
  s.unit(u).flags |= kSbNoAdvance;  // decided: it may not (also) advance by choice
  const int next = NextUntrainedAdvance(s, i + 1);
  if (next >= 0) {
    ReplaceStep(s, steps_, step_untrained_, s.phasing_side, {static_cast<int16_t>(next)});
  } else {
    PopStep(s, steps_);
  }
}

}  // namespace wg::stars_and_bars
