// The combat phase: declaring attacks, odds, the die roll, CRT results, the end of the phase.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/rule_mark.h"

namespace wg {

// --- The combat phase's step -----------------------------------------------------------------

// Entering the combat phase: last phase's combat marks go, no combat is pending.
void HexRules::BeginCombatPhase(State& s, Context&) const {
  for (int i = 0; i < s.num_units; ++i) {
    s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~(kUnitAttacked | kUnitDefended));
  }
  s.combat = PendingCombat{};
  s.combat.vacated_hex = -1;
  s.combat.legacy_current = kNoUnit;
  for (auto& h : s.combat.defender_hexes) h = -1;
}

// Attacks, then the end of the phase if the mandatory attacks allow it.
void HexRules::ListCombatStep(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListAttacks(s, ctx, out);
  ListEndCombatPhase(s, ctx, out);
}

void HexRules::ListEndCombatPhase(const State& s, Context& ctx, std::vector<Action>* out) const {
  // EndCombatPhase accepts at once without mandatory attacks, and with obligations it asks
  // only DutiesMet (of s as it is): then no copy to try it on, and no refusal's message.
  if (!data().mandatory) {
    out->push_back(Action::EndPhase());
    return;
  }
  if (data().obligations) {
    BuildDuties(s, ctx);
    if (Hs(ctx).duty_units.empty()) out->push_back(Action::EndPhase());
    return;
  }
  State copy;
  std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
  Context quiet(game_, nullptr, nullptr, &ctx.scratch());
  const QuietRefusals no_message(Hs(ctx));  // only whether it may end is asked
  if (EndCombatPhase(copy, quiet).ok()) out->push_back(Action::EndPhase());
}

Status HexRules::ApplyCombatStep(State& s, const Action& a, Context& ctx) const {
  if (a.type == ActionType::kAttack) return ApplyAttack(s, a, ctx);
  if (a.type == ActionType::kEndPhase) {
    Status st = EndCombatPhase(s, ctx);
    if (!st.ok()) return st;
    AdvancePhase(s, ctx);
    return Status::Ok();
  }
  return RefuseOutOfSequence(*this, s, a, data().Rule(RuleKey::kSequence));
}

void HexRules::ListAttacks(const State& s, Context& ctx, std::vector<Action>* out) const {
  const int side = s.phasing_side;
  const auto& grid = game_.hex_board().map.grid;
  HexScratch& hs = Hs(ctx);
  const size_t map_size = hs.attacker_head.size();
  // The phasing units that may attack, by hex, in unit order (a unit off the map or
  // that attacked is in no hex's list; AttackStrength is asked only of those listed).
  for (int j = s.num_units - 1; j >= 0; --j) {
    const UnitState& a = s.units[static_cast<size_t>(j)];
    if (a.hex < 0 || static_cast<size_t>(a.hex) >= map_size || a.side != side || a.Has(kUnitAttacked)) continue;
    int16_t& head = hs.attacker_head[static_cast<size_t>(a.hex)];
    if (head < 0) hs.attacker_hexes.push_back(a.hex);
    hs.next_attacker[static_cast<size_t>(j)] = head;
    head = static_cast<int16_t>(j);
  }
  // For each enemy-occupied hex not yet attacked: all eligible adjacent
  // attackers together, and each one alone.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    if (!e.OnMap() || e.side == side || e.Has(kUnitDefended)) continue;
    uint8_t& seen = hs.hex_seen[static_cast<size_t>(e.hex)];
    if (seen) continue;
    seen = 1;
    hs.seen_hexes.push_back(e.hex);
    Action all = Action::Of(ActionType::kAttack);
    all.AddHex(e.hex);
    for (int d = 0; d < 6; ++d) {
      const int nb = grid.NeighborIndex(e.hex, d);
      if (nb < 0) continue;
      for (int j = hs.attacker_head[static_cast<size_t>(nb)]; j >= 0; j = hs.next_attacker[static_cast<size_t>(j)]) {
        if (PinnedAttackStrength(s, hs, static_cast<UnitId>(j)) <= 0) continue;
        Action one = Action::Of(ActionType::kAttack);
        one.AddUnit(static_cast<UnitId>(j)).AddHex(e.hex);
        out->push_back(one);
        all.AddUnit(static_cast<UnitId>(j));
      }
    }
    if (all.num_units > 1) out->push_back(all);
  }
  for (int16_t h : hs.seen_hexes) hs.hex_seen[static_cast<size_t>(h)] = 0;
  hs.seen_hexes.clear();
  for (int16_t h : hs.attacker_hexes) hs.attacker_head[static_cast<size_t>(h)] = -1;
  hs.attacker_hexes.clear();
  if (data().obligations) ListDutyAttacks(s, ctx, out);
}

WG_RULE_KEY("combat/odds", HexRules::PrepareAttack);
Status HexRules::PrepareAttack(const State& s, const Action& a, Context& ctx, AttackPlan* plan) const {
  const HexGameData& d = data();
  const int side = s.phasing_side;
  if (a.num_units == 0) return Status::Refused(data().Rule(RuleKey::kCombat), "an attack needs at least one attacking unit");
  if (a.num_hexes == 0) return Status::Refused(data().Rule(RuleKey::kCombat), "an attack needs at least one defending hex");
  if (a.num_units > kMaxCombatUnits) return Status::Refused(data().Rule(RuleKey::kCombat), "too many attackers");
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (!EnemyIn(s, h, side)) return Status::Refused(data().Rule(RuleKey::kCombat), "hex " + game_.HexLabel(h) + " holds no enemy unit");
    for (int j = 0; j < k; ++j) {
      if (a.hexes[static_cast<size_t>(j)] == h) return Status::Refused(data().Rule(RuleKey::kCombat), "a hex is listed twice");
    }
  }
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap()) return Status::Refused(data().Rule(RuleKey::kCombat), game_.UnitLabel(u) + " cannot attack (not a phasing unit on the map)");
    if (us.Has(kUnitAttacked)) return Status::Refused(data().Rule(RuleKey::kCombat), game_.UnitLabel(u) + " has already attacked this phase");
    if (AttackStrength(s, u) <= 0) return Status::Refused(data().Rule(RuleKey::kCombat), game_.UnitLabel(u) + " has no attack strength");
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return Status::Refused(data().Rule(RuleKey::kCombat), "a unit is listed twice");
    }
    const bool artillery = d.artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == d.artillery_kind &&
                           d.artillery_range > 1;
    bool in_range_of_one = false;
    for (int k = 0; k < a.num_hexes; ++k) {
      const int h = a.hexes[static_cast<size_t>(k)];
      const bool adjacent = Adjacent(us.hex, h);
      if (artillery) {
        const bool ok = adjacent || (DistanceBetween(us.hex, h) <= d.artillery_range && d.los->Clear(us.hex, h));
        in_range_of_one = in_range_of_one || ok;
      } else if (!adjacent) {
        return Status::Refused(data().Rule(RuleKey::kCombat), game_.UnitLabel(u) + " is not adjacent to " + game_.HexLabel(h));
      }
    }
    if (artillery && !in_range_of_one) {
      return Status::Refused(data().Rule(RuleKey::kCombat), game_.UnitLabel(u) + " has no target hex in range and sight");
    }
  }
  UnitId defenders[kMaxCombatUnits];
  int nd = 0;
  for (int k = 0; k < a.num_hexes; ++k) {
    UnitId here[kMaxCombatUnits];
    const int n = UnitsIn(s, a.hexes[static_cast<size_t>(k)], 1 - side, here, kMaxCombatUnits);
    for (int i = 0; i < n && nd < kMaxCombatUnits; ++i) {
      if (s.unit(here[i]).Has(kUnitDefended)) {
        return Status::Refused(data().Rule(RuleKey::kCombat), game_.UnitLabel(here[i]) + " has already been attacked this phase");
      }
      defenders[nd++] = here[i];
    }
  }
  {
    Status st = CheckAttack(s, a, ctx);
    if (!st.ok()) return st;
  }
  if (data().obligations && IsPhase(s, data().phase_combat)) {
    Status st = CheckDutiesAfter(s, ctx, a);
    if (!st.ok()) return st;
  }
  *plan = AttackPlan{};
  plan->num_defenders = nd;
  for (int i = 0; i < nd; ++i) plan->defenders[i] = defenders[i];
  for (int i = 0; i < a.num_units; ++i) plan->attack += AttackStrength(s, a.units[static_cast<size_t>(i)]);
  for (int i = 0; i < nd; ++i) plan->defense += DefenseStrength(s, defenders[i]);
  {
    // Modifiers see the combat as declared.
    State view;
    std::memcpy(static_cast<void*>(&view), &s, sizeof(State));
    FillCombat(view, a, defenders, nd);
    CombatModifiers(view, ctx, &plan->mods);
  }
  const CombatMods& mods = plan->mods;
  plan->modified_defense =
      ModifiedStrength(plan->defense, std::span<const int>(mods.multipliers, static_cast<size_t>(mods.num_multipliers)));
  plan->modified_defense += mods.defense_bonus;
  int column = d.crt.ColumnFor(plan->attack, plan->modified_defense);
  if (column != CombatTable::kBelowLowest && mods.column_shift != 0) {
    column = std::clamp(column + mods.column_shift, 0, d.crt.num_columns() - 1);
  }
  plan->computed_column = column;
  if (a.value < 0) {
    const int chosen = column == CombatTable::kBelowLowest ? column : column + a.value;
    if (chosen < 0 || !d.crt.IsValidReduction(column, chosen)) {
      return Status::Refused(data().Rule(RuleKey::kOdds), "cannot reduce the odds by " + std::to_string(-a.value) + " columns");
    }
    column = chosen;
  } else if (a.value > 0) {
    return Status::Refused(data().Rule(RuleKey::kOdds), "the attacker may only reduce the odds");
  }
  plan->column = column;
  return Status::Ok();
}

void HexRules::FillCombat(State& s, const Action& a, const UnitId* defenders, int nd) const {
  PendingCombat& c = s.combat;
  c = PendingCombat{};
  for (auto& h : c.defender_hexes) h = -1;
  c.active = 1;
  c.vacated_hex = -1;
  c.legacy_current = kNoUnit;
  c.num_attackers = a.num_units;
  for (int i = 0; i < a.num_units; ++i) c.attackers[i] = a.units[static_cast<size_t>(i)];
  c.num_defenders = static_cast<uint8_t>(nd);
  for (int i = 0; i < nd; ++i) c.defenders[i] = defenders[i];
  c.num_defender_hexes = static_cast<uint8_t>(std::min<int>(a.num_hexes, 6));
  for (int k = 0; k < c.num_defender_hexes; ++k) c.defender_hexes[k] = a.hexes[static_cast<size_t>(k)];
}

AttackAnalysis HexRules::AnalyzeAttack(const State& s, Context& ctx, const Action& a) const {
  AttackAnalysis out;
  out.status = PrepareAttack(s, a, ctx, &out.plan);
  if (!out.status.ok()) return out;
  if (const char* automatic = AutomaticAttack(s, out.plan)) {
    out.automatic = automatic;
    return out;
  }
  const CombatTable& crt = data().crt;
  if (out.plan.column == CombatTable::kBelowLowest) {
    CrtOutcome o;
    o.numerator = 1;
    o.denominator = 1;
    o.result = &crt.below_result;
    out.outcomes.push_back(o);
  } else {
    out.outcomes = Distribution(crt, out.plan.column, out.plan.mods.drm, crt.die);
  }
  return out;
}

std::string HexRules::ColumnLabel(int column) const {
  return column == CombatTable::kBelowLowest ? "below the lowest column"
                                             : data().crt.columns[static_cast<size_t>(column)].label;
}

Status HexRules::ApplyAttack(State& s, const Action& a, Context& ctx) const {
  const HexGameData& d = data();
  const int side = s.phasing_side;
  AttackPlan plan;
  {
    Status st = PrepareAttack(s, a, ctx, &plan);
    if (!st.ok()) return st;
  }
  FillCombat(s, a, plan.defenders, plan.num_defenders);
  PendingCombat& c = s.combat;
  const CombatMods& mods = plan.mods;
  const int att = plan.attack, def_mod = plan.modified_defense, column = plan.column;
  for (int i = 0; i < c.num_attackers; ++i) s.unit(c.attackers[i]).flags |= kUnitAttacked;
  for (int i = 0; i < c.num_defenders; ++i) s.unit(c.defenders[i]).flags |= kUnitDefended;
  c.column = static_cast<int16_t>(column);
  c.drm = static_cast<int8_t>(mods.drm);
  Event e;
  e.type = EventType::kAttack;
  e.side = static_cast<int8_t>(side);
  e.hex = c.defender_hexes[0];
  e.a = att;
  e.b = def_mod;
  e.rule = data().Rule(RuleKey::kCombat);
  e.text = column == CombatTable::kBelowLowest ? "below the lowest column"
                                                : d.crt.columns[static_cast<size_t>(column)].label.c_str();
  ctx.Emit(e);
  for (int i = 0; i < mods.num_notes; ++i) {
    Event n;
    n.type = EventType::kNote;
    n.text = mods.notes[i];
    ctx.Emit(n);
  }
  if (column == CombatTable::kBelowLowest) {
    FinishAttack(s, ctx, d.crt.below_result);
  } else if (step_combat_roll_ == kNoStep || !PushStep(s, steps_, step_combat_roll_, side)) {
    ResolveCombatRoll(s, ctx, ctx.RollSum(s, d.crt.die.count, d.crt.die.sides, "combat"));
  }
  // Else the combat roll is a chance step: ApplyStep rolls it, or a caller that
  // stops at chance supplies the outcome (ResolveChance).
  return Status::Ok();
}

void HexRules::ResolveCombatRoll(State& s, Context& ctx, int roll) const {
  const CombatTable& crt = data().crt;
  s.combat.roll = static_cast<int8_t>(roll);
  const int drms[1] = {s.combat.drm};
  FinishAttack(s, ctx, crt.Lookup(s.combat.column, ModifiedRoll(crt, roll, drms)));
}

void HexRules::FinishAttack(State& s, Context& ctx, const CombatResult& result) const {
  Event r;
  r.type = EventType::kCombatResult;
  r.rule = data().Rule(RuleKey::kCombat);
  r.text = result.text.c_str();
  ctx.Emit(r);
  ++s.combat_count;
  // The roll's step (if any) ends into the follow-up, a script over the phase's step: the
  // result owes retreats in it and may call the ruleset's own steps above it (losses, a
  // choice); then it runs, at once or when the last of those ends.
  ReturnToPhase(s);
  CallFollowUp(s);
  ApplyCombatResult(s, ctx, result);
  Settle(s, ctx, steps_);
}

namespace {

// Printed strength of units in a combat (an exchange's measure: printed values,
// before terrain or other modifiers).
int PrintedTotal(const Game& g, const State& s, const UnitId* units, int n, int attribute) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += g.Printed(s, units[i], attribute);
  return total;
}

}  // namespace

WG_RULE_KEY("combat", HexRules::ApplyCombatResult);
void HexRules::ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const {
  const PendingCombat& c = s.combat;
  const HexGameData& d = data();
  // Each token's effect (a single-part cell's tokens, or both parts of an "A/D" cell).
  auto each_effect = [&](const auto& fn) {
    for (const auto* part : {&r.tokens, &r.attacker, &r.defender}) {
      for (const ResultToken& t : *part) {
        if (const ResultEffect* e = d.crt.Effect(t.code)) fn(*e);
      }
    }
  };
  // The printed totals, before any elimination, only for a result with an exchange.
  bool exchange = false;
  each_effect([&](const ResultEffect& e) {
    exchange = exchange || e.attacker == ResultLoss::kExchange || e.defender == ResultLoss::kExchange;
  });
  int printed[2] = {0, 0};
  if (exchange) {
    printed[0] = PrintedTotal(game_, s, c.attackers, c.num_attackers, d.attack);
    printed[1] = PrintedTotal(game_, s, c.defenders, c.num_defenders, d.defense);
  }
  auto rule = [&](const ResultEffect& e) { return e.rule.empty() ? d.Rule(RuleKey::kCombat) : e.rule.c_str(); };
  // Eliminations (the attacker's, then the defender's), then exchanges, then retreats.
  bool retreat[2] = {false, false};
  for (bool attacker : {true, false}) {
    const UnitId* units = attacker ? c.attackers : c.defenders;
    const int n = attacker ? c.num_attackers : c.num_defenders;
    each_effect([&](const ResultEffect& e) {
      const ResultLoss loss = attacker ? e.attacker : e.defender;
      if (loss == ResultLoss::kEliminated) {
        for (int i = 0; i < n; ++i) Eliminate(s, ctx, units[i], rule(e), e.code.c_str());
      }
      retreat[attacker ? 0 : 1] = retreat[attacker ? 0 : 1] || loss == ResultLoss::kRetreat;
    });
  }
  for (bool attacker : {true, false}) {
    each_effect([&](const ResultEffect& e) {
      if ((attacker ? e.attacker : e.defender) == ResultLoss::kExchange) {
        LoseAtLeast(s, ctx, attacker, printed[attacker ? 1 : 0], rule(e), e.code.c_str());
      }
    });
  }
  if (retreat[1]) BeginRetreats(s, ctx, /*attacker=*/false, d.retreat_hexes);
  if (retreat[0]) BeginRetreats(s, ctx, /*attacker=*/true, d.retreat_hexes);
}

// An exchange: one side of the combat loses its units still on the map, weakest
// first, until their printed strength totals at least `owed` (or none is left).
void HexRules::LoseAtLeast(State& s, Context& ctx, bool attacker, int owed, const char* rule, const char* why) const {
  const PendingCombat& c = s.combat;
  const UnitId* units = attacker ? c.attackers : c.defenders;
  const int n = attacker ? c.num_attackers : c.num_defenders;
  auto strength = [&](UnitId u) { return attacker ? AttackStrength(s, u) : DefenseStrength(s, u); };
  int lost = 0;
  while (lost < owed) {
    int best = -1;
    for (int i = 0; i < n; ++i) {
      if (!s.unit(units[i]).OnMap()) continue;
      if (best < 0 || strength(units[i]) < strength(units[best])) best = i;
    }
    if (best < 0) break;
    lost += game_.Printed(s, units[best], attacker ? data().attack : data().defense);
    Eliminate(s, ctx, units[best], rule, why);
  }
}


Status HexRules::EndCombatPhase(State& s, Context& ctx) const {
  if (!data().mandatory) return Status::Ok();
  if (data().obligations) return DutiesMet(s, ctx);
  const int side = s.phasing_side;
  const auto& grid = game_.hex_board().map.grid;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (!us.OnMap()) continue;
    if (us.side == side && !us.Has(kUnitAttacked) && MustAttack(s, ctx, u)) {
      // Only if it still has an enemy it may attack.
      for (int d = 0; d < 6; ++d) {
        const int nb = grid.NeighborIndex(us.hex, d);
        if (nb < 0) continue;
        for (int j = 0; j < s.num_units; ++j) {
          const UnitState& e = s.units[static_cast<size_t>(j)];
          if (e.hex == nb && e.side != side && !e.Has(kUnitDefended)) {
            return RefuseUnlessQuiet(Hs(ctx), data().Rule(RuleKey::kCombat),
                                     [&] { return game_.UnitLabel(u) + " is in an enemy zone of control and must attack"; });
          }
        }
      }
    }
    if (us.side != side && !us.Has(kUnitDefended) && MustBeAttacked(s, ctx, u)) {
      for (int d = 0; d < 6; ++d) {
        const int nb = grid.NeighborIndex(us.hex, d);
        if (nb < 0) continue;
        for (int j = 0; j < s.num_units; ++j) {
          const UnitState& f = s.units[static_cast<size_t>(j)];
          if (f.hex == nb && f.side == side && !f.Has(kUnitAttacked) && AttackStrength(s, static_cast<UnitId>(j)) > 0) {
            return RefuseUnlessQuiet(Hs(ctx), data().Rule(RuleKey::kCombat), [&] {
              return game_.UnitLabel(u) + " is in a friendly zone of control and must be attacked";
            });
          }
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace wg
