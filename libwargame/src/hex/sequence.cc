// The sequence of play: start, phases, the end of the game; listing and applying dispatch by decision.
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"

namespace wg {

// --- Sequence -------------------------------------------------------------------------------

void HexRules::Start(State& s, Context& ctx) const {
  Event t;
  t.type = EventType::kTurnStart;
  t.a = s.turn;
  ctx.Emit(t);
  OnTurnStart(s, ctx);
  if (PhaseApplies(s, s.phase)) {
    Event e;
    e.type = EventType::kPhaseStart;
    e.side = static_cast<int8_t>(s.phasing_side);
    e.text = game_.turns.phases[s.phase].c_str();
    ctx.Emit(e);
    OnPhaseStart(s, ctx);
  } else {
    s.decision = DecisionType::kNone;
  }
  if (s.decision == DecisionType::kNone && !s.game_over) AdvancePhase(s, ctx);
}

void HexRules::AdvancePhase(State& s, Context& ctx) const {
  OnPhaseEnd(s, ctx);
  for (int guard = 0; guard < 1000 && !s.game_over; ++guard) {
    ++s.phase;
    if (s.phase >= game_.turns.phases.size()) {
      s.phase = 0;
      ++s.player_turn;
      if (s.player_turn >= game_.turns.order.size()) {
        s.player_turn = 0;
        VpOnTurnEnd(s, ctx);  // victory.h: place_held_each_turn, as game-turn s.turn ends
        if (s.turn >= game_.turns.num_turns()) {
          EndGame(s, ctx, data().Rule("victory"));
          return;
        }
        ++s.turn;
        Event t;
        t.type = EventType::kTurnStart;
        t.a = s.turn;
        ctx.Emit(t);
        OnTurnStart(s, ctx);
        if (s.game_over) return;
      }
      s.phasing_side = static_cast<uint8_t>(game_.turns.order[s.player_turn]);
    }
    if (!PhaseApplies(s, s.phase)) continue;
    Event e;
    e.type = EventType::kPhaseStart;
    e.side = static_cast<int8_t>(s.phasing_side);
    e.text = game_.turns.phases[s.phase].c_str();
    ctx.Emit(e);
    s.decision = DecisionType::kNone;
    OnPhaseStart(s, ctx);
    if (s.game_over) return;
    if (s.decision != DecisionType::kNone) return;
    OnPhaseEnd(s, ctx);
  }
}

void HexRules::EndGame(State& s, Context& ctx, const char* rule) const {
  if (s.game_over) return;
  OnGameEnd(s, ctx);
  VpOnGameEnd(s, ctx);  // victory.h: place_held_at_end
  s.game_over = 1;
  s.decision = DecisionType::kNone;
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
}

// --- Listing ------------------------------------------------------------------------------

void HexRules::LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const {
  out->clear();
  if (s.game_over) return;
  const HexStatePin pin(ctx, s);
  switch (s.decision) {
    case DecisionType::kMovement: {
      ListMoves(s, ctx, out);
      ListPhaseActions(s, ctx, out);
      // Ending the phase is listed only if the ruleset accepts it now (e.g.
      // reinforcements that must enter first): tried on a copy.
      bool listed = false;
      for (const Action& a : *out) listed = listed || a.type == ActionType::kEndPhase;
      if (!listed) {
        State copy;
        std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
        Context quiet(game_, nullptr, nullptr, &ctx.scratch());
        if (Apply(copy, Action::EndPhase(), quiet).ok()) out->push_back(Action::EndPhase());
      }
      break;
    }
    case DecisionType::kCombat:
      ListAttacks(s, ctx, out);
      ListPhaseActions(s, ctx, out);
      {
        State copy;
        std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
        Context quiet(game_, nullptr, nullptr, &ctx.scratch());
        if (EndCombatPhase(copy, quiet).ok()) out->push_back(Action::EndPhase());
      }
      break;
    case DecisionType::kRetreat:
      RetreatPaths(s, ctx, s.combat.current, s.combat.retreat_hexes, out);
      ListPhaseActions(s, ctx, out);
      break;
    case DecisionType::kAdvance:
      ListAdvances(s, ctx, out);
      break;
    default:
      ListPhaseActions(s, ctx, out);
      break;
  }
}


// --- Applying --------------------------------------------------------------------------------

Status HexRules::Apply(State& s, const Action& a, Context& ctx) const {
  if (s.game_over) return Status::Refused("", "the game is over");
  if (a.type == ActionType::kConcede) {
    s.conceded_by = s.decision_side;
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(s.decision_side);
    e.text = "concedes";
    ctx.Emit(e);
    EndGame(s, ctx, data().Rule("concession"));
    return Status::Ok();
  }
  {
    Status st = ApplyPhaseAction(s, a, ctx);
    if (st.ok() || !st.error().message.empty()) return st;
  }
  switch (s.decision) {
    case DecisionType::kMovement:
      switch (a.type) {
        case ActionType::kMove: return ApplyMove(s, a, ctx);
        case ActionType::kEnter: return ApplyEnter(s, a, ctx);
        case ActionType::kChangeMode: return ApplyModeChange(s, a, ctx);
        case ActionType::kEndPhase: AdvancePhase(s, ctx); return Status::Ok();
        default: break;
      }
      break;
    case DecisionType::kCombat:
      switch (a.type) {
        case ActionType::kAttack: return ApplyAttack(s, a, ctx);
        case ActionType::kEndPhase: {
          Status st = EndCombatPhase(s, ctx);
          if (!st.ok()) return st;
          AdvancePhase(s, ctx);
          return Status::Ok();
        }
        default: break;
      }
      break;
    case DecisionType::kRetreat:
      if (a.type == ActionType::kRetreat) return ApplyRetreat(s, a, ctx);
      break;
    case DecisionType::kAdvance:
      if (a.type == ActionType::kAdvance) return ApplyAdvance(s, a, ctx);
      break;
    default:
      break;
  }
  return Status::Refused(data().Rule("sequence"), "a " + std::string(ActionTypeName(a.type)) +
                                         " action is not allowed now (the decision is: " +
                                         DescribeDecision(s) + ")");
}

}  // namespace wg
