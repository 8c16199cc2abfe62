// Victory-point schedules as data: the `points:` list of the `victory:` section.
//
//   victory:
//     kind: differential            # or thresholds: how the totals decide (game_loader.h)
//     levels: [...]
//     points:                       # who scores what, each entry citing its rule
//       - {rule: "9.1", for: enemy_strength_eliminated, attribute: strength, points: 1}
//       - {rule: "9.1", for: enemy_unit_eliminated, kinds: [hq], points: 2}
//       - {rule: "9.2", for: place_first_controlled, places: [Ford], points: 1}
//       - {rule: "9.3", for: place_held_each_turn, places: [Crossroads], side: red, points: 1}
//       - {rule: "9.4", for: place_held_at_end, places: [Crossroads], points: 3}
//
// `for` is one of
//   enemy_unit_eliminated      `points` for each enemy unit eliminated (of `kinds`, if given)
//   enemy_strength_eliminated  `points` per point of the eliminated enemy unit's printed `attribute`
//                              on the face it had (of `kinds`, if given)
//   place_first_controlled     `points` the first time the side gains control of each of `places`
//                              (once per place and side in the game)
//   place_held_each_turn       `points` per place of `places` the side controls at the end of
//                              each game-turn (the last one included)
//   place_held_at_end          `points` per place of `places` the side controls when the game ends
// `side` is the scoring side (default `any`: both sides score on the same terms). Control is
// the hex engine's place control (combat.control_kinds: the side that last occupied or moved
// through the place), so every listed place must be of a tracked kind.
//
// The schedule composes with a ruleset's C++ awards (Rules hooks calling HexRules::AwardVp):
// both add to the same totals and ledger, which the thresholds or the levels then judge.
// place_first_controlled remembers what it gave in State::once_awarded, bits 32 to 63; a
// ruleset's own one-time awards use bits 0 to 31.
#pragma once

#include <string>
#include <vector>

#include "wargame/state.h"

namespace wg {

class Context;
class Game;
class RulesetDocument;

inline constexpr int kVpScheduleFirstBit = 32;  // State::once_awarded bits the schedule may use

struct VpScheduleEntry {
  enum class For {
    kEnemyUnitEliminated,
    kEnemyStrengthEliminated,
    kPlaceFirstControlled,
    kPlaceHeldEachTurn,
    kPlaceHeldAtEnd,
  };
  For what = For::kEnemyUnitEliminated;
  std::string rule;                 // cited by every award event
  int side = -1;                    // scoring side, -1 = either
  int points = 0;
  std::vector<int> kinds;           // eliminations: kinds that count (empty: all)
  int attribute = -1;               // enemy_strength_eliminated: the attribute counted
  std::vector<int> places;          // place awards: indices into Game::map.places
  std::vector<std::string> texts;   // place awards: one event text per place; else texts[0]
  int first_bit = 0;                // place_first_controlled: its first bit in once_awarded

  // The once_awarded bit of (places[k], side) for place_first_controlled.
  int Bit(int k, int scoring_side) const {
    return first_bit + (side < 0 ? 2 * k + scoring_side : k);
  }
};

// Reads victory.points (after the map and the units are loaded). Errors are
// recorded on the section's reader (file:line:col: victory.points[i].key: message).
void LoadVictoryPoints(RulesetDocument& doc, Game* game);

// Adds points to a side's total and to the current turn's ledger, and emits the
// kVictoryPoints event (unit: the unit eliminated, hex: the place's first hex).
void AwardVictoryPoints(State& s, Context& ctx, int side, int points, const char* rule, const char* why,
                        UnitId unit = kNoUnit, int hex = -1);

// The schedule's awards, called by the hex engine where they happen.
void VpOnEliminated(State& s, Context& ctx, UnitId u);          // after u is eliminated
void VpOnControl(State& s, Context& ctx, int place, int side);  // side has just gained control
void VpOnTurnEnd(State& s, Context& ctx);                       // the game-turn s.turn ends
void VpOnGameEnd(State& s, Context& ctx);                       // before the winner is judged

}  // namespace wg
