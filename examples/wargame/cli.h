// Shared pieces of the `wargame` program (examples/wargame): loading a game
// from the command line, players, and the outputs (state JSON, SVG, text map).
#pragma once

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

// Outputs.
std::string StateJson(const Session& session);
std::string RenderSvg(const Game& game, const State& s);  // svg_map.cc
std::string XmlText(const std::string& s);                 // & < > " escaped
// The hexes around `centers` (within radius) with their terrain and units.
std::string TextMapAround(const Game& game, const State& s, const std::vector<int>& centers, int radius);
std::string UnitValues(const Game& game, const State& s, UnitId u);  // "4-4" (current values)
std::string SideName(const Game& game, int side);
// A legal option in a player's words: "stand", "retreat Harris 2304 -> 2104",
// "reorganize Wagner with Crittenden" (the terminal player and the page).
std::string ActionLabel(const Game& game, const State& s, const Action& a);
std::string PhaseName(const Game& game, const State& s);

// A new game (GAME + scenario + optional rules, seeded) or, when `load` is a
// file name, the saved game it holds, replayed to its last action.
Result<std::unique_ptr<Session>> OpenGame(const std::string& game, const std::string& scenario,
                                          const std::string& optional, const std::string& load, uint64_t seed);

// "3,5,1" -> {3, 5, 1} (values 1..1000); false on a bad value.
bool ParseDiceList(const std::string& text, std::vector<int>* out);

class WebGame;
// Serves the page and the game until SIGINT/SIGTERM (serve.cc).
int RunServer(WebGame& game, const std::string& bind, int port, int ai_delay_ms);

int CmdPlay(int argc, char** argv);
int CmdServe(int argc, char** argv);
int CmdSimulate(int argc, char** argv);
int CmdMerge(int argc, char** argv);

}  // namespace wg::cli
