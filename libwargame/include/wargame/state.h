// State: the flat, trivially copyable position of a game in progress.
//
// No strings, no pointers, no heap: copying a State is a memcpy, which is what
// makes cloning for AI search, undo snapshots and "refused actions leave the
// state byte-for-byte unchanged" cheap. Everything immutable (map, tables,
// unit catalog, names) lives in the shared Game; a State refers to it by index.
//
// Rulesets extend the state without touching the core: per-unit `flags` has
// bits reserved for them (kUnitRulesetFlag0...), `markers` are named by the
// ruleset, and `ext` is a byte block a ruleset views as its own trivially
// copyable struct through Ext<T>(state).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "wargame/dice.h"

namespace wg {

inline constexpr int kMaxUnits = 192;
inline constexpr int kMaxMarkers = 6;
inline constexpr int kMaxAttributes = 8;
inline constexpr int kMaxTurns = 40;
inline constexpr int kMaxPlaces = 48;
inline constexpr int kMaxCombatUnits = 12;
inline constexpr int kStateExtBytes = 512;

using UnitId = int16_t;
inline constexpr UnitId kNoUnit = -1;

// Special values of UnitState::hex besides grid indices.
inline constexpr int16_t kNotYetEntered = -1;  // a reinforcement waiting off the map
inline constexpr int16_t kEliminated = -2;     // removed by combat or rule
inline constexpr int16_t kWithdrawn = -3;      // not in play (an optional unit left out, a recombined detachment)
inline constexpr int16_t kOnTable = -4;        // in play on a tabletop game's table (no hex: where it stands is the ruleset's state)

// Per-unit flags. Bits 0-7 are the core's; 8-15 belong to the ruleset.
enum UnitFlag : uint16_t {
  kUnitReleased = 1u << 0,      // may move (release schedules)
  kUnitMoved = 1u << 1,         // moved in the current movement phase
  kUnitAttacked = 1u << 2,      // attacked in the current combat phase
  kUnitDefended = 1u << 3,      // was attacked in the current combat phase
  kUnitBombarded = 1u << 4,     // bombarded (or fired) this phase
  kUnitMovedLastPhase = 1u << 5,  // moved in the most recent friendly movement phase
  kUnitEnteredEzoc = 1u << 6,   // ended its move by entering an enemy zone of control
  // Never set. Saves of format 1-4 hashed here that a unit owed a retreat in the
  // combat being followed up: now a bit of the after_combat step's arguments
  // (hex/retreat.cc), put back by LegacySaveStates to check such a save's hash.
  kUnitLegacyRetreatOwed = 1u << 7,
  kUnitRulesetFlag0 = 1u << 8,
};

struct UnitState {
  int16_t hex = kNotYetEntered;  // grid index, or one of the special values above
  uint8_t face = 0;              // 0 = front, 1 = back (unlimbered, captured...)
  uint8_t side = 0;              // controlling side (capture changes it)
  uint16_t flags = 0;
  uint8_t markers[kMaxMarkers] = {};  // counts per ruleset-named marker
  int16_t spare = 0;             // ruleset scratch (e.g. movement points spent)

  // On a hex of a hex game's map.
  bool OnMap() const { return hex >= 0; }
  // On a tabletop game's table (kOnTable).
  bool OnTable() const { return hex == kOnTable; }
  // In play where the units fight: on the map or on the table (not waiting to
  // enter, eliminated or withdrawn).
  bool InPlay() const { return hex >= 0 || hex == kOnTable; }
  bool Has(uint16_t f) const { return (flags & f) != 0; }
};
static_assert(sizeof(UnitState) == 14);

// Kinds of decision the engine asks of a side.
enum class DecisionType : uint8_t {
  kNone = 0,       // game over
  kMovement,       // move a unit/stack, enter a reinforcement, change mode, or end the phase
  kCombat,         // declare an attack or end the phase
  kBombard,        // bombard or end the phase
  kLosses,         // divide losses among the units of a combat
  kStandOrRetreat, // take extra losses or retreat
  kRetreat,        // choose a retreat path for a unit
  kAdvance,        // advance after combat (a unit, or decline)
  kChoice,         // a ruleset-specific choice among numbered options
  kSetup,          // place or adjust units before play
};

// The combat in progress (declared, resolved, waiting for follow-up decisions).
struct PendingCombat {
  uint8_t active = 0;
  uint8_t num_attackers = 0;
  uint8_t num_defenders = 0;
  // Always 0. Saves of format 1 and 2 hashed the advance's sub-step here (0 owed,
  // 1 offered, 2 done); the advance is offered by the follow-up's resume that
  // finds the vacated hex and is then the advance step, and LegacySaveStates puts
  // the old values back to check such a save's hash.
  uint8_t legacy_stage = 0;
  int16_t column = -1;         // odds column used
  int8_t drm = 0;
  int8_t roll = 0;
  int16_t attacker_losses = 0; // outstanding losses to divide (units of the ruleset's choice)
  int16_t defender_losses = 0;
  int16_t retreat_hexes = 0;   // retreat length owed
  int16_t vacated_hex = -1;    // hex the defender left, for advance after combat
  uint8_t result_attacker = 0; // indices into the CRT's token lists, ruleset-interpreted
  uint8_t result_defender = 0;
  UnitId attackers[kMaxCombatUnits] = {};
  UnitId defenders[kMaxCombatUnits] = {};
  int16_t defender_hexes[6] = {-1, -1, -1, -1, -1, -1};
  uint8_t num_defender_hexes = 0;
  uint8_t spare = 0;
  // Always kNoUnit. Saves of format 1-4 hashed here the unit whose retreat was being
  // decided: now the `retreat` step's argument (HexRules::RetreatingUnit), put back by
  // LegacySaveStates to check such a save's hash.
  UnitId legacy_current = kNoUnit;
};

// One step of the sequence of play (wargame/steps.h): what is being decided now,
// by whom, under which rule. `kind` indexes the Rules' StepTable (0: none);
// `rule` indexes its interned rule numbers; `args` are the step's own.
inline constexpr int kMaxSteps = 8;
inline constexpr int kStepArgs = 4;
struct Step {
  uint8_t kind = 0;
  uint8_t side = 0;
  uint16_t rule = 0;
  int16_t args[kStepArgs] = {};
};
static_assert(sizeof(Step) == 12);

// The steps in progress, innermost on top (items[depth - 1]): a phase at the
// bottom, what a combat still owes above it. Only the functions of steps.h
// change it, and they keep State::decision / decision_side equal to its top.
struct StepStack {
  Step items[kMaxSteps] = {};
  uint8_t depth = 0;
  uint8_t pad_[7] = {};
};
static_assert(sizeof(StepStack) == 104);

// The action a step holds (wargame/steps.h), one at a time:
// - a held roll's: an action waiting for a die rolled inside it (Context::Roll)
//   while the Context stops at chance, with the dice given so far and the next
//   die's faces and label. The State is the one before the action; the action is
//   applied again, with the dice given, when the next die is (ResolveChance).
// - or the action a step goes on with once its decision is made (a step whose
//   StepDef::holds_action is set: Blue & Gray 11.2's attack, held while the
//   attacked cavalry chooses); then no die is held (num_dice, sides 0).
// All zero when no step holds an action.
inline constexpr int kMaxHeldDice = 62;
inline constexpr int kHeldLabelBytes = 20;
inline constexpr int kHeldActionBytes = 76;  // sizeof(Action) (action.h includes this header)
struct HeldRoll {
  alignas(4) uint8_t action[kHeldActionBytes] = {};  // the Action's bytes (steps.cc reads them)
  uint8_t num_dice = 0;               // dice given so far
  uint8_t sides = 0;                  // the next die's faces (0: nothing held)
  uint8_t dice[kMaxHeldDice] = {};    // their values, in the order the action rolls them
  char label[kHeldLabelBytes] = {};   // the next die's label ("fire"), cut to fit
};
static_assert(sizeof(HeldRoll) == 160);

struct State {
  // --- Sequence of play (decision / decision_side mirror the top of `steps`)
  uint8_t turn = 1;            // 1-based game-turn
  uint8_t player_turn = 0;     // index into the turn order (0 = first player)
  uint8_t phase = 0;           // index into the player-turn's phases
  uint8_t phasing_side = 0;
  uint8_t decision_side = 0;   // who decides now
  DecisionType decision = DecisionType::kNone;
  uint8_t game_over = 0;
  int8_t winner = -1;          // side index, -1 draw / undecided
  uint8_t conceded_by = 0xFF;
  uint8_t level = 0;           // index of the level of victory, when the game is over
  uint16_t num_units = 0;
  uint32_t action_count = 0;   // actions applied so far
  uint32_t combat_count = 0;   // combats resolved so far (some rules start after the first)
  uint32_t pad0_ = 0;          // explicit padding: the State has no hidden bytes

  RngState rng;                // seeded dice; values supplied from outside bypass it

  // --- Victory points: totals and a ledger per turn
  int16_t vp[2] = {0, 0};
  int16_t vp_by_turn[2][kMaxTurns] = {};
  int16_t pad1_[2] = {};
  uint64_t once_awarded = 0;   // one-time awards given: bits 0-31 a ruleset's own (raids), 32-63 victory.points (victory.h)
  uint8_t place_control[kMaxPlaces] = {};  // 0 nobody, side + 1 = last to occupy or move through

  PendingCombat combat;
  std::array<UnitState, kMaxUnits> units{};
  uint8_t pad2_[6] = {};
  alignas(8) std::array<uint8_t, kStateExtBytes> ext{};
  // Last, so the bytes before it keep the layout saves of format 1 hashed
  // (HashStatePrefix).
  StepStack steps;
  // The action a step holds (steps.h): a die rolled inside an action while the
  // Context stops at chance (the held roll), or the action a holds_action step goes
  // on with. Empty (all zero) otherwise; HashState skips it then, so the hashes of
  // saves written before it existed still check.
  HeldRoll held;

  UnitState& unit(UnitId id) { return units[static_cast<size_t>(id)]; }
  const UnitState& unit(UnitId id) const { return units[static_cast<size_t>(id)]; }
  bool Equals(const State& o) const { return std::memcmp(this, &o, sizeof(State)) == 0; }
};
static_assert(std::is_trivially_copyable_v<State>);
// No padding anywhere: memcmp equality and hashing see only real data.
static_assert(std::has_unique_object_representations_v<State>);

// The bytes of a State that rules read: everything but the unit slots past
// num_units (only the game's set-up sets num_units; rules walk the units below
// it). For memos keyed by a State: with 60 units these are ~1.8 KB of its 3.6 KB.
inline constexpr size_t kStateUnitsAt = offsetof(State, units);
inline constexpr size_t kStateTailAt = offsetof(State, pad2_);
inline size_t StateHeadBytes(const State& s) {
  return kStateUnitsAt + std::min<size_t>(s.num_units, kMaxUnits) * sizeof(UnitState);
}
// a and b agree on everything a rule reads (units past num_units aside).
inline bool SameLiveState(const State& a, const State& b) {
  if (a.num_units != b.num_units) return false;
  const auto* pa = reinterpret_cast<const unsigned char*>(&a);
  const auto* pb = reinterpret_cast<const unsigned char*>(&b);
  return std::memcmp(pa, pb, StateHeadBytes(a)) == 0 &&
         std::memcmp(pa + kStateTailAt, pb + kStateTailAt, sizeof(State) - kStateTailAt) == 0;
}
// Copies what SameLiveState compares (a memo's key; not a State to play on).
inline void CopyLiveState(State* to, const State& from) {
  auto* pt = reinterpret_cast<unsigned char*>(to);
  const auto* pf = reinterpret_cast<const unsigned char*>(&from);
  std::memcpy(pt, pf, StateHeadBytes(from));
  std::memcpy(pt + kStateTailAt, pf + kStateTailAt, sizeof(State) - kStateTailAt);
}

// A ruleset's own per-game state, stored in State::ext.
template <typename T>
T& Ext(State& s) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kStateExtBytes);
  return *reinterpret_cast<T*>(s.ext.data());
}
template <typename T>
const T& Ext(const State& s) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kStateExtBytes);
  return *reinterpret_cast<const T*>(s.ext.data());
}

// 64-bit FNV-1a hash of the whole state (save/load and replay checks).
uint64_t HashState(const State& s);
// The same hash of the bytes before the step stack: the whole State of save
// format 1 (before the stack existed), so an old save's hash still checks.
inline constexpr size_t kStatePrefixBytes = offsetof(State, steps);
// Where the held roll begins: HashState hashes the bytes before it, and the held
// roll's only when one is held.
inline constexpr size_t kStateHeldAt = offsetof(State, held);
static_assert(kStateHeldAt + sizeof(HeldRoll) == sizeof(State));
uint64_t HashStatePrefix(const State& s);

}  // namespace wg
