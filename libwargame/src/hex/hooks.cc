// The default hooks of HexRules: what a ruleset does not override.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"

namespace wg {

// --- Default hooks ----------------------------------------------------------------------

int HexRules::ReinforcementTurn(const State&, UnitId u) const {
  return game_.units[static_cast<size_t>(u)].reinforcement_turn;
}

int HexRules::MovementAllowance(const State& s, UnitId u) const {
  return 2 * game_.Current(s, u, data().movement_attribute);
}

Status HexRules::CanMove(const State& s, UnitId u) const {
  Status why;
  Movable(s, u, &why);
  return why;
}

bool HexRules::Movable(const State& s, UnitId u, Status* why) const {
  if (!s.unit(u).Has(kUnitReleased)) {
    if (why) *why = Status::Refused(data().Rule(RuleKey::kRelease), game_.UnitLabel(u) + " is not released yet");
    return false;
  }
  return true;
}

ZocKind HexRules::ZocOf(const State& s, UnitId u) const {
  return DefenseStrength(s, u) > 0 ? ZocKind::kSix : ZocKind::kNone;
}

bool HexRules::CountsForStacking(const State&, UnitId u) const {
  return game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].counts_for_stacking;
}

int HexRules::AttackStrength(const State& s, UnitId u) const { return game_.Current(s, u, data().attack); }
int HexRules::DefenseStrength(const State& s, UnitId u) const { return game_.Current(s, u, data().defense); }

bool HexRules::Overrunnable(const State&, int, int) const { return false; }
void HexRules::OnOverrun(State&, Context&, int, int) const {}

Status HexRules::ApplyModeChange(State&, const Action&, Context&) const {
  return Status::Refused(data().Rule(RuleKey::kMovement), "this ruleset has no unit modes to change");
}

void HexRules::OnEliminated(State&, Context&, UnitId, int) const {}
Status HexRules::CheckMove(const State&, const Action&, Context&) const { return Status::Ok(); }
void HexRules::AfterMove(State&, const Action&, Context&) const {}
Status HexRules::CheckAttack(const State&, const Action&, Context&) const { return Status::Ok(); }
void HexRules::CombatModifiers(const State&, Context&, CombatMods*) const {}
void HexRules::AfterCombat(State&, Context&) const {}
const char* HexRules::AutomaticAttack(const State&, const AttackPlan&) const { return nullptr; }
bool HexRules::VacatedForAdvance(const State& s, int hex) const { return CountIn(s, hex, -1) == 0; }

bool HexRules::MustAttack(const State& s, Context& ctx, UnitId u) const {
  const UnitState& us = s.unit(u);
  return us.OnMap() && AttackStrength(s, u) > 0 && InEnemyZoc(s, ctx, us.side, us.hex);
}

bool HexRules::MustBeAttacked(const State& s, Context& ctx, UnitId u) const {
  const UnitState& us = s.unit(u);
  // An enemy unit in a hex the phasing side controls.
  return us.OnMap() && InEnemyZoc(s, ctx, us.side, us.hex);
}

}  // namespace wg
