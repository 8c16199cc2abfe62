#include "wargame/event.h"

#include "wargame/game.h"

namespace wg {

namespace {
std::string UnitAt(const Game& g, UnitId u, int hex) {
  std::string s = g.UnitLabel(u);
  if (hex >= 0) s += " (" + g.HexLabel(hex) + ")";
  return s;
}
std::string SideName(const Game& g, int side) {
  return side >= 0 && side < static_cast<int>(g.sides.size()) ? g.sides[static_cast<size_t>(side)].name
                                                              : std::string("nobody");
}
}  // namespace

std::string Describe(const Game& g, const Event& e) {
  if (g.rules) {
    std::string custom = g.rules->DescribeEvent(e);
    if (!custom.empty()) return custom;
  }
  std::string body;
  const std::string text = e.text ? e.text : "";
  switch (e.type) {
    case EventType::kGameStart: body = "Game start: " + g.title; break;
    case EventType::kTurnStart: {
      body = "Turn " + std::to_string(e.a);
      const auto i = static_cast<size_t>(e.a - 1);
      if (e.a >= 1 && i < g.turns.turns.size()) {
        if (!g.turns.turns[i].label.empty()) body += " (" + g.turns.turns[i].label + ")";
        if (g.turns.turns[i].night) body += ", night";
      }
      break;
    }
    case EventType::kPhaseStart: body = SideName(g, e.side) + " " + text + " phase"; break;
    case EventType::kMove:
      body = g.UnitLabel(e.unit) + " moves " + g.HexLabel(e.hex) + " -> " + g.HexLabel(e.hex2);
      if (e.a > 0) body += " (" + std::to_string(e.a / 2) + (e.a % 2 ? ".5" : "") + " MP)";
      break;
    case EventType::kEnter: body = g.UnitLabel(e.unit) + " enters at " + g.HexLabel(e.hex); break;
    case EventType::kModeChange:
      body = g.UnitLabel(e.unit) + " changes mode" + (text.empty() ? "" : " to " + text) + " in " +
             g.HexLabel(e.hex);
      break;
    case EventType::kRelease: body = g.UnitLabel(e.unit) + " released"; break;
    case EventType::kAttack:
      body = SideName(g, e.side) + " attacks " + (e.hex >= 0 ? g.HexLabel(e.hex) : "") + ": " +
             std::to_string(e.a) + " against " + std::to_string(e.b) +
             (text.empty() ? "" : ", odds " + text);
      break;
    case EventType::kDieRoll:
      body = "Die roll (d" + std::to_string(e.a) + (text.empty() ? "" : ", " + text) +
             "): " + std::to_string(e.b);
      break;
    case EventType::kCombatResult: body = "Result: " + text; break;
    case EventType::kLoss:
      body = UnitAt(g, e.unit, e.hex) + " takes " + std::to_string(e.a) + " " + text;
      break;
    case EventType::kRecover:
      body = UnitAt(g, e.unit, e.hex) + " recovers " + std::to_string(e.a) + " " + text;
      break;
    case EventType::kRetreat:
      body = g.UnitLabel(e.unit) + " retreats " + g.HexLabel(e.hex) + " -> " + g.HexLabel(e.hex2);
      break;
    case EventType::kAdvance:
      body = g.UnitLabel(e.unit) + " advances " + g.HexLabel(e.hex) + " -> " + g.HexLabel(e.hex2);
      break;
    case EventType::kEliminated:
      body = UnitAt(g, e.unit, e.hex) + " eliminated" + (text.empty() ? "" : " (" + text + ")");
      break;
    case EventType::kCaptured:
      body = UnitAt(g, e.unit, e.hex) + " captured by " + SideName(g, e.side);
      break;
    case EventType::kBombard:
      body = SideName(g, e.side) + " bombards " + g.HexLabel(e.hex) + " with " + std::to_string(e.a);
      if (e.unit >= 0) body += " (target " + g.UnitLabel(e.unit) + ")";
      break;
    case EventType::kVictoryPoints:
      body = SideName(g, e.side) + " scores " + std::to_string(e.a) + " VP" +
             (text.empty() ? "" : ": " + text);
      break;
    case EventType::kControl:
      body = SideName(g, e.side) + " controls " +
             (e.a >= 0 && static_cast<size_t>(e.a) < g.places().size()
                  ? g.places()[static_cast<size_t>(e.a)].name
                  : g.HexLabel(e.hex));
      break;
    case EventType::kChoice: body = SideName(g, e.side) + " chooses: " + text; break;
    case EventType::kNote: body = text; break;
    case EventType::kGameEnd:
      body = "Game over: " + (text.empty() ? (e.side >= 0 ? SideName(g, e.side) + " wins" : "draw") : text);
      break;
  }
  if (e.rule && *e.rule) return std::string(e.rule) + ": " + body;
  return body;
}

}  // namespace wg
