// Legal options in a player's words ("stand", "retreat Harris 2304 -> 2104",
// "reorganize Wagner with Crittenden"): used by the terminal player and the page.
#include <cctype>
#include <cstdio>
#include <regex>

#include "cli.h"
#include "web_game.h"
#include "wargame/action_text.h"
#include "wargame/map.h"
#include "wargame/tabletop.h"

namespace wg::cli {

namespace {

std::string UnitNames(const Game& g, const Action& a, int from, const char* joiner = ", ") {
  std::string o;
  for (int i = from; i < a.num_units; ++i) {
    if (i > from) o += joiner;
    o += g.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].name;
  }
  return o;
}

std::string Name(const Game& g, const Action& a, int i) {
  return i < a.num_units ? g.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].name : "?";
}

std::string HexList(const Game& g, const Action& a, const char* joiner) {
  std::string o;
  for (int i = 0; i < a.num_hexes; ++i) {
    if (i) o += joiner;
    o += g.hex_board().map.Label(a.hexes[static_cast<size_t>(i)]);
  }
  return o;
}

// "stands (choose 0) or retreats two hexes (choose 1)": the words before "(choose N)".
std::string ChoiceWordsFromDecision(const std::string& text, int value) {
  const std::regex re("([^,:;()]*?)\\s*\\(choose " + std::to_string(value) + "\\)");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return "";
  std::string w = m[1].str();
  for (const char* lead : {"or ", "and "}) {
    const size_t n = std::char_traits<char>::length(lead);
    if (w.compare(0, n, lead) == 0) w = w.substr(n);
  }
  const size_t the = w.find("the ");
  if (the == 0) {
    // "the cavalry stands": keep the verb phrase.
    const size_t sp = w.find(' ', 4);
    if (sp != std::string::npos) w = w.substr(sp + 1);
  }
  while (!w.empty() && std::isspace(static_cast<unsigned char>(w.front()))) w.erase(w.begin());
  return w;
}

// The decision text's first word ("reorganize disrupted units (9.0)" -> "reorganize").
std::string DecisionVerb(const std::string& text) {
  std::string w;
  for (char c : text) {
    if (!std::isalpha(static_cast<unsigned char>(c))) break;
    w += c;
  }
  return w;
}

std::string LabelChoice(const Game& g, const State& s, const Action& a) {
  if (s.decision == DecisionType::kStandOrRetreat) return a.value == 0 ? "retreat" : "choice " + std::to_string(a.value);
  const std::string text = g.rules->DescribeDecision(s);
  std::string w = ChoiceWordsFromDecision(text, a.value);
  if (!w.empty()) return w;
  if (text.find('?') != std::string::npos && (a.value == 0 || a.value == 1)) return a.value ? "yes" : "no";
  return "option " + std::to_string(a.value);
}

}  // namespace

std::string ActionLabel(const Game& g, const State& s, const Action& a) {
  if (!g.has_hex_board() && a.type == ActionType::kMove && a.num_units == 1) {
    // A tabletop move toward (value, value2) in hundredths of an inch.
    char at[64];
    std::snprintf(at, sizeof at, "%.2f, %.2f in", a.value / 100.0, a.value2 / 100.0);
    return "move " + Name(g, a, 0) + " toward " + at;
  }
  if (const TabletopQueries* t = g.rules->tabletop()) {
    // "1st Virginia fires at 20th Maine", "form line: ..."; "" for what the words below say.
    if (std::string w = t->ActionLabel(s, a); !w.empty()) return w;
  }
  if (!g.has_hex_board() && a.type == ActionType::kCustom) return ActionToText(g, a);  // the ruleset's own numbers
  const std::string units = UnitNames(g, a, 0);
  switch (a.type) {
    case ActionType::kEndPhase: {
      if (s.decision == DecisionType::kAdvance) return "no advance";
      const std::string phase = PhaseName(g, s);
      if (s.decision == DecisionType::kMovement || s.decision == DecisionType::kCombat ||
          s.decision == DecisionType::kBombard) {
        std::string p = phase;
        for (char& c : p) c = c == '_' ? ' ' : c;
        return "end the " + p + " phase";
      }
      return "done";
    }
    case ActionType::kMove:
      return "move " + units + " to " + (a.num_hexes ? g.hex_board().map.Label(a.hexes[a.num_hexes - 1u]) : "?") +
             (a.num_hexes > 1 ? " (via " + HexList(g, a, " ") + ")" : "");
    case ActionType::kEnter:
      return "bring on " + units + " at " + (a.num_hexes ? g.hex_board().map.Label(a.hexes[0]) : "?") +
             (a.num_hexes > 1 ? " to " + g.hex_board().map.Label(a.hexes[a.num_hexes - 1u]) : "");
    case ActionType::kChangeMode:
      // At set-up (Stars and Bars 3.0) the value is the face chosen, not a flip.
      if (s.decision == DecisionType::kSetup) {
        return "set up " + units + (a.value ? " on its back face (unlimbered)" : " on its front face (limbered)");
      }
      return "flip " + units + " (limber / unlimber, formation)";
    case ActionType::kAttack: return "attack " + HexList(g, a, ", ") + " with " + units;
    case ActionType::kBombard: return "bombard " + HexList(g, a, ", ") + " with " + units;
    case ActionType::kLoss: {
      std::string kind = a.value2 >= 0 && static_cast<size_t>(a.value2) < g.markers.size()
                             ? g.markers[static_cast<size_t>(a.value2)].name
                             : "loss";
      return units + " takes " + std::to_string(a.value) + " " + kind;
    }
    case ActionType::kStand: return "stand";
    case ActionType::kRetreat: return "retreat " + units + " " + HexList(g, a, " -> ");
    case ActionType::kAdvance: return a.num_units ? "advance " + units : "no advance";
    case ActionType::kChoice: return LabelChoice(g, s, a);
    case ActionType::kDetach: return "detach " + UnitNames(g, a, 1) + " from " + Name(g, a, 0);
    case ActionType::kRecombine: return "recombine " + UnitNames(g, a, 1) + " into " + Name(g, a, 0);
    case ActionType::kDestroy: return "destroy " + units;
    case ActionType::kConvert:
      return "convert " + std::to_string(a.value) + " disruption of " + units + " to a permanent loss";
    case ActionType::kOddsReduction: return "attack " + std::to_string(-a.value) + " column(s) lower";
    case ActionType::kCustom: {
      const std::string verb = DecisionVerb(g.rules->DescribeDecision(s));
      if (a.num_units >= 2) return (verb.empty() ? "act" : verb) + " " + UnitNames(g, a, 0, " with ");
      if (a.num_units == 1) return (verb.empty() ? "act" : verb) + " " + units;
      return ActionToText(g, a);
    }
    case ActionType::kConcede: return "concede the game";
  }
  return ActionToText(g, a);
}

}  // namespace wg::cli
