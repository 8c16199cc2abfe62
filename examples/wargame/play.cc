// `wargame play`: plays one game with the chosen players and prints its log.
#include <unistd.h>

#include <boost/program_options.hpp>

#include <iostream>

#include "cli.h"
#include "line_input.h"
#include "fair_dice.h"
#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/registry.h"
#include "wargame/yaml_reader.h"

namespace po = boost::program_options;

namespace wg::cli {

Result<std::vector<Action>> LoadScript(const Game& game, const std::string& path) {
  YamlReader r = YamlReader::FromFile(path);
  if (!r.ok()) return r.errors();
  std::vector<Action> out;
  const YAML::Node root = r.root();
  if (root.IsNull()) return out;
  if (!r.ExpectSequence(root, "")) return r.errors();
  for (size_t i = 0; i < root.size(); ++i) {
    auto a = ParseAction(game, r, root[i], YamlReader::Item("", i));
    if (!a.ok()) return a.errors();
    out.push_back(*a);
  }
  if (!r.ok()) return r.errors();
  return out;
}

namespace {

// Takes the next action of the script, whatever side decides. An action
// that is not legal is refused by the session with its rule number.
class ScriptPlayer : public Player {
 public:
  explicit ScriptPlayer(ScriptQueue* q) : q_(q) {}
  std::string name() const override { return "script"; }
  Action Choose(const Game&, const State&, const std::vector<Action>&) override {
    return q_->actions[q_->next++];
  }
  bool exhausted() const { return q_->next >= q_->actions.size(); }

 private:
  ScriptQueue* q_;
};

}  // namespace

bool IsPlayerKind(const std::string& k) { return k == "ai" || k == "random" || k == "human" || k == "script"; }

std::unique_ptr<Player> MakePlayer(const std::string& kind, std::shared_ptr<const Game> game, uint64_t seed,
                                   ScriptQueue* script, std::string* error, int ai_budget) {
  if (kind == "ai") {
    AiOptions options;
    if (ai_budget > 0) options.budget = ai_budget;
    return std::make_unique<AiPlayer>(std::move(game), seed, options);
  }
  if (kind == "random") return std::make_unique<RandomPlayer>(seed);
  if (kind == "human") return std::make_unique<TerminalPlayer>(nullptr, nullptr, 3);
  if (kind == "script") {
    if (!script) {
      *error = "the script player needs --script FILE";
      return nullptr;
    }
    return std::make_unique<ScriptPlayer>(script);
  }
  *error = "unknown player \"" + kind + "\" (ai, random, human, script)";
  return nullptr;
}

namespace {

// --until TURN[:PHASE]: the point where play stops, before anyone acts in it.
struct Until {
  int turn = 0;  // 0: play to the end
  int phase = -1;
  bool Reached(const State& s) const {
    if (turn <= 0) return false;
    if (s.turn > turn) return true;
    if (s.turn < turn) return false;
    return phase < 0 || s.phase >= phase;
  }
};

}  // namespace

bool ParseDiceList(const std::string& text, std::vector<int>* out) {
  for (const auto& t : SplitList(text)) {
    char* end = nullptr;
    const long v = std::strtol(t.c_str(), &end, 10);
    if (!end || *end != '\0' || v < 1 || v > 1000) return false;
    out->push_back(static_cast<int>(v));
  }
  return true;
}

Result<std::unique_ptr<Session>> OpenGame(const std::string& game, const std::string& scenario,
                                          const std::string& optional, const std::string& load, uint64_t seed,
                                          bool supplied_dice) {
  if (!load.empty()) {
    std::string text;
    if (!ReadFile(load, &text)) return Error{load, 0, 0, "", "cannot read", ""};
    if (const std::string bad = VerifyFairDice(text, load, nullptr); !bad.empty()) {
      return Error{"", 0, 0, "", bad, ""};
    }
    return Session::Load(text, load);
  }
  auto spec = GameSpec(game, scenario, optional);
  if (!spec.ok()) return spec.errors();
  auto loaded = LoadGame(*spec);
  if (!loaded.ok()) return loaded.errors();
  return std::make_unique<Session>(*loaded, seed, supplied_dice);
}

namespace {

// What a bombardment did to the units in its target hexes (8.2): their values
// and markers before and after, in words ("no effect" when nothing changed).
std::string BombardResult(const Game& g, const State& before, const State& after, const Action& a) {
  std::string o;
  for (int i = 0; i < before.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    bool target = false;
    for (int h = 0; h < a.num_hexes; ++h) target |= before.unit(u).hex == a.hexes[static_cast<size_t>(h)];
    if (!target) continue;
    std::string change;
    for (size_t m = 0; m < g.markers.size() && m < static_cast<size_t>(kMaxMarkers); ++m) {
      const int d = after.unit(u).markers[m] - before.unit(u).markers[m];
      if (d) change += (change.empty() ? "" : ", ") + std::string(d > 0 ? "+" : "") + std::to_string(d) + " " + g.markers[m].name;
    }
    if (after.unit(u).hex != before.unit(u).hex) change += (change.empty() ? "" : ", ") + g.rules->PositionText(after, u);
    if (!change.empty()) o += (o.empty() ? "" : "; ") + g.units[static_cast<size_t>(i)].name + " " + change;
  }
  return o.empty() ? "no effect" : o;
}

// A game whose every die is supplied (a referee's save continued) needs each die
// from outside: the human at the terminal enters it. False (and *value unset)
// at the end of input.
bool AskDie(const std::string& who, const std::string& action, const std::string& need, int* value) {
  // need: "needs a die value (d6, combat): supply it and repeat the action"
  const size_t d = need.find("(d");
  const int sides = d == std::string::npos ? 6 : std::max(2, std::atoi(need.c_str() + d + 2));
  const std::string what = d == std::string::npos ? "d6" : need.substr(d + 1, need.find(')', d) - d - 1);
  for (;;) {
    std::string line;
    if (!ReadLine("this game's dice are entered by hand: " + who + ": " + action + " needs a die (" + what +
                      "): roll it and enter the value (1-" + std::to_string(sides) + "): ",
                  &line)) {
      return false;
    }
    char* end = nullptr;
    const long v = std::strtol(line.c_str(), &end, 10);
    if (end && *end == '\0' && !line.empty() && v >= 1 && v <= sides) {
      *value = static_cast<int>(v);
      return true;
    }
    std::cout << "a d" << sides << " shows 1 to " << sides << "\n";
  }
}

bool NeedsDie(const Status& st) { return !st.ok() && st.error().message.rfind("needs a die value", 0) == 0; }

// Plays until the game ends, --until or --max-actions, a script ends or a human quits.
int PlayLoop(Session& session, std::unique_ptr<Player> (&players)[2], const Until& until, const std::string& until_text,
             long max_actions, bool quiet, std::string* stopped) {
  const Game& g = session.game();
  UndoHistory* history = nullptr;
  for (auto& p : players) {
    if (auto* tp = dynamic_cast<TerminalPlayer*>(p.get())) history = tp->history();
  }
  if (history) history->Reset(session);
  const bool has_human = history != nullptr;
  size_t printed = 0;
  auto flush_events = [&] {
    const auto lines = session.DescribeEvents(printed);
    printed = session.events().size();
    if (quiet) return;
    for (const auto& l : lines) std::cout << "  " << l << "\n";
  };
  flush_events();
  while (!session.over()) {
    if (until.Reached(session.state())) {
      *stopped = "stopped at --until " + until_text;
      break;
    }
    if (static_cast<long>(session.actions().size()) >= max_actions) {
      *stopped = "stopped after --max-actions " + std::to_string(max_actions);
      break;
    }
    const State& s = session.state();
    Player& p = *players[s.decision_side & 1];
    if (auto* sp = dynamic_cast<ScriptPlayer*>(&p); sp && sp->exhausted()) {
      *stopped = "the script ended";
      break;
    }
    std::vector<Action> legal = session.LegalActions();
    if (legal.empty() && !dynamic_cast<ScriptPlayer*>(&p)) {
      std::cerr << "wargame play: no legal action but the game is not over (" << session.DescribeDecision()
                << ")\n";
      return kExitError;
    }
    const Action a = p.Choose(g, s, legal);
    auto* human = dynamic_cast<TerminalPlayer*>(&p);
    if (human && human->quit()) {
      *stopped = "the human player quit";
      break;
    }
    if (human && human->wants_undo()) {
      const std::string undone = ActionToText(g, session.actions().back());
      session.Undo();
      history->Undone();
      printed = std::min(printed, session.events().size());
      std::cout << "undone: " << undone << "\n";
      continue;
    }
    const std::string text = ActionToText(g, a);
    const std::string who = SideName(g, s.decision_side);
    const std::string where = "T" + std::to_string(s.turn) + " " + PhaseName(g, s);
    const State before = s;
    const int side = s.decision_side;
    const size_t events_before = session.events().size();
    Status st = session.Apply(a);
    while (NeedsDie(st) && has_human) {  // the dice are supplied: the human at the terminal rolls them
      int value = 0;
      if (!AskDie(who, text, st.error().message, &value)) break;
      session.SupplyDice({value});
      st = session.Apply(a);
    }
    if (NeedsDie(st)) {
      std::cerr << "wargame play: action " << session.actions().size() + 1 << " (" << who << ": " << text << ") "
                << st.error().message.substr(0, st.error().message.find(':')) << ", and this game's dice are all "
                << "supplied by hand (dice: supplied): give them with --dice 3,5,1, or play with a human player, "
                   "who is asked for each die\n";
      return kExitError;
    }
    if (!st.ok()) {
      if (human) {
        human->Refused(st.ToString());
        continue;
      }
      std::cerr << "wargame play: action " << session.actions().size() + 1 << " (" << who << ": " << text
                << ") refused: " << st.ToString() << "\n";
      return kExitError;
    }
    if (human) human->Accepted();
    // A forced option is nobody's to take back.
    if (history) history->Applied(session, human && !human->forced() ? side : -1, events_before);
    if (!quiet) std::cout << "[" << where << "] " << who << ": " << text << "\n";
    flush_events();
    // A bombardment of hexes gets its summary; a tabletop unit's fire (a bombard of a unit,
    // no hexes) has said what it did in its events, and "no effect" would contradict them.
    if (!quiet && a.type == ActionType::kBombard && a.num_hexes > 0) {
      std::cout << "  bombardment result: " << BombardResult(g, before, session.state(), a) << "\n";
    }
  }
  return kExitOk;
}

}  // namespace

int CmdPlay(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("game", po::value<std::string>(),
                                             "GAME: ruleset name with options, or a ruleset folder")(
      "load", po::value<std::string>(), "continue this saved game (play by e-mail) instead of starting one")(
      "scenario", po::value<std::string>(), "scenario name or file")(
      "optional", po::value<std::string>(), "optional rules to enable, comma separated")(
      "seed", po::value<uint64_t>()->default_value(1), "dice and players seed")(
      "players", po::value<std::string>(),
      (std::string("two players, first side first: ai, random, human, script (human: line editing, history and Tab "
                   "completion with ") + LineEditing() + ")").c_str())(
      "script", po::value<std::string>(), "YAML list of actions for the script players")(
      "dice", po::value<std::string>(), "die values to use first, comma separated (3,5,1)")(
      "until", po::value<std::string>(), "stop when TURN[:PHASE] is reached (phase by name or number)")(
      "max-actions", po::value<long>()->default_value(100000), "stop after this many actions")(
      "ai-budget", po::value<int>()->default_value(0), "the ai player's work per decision (0: its default)")(
      "save", po::value<std::string>(), "write the saved game (replayable) here")(
      "json", po::value<std::string>(), "write the final state as JSON here")(
      "svg", po::value<std::string>(), "draw the final position here")("quiet,q", "print only the result");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  const char* synopsis =
      "usage: wargame play GAME [--scenario NAME|FILE] [--optional R,...] [--seed N] [--players A,B]\n"
      "       wargame play --load SAVE [--players A,B] [--save F]   (continue a saved game)\n"
      "       [--script FILE] [--dice 3,5,1] [--until TURN[:PHASE]] [--save F] [--json F] [--svg F]";
  if (int rc = ParseOptions(argc, argv, desc, pos, &vm, "wargame play", synopsis, /*synopsis_on_error=*/false);
      rc >= 0) {
    return rc;
  }
  const bool quiet = vm.count("quiet") > 0;
  const bool has_script = vm.count("script") > 0;
  std::vector<std::string> kinds =
      SplitList(vm.count("players") ? vm["players"].as<std::string>() : (has_script ? "script,script" : "ai,ai"));
  if (kinds.size() == 1) kinds.push_back(kinds[0]);
  if (kinds.size() != 2) {
    std::cerr << "wargame play: --players takes two players, e.g. ai,random\n";
    return kExitUsage;
  }
  for (const auto& k : kinds) {
    if (!IsPlayerKind(k)) {
      std::cerr << "wargame play: unknown player \"" << k << "\" (ai, random, human, script)\n";
      return kExitUsage;
    }
    if (k == "script" && !has_script) {
      std::cerr << "wargame play: the script player needs --script FILE\n";
      return kExitUsage;
    }
  }
  std::vector<int> dice;
  if (vm.count("dice") && !ParseDiceList(vm["dice"].as<std::string>(), &dice)) {
    std::cerr << "wargame play: bad die value in --dice \"" << vm["dice"].as<std::string>() << "\"\n";
    return kExitUsage;
  }
  if (!vm.count("game") && !vm.count("load")) {
    std::cerr << "wargame play: GAME or --load SAVE is required\n" << desc;
    return kExitUsage;
  }
  const uint64_t seed = vm["seed"].as<uint64_t>();
  auto opened = OpenGame(vm.count("game") ? vm["game"].as<std::string>() : "",
                         vm.count("scenario") ? vm["scenario"].as<std::string>() : "",
                         vm.count("optional") ? vm["optional"].as<std::string>() : "",
                         vm.count("load") ? vm["load"].as<std::string>() : "", seed);
  if (!opened.ok()) {
    PrintErrors(opened.errors());
    return kExitError;
  }
  if (vm.count("load")) {  // a fair die being drawn is the two pages' to finish (fair_dice.h)
    std::string text;
    FairDiceRecord record;
    if (ReadFile(vm["load"].as<std::string>(), &text) &&
        VerifyFairDice(text, vm["load"].as<std::string>(), &record).empty() && record.pending) {
      std::cerr << "wargame play: " << vm["load"].as<std::string>() << " waits for a fair die of "
                << record.pending->action << " (commit-reveal between two remote players): continue it with "
                << "wargame serve --load " << vm["load"].as<std::string>() << " --players remote,remote\n";
      return kExitError;
    }
  }
  Session& session = **opened;
  const std::shared_ptr<const Game> game = session.game_ptr();
  const Game& g = *game;
  Until until;
  if (vm.count("until")) {
    const std::string u = vm["until"].as<std::string>();
    const size_t colon = u.find(':');
    char* end = nullptr;
    const std::string t = u.substr(0, colon);
    until.turn = static_cast<int>(std::strtol(t.c_str(), &end, 10));
    if (t.empty() || *end != '\0' || until.turn < 1) {
      std::cerr << "wargame play: bad --until \"" << u << "\" (expected TURN or TURN:PHASE)\n";
      return kExitUsage;
    }
    if (colon != std::string::npos) {
      const std::string p = u.substr(colon + 1);
      until.phase = g.turns.PhaseIndex(p);
      if (until.phase < 0) {
        const long n = std::strtol(p.c_str(), &end, 10);
        if (!p.empty() && *end == '\0' && n >= 1 && n <= static_cast<long>(g.turns.phases.size())) {
          until.phase = static_cast<int>(n - 1);
        } else {
          std::cerr << "wargame play: unknown phase \"" << p << "\" in --until\n";
          return kExitUsage;
        }
      }
    }
  }
  ScriptQueue script;
  if (has_script) {
    auto actions = LoadScript(g, vm["script"].as<std::string>());
    if (!actions.ok()) {
      PrintErrors(actions.errors());
      return kExitError;
    }
    script.actions = *actions;
  }
  session.SupplyDice(dice);
  UndoHistory history_for_play;
  std::unique_ptr<Player> players[2];
  for (int i = 0; i < 2; ++i) {
    std::string err;
    if (kinds[static_cast<size_t>(i)] == "human") {
      players[i] = std::make_unique<TerminalPlayer>(&session, &history_for_play, 1 << i);
      continue;
    }
    players[i] = MakePlayer(kinds[static_cast<size_t>(i)], game, seed * 2654435761ULL + 17 + static_cast<uint64_t>(i),
                            &script, &err, vm["ai-budget"].as<int>());
    if (!players[i]) {
      std::cerr << "wargame play: " << err << "\n";
      return kExitUsage;
    }
  }
  if (!quiet) {
    std::cout << g.title << "\n" << "game: " << g.params.ToString() << ", seed " << seed << "\n"
              << SideName(g, 0) << ": " << kinds[0] << ", " << SideName(g, 1) << ": " << kinds[1] << "\n";
  }
  std::string stopped;
  const int rc = PlayLoop(session, players, until, vm.count("until") ? vm["until"].as<std::string>() : "",
                          vm["max-actions"].as<long>(), quiet, &stopped);
  int exit_code = rc;
  const State& s = session.state();
  if (!stopped.empty()) std::cout << stopped << " (turn " << int(s.turn) << ", " << PhaseName(g, s) << ")\n";
  std::cout << "victory points: " << SideName(g, 0) << " " << s.vp[0] << ", " << SideName(g, 1) << " " << s.vp[1]
            << "\n";
  if (s.game_over) {
    std::string level;
    if (g.victory.kind == VictoryRules::Kind::kDifferential && s.level < g.victory.levels.size()) {
      level = g.victory.levels[s.level].name;
    }
    std::cout << "result: " << (s.winner >= 0 ? SideName(g, s.winner) + " wins" : std::string("draw"))
              << (level.empty() ? "" : " (" + level + ")") << " after " << session.actions().size()
              << " actions\n";
  }
  if (vm.count("save") && !WriteFile(vm["save"].as<std::string>(), session.Save())) {
    std::cerr << vm["save"].as<std::string>() << ": cannot write\n";
    exit_code = kExitError;
  }
  if (vm.count("json") && !WriteFile(vm["json"].as<std::string>(), StateJson(session))) {
    std::cerr << vm["json"].as<std::string>() << ": cannot write\n";
    exit_code = kExitError;
  }
  if (vm.count("svg")) {
    if (!WriteFile(vm["svg"].as<std::string>(), RenderSvg(g, s))) {
      std::cerr << vm["svg"].as<std::string>() << ": cannot write\n";
      exit_code = kExitError;
    } else if (!quiet) {
      std::cout << "map: " << vm["svg"].as<std::string>() << "\n";
    }
  }
  return exit_code;
}

}  // namespace wg::cli
