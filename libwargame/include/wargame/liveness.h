// Liveness: a game never stops before its end with nobody able to act.
//
// PlayToEnd plays a session with two players until the game is over and says
// how it stopped: at its end, stuck (no legal action listed while the game is
// not over: the decision asked of a side has no answer), a listed action
// refused (the listing and Apply disagree), or the action limit. `wargame
// simulate` classifies its games with it, and the rulesets' tests run it over
// AI and random games.
#pragma once

#include <string>

#include "wargame/players.h"
#include "wargame/session.h"

namespace wg {

enum class GameStop { kFinished, kStuck, kRefused, kActionLimit };

struct PlayedGame {
  GameStop stop = GameStop::kActionLimit;
  long actions = 0;    // actions applied by this call
  std::string detail;  // kStuck: the decision nobody can answer; kRefused: the action and why
};

// players[k] chooses for side k. Applies at most max_actions actions.
PlayedGame PlayToEnd(Session& session, Player* const players[2], long max_actions);

// "finished", "stuck", "refused", "action limit".
const char* GameStopName(GameStop stop);

}  // namespace wg
