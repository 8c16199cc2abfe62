// Stars and Bars (Perryville, 8 October 1862): the ruleset's hooks on the
// standard HexRules flow. RULES.md maps every rule section to its hook.
//
// Sections of ruleset.yaml read here (beyond the generic and hex ones):
//   battery_parents  {battery unit id: brigade unit id}  (12.2)
// Tables used from `tables:`: bombardment (8.2), reorganization (9.0),
// cavalry_withdrawal (7.8), untrained_advance (12.1), union_initiative (12.4).
#pragma once

#include <cstdint>
#include <vector>

#include "wargame/hex_rules.h"

namespace wg::stars_and_bars {

// Ruleset bits of UnitState::flags.
enum SbFlag : uint16_t {
  kSbReleaseNext = 1u << 8,    // 5.6: attacked or bombarded while unreleased
  kSbReorganized = 1u << 9,    // 9.0: tried reorganization this phase
  kSbStartedInEzoc = 1u << 10, // 12.6: began the movement phase in an EZOC
  kSbStartedWithHq = 1u << 11, // 12.4.1: began the player-turn stacked with an HQ
  kSbHasDetached = 1u << 12,   // 10.1: this brigade has a regiment detached
  kSbDetachedNow = 1u << 13,   // 10.2: this regiment was detached this phase
  kSbCavRetreated = 1u << 14,  // 7.8: retreated before combat this player-turn
  kSbNoAdvance = 1u << 15,     // 12.1: rolled "no advance"
};

// The start-of-turn choices (12.3, 12.6): the argument 0 of the `turn_choice` step.
enum SbChoice : uint8_t {
  kNoChoice = 0,
  kChoiceSill = 1,
  kChoiceWithers = 2,
  kChoiceForcedMarch = 3,
};

// kCustom action codes (Action::value).
inline constexpr int kCustomReorganize = 1;  // units [unit] or [unit, hq]
// The advance step's argument 0 when it is 7.8's, after a cavalry retreat before combat
// (the attackers adjacent to the hex the cavalry left may advance into it).
inline constexpr int16_t kCavalryAdvanceArg = 1;

// The ruleset's per-game state (State::ext). Fields ordered so there is no padding.
struct SbExt {
  int16_t bombarded_hexes[24];  // 8.2: target hexes already bombarded this phase
  int16_t convoy_unit[4];       // 5.8: convoys eliminated in the combat in progress
  int16_t convoy_hex[4];
  uint8_t num_bombarded;
  uint8_t num_convoys;
  uint8_t unused_1;             // always 0 (was the pending choice, now the turn_choice step's argument):
                                // kept so the State's bytes, which saves hash, stay where they were
  uint8_t sill;                 // 12.3: 0 undecided, 1 received, 2 declined
  uint8_t withers;              // 12.3: 0 undecided, 1 received, 2 declined
  uint8_t forced_march_used;    // 12.6
  uint8_t forced_march_active;  // 12.6: this movement phase
  uint8_t initiative_corps;     // 12.4: 0 none, 1..3 = I..III Corps restricted this turn
  uint8_t first_combat_turn;    // 12.4: turn of the first combat (0 none yet)
  uint8_t moved_any;            // 10.1: a phasing unit has moved this phase
  // Always 0. Saves of format 1-4 hashed here what a combat result owed [attacker,
  // defender] (7.3 losses, 7.5.2 Stand disruption, the retreat and the Stand decision),
  // and the last result's once it was done: now the arguments of the combat_result
  // script and of its losses and stand_or_retreat steps (LegacyFrameState, LegacySaveStates).
  uint8_t legacy_loss_e[2];
  uint8_t legacy_loss_d[2];
  uint8_t legacy_stand_d[2];
  uint8_t legacy_retreat[2];
  uint8_t legacy_stand[2];
  uint8_t unused_2;             // always 0 (was a flag for the losses/stand steps on the stack)
  uint8_t advance_rolled;       // 12.1 rolled for this combat
  // Always 0. Saves of format 1-5 hashed here that the advance step on the stack was 7.8's
  // (after a cavalry retreat): now that step's argument 0 (kCavalryAdvanceArg).
  uint8_t legacy_cavalry_advance;
  uint8_t num_cav_advanced;     // 7.8: entries of cav_advanced
  int16_t cav_advanced[8];      // 7.8: units that advanced after a cavalry retreat this player-turn
  // 5.8 (unless auto=capture): convoys eliminated with an enemy unit in their hex by the
  // handler (or die's outcome) being applied, whose capture the capturer is asked at its end
  // ({unit + 1, hex}; unit + 1 == 0: none): then the capture steps' arguments. Always 0
  // between actions (while the game goes on) and with auto=capture (the bytes were padding).
  int16_t pending_capture[2][2];
};
static_assert(sizeof(SbExt) == 112);

// --- Loading (loader.cc) -----------------------------------------------------------------

// What the hooks read from the ruleset beyond the hex engine's sections.
struct SbData {
  std::vector<int> battery_parent;  // 12.2 battery_parents: the brigade of each battery, -1 for other units
  int army_hq_hex[2] = {-1, -1};    // 11.1: the army HQ places (by their `side` attribute)
  int objective_place = -1;         // 11.1: the objective place
};
// Reads battery_parents and checks the tables and map places the hooks need.
SbData LoadSbData(const Game& game, const HexGameData& data, RulesetDocument& doc, ErrorList* errors);

}  // namespace wg::stars_and_bars
