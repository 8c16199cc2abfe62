// Event: what happened, with the rule that made it happen. The list of events
// is the game log, what a replay prints, and what a UI or AI listens to.
//
// An event is a small POD (no heap): `rule` and `text` point to string
// literals or to strings owned by the immutable Game, so emitting events in a
// million-game simulation costs a few stores. Describe() turns one into a line
// such as "7.5.2: Stand: 2 extra disruption on Harris (2302)".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wargame/state.h"

namespace wg {

class Game;

enum class EventType : uint8_t {
  kGameStart,
  kTurnStart,      // a = turn
  kPhaseStart,     // side, text = phase name
  kMove,           // unit from hex to hex2, a = cost (half points)
  kEnter,          // unit enters at hex
  kModeChange,     // unit, a = new face
  kRelease,        // unit released
  kAttack,         // side attacks; a = attack strength, b = defense strength, text = column
  kDieRoll,        // a = sides, b = value, text = what for
  kCombatResult,   // text = result cell
  kLoss,           // unit, a = amount, text = marker name
  kRecover,        // unit, a = amount recovered, text = marker name
  kRetreat,        // unit from hex to hex2
  kAdvance,        // unit from hex to hex2
  kEliminated,     // unit at hex
  kCaptured,       // unit captured by side
  kBombard,        // side, hex target, a = strength
  kVictoryPoints,  // side, a = points, text = reason
  kControl,        // side gains control of place (a = place index)
  kChoice,         // side chose option a, text = what
  kNote,           // text
  kGameEnd,        // winner = side (-1 draw), text = level
};

struct Event {
  EventType type = EventType::kNote;
  int8_t side = -1;
  UnitId unit = kNoUnit;
  UnitId unit2 = kNoUnit;
  int16_t hex = -1;
  int16_t hex2 = -1;
  int32_t a = 0;
  int32_t b = 0;
  const char* rule = "";    // rule number, e.g. "7.5.2"
  const char* text = "";    // static or Game-owned text
};

// Where events go. A null sink (simulation without a log) costs nothing.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void OnEvent(const Event& e) = 0;
};

class EventLog : public EventSink {
 public:
  void OnEvent(const Event& e) override { events.push_back(e); }
  std::vector<Event> events;
};

// One readable line for an event.
std::string Describe(const Game& game, const Event& e);

}  // namespace wg
