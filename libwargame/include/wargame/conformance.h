// The conformance harness every ruleset runs (tests/conformance_test.cc and
// each ruleset's own tests): the game loads; N seeded random games reach the
// end taking only legal actions; a clone equals the original; saving,
// loading and continuing equals never having saved; a refused action leaves
// the state unchanged; the ruleset's invariants hold after every action.
#pragma once

#include <cstdint>
#include <string>

#include "wargame/error.h"

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

int ScaledGameCount(int n);  // n * WG_GAMES_PERCENT / 100, at least 1

ConformanceReport RunConformance(const std::string& game_spec, const ConformanceOptions& options);


}  // namespace wg
