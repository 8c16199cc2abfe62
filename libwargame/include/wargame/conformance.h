// The conformance harness every ruleset runs (tests/conformance_test.cc and
// each ruleset's own tests): the game loads; N seeded random games reach the
// end taking only legal actions; a clone equals the original; saving,
// loading and continuing equals never having saved; a refused action leaves
// the state unchanged; the ruleset's invariants hold after every action.
//
// The referee (hex_rules.h: RunReferee, RefereePhaseEnd) checks a hex game like a referee
// would: at the end of each phase it recomputes from the State alone, never
// through the code that enforces the rules, what the phase required, and
// reports every violation:
//   combat  no phasing unit in an enemy ZOC that has not attacked while it still
//           could (an enemy hex it reaches none of whose units was attacked), no
//           enemy unit in a friendly ZOC left unattacked while a phasing unit
//           that reaches it could still attack it; and no attack declaration left
//           such an obligation impossible (S&B 7.1, B&G 8.0; `combat: {mandatory}`)
//   phases  no phase ends in the middle of a combat (losses, a stand, a retreat
//           or an advance still owed: S&B 4.5)
//   stacking at the end of the movement and combat phases no hex holds more
//           units of a side than the limit (S&B 5.5)
//   places  no hex holds units of both sides
// and that games end: a game with no legal action that is not over is stuck.
// Facts that differ per ruleset (a unit's strengths and ZOC, who is exempt)
// come from RefereeHooks; each default reads the Game's data.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wargame/error.h"
#include "wargame/game.h"

namespace wg {

struct ConformanceOptions {
  int games = 10;
  uint64_t seed = 1;
  int max_actions = 50000;  // per game: a game that does not end by then fails
  bool save_load = true;    // round-trip one game through Save/Load midway
};

struct ConformanceReport {
  ErrorList errors;
  int games_finished = 0;
  long actions = 0;
  int wins[2] = {0, 0};
  int draws = 0;
};

ConformanceReport RunConformance(const std::string& game_spec, const ConformanceOptions& options);

int ScaledGameCount(int n);  // n * WG_GAMES_PERCENT / 100, at least 1

class Session;

// Every die is a chance step (docs/steps.md, "Chance"): `a` applied to the session's State by a
// Context that stops at chance rolls no die itself (no die-roll event while it applies); each die
// is then asked at its chance step (an explicit one, or the held roll of a die rolled inside the
// action), the stack checked there (CheckStepStack), and given from `rng`; and the State reached
// is the one the session reaches applying `a` with those dice supplied. Ok, or what differs.
// The session is unchanged. `dice` (if given) receives the dice in order; `at_die` (if given)
// sees each chance step's State before its die.
Status CheckStoppingAtEveryDie(const Session& session, const Action& a, RngState* rng, std::vector<int>* dice = nullptr,
                               const std::function<void(const State&)>& at_die = {});

// The referee of a hex game's phases (RefereeHooks, RunReferee, RefereeShard) and
// the check of the hex engine's attack analysis against play (CheckAnalysisAgainstPlay)
// are the hex engine's: hex_rules.h.

}  // namespace wg
