// ActionSpace: every action of a game as an integer id in a dense range that is
// fixed for the Game (OpenSpiel's NumDistinctActions), and back.
//
// An id names what a player decides, not how the engine carries it out: a move
// is (unit, destination), and its path is the one the legal-action listing gives
// for that destination (the pathfinder's cheapest). So Action -> id is a pure
// function of the Action (ActionSpace::Id), and id -> Action is resolved against
// the listed legal actions of the current state (ActionSpace::Find): the first
// listed action with that id. The layout (docs/action-space.md) is a sequence of
// segments, one per action type, each a mixed-radix product of small fields:
//
//   segment (in ActionType order)  fields (radix)                       taken from
//   end          -                                                       -
//   move         unit (U) x dest (P) x kind (2)                          units[0], last path hex | table cell, value
//   enter        unit (U) x dest (H)                                     units[0], last path hex
//   mode         unit (U) x face (2)                                     units[0], value
//   attack       attacker (U + 1) x target (H + U) x form (2)            units, hexes[0] | units[1], num_hexes > 1
//   bombard      attacker (U + 1) x target (H + U + 16) x variant (2)    units, hexes[0] | units[1] | value, value
//   loss         unit (U) x amount (9: 0..8) x marker (8)                units[0], value, value2
//   stand        -                                                       -
//   retreat      unit (U) x dest (H)                                     units[0], last path hex
//   advance      unit (U + 1: U = decline) x dest (H + 1: H = none)     units[0], last path hex
//   choice       option (64)                                             value
//   detach       parent (U) x detachment (U)                             units[0], units[1]
//   recombine    parent (U) x detachment (U)                             units[0], units[1]
//   destroy      unit (U)                                                units[0]
//   convert      unit (U) x amount (9: 0..8)                             units[0], value
//   reduce_odds  columns (8: -1..-8)                                     value
//   custom       code (8) x subject (U + 1) x object (U + 360)           value, units[0], units[1] | U + value2 mod 360
//   concede      -                                                       -
//
// U is the number of units of the game, P the number of positions: the hex
// grid's cells for a hex game, or for a tabletop game (a map without hexes) the
// table in cells of one inch, kTableCellsX x kTableCellsY, of the move's
// destination (value, value2 in hundredths of an inch; folded modulo the grid).
// H is P on a hex map and 0 on a tabletop (no hexes to enter, retreat to or
// target there: its attacks and fire name units).
// An attacker field is the single attacker's unit, or U for a group of several
// against one target; form 1 is an attack on several hexes at once, named by
// its first attacker. An attack at voluntarily reduced odds (value < 0) is not
// listed and has no id. A target is a hex (hexes[0]), else a unit (the last of
// units, after the attackers: H + unit); a bombard with
// neither aims at a ruleset target H + U + (value mod 16), otherwise its variant
// is value (0 or 1). An action whose fields do not fit (a unit or hex out of
// range, an amount of 9...) has no id (kNoActionId).
//
// Two listed actions never share an id except moves that differ only in their
// path (tests/action_space_test.cc checks this on random games of every ruleset).
// Reads no YAML, allocates nothing after construction; safe to share between
// threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/action.h"
#include "wargame/game.h"

namespace wg {

using ActionId = int32_t;
inline constexpr ActionId kNoActionId = -1;

inline constexpr int kTableCellsX = 128;  // tabletop: one-inch cells east-west
inline constexpr int kTableCellsY = 64;   // and north-south

// The fields an id decodes to (segment type, then the fields in the order above;
// unused fields are 0).
struct ActionKey {
  ActionType type = ActionType::kEndPhase;
  int fields[3] = {0, 0, 0};
};

class ActionSpace {
 public:
  explicit ActionSpace(const Game& game);

  // Number of distinct ids: every id is in [0, size()).
  int size() const { return size_; }
  int num_units() const { return units_; }
  int num_positions() const { return positions_; }
  bool tabletop() const { return tabletop_; }
  // Attack and bombard targets: hexes are [0, P) on a hex map; units start here
  // (P on a hex map, 0 on a tabletop).
  int target_units() const { return target_units_; }

  // The id of an action, or kNoActionId when its fields do not fit the layout.
  ActionId Id(const Action& a) const;
  // The segment and fields of an id (WG_CHECK: 0 <= id < size()).
  ActionKey Key(ActionId id) const;
  // First id of a segment, and its length.
  ActionId SegmentStart(ActionType t) const { return start_[static_cast<int>(t)]; }
  int SegmentSize(ActionType t) const;

  // The first of `legal` with this id (its listed path), or nullptr.
  const Action* Find(const std::vector<Action>& legal, ActionId id) const;
  // The ids of `legal`, sorted ascending, without repeats (actions that have no
  // id are left out).
  void Ids(const std::vector<Action>& legal, std::vector<ActionId>* out) const;
  // Sorts ids (each in [0, size())) ascending and removes repeats.
  void SortUnique(std::vector<ActionId>* ids) const;
  // mask[id] = 1 for every id of `legal`, 0 otherwise; mask has size() bytes.
  void Mask(const std::vector<Action>& legal, uint8_t* mask) const;
  // "move(unit=harris, dest=2303, kind=0)": the fields of an id in words.
  std::string Describe(const Game& game, ActionId id) const;

 private:
  // The segment's radices (up to 3 fields; 1 for unused).
  struct Segment {
    int radix[3] = {1, 1, 1};
  };
  bool Fields(const Action& a, int out[3]) const;
  int Destination(const Action& a) const;  // dest position, -1 if none fits
  int Target(const Action& a) const;       // attack/bombard target, -1 if none fits
  int Attacker(const Action& a) const;

  int units_ = 0;
  int positions_ = 0;
  int target_units_ = 0;  // the first attack/bombard target that is a unit
  bool tabletop_ = false;
  int size_ = 0;
  Segment segments_[kNumActionTypes];
  ActionId start_[kNumActionTypes + 1] = {};
};

}  // namespace wg
