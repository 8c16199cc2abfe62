// The sequence of play as steps: the core's step table, start, phases (a phase is the step of its
// name), the end of the game; listing and applying ask the top step.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"

namespace wg {

// --- Steps --------------------------------------------------------------------------------

HexRules::HexRules(const Game& game) : game_(game) {
  const HexGameData& d = data();
  using A = const Action&;
  StepDef m = NewStep("movement", d.Rule(RuleKey::kMovement), DecisionType::kMovement);
  m.list = [this](const State& s, Context& ctx, std::vector<Action>* out) { ListMovementStep(s, ctx, out); };
  // One handler per action (ApplyMovementStep is all four, for a ruleset's refinement).
  m.On(ActionType::kMove, [this](State& s, A a, Context& ctx) { return ApplyMove(s, a, ctx); });
  m.On(ActionType::kEnter, [this](State& s, A a, Context& ctx) { return ApplyEnter(s, a, ctx); });
  m.On(ActionType::kChangeMode, [this](State& s, A a, Context& ctx) { return ApplyModeChange(s, a, ctx); });
  m.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return ApplyEndPhase(s, ctx); });
  m.begin = [this](State& s, Context& ctx) { BeginMovementPhase(s, ctx); };
  m.end_always_accepted = true;  // ApplyEndPhase: the next phase
  step_movement_ = steps_.Register(std::move(m));
  StepDef c = NewStep("combat", d.Rule(RuleKey::kCombat), DecisionType::kCombat);
  c.list = [this](const State& s, Context& ctx, std::vector<Action>* out) { ListCombatStep(s, ctx, out); };
  c.On(ActionType::kAttack, [this](State& s, A a, Context& ctx) { return ApplyAttack(s, a, ctx); });
  c.On(ActionType::kEndPhase, [this](State& s, A a, Context& ctx) { return ApplyCombatStep(s, a, ctx); });
  c.begin = [this](State& s, Context& ctx) { BeginCombatPhase(s, ctx); };
  step_combat_ = steps_.Register(std::move(c));
  StepDef r = NewStep("retreat", d.Rule(RuleKey::kRetreat), DecisionType::kRetreat, Takes(ActionType::kRetreat));
  r.list = [this](const State& s, Context& ctx, std::vector<Action>* out) { ListRetreatStep(s, ctx, out); };
  r.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyRetreatStep(s, a, ctx); };
  step_retreat_ = steps_.Register(std::move(r));
  StepDef v = NewStep("advance", d.Rule(RuleKey::kAdvance), DecisionType::kAdvance, Takes(ActionType::kAdvance));
  v.list = [this](const State& s, Context& ctx, std::vector<Action>* out) { ListAdvanceStep(s, ctx, out); };
  v.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyAdvanceStep(s, a, ctx); };
  step_advance_ = steps_.Register(std::move(v));
  IndexControlHexes();
}

void HexRules::LegacySaveStates(const State& s, int format, std::vector<State>* out) const {
  if (format >= 5) return;
  State old;
  LegacyFrameState(s, &old);
  out->push_back(old);
  if (format > 2) return;
  for (uint8_t stage = 1; stage <= 2; ++stage) {
    out->push_back(old);
    out->back().combat.legacy_stage = stage;
  }
}

// The combat table's die and every die table's, at least a d6 (the hooks' own rolls).
int HexRules::MaxDieFaces() const {
  int faces = std::max(6, data().crt.die.sides);
  for (const DieTable& t : data().tables.tables) faces = std::max(faces, t.die.sides);
  return faces;
}

// After the ruleset's constructor registered its steps: the CRT's die as a chance
// step (a search stops there and lists its outcomes; a referee is asked for the
// die there). A ruleset that registered its own "combat_roll" keeps it.
void HexRules::FinishSteps() {
  RegisterProcedure();
  step_combat_roll_ = steps_.Find("combat_roll");
  if (step_combat_roll_ != kNoStep) {
    RegisterAfterCombat();
    return;
  }
  const HexGameData& d = data();
  StepDef roll = NewStep("combat_roll", d.Rule(RuleKey::kCombat), DecisionType::kCombat);
  roll.chance = ChanceDef{d.crt.die.sides, d.crt.die.count, "combat"};
  roll.resolve = [this](State& s, Context& ctx, int value) { ResolveCombatRoll(s, ctx, value); };
  step_combat_roll_ = steps_.Register(std::move(roll));
  RegisterAfterCombat();
}

// The engine's own points of the turn procedure, after the ruleset's (its constructor): a
// phase's stacking checkpoint, and the places held as a game-turn ends.
void HexRules::RegisterProcedure() {
  const HexGameData& d = data();
  if (d.stacking_check == HexGameData::StackingCheck::kEliminate) {
    for (int phase : {d.phase_movement, d.phase_combat}) {
      if (phase < 0) continue;
      procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(phase)], d.Rule(RuleKey::kStacking),
                    "overstacked units are eliminated (stacking_check: eliminate)", [this](State& s, Context& ctx) {
                      EnforceStacking(s, ctx, 0, data().Rule(RuleKey::kStacking));
                      EnforceStacking(s, ctx, 1, data().Rule(RuleKey::kStacking));
                    });
    }
  }
  procedure_.At(ProcedureAt::kTurnEnd, "", d.Rule(RuleKey::kVictory), "places held each game-turn score (victory.points)",
                [](State& s, Context& ctx) { VpOnTurnEnd(s, ctx); });
}

// Whether the phase happens this player-turn: its step says (StepDef::applies); a phase
// without one always happens.
bool HexRules::PhaseHappens(const State& s, int phase) const {
  if (phase < 0 || phase >= static_cast<int>(game_.turns.phases.size())) return true;
  const StepKind k = steps_.Find(game_.turns.phases[static_cast<size_t>(phase)]);
  const auto& applies = steps_.Def(k).applies;
  return k == kNoStep || !applies || applies(s);
}

// A combat's follow-up (hex/retreat.cc), registered after every other step so that the
// kinds saved States hold keep their numbers.
void HexRules::RegisterAfterCombat() {
  StepDef f = NewStep("after_combat", data().Rule(RuleKey::kRetreat), DecisionType::kNone);
  f.resume = [this](State& s, Context& ctx, int) { ResumeAfterCombat(s, ctx); };
  step_after_combat_ = steps_.Register(std::move(f));
}

void HexRules::BeginPhase(State& s, Context& ctx) const {
  ClearSteps(s);
  const StepKind k = steps_.Find(PhaseName(s));
  if (k != kNoStep) EnterStep(s, ctx, steps_, k, s.phasing_side);
}

void HexRules::ListEndPhaseIfAccepted(const State& s, Context& ctx, std::vector<Action>* out) const {
  for (const Action& a : *out) {
    if (a.type == ActionType::kEndPhase) return;
  }
  State copy;
  std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
  Context quiet(game_, nullptr, nullptr, &ctx.scratch());
  if (Apply(copy, Action::EndPhase(), quiet).ok()) out->push_back(Action::EndPhase());
}

// --- Sequence: turn -> player-turn -> phase ---------------------------------------------------

namespace {

void EmitTurnStart(const State& s, Context& ctx) {
  Event t;
  t.type = EventType::kTurnStart;
  t.a = s.turn;
  ctx.Emit(t);
}

void EmitPhaseStart(const Game& g, const State& s, Context& ctx) {
  Event e;
  e.type = EventType::kPhaseStart;
  e.side = static_cast<int8_t>(s.phasing_side);
  e.text = g.turns.phases[s.phase].c_str();
  ctx.Emit(e);
}

}  // namespace

void HexRules::Start(State& s, Context& ctx) const {
  EmitTurnStart(s, ctx);
  procedure_.Run(ProcedureAt::kTurnBegin, "", s, ctx);
  if (PhaseHappens(s, s.phase)) {
    EmitPhaseStart(game_, s, ctx);
    BeginPhase(s, ctx);
  } else {
    ClearSteps(s);
  }
  if (StepDepth(s) == 0 && !s.game_over) AdvancePhase(s, ctx);  // the first phase was over at once
}

// The procedure goes on from the phase that ends: the phase's end, the next phase (the next
// player-turn, the next game-turn, the end of the game) until a phase whose step stays on the
// stack to ask a decision.
void HexRules::AdvancePhase(State& s, Context& ctx) const {
  EndPhase(s, ctx);
  for (int guard = 0; guard < 1000 && !s.game_over; ++guard) {
    ++s.phase;
    if (s.phase >= game_.turns.phases.size()) {
      s.phase = 0;
      ++s.player_turn;
      if (s.player_turn >= game_.turns.order.size()) {
        s.player_turn = 0;
        procedure_.Run(ProcedureAt::kTurnEnd, "", s, ctx);  // as game-turn s.turn ends
        if (s.game_over) return;
        if (s.turn >= game_.turns.num_turns()) {
          EndGame(s, ctx, data().Rule(RuleKey::kVictory));
          return;
        }
        ++s.turn;
        EmitTurnStart(s, ctx);
        procedure_.Run(ProcedureAt::kTurnBegin, "", s, ctx);
        if (s.game_over) return;
      }
      s.phasing_side = static_cast<uint8_t>(game_.turns.order[s.player_turn]);
    }
    if (!PhaseHappens(s, s.phase)) continue;
    EmitPhaseStart(game_, s, ctx);
    BeginPhase(s, ctx);
    if (s.game_over || StepDepth(s) > 0) return;  // the phase's step asks
    EndPhase(s, ctx);  // over at once
  }
}

void HexRules::EndPhase(State& s, Context& ctx) const {
  procedure_.Run(ProcedureAt::kPhaseEnd, PhaseName(s), s, ctx);
}

void HexRules::EndGame(State& s, Context& ctx, const char* rule) const {
  if (s.game_over) return;
  procedure_.Run(ProcedureAt::kGameEnd, "", s, ctx);  // the ruleset's end-of-game awards
  VpOnGameEnd(s, ctx);  // victory.h: place_held_at_end
  s.game_over = 1;
  ClearSteps(s);
  const VictoryRules& v = game_.victory;
  Event e;
  e.type = EventType::kGameEnd;
  e.rule = rule;
  if (s.conceded_by != 0xFF) {
    s.winner = static_cast<int8_t>(1 - s.conceded_by);
    e.text = "concession";
  } else if (v.kind == VictoryRules::Kind::kThresholds) {
    // The side with more VPs wins if it reached its minimum; otherwise a draw.
    const int lead = s.vp[0] > s.vp[1] ? 0 : (s.vp[1] > s.vp[0] ? 1 : -1);
    s.winner = static_cast<int8_t>(lead >= 0 && s.vp[lead] >= v.thresholds[lead] ? lead : -1);
  } else {
    const int diff = s.vp[0] - s.vp[1];
    s.winner = -1;
    for (size_t i = 0; i < v.levels.size(); ++i) {
      if (diff >= v.levels[i].min && diff <= v.levels[i].max) {
        s.winner = static_cast<int8_t>(v.levels[i].winner);
        s.level = static_cast<uint8_t>(i);
        e.text = v.levels[i].name.c_str();
        break;
      }
    }
  }
  e.side = s.winner;
  e.a = s.vp[0];
  e.b = s.vp[1];
  ctx.Emit(e);
  procedure_.Run(ProcedureAt::kGameOver, "", s, ctx);
}

// --- Listing and applying: the top step's handler -------------------------------------------

void HexRules::LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const {
  out->clear();
  if (s.game_over) return;
  const HexStatePin pin(ctx, s);
  HexScratch& hs = Hs(ctx);
  hs.ClearListedMoves();
  ListStep(steps_, s, ctx, out);
  // The moves (runs over the scratch's candidates) go first, as they were listed.
  const size_t moves = hs.NumListedMoves();
  if (moves == 0) return;
  const size_t others = out->size();
  out->resize(moves + others);
  std::move_backward(out->begin(), out->begin() + static_cast<std::ptrdiff_t>(others), out->end());
  size_t i = 0;
  for (const HexScratch::MoveRun& run : hs.listed_runs) {
    const CandidateRun view = hs.View(run);
    HexScratch::UnitMoves& slot = hs.unit_moves[run.cache];
    const Action* all = slot.BuildAll();
    if (run.whole) {
      std::copy(all, all + run.count, out->begin() + static_cast<std::ptrdiff_t>(i));
      i += run.count;
      continue;
    }
    for (uint32_t k = 0; k < slot.size(); ++k) {
      if (view.Kept(k)) (*out)[i++] = all[k];
    }
  }
}

void HexRules::ListLegal(const State& s, Context& ctx, LegalActionList* out) const {
  out->clear();
  if (s.game_over) return;
  const HexStatePin pin(ctx, s);
  HexScratch& hs = Hs(ctx);
  hs.ClearListedMoves();
  ListStep(steps_, s, ctx, &out->others);
  // The kept sets are handed over (the list's old buffer becomes the scratch's, reused
  // by the next listing), not copied; a span per run.
  out->words.swap(hs.listed_words);
  uint32_t end = 0;
  for (const HexScratch::MoveRun& run : hs.listed_runs) {
    end += run.count;
    const HexScratch::UnitMoves& m = hs.unit_moves[run.cache];
    out->spans.push_back(
        CandidateRun{m.forest(), m.ends.data(), run.whole ? nullptr : out->words.data() + run.begin, m.w0, run.count});
    out->ends.push_back(end);
  }
  hs.ClearListedMoves();  // the runs now index the list's buffer
}

Status HexRules::Apply(State& s, const Action& a, Context& ctx) const {
  if (s.game_over) return Status::Refused("", "the game is over");
  if (a.type == ActionType::kConcede) {
    s.conceded_by = s.decision_side;
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(s.decision_side);
    e.text = "concedes";
    ctx.Emit(e);
    EndGame(s, ctx, data().Rule(RuleKey::kConcession));
    return Status::Ok();
  }
  return ApplyStep(*this, steps_, s, a, ctx, data().Rule(RuleKey::kSequence));
}

}  // namespace wg
