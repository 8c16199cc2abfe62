// Blue & Gray standard rules + Chattanooga exclusive rules: the step registration (RegisterSteps,
// RegisterProcedure), the movement and combat steps, Apply (2.1), old saves, and the ruleset's
// registration. The class BgRules: rules.h; the helpers its files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "wargame/rule_mark.h"
#include "wargame/registry.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {

// What happens at the points of the turn procedure (wargame/steps.h), each with its rule.
void BgRules::RegisterProcedure() {
  procedure_.At(ProcedureAt::kTurnBegin, "", "10.4", "BgRules::RecoverAfterNight",
                [this](State& s, Context& ctx) { RecoverAfterNight(s, ctx); });
  if (data().phase_movement >= 0) {
    procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(data().phase_movement)], "15.12",
                  "BgRules::EliminateReinforcementsNotEntered",
                  [this](State& s, Context& ctx) { EliminateReinforcementsNotEntered(s, ctx); });
  }
  procedure_.At(ProcedureAt::kGameEnd, "", "20.12", "BgRules::CountEndVp",
                [this](State& s, Context& ctx) { CountEndVp(s, ctx); });
}

void BgRules::LegacyFrameState(const State& s, State* old) const {
  HexRules::LegacyFrameState(s, old);
  BgExt& x = Ext<BgExt>(*old);
  for (int i = 0; i < old->steps.depth; ++i) {
    Step& st = old->steps.items[i];
    if (st.kind == step_displace_) {
      old->combat.legacy_current = static_cast<UnitId>(st.args[1]);  // the retreated unit
      x.legacy_displace_hex = static_cast<int16_t>(st.args[0] + 1);
      x.legacy_displace_except = static_cast<int16_t>(st.args[1] + 1);
    } else if (st.kind == step_exchange_) {
      x.legacy_ex_owed = st.args[0];
    } else if (st.kind == step_defender_advance_) {
      x.legacy_defender_advance = 1;
    } else {
      continue;
    }
    st = Step{st.kind, st.side, st.rule, {}};  // pushed without arguments then
  }
  MoveHeldAttackToExt(old);
}

// The attack the cavalry_retreat step holds, where saves of format 1-5 hashed it.
void BgRules::MoveHeldAttackToExt(State* old) const {
  if (FindFrame(*old, step_cavalry_retreat_) == nullptr) return;
  std::memcpy(&Ext<BgExt>(*old).legacy_pending, old->held.action, sizeof(Action));
  old->held = HeldRoll{};
}

void BgRules::LegacySaveStates(const State& s, int format, std::vector<State>* out) const {
  HexRules::LegacySaveStates(s, format, out);  // formats 1-4: LegacyFrameState's
  if (format != 5 || FindFrame(s, step_cavalry_retreat_) == nullptr) return;
  State old = s;
  MoveHeldAttackToExt(&old);
  out->push_back(old);
}

// --- Steps: registration -------------------------------------------------------------------------

// The procedures of Blue & Gray as named steps, each citing its rule. The core's movement,
// combat, retreat and advance are refined (registered again under their names).
void BgRules::RegisterSteps() {
  using Out = std::vector<Action>*;
  using A = const Action&;
  StepDef m = NewStep("movement", "7.0", DecisionType::kMovement);
  m.begin = [this](State& s, Context& ctx) { BeginMovementPhase(s, ctx); };
  m.list = [this](const State& s, Context& ctx, Out out) { ListBgMovement(s, ctx, out); };
  // One handler per action: a move (7.0, 11.1 strategic, 9.0 a night exit), the core's entry,
  // mode change and end.
  m.On(ActionType::kMove, [this](State& s, A a, Context& ctx) { return ApplyBgMove(s, a, ctx); });
  m.On(ActionType::kEnter, [this](State& s, A a, Context& ctx) { return ApplyEnter(s, a, ctx); });
  m.On(ActionType::kChangeMode, [this](State& s, A a, Context& ctx) { return ApplyModeChange(s, a, ctx); });
  m.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return ApplyEndPhase(s, ctx); });
  steps_.Register(std::move(m));
  StepDef c = NewStep("combat", "8.0", DecisionType::kCombat);
  c.applies = [this](const State& s) { return !Night(s); };  // 9.0: no combat phase during night turns
  c.begin = [this](State& s, Context& ctx) { BeginBgCombat(s, ctx); };
  c.list = [this](const State& s, Context& ctx, Out out) { ListBgCombat(s, ctx, out); };
  c.On(ActionType::kAttack, [this](State& s, A a, Context& ctx) { return ApplyBgAttack(s, a, ctx); });
  c.On(ActionType::kEndPhase, [this](State& s, A a, Context& ctx) { return EndBgCombat(s, a, ctx); });
  steps_.Register(std::move(c));
  StepDef r = NewStep("retreat", "8.5", DecisionType::kRetreat, Takes(ActionType::kRetreat));
  r.list = [this](const State& s, Context& ctx, Out out) { ListRetreatStep(s, ctx, out); };
  r.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyBgRetreat(s, a, ctx); };
  steps_.Register(std::move(r));
  StepDef v = NewStep("advance", "8.6", DecisionType::kAdvance, Takes(ActionType::kAdvance));
  v.list = [this](const State& s, Context& ctx, Out out) {
    ListAdvanceStep(s, ctx, out);
    ListAttackerAdvances(s, out);
  };
  v.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyAttackerAdvance(s, a, ctx); };
  steps_.Register(std::move(v));
  StepDef d = NewStep("displacement", "8.52", DecisionType::kRetreat, 0);
  d.list = [this](const State& s, Context& ctx, Out out) { ListDisplacements(s, ctx, out); };
  d.On(ActionType::kRetreat, [this](State& s, const Action& a, Context& ctx) { return ApplyDisplacement(s, a, ctx); });
  d.prompt = [this](const State& s) {
    return "8.52: move one unit of " + game_.HexLabel(TopStep(s)->args[0]) + " to an adjacent hex";
  };
  step_displace_ = steps_.Register(std::move(d));
  StepDef x = NewStep("exchange", "8.3", DecisionType::kLosses, 0);
  x.list = [this](const State& s, Context&, Out out) { ListExLosses(s, out); };
  x.On(ActionType::kLoss, [this](State& s, const Action& a, Context& ctx) { return ApplyExLosses(s, a, ctx); });
  x.prompt = [](const State& s) {
    return "8.3 EX: the attacker chooses units totalling at least " + std::to_string(TopStep(s)->args[0]) +
           " strength to lose";
  };
  step_exchange_ = steps_.Register(std::move(x));
  StepDef k = NewStep("cavalry_retreat", "11.2", DecisionType::kChoice, 0);
  k.list = [](const State&, Context&, Out out) {
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
    out->push_back(Action::Of(ActionType::kChoice).Value(1));
  };
  k.apply = [this](State& s, const Action& a, Context& ctx) {
    if (a.type == ActionType::kChoice) return ApplyCavalryChoice(s, a, ctx);
    return Status::Refused("11.2", "the cavalry must choose: stand (0) or retreat two hexes (1)");
  };
  k.prompt = [](const State&) { return std::string("11.2: the cavalry stands (choose 0) or retreats two hexes (choose 1)"); };
  k.holds_action = true;  // the attack, made if the cavalry stands
  step_cavalry_retreat_ = steps_.Register(std::move(k));
  StepDef g = NewStep("defender_advance", "8.6", DecisionType::kAdvance, 0);
  g.list = [this](const State& s, Context& ctx, Out out) { ListDefenderAdvances(s, ctx, out); };
  g.apply = [this](State& s, const Action& a, Context& ctx) {
    if (a.type == ActionType::kAdvance) return ApplyDefenderAdvance(s, a, ctx);
    return Status::Refused("8.6", "the defender may advance one unit into the hex the attackers left, or decline");
  };
  g.prompt = [](const State&) {
    return std::string("8.6: the defender may advance one unit into the hex the attackers left (or decline)");
  };
  step_defender_advance_ = steps_.Register(std::move(g));
}

// --- Steps: movement and combat ------------------------------------------------------------------

// Moves, strategic and night moves (11.1, 9.0), the end of the phase; less what CheckMove refuses.
void BgRules::ListBgMovement(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListMoves(s, ctx);  // these two list into the scratch's listed_runs (placed first)
  ListSpecialMoves(s, ctx);
  // The movement step always accepts the end of the movement phase (the core's
  // ApplyMovementStep): listed without trying it on a copy of the State.
  out->push_back(Action::EndPhase());
  KeepAccepted(s, ctx, out);
}

// Attacks, attacks on several hexes (8.2), the end of the phase; less what the hooks refuse.
void BgRules::ListBgCombat(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListAttacks(s, ctx, out);
  ListMultiHexAttacks(s, ctx, out);
  ListEndCombatPhase(s, ctx, out);
  KeepAccepted(s, ctx, out);
}

// Drops what the hooks refuse (19.12, 9.0, 10.2, 17.11, 8.42, 8.73, 10.0...).
void BgRules::KeepAccepted(const State& s, Context& ctx, std::vector<Action>* out) const {
  MoveContext m = MoveContextOf(s);
  // Without attacks in the list (a movement listing) nothing below recomputes the
  // scratch's ZOC field for the other side, so the moves read it directly.
  if (std::none_of(out->begin(), out->end(), [](const Action& a) { return a.type == ActionType::kAttack; })) {
    m.zoc = &EnemyZoc(s, ctx, m.side);
  }
  HexScratch& hs = Hs(ctx);
  hs.FilterRuns([&](HexScratch::RunEdit& edit) {
    // A run is one unit's moves of one type (ListUnitMoves). A cached kMove's rules
    // (MoveAllowedTo) read only its end hex, kept beside the cached Action, and the
    // unit: the unit's part (10.2 ineffective, 9.0 night, 17.11 quota) is decided once
    // for its run; 19.12's ferry hexes are never candidates (NoMoveEnd), so a unit
    // that may enter enemy ZOCs keeps its run whole, and one that may not drops the
    // enemy ZOC's hexes from its set (64 hexes a word).
    HexScratch::UnitMoves& slot = edit.slot();
    const UnitId u = static_cast<UnitId>(edit.run().cache / HexScratch::kMoveSlots);
    const uint32_t n = static_cast<uint32_t>(slot.size());
    if (!(slot.valid && slot.key.type == ActionType::kMove)) {
      const Action* all = slot.BuildAll();  // every Action is checked
      for (uint32_t i = 0; i < n; ++i) {
        if (edit.Kept(i) && !MoveAllowed(s, all[i], ctx, m, nullptr)) edit.Drop(i);
      }
      return;
    }
    if (m.quota && QuotaCounts(s, u) && m.moved + 1 > m.limit) {  // 17.11-17.14: none
      edit.DropAll();
      return;
    }
    if (m.night || Ineffective(s, u)) {  // 9.0, 10.2
      edit.AndNotMap(hs.ZocWords(m.zoc != nullptr ? *m.zoc : EnemyZoc(s, ctx, m.side)));
    }
  });
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    const Action& a = (*out)[i];
    bool ok = true;
    if ((a.type == ActionType::kMove || a.type == ActionType::kEnter)) {
      ok = MoveAllowed(s, a, ctx, m, nullptr);
    } else if (a.type == ActionType::kAttack) {
      ok = CheckAttackRules(s, a, ctx).ok();
      if (ok) {
        AttackPlan plan;
        ok = PrepareAttack(s, a, ctx, &plan).ok();
      }
    }
    if (!ok) continue;
    if (kept != i) (*out)[kept] = a;
    ++kept;
  }
  out->resize(kept);
  DropRepeatedAttacks(out);
}

// The same attackers against the same hexes, in whatever order they are named, is
// one attack: the core's listing, the obligations' (8.0) and the 8.43 multi-hex
// listing may each name it (a battery adjacent to two enemy hexes, say).
void BgRules::DropRepeatedAttacks(std::vector<Action>* out) const {
  auto canonical = [](Action a) {
    std::sort(a.units.begin(), a.units.begin() + a.num_units);
    std::sort(a.hexes.begin(), a.hexes.begin() + a.num_hexes);
    return a;
  };
  // The fields Action::operator== compares, in order.
  auto less = [](const Action& x, const Action& y) {
    if (std::tie(x.type, x.num_units, x.num_hexes, x.value, x.value2) != std::tie(y.type, y.num_units, y.num_hexes, y.value, y.value2)) {
      return std::tie(x.type, x.num_units, x.num_hexes, x.value, x.value2) < std::tie(y.type, y.num_units, y.num_hexes, y.value, y.value2);
    }
    const auto xu = x.units.begin(), yu = y.units.begin();
    if (!std::equal(xu, xu + x.num_units, yu)) return std::lexicographical_compare(xu, xu + x.num_units, yu, yu + y.num_units);
    const auto xh = x.hexes.begin(), yh = y.hexes.begin();
    return std::lexicographical_compare(xh, xh + x.num_hexes, yh, yh + y.num_hexes);
  };
  // Each attack's canonical form with its index, sorted (by index among equals): of
  // a run of equal forms only the first listed is kept. n log n, not n^2.
  // Reused buffers: no allocation once grown.
  thread_local std::vector<std::pair<Action, size_t>> attacks;
  thread_local std::vector<uint8_t> repeated;
  attacks.clear();
  for (size_t i = 0; i < out->size(); ++i) {
    if ((*out)[i].type == ActionType::kAttack) attacks.emplace_back(canonical((*out)[i]), i);
  }
  if (attacks.size() < 2) return;
  std::sort(attacks.begin(), attacks.end(), [&](const auto& x, const auto& y) {
    if (less(x.first, y.first)) return true;
    if (less(y.first, x.first)) return false;
    return x.second < y.second;
  });
  repeated.assign(out->size(), 0);
  for (size_t k = 1; k < attacks.size(); ++k) {
    if (attacks[k].first == attacks[k - 1].first) repeated[attacks[k].second] = 1;
  }
  size_t kept = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    if (repeated[i]) continue;
    if (kept != i) (*out)[kept] = (*out)[i];
    ++kept;
  }
  out->resize(kept);
}

// 11.1: a move with value 1 is strategic movement; 9.0: a night move off the map.
WG_RULE("7.0/11.1", BgRules::ApplyBgMove);
Status BgRules::ApplyBgMove(State& s, const Action& a, Context& ctx) const {
  if (a.value == 1) {
    if (!cfg_.strategic) return Status::Refused("11.1", "strategic movement is not allowed in this game");
    return ApplySpecialMove(s, a, ctx, true);
  }
  if (a.value != 0) return Status::Refused("7.0", "unknown kind of move");
  if (a.num_units > 0 && a.units[0] >= 0 && a.units[0] < s.num_units && NightExit(s, ctx, a.units[0])) {
    return ApplySpecialMove(s, a, ctx, false);
  }
  return ApplyMove(s, a, ctx);
}

// The end of the combat phase: the mandatory attacks (8.0) are made.
WG_RULE("8.0", BgRules::EndBgCombat);
Status BgRules::EndBgCombat(State& s, const Action& a, Context& ctx) const {
  Status st = EndCombatPhase(s, ctx);
  if (!st.ok()) return Status::Refused("8.0", st.error().message);
  return ApplyCombatStep(s, a, ctx);
}

// An attack; 11.2: cavalry attacked by infantry or artillery alone may first choose to retreat
// (the cavalry_retreat step, the defender's).
WG_RULE("11.2", BgRules::ApplyBgAttack);
Status BgRules::ApplyBgAttack(State& s, const Action& a, Context& ctx) const {
  Status st = CheckAttackRules(s, a, ctx);
  if (!st.ok()) return st;
  if (CavalryMayRetreat(s, ctx, a)) {
    AttackPlan plan;
    st = PrepareAttack(s, a, ctx, &plan);
    if (!st.ok()) return st;
    // The step holds the attack until the cavalry chooses.
    if (!CallStep(s, ctx, steps_, step_cavalry_retreat_, 1 - s.phasing_side) || !HoldAction(s, steps_, a)) {
      return Status::Refused("11.2", "the step stack is full");  // a ruleset bug: CheckStepStack's bound
    }
    Event e;
    e.type = EventType::kNote;
    e.rule = "11.2";
    e.text = "cavalry attacked by infantry/artillery only may retreat two hexes before combat";
    ctx.Emit(e);
    return Status::Ok();
  }
  return ApplyCombatStep(s, a, ctx);
}

// The core's refusals cite generic keys ("movement", "combat"...): cite the rule numbers.
WG_RULE("2.1", BgRules::Apply);
Status BgRules::Apply(State& s, const Action& a, Context& ctx) const {
  Status st = HexRules::Apply(s, a, ctx);
  if (st.ok()) return st;
  const auto it = data().rule_numbers.find(st.error().rule);
  if (it == data().rule_numbers.end()) return st;
  return Status::Refused(it->second, st.error().message);
}

// --- Loading -----------------------------------------------------------------------------

namespace {

Result<std::shared_ptr<const Game>> MakeBlueAndGray(const GameParams& params) {
  return LoadHexGame(FindRulesetFolder("blue_and_gray"), params,
                     {"exclusive_rules", "strategic_movement", "victory_points"},
                     [](const Game& game, RulesetDocument& doc, ErrorList*) -> std::unique_ptr<Rules> {
                       return std::make_unique<BgRules>(game, ReadConfig(game, doc));
                     });
}

}  // namespace

WG_REGISTER_RULESET((RulesetInfo{"blue_and_gray", "Blue & Gray (SPI, 1975): Chattanooga", "blue_and_gray"}),
                    MakeBlueAndGray);

}  // namespace wg::blue_and_gray
