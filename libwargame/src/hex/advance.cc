// Advance after combat into a vacated hex.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

// --- The advance step ----------------------------------------------------------------------------

void HexRules::ListAdvanceStep(const State& s, Context& ctx, std::vector<Action>* out) const { ListAdvances(s, ctx, out); }

Status HexRules::ApplyAdvanceStep(State& s, const Action& a, Context& ctx) const {
  if (a.type != ActionType::kAdvance) return RefuseOutOfSequence(*this, s, a, data().Rule(RuleKey::kSequence));
  return ApplyAdvance(s, a, ctx);
}

void HexRules::ListAdvances(const State& s, Context& ctx, std::vector<Action>* out) const {
  (void)ctx;
  out->push_back(Action::Of(ActionType::kAdvance));  // decline
  const PendingCombat& c = s.combat;
  for (int i = 0; i < c.num_attackers; ++i) {
    const UnitId u = c.attackers[i];
    const UnitState& us = s.unit(u);
    if (!us.OnMap() || !Adjacent(us.hex, c.vacated_hex)) continue;
    if (data().artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == data().artillery_kind) continue;
    Action a = Action::Of(ActionType::kAdvance);
    a.AddUnit(u);
    out->push_back(a);
  }
}


WG_RULE_KEY("advance", HexRules::ApplyAdvance);
Status HexRules::ApplyAdvance(State& s, const Action& a, Context& ctx) const {
  PendingCombat& c = s.combat;
  const int h = c.vacated_hex;
  int limit = game_.hex_board().stacking.limit;
  if (data().advance == HexGameData::Advance::kOne) limit = 1;
  int counted = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    bool attacker = false;
    for (int k = 0; k < c.num_attackers; ++k) attacker = attacker || c.attackers[k] == u;
    if (!attacker) return Status::Refused(data().Rule(RuleKey::kAdvance), game_.UnitLabel(u) + " did not take part in this attack");
    const UnitState& us = s.unit(u);
    if (!us.OnMap() || !Adjacent(us.hex, h)) return Status::Refused(data().Rule(RuleKey::kAdvance), game_.UnitLabel(u) + " is not adjacent to the vacated hex");
    if (data().artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == data().artillery_kind) {
      return Status::Refused(data().Rule(RuleKey::kAdvance), "artillery may not advance after combat");
    }
    if (CountsForStacking(s, u)) ++counted;
  }
  if (counted > limit) return Status::Refused(data().Rule(RuleKey::kAdvance), "at most " + std::to_string(limit) + " units may advance");
  if (a.num_units > 0 && EnemyIn(s, h, s.phasing_side)) OnOverrun(s, ctx, h, s.phasing_side);
  for (int i = 0; i < a.num_units; ++i) {
    TouchHex(s, ctx, h, s.unit(a.units[static_cast<size_t>(i)]).side);
    MoveUnit(s, ctx, a.units[static_cast<size_t>(i)], h, EventType::kAdvance, data().Rule(RuleKey::kAdvance));
  }
  EndStep(s, ctx, steps_, a.num_units);  // the follow-up resumes (and ends)
  return Status::Ok();
}

}  // namespace wg
