// The conformance harness every ruleset runs (tests/conformance_test.cc and
// each ruleset's own tests): the game loads; N seeded random games reach the
// end taking only legal actions; a clone equals the original; saving,
// loading and continuing equals never having saved; a refused action leaves
// the state unchanged; the ruleset's invariants hold after every action.
//
// The referee (RunReferee, RefereePhaseEnd) checks a hex game like a referee
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

#include "wargame/error.h"
#include "wargame/game.h"
#include "wargame/pathfinder.h"

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

// --- The referee -------------------------------------------------------------------

struct RefereeHooks {
  using UnitQuery = std::function<int(const Game&, const State&, UnitId)>;
  using UnitTest = std::function<bool(const Game&, const State&, UnitId)>;
  // Defaults: the combat attributes' current values (Game::Current).
  UnitQuery attack, defense;
  // Default: six hexes if the defense is above zero, else none.
  std::function<ZocKind(const Game&, const State&, UnitId)> zoc;
  // May u (phasing, on the map) still attack now? Default: not attacked this
  // phase and an attack above zero.
  UnitTest may_attack;
  // May phasing unit u attack the units in `hex` (whether it may attack at all is
  // may_attack)? Default: `hex` is adjacent (B&G 8.7: a battery also fires at range).
  std::function<bool(const Game&, const State&, UnitId, int hex)> reaches;
  // Does phasing unit u's ZOC oblige the enemy units in it to be attacked?
  // Default: yes (S&B 7.8: units that advanced after a cavalry retreat do not).
  UnitTest obliges;
  // Does u count for stacking? Default: its kind's `stacking:`.
  UnitTest counts_for_stacking;
  // Ruleset checks of a phase end: `last` is the last State of phase
  // `last.phase`, `next` the first State after it.
  std::function<void(const Game&, const State& last, const State& next, ErrorList*)> extra;
};

struct RefereeOptions {
  int games = 10;
  uint64_t seed = 1;
  int max_actions = 50000;
  std::string players = "random,random";  // each "random" or "ai"
  RefereeHooks hooks;
};

struct RefereeReport {
  ErrorList violations;  // "game G turn T phase P: ..."
  int games_finished = 0;
  long phases_checked = 0;
  long actions = 0;
};

// The violations of the phase that `last` ends (see above), into `out`.
void RefereePhaseEnd(const Game& game, const RefereeHooks& hooks, const State& last, const State& next,
                     ErrorList* out);
// An attack declared in the combat phase (`after` marks the declared units attacked
// and the defenders defended): it may leave no obligation that could be met
// impossible (7.1 / 8.0).
void RefereeDeclaration(const Game& game, const RefereeHooks& hooks, const State& before, const State& after,
                        ErrorList* out);
// Plays games (seeds seed, seed+1, ...) and referees every phase end.
RefereeReport RunReferee(const std::string& game_spec, const RefereeOptions& options);
// One shard of a ruleset's referee run (its tests run several shards in
// parallel): ScaledGameCount(games) games from `seed` between `players`
// ("random,random", "ai,ai") with the ruleset's `hooks`. Returns the
// violations, and an error if a game did not finish or the games checked
// fewer than `min_phases_per_game` phases each (a run that checked nothing).
ErrorList RefereeShard(const std::string& game_spec, const RefereeHooks& hooks, const std::string& players, int games,
                       uint64_t seed, long min_phases_per_game);

// --- The analysis agrees with play ---------------------------------------------------
// In random games of a hex game, at each combat decision, up to `attacks_per_decision`
// listed attacks are analysed (HexRules::AnalyzeAttack) and applied once per die face
// on copies of the State: the attack event (strengths, column) and the results over the
// faces must be exactly the analysis' distribution, and an automatic attack (S&B 7.1)
// must roll no die and eliminate its defenders. An attack that first asks a decision
// (no die rolled, no result yet) is counted as deferred.
struct AnalysisCheckReport {
  ErrorList mismatches;
  long attacks = 0, faces = 0, automatic = 0, deferred = 0;
};
AnalysisCheckReport CheckAnalysisAgainstPlay(const std::string& game_spec, int games, uint64_t seed = 1,
                                             int attacks_per_decision = 3);

}  // namespace wg
