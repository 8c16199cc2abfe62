#include "wargame/liveness.h"

#include "wargame/action_text.h"

namespace wg {

PlayedGame PlayToEnd(Session& session, Player* const players[2], long max_actions) {
  PlayedGame out;
  std::vector<Action> legal;
  LegalActionList cheap;  // for a player that chooses by the count alone (issue 15)
  while (!session.over()) {
    if (out.actions >= max_actions) {
      out.stop = GameStop::kActionLimit;
      return out;
    }
    Player* p = players[session.state().decision_side & 1];
    const bool by_count = p->ChoosesByCount();
    size_t n = 0;
    if (by_count) {
      session.LegalActions(&cheap);
      n = cheap.size();
    } else {
      session.LegalActions(&legal);
      n = legal.size();
    }
    if (n == 0) {
      out.stop = GameStop::kStuck;
      out.detail = "no legal action but the game is not over (" + session.DescribeDecision() + ")";
      return out;
    }
    const Action a = by_count ? cheap[p->ChooseIndex(n)] : p->Choose(session.game(), session.state(), legal);
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
