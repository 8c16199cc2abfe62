#include "wargame/liveness.h"

#include "wargame/action_text.h"

namespace wg {

PlayedGame PlayToEnd(Session& session, Player* const players[2], long max_actions) {
  PlayedGame out;
  std::vector<Action> legal;
  while (!session.over()) {
    if (out.actions >= max_actions) {
      out.stop = GameStop::kActionLimit;
      return out;
    }
    session.LegalActions(&legal);
    if (legal.empty()) {
      out.stop = GameStop::kStuck;
      out.detail = "no legal action but the game is not over (" + session.DescribeDecision() + ")";
      return out;
    }
    const State& s = session.state();
    const Action a = players[s.decision_side & 1]->Choose(session.game(), s, legal);
    const Status st = session.Apply(a);
    if (!st.ok()) {
      out.stop = GameStop::kRefused;
      out.detail = "a listed action was refused: " + ActionToText(session.game(), a) + ": " + st.ToString();
      return out;
    }
    ++out.actions;
  }
  out.stop = GameStop::kFinished;
  return out;
}

const char* GameStopName(GameStop stop) {
  switch (stop) {
    case GameStop::kFinished: return "finished";
    case GameStop::kStuck: return "stuck";
    case GameStop::kRefused: return "refused";
    case GameStop::kActionLimit: return "action limit";
  }
  return "?";
}

}  // namespace wg
