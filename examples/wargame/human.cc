// The human player of `wargame play` in the terminal: the decision, the map
// around it, the legal options in words grouped by unit (type a unit id to see
// only its options), and the commands help, undo, map, odds and key. A
// refusal stays above the prompt until an action is accepted; a decision with
// a single legal option is applied without asking.
#include <iostream>
#include <map>
#include <sstream>

#include "cli.h"
#include "line_input.h"
#include "wargame/action_text.h"
#include "wargame/hex_rules.h"

namespace wg::cli {

namespace {

constexpr size_t kListAll = 24;  // more options than this: a summary per unit

const char* const kHelp =
    "  NUMBER          take that option\n"
    "  UNIT            list only that unit's options (its id, e.g. harris); `all` lists everything\n"
    "  an action       in the script language, e.g. {move: [harris], path: [2303, 2304]} or end\n"
    "  undo            take back your last action of this phase (not one that rolled a die)\n"
    "  map [HEX]       every occupied hex, both sides, with terrain and places (or those near HEX)\n"
    "  odds A,B HEX    odds, modifiers and results of A and B attacking HEX, before deciding\n"
    "  key             what the values on a unit mean\n"
    "  quit            stop (the game can be saved with --save)\n";

std::string UnitLine(const Game& g, const State& s, UnitId u) {
  return g.units[static_cast<size_t>(u)].name + " [" + g.units[static_cast<size_t>(u)].id + "] " +
         UnitValues(g, s, u) + MarkersText(g, s, u) + " at " + g.rules->PositionText(s, u);
}

bool Mentions(const Game& g, const Action& a, const std::string& id) {
  for (int i = 0; i < a.num_units; ++i) {
    if (g.units[static_cast<size_t>(a.units[static_cast<size_t>(i)])].id == id) return true;
  }
  return false;
}

}  // namespace

TerminalPlayer::TerminalPlayer(Session* session, UndoHistory* history, int sides)
    : session_(session), history_(history), sides_(sides) {}

void TerminalPlayer::ShowOptions(const Game& g, const State& s, const std::vector<Action>& legal) const {
  std::map<int, std::vector<size_t>> by_unit;  // first unit -> option indices; -1: no unit
  for (size_t i = 0; i < legal.size(); ++i) {
    const Action& a = legal[i];
    if (!filter_.empty() && !Mentions(g, a, filter_)) continue;
    by_unit[a.num_units ? static_cast<int>(a.units[0]) : -1].push_back(i);
  }
  size_t shown = 0;
  for (const auto& [u, list] : by_unit) shown += list.size();
  const bool summary = filter_.empty() && shown > kListAll;
  for (const auto& [u, list] : by_unit) {
    if (u >= 0) std::cout << "  " << UnitLine(g, s, static_cast<UnitId>(u)) << ":";
    if (summary && u >= 0) {
      std::cout << " " << list.size() << " option" << (list.size() == 1 ? "" : "s") << " (type "
                << g.units[static_cast<size_t>(u)].id << ")\n";
      continue;
    }
    if (u >= 0) std::cout << "\n";
    for (size_t i : list) {
      std::cout << "    " << i + 1 << ") " << ActionLabel(g, s, legal[i]) << OddsNote(g, legal[i]) << "\n";
    }
  }
  if (shown == 0) std::cout << "  no option of \"" << filter_ << "\" (type all)\n";
}

void TerminalPlayer::ShowMap(const Game& g, const State& s, const std::string& arg) const {
  std::vector<int> centers;
  int radius = 0;
  if (!arg.empty()) {
    const int h = g.hex_board().map.Index(arg);
    if (h < 0) {
      std::cout << "no hex " << arg << "\n";
      return;
    }
    centers.push_back(h);
    radius = 3;
  } else {
    for (int i = 0; i < s.num_units; ++i) {
      if (s.units[static_cast<size_t>(i)].OnMap()) centers.push_back(s.units[static_cast<size_t>(i)].hex);
    }
  }
  std::cout << TextMapAround(g, s, centers, radius);
}

void TerminalPlayer::ShowOdds(const Game& g, const std::string& arg) const {
  std::istringstream in(arg);
  std::string units, hexes;
  in >> units >> hexes;
  if (units.empty() || hexes.empty()) {
    std::cout << "usage: odds ATTACKER[,ATTACKER...] HEX[,HEX...]\n";
    return;
  }
  const std::string text = "{attack: [" + units + "], target: [" + hexes + "]}";
  auto a = ParseActionText(g, text);
  if (!a.ok()) {
    std::cout << a.errors().ToString() << "\n";
    return;
  }
  bool ok = false;
  std::cout << OddsText(g, *session_, *a, &ok);
}

std::string TerminalPlayer::OddsNote(const Game& g, const Action& a) const {
  const HexQueries* hex = g.rules->hex();
  if (a.type != ActionType::kAttack || !hex || !session_) return "";
  Context ctx(g, nullptr, nullptr, &session_->scratch());
  const AttackAnalysis an = hex->AnalyzeAttack(session_->state(), ctx, a);
  if (!an.status.ok()) return "";
  if (!an.automatic.empty()) return " (no die roll: " + an.automatic + ")";
  return " (" + std::to_string(an.plan.attack) + " against " + std::to_string(an.plan.modified_defense) + ", odds " +
         hex->ColumnLabel(an.plan.column) + ")";
}

void TerminalPlayer::ShowKey(const Game& g) const {
  std::string attrs;
  for (const auto& a : g.attributes) attrs += (attrs.empty() ? "" : "-") + a;
  std::cout << "  unit values: " << attrs << " (current values: losses and markers reduce them)\n";
  for (const auto& m : g.markers) std::cout << "  marker " << m.id << ": " << m.name << "\n";
  std::cout << "  map lines: HEX terrain [place]: unit-id (side values), ...\n";
}

// A command typed at the prompt; true if it was one (the prompt is shown again).
bool TerminalPlayer::Command(const Game& g, const State& s, const std::string& line) {
  const std::string word = line.substr(0, line.find(' '));
  const std::string arg = line.size() > word.size() ? line.substr(word.size() + 1) : "";
  if (word == "help" || word == "?") {
    std::cout << kHelp;
  } else if (word == "map") {
    ShowMap(g, s, arg);
  } else if (word == "odds") {
    ShowOdds(g, arg);
  } else if (word == "key") {
    ShowKey(g);
  } else if (word == "all") {
    filter_.clear();
  } else if (g.UnitIndex(word) >= 0 && arg.empty()) {
    filter_ = word;
  } else {
    return false;
  }
  return true;
}

Action TerminalPlayer::Choose(const Game& g, const State& s, const std::vector<Action>& legal) {
  undo_ = false;
  forced_ = legal.size() == 1;
  if (forced_) {  // nothing to ask
    std::cout << SideName(g, s.decision_side) << ": " << g.rules->DescribeDecision(s) << ": the only option, "
              << ActionLabel(g, s, legal[0]) << "\n";
    if (legal[0].type == ActionType::kAttack && session_ && g.rules->hex()) {  // its odds before its die
      bool ok = false;
      const std::string odds = OddsText(g, *session_, legal[0], &ok);
      if (ok) std::cout << odds;
    }
    return legal[0];
  }
  std::vector<std::string> words = {"help", "undo", "map", "odds", "key", "all", "quit", "end"};
  for (const auto& u : g.units) words.push_back(u.id);
  for (int h = 0; g.has_hex_board() && h < g.hex_board().map.size(); ++h) words.push_back(g.hex_board().map.Label(h));
  SetCompletions(std::move(words));
  std::vector<int> centers;  // the combat, or the deciding side's units
  for (int i = 0; s.combat.active && i < s.combat.num_defender_hexes; ++i) centers.push_back(s.combat.defender_hexes[i]);
  for (int i = 0; s.combat.active && i < s.combat.num_attackers; ++i) centers.push_back(s.unit(s.combat.attackers[i]).hex);
  for (int i = 0; !s.combat.active && i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.OnMap() && u.side == s.decision_side) centers.push_back(u.hex);
  }
  std::cout << "\n" << TextMapAround(g, s, centers, 1);
  for (bool show = true;;) {
    if (show) {
      std::cout << SideName(g, s.decision_side) << ", turn " << int(s.turn) << " " << PhaseName(g, s) << ": "
                << g.rules->DescribeDecision(s) << "\n";
      ShowOptions(g, s, legal);
      if (!refusal_.empty()) std::cout << "refused: " << refusal_ << "\n";
    }
    show = false;
    std::string line;
    if (!ReadLine("choose 1-" + std::to_string(legal.size()) + ", a unit id, an action, or help: ", &line) ||
        line == "quit" || line == "q") {
      quit_ = true;
      return legal[0];
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.empty()) continue;
    if (line == "undo") {
      if (history_ && session_ && history_->CanUndo(*session_, sides_)) {
        undo_ = true;
        return legal[0];
      }
      std::cout << "nothing to undo: undo takes back your own actions of this phase that rolled no die\n";
      continue;
    }
    const std::string filter = filter_;
    if (Command(g, s, line)) {
      show = filter != filter_;  // the options again when the filter changed
      continue;
    }
    show = true;
    char* end = nullptr;
    const long n = std::strtol(line.c_str(), &end, 10);
    if (end && *end == '\0') {
      if (n >= 1 && static_cast<size_t>(n) <= legal.size()) return legal[static_cast<size_t>(n - 1)];
      refusal_ = "no option " + line;
      continue;
    }
    auto a = ParseActionText(g, line);
    if (a.ok()) return *a;
    refusal_ = a.errors().ToString();
  }
}

}  // namespace wg::cli
