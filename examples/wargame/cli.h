// Shared pieces of the `wargame` program (examples/wargame): loading a game
// from the command line, players, and the outputs (state JSON, SVG, text map).
#pragma once

#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wargame/game.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wg::cli {

// Exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;  // bad input file, refused action, game error
inline constexpr int kExitUsage = 2;  // bad command line

// GAME (a registered name with options, or a ruleset folder) plus --scenario
// and --optional, as one game spec ("name(scenario=x,optional=a+b)").
Result<std::string> GameSpec(const std::string& game, const std::string& scenario,
                             const std::string& optional);
Result<std::shared_ptr<const Game>> LoadGameSpec(const std::string& spec);

std::vector<std::string> SplitList(const std::string& text, char sep = ',');
bool ReadFile(const std::string& path, std::string* out);
bool WriteFile(const std::string& path, const std::string& text);
void PrintErrors(const ErrorList& errors);

// A script: a YAML list of actions (action_text.h).
Result<std::vector<Action>> LoadScript(const Game& game, const std::string& path);

// The actions queue shared by `script` players.
struct ScriptQueue {
  std::vector<Action> actions;
  size_t next = 0;
};

// "ai", "random", "human", "script"; nullptr and an error message otherwise.
// `ai_budget` > 0 overrides the AI's work cap per decision (AiOptions::budget).
std::unique_ptr<Player> MakePlayer(const std::string& kind, std::shared_ptr<const Game> game, uint64_t seed,
                                   ScriptQueue* script, std::string* error, int ai_budget = 0);
bool IsPlayerKind(const std::string& kind);

// Undo for a player: only the deciding player's own actions of the current
// phase, and none that rolled a die (undoing that would be a re-roll).
class UndoHistory {
 public:
  // Nothing applied before now can be undone (a new or loaded game).
  void Reset(const Session& s);
  // After a successful Apply by `side` (-1: the computer); events_before = the log size before it.
  void Applied(const Session& s, int side, size_t events_before);
  // `sides`: bit mask of the sides the asking player plays.
  bool CanUndo(const Session& s, int sides) const;
  void Undone() {
    if (!entries_.empty()) entries_.pop_back();
  }

 private:
  struct Entry {
    int side = -1;
    bool rolled = false;
  };
  std::vector<Entry> entries_;  // one per action applied since Reset
  size_t reset_actions_ = 0;    // the session's action count at Reset
  size_t phase_start_ = 0;      // the action count when the current phase began
  int phase_key_ = -1;
};

// The human player in the terminal (human.cc).
class TerminalPlayer : public Player {
 public:
  // sides: bit mask of the sides it plays (for undo); session and history may be null.
  TerminalPlayer(Session* session, UndoHistory* history, int sides);
  std::string name() const override { return "human"; }
  Action Choose(const Game& game, const State& s, const std::vector<Action>& legal) override;
  bool quit() const { return quit_; }
  bool wants_undo() const { return undo_; }
  bool forced() const { return forced_; }  // the last choice was the only legal option
  // The last action was refused: the reason stays above the prompt until one is accepted.
  void Refused(std::string why) { refusal_ = std::move(why); }
  void Accepted() {
    refusal_.clear();
    filter_.clear();
  }
  UndoHistory* history() const { return history_; }

 private:
  void ShowOptions(const Game& g, const State& s, const std::vector<Action>& legal) const;
  void ShowMap(const Game& g, const State& s, const std::string& arg) const;
  void ShowOdds(const Game& g, const std::string& arg) const;
  void ShowKey(const Game& g) const;
  // An attack's odds column in a few words (", odds 1-3"), "" if none.
  std::string OddsNote(const Game& g, const Action& a) const;
  bool Command(const Game& g, const State& s, const std::string& line);

  Session* session_;
  UndoHistory* history_;
  int sides_;
  std::string filter_;   // a unit id: only its options are listed
  std::string refusal_;
  bool quit_ = false;
  bool undo_ = false;
  bool forced_ = false;
};

// The odds column, modifiers and exact results of an attack, as text (odds, the terminal player).
std::string OddsText(const Game& game, Session& session, const Action& attack, bool* ok);  // output.cc

// Outputs.
std::string StateJson(const Session& session);
std::string RenderSvg(const Game& game, const State& s);  // svg_map.cc
std::string XmlText(const std::string& s);                 // & < > " escaped
// The hexes around `centers` (within radius) with their terrain and units.
std::string TextMapAround(const Game& game, const State& s, const std::vector<int>& centers, int radius);
std::string UnitValues(const Game& game, const State& s, UnitId u);  // "4-4" (current values)
// The unit's markers in words, each with its count: ", disruption 1" ("" if none).
std::string MarkersText(const Game& game, const State& s, UnitId u);
std::string SideName(const Game& game, int side);
// A legal option in a player's words: "stand", "retreat Harris 2304 -> 2104",
// "reorganize Wagner with Crittenden" (the terminal player and the page).
std::string ActionLabel(const Game& game, const State& s, const Action& a);
std::string PhaseName(const Game& game, const State& s);

// A new game (GAME + scenario + optional rules, seeded, or with every die
// supplied) or, when `load` is a file name, the saved game it holds, replayed
// to its last action after its fair dice record (if any) is verified.
Result<std::unique_ptr<Session>> OpenGame(const std::string& game, const std::string& scenario,
                                          const std::string& optional, const std::string& load, uint64_t seed,
                                          bool supplied_dice = false);

// "3,5,1" -> {3, 5, 1} (values 1..1000); false on a bad value.
bool ParseDiceList(const std::string& text, std::vector<int>* out);

class WebGame;
// Serves the page and the game until SIGINT/SIGTERM (serve.cc).
int RunServer(WebGame& game, const std::string& bind, int port, int ai_delay_ms);
// Serves the games of a club kept in the SQLite file `path` (club.h) until SIGINT/SIGTERM.
int RunClub(const std::string& path, const std::string& bind, int port, int ai_delay_ms, int ai_budget);

// Parses a subcommand's options (main.cc): --help prints `synopsis` and the
// options (exit 0); a bad command line prints "`command`: what", the synopsis
// when `synopsis_on_error`, and the options (exit 2). Returns -1 to go on.
int ParseOptions(int argc, char** argv, const boost::program_options::options_description& desc,
                 const boost::program_options::positional_options_description& pos,
                 boost::program_options::variables_map* vm, const char* command, const char* synopsis,
                 bool synopsis_on_error = true);

int CmdPlay(int argc, char** argv);
int CmdServe(int argc, char** argv);
int CmdSimulate(int argc, char** argv);
int CmdMerge(int argc, char** argv);
int CmdRules(int argc, char** argv);  // rules_cmd.cc

}  // namespace wg::cli
