// Action: one player decision, as a small flat value. The same vocabulary is
// the script language, the save file and what an AI returns (action_text.h
// converts to and from YAML; docs/scripting.md documents it).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/state.h"

namespace wg {

enum class ActionType : uint8_t {
  kEndPhase = 0,  // end the current phase (or the current sub-step, e.g. no more attacks)
  kMove,          // move units (a stack) along a path of hexes
  kEnter,         // bring a reinforcement onto the map along a path (path[0] is the entry hex)
  kChangeMode,    // flip a unit (limber/unlimber, formation...)
  kAttack,        // units attack the defenders in target hexes
  kBombard,       // artillery units bombard a target hex
  kLoss,          // assign `value` losses of kind `value2` to unit units[0]
  kStand,         // take the stand option instead of retreating
  kRetreat,       // retreat units[0] along path
  kAdvance,       // advance units into the vacated hex (no units = decline)
  kChoice,        // answer a kChoice decision with option `value`
  kDetach,        // detach a sub-unit: units[0] parent, units[1] detachment
  kRecombine,     // recombine: units[0] parent, units[1] detachment
  kDestroy,       // voluntarily destroy units[0]
  kConvert,       // convert `value` disruption to permanent loss on units[0]
  kOddsReduction, // attack at a lower column: value = column shift (negative)
  kCustom,        // ruleset-specific: value = ruleset code
  kConcede,       // the deciding side concedes
};
inline constexpr int kNumActionTypes = 18;

std::string_view ActionTypeName(ActionType t);
// -1 if unknown.
int ActionTypeFromName(std::string_view name);

inline constexpr int kMaxActionUnits = 8;
inline constexpr int kMaxActionHexes = 24;

struct Action;
// Why an action built by anyone (a parser, a script, Python, a fuzzer) cannot be
// handed to a ruleset, or "" when its shape is sound: an unknown type, more
// units or hexes than the arrays hold, a unit id or hex index out of range
// (num_units units and num_hexes grid cells in the game), or a unit named twice.
std::string ActionShapeError(const Action& a, int num_units, int num_hexes);

struct Action {
  ActionType type = ActionType::kEndPhase;
  uint8_t num_units = 0;
  uint8_t num_hexes = 0;
  uint8_t pad = 0;
  int32_t value = 0;
  int32_t value2 = 0;
  std::array<UnitId, kMaxActionUnits> units{};
  std::array<int16_t, kMaxActionHexes> hexes{};  // path, or target hexes (grid indices)

  static Action EndPhase() { return Action{}; }
  static Action Of(ActionType t) {
    Action a;
    a.type = t;
    return a;
  }
  Action& AddUnit(UnitId u) {
    if (num_units < kMaxActionUnits) units[num_units++] = u;
    return *this;
  }
  Action& AddHex(int h) {
    if (num_hexes < kMaxActionHexes) hexes[num_hexes++] = static_cast<int16_t>(h);
    return *this;
  }
  Action& Value(int v) {
    value = v;
    return *this;
  }
  bool operator==(const Action& o) const;
};

// Inline: listings compare candidates with what they listed (issue 15).
inline bool Action::operator==(const Action& o) const {
  if (type != o.type || num_units != o.num_units || num_hexes != o.num_hexes || value != o.value ||
      value2 != o.value2) {
    return false;
  }
  for (int i = 0; i < num_units; ++i) {
    if (units[static_cast<size_t>(i)] != o.units[static_cast<size_t>(i)]) return false;
  }
  for (int i = 0; i < num_hexes; ++i) {
    if (hexes[static_cast<size_t>(i)] != o.hexes[static_cast<size_t>(i)]) return false;
  }
  return true;
}

// Move candidates kept as a forest (the hex engine's per-unit caches, HexScratch::
// UnitMoves): candidate i is candidate link[i]'s path plus the hex ends[i] when
// link[i] >= 0, else the whole Action roots[-1 - link[i]]. A link points to an
// earlier candidate, so a walk ends. With link == nullptr, candidate i is roots[i].
// At(i) builds the Action (one step per hex of the path past its root's).
struct CandidateForest {
  const Action* roots = nullptr;
  const int32_t* link = nullptr;
  const int16_t* ends = nullptr;
  Action At(uint32_t i) const { return link == nullptr ? roots[i] : Build(i); }

 private:
  Action Build(uint32_t i) const;  // action.cc: out of line, so a filter's loop stays tight
};

// Some of a unit's move candidates (a CandidateForest), in candidate order: all of
// [0, count) (kept == nullptr), or those whose last hex is in the set `kept`. A
// unit's candidates end in distinct hexes (one per hex its search reached), so a
// set of hexes names a set of candidates: bit h % 64 of kept[h / 64 - w0] holds
// hex h. Filters combine such sets a word at a time (64 hexes per instruction)
// and count them with popcount; only the run a player picks from is walked
// (Index: the k-th kept candidate).
struct CandidateRun {
  CandidateForest forest;
  const int16_t* ends = nullptr;   // ends[i]: candidate i's last hex
  const uint64_t* kept = nullptr;  // nullptr: every candidate [0, count)
  int32_t w0 = 0;                  // the first word of the map that kept[0] holds
  uint32_t count = 0;              // the kept candidates
  bool Kept(uint32_t i) const {
    if (kept == nullptr) return true;
    const int h = ends[i];
    return (kept[(h >> 6) - w0] >> (h & 63)) & 1u;
  }
  // The index of the k-th kept candidate (k < count).
  uint32_t Index(uint32_t k) const {
    if (kept == nullptr) return k;
    for (uint32_t i = 0;; ++i) {
      if (Kept(i) && k-- == 0) return i;
    }
  }
  Action operator[](size_t k) const { return forest.At(Index(static_cast<uint32_t>(k))); }  // built
};

// The legal actions of one decision in the cheap form (issue 15): the same actions
// in the same order as the vector form of Session::LegalActions, but the listed
// moves are neither copied nor built: `spans` are runs over the move candidates the
// Session's scratch keeps for each unit (CandidateRun: a unit's candidates in
// order, all or a set of them); `others` holds every other listed action. The
// moves come first: element i is the i-th move for i < num_moves(), else
// others[i - num_moves()]. Indexing a move is a binary search over the spans (a
// few dozen), a walk over that span's candidates and the build of its Action
// (returned by value). The spans are valid until the next listing or Apply on the
// same Session.
struct LegalActionList {
  using Span = CandidateRun;
  std::vector<Span> spans;
  std::vector<uint32_t> ends;   // ends[j]: the number of moves in spans[0..j]
  std::vector<uint64_t> words;  // the storage the spans' kept sets point into (the lister's)
  std::vector<Action> others;

  size_t num_moves() const { return ends.empty() ? 0 : ends.back(); }
  size_t size() const { return num_moves() + others.size(); }
  bool empty() const { return size() == 0; }
  Action operator[](size_t i) const {
    const size_t moves = num_moves();
    if (i >= moves) return others[i - moves];
    const size_t lo = static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), i) - ends.begin());  // the first span ending after i
    return spans[lo][i - (lo == 0 ? 0 : ends[lo - 1])];
  }
  void clear() {
    spans.clear();
    ends.clear();
    others.clear();
  }
};

}  // namespace wg
