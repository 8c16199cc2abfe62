// The game behind `wargame serve`, without the network: who may act (a
// random token per seat), the messages of the page (JSON, one object per
// message) and their answers. Every action a message carries is parsed by the
// script-language parser (ParseActionText) and applied by Session::Apply, so
// the page is refused exactly what a script or save would be. serve.cc moves
// the messages over HTTP and WebSocket; tests drive this class directly too.
//
// Messages from the page ({"t": ...}):
//   {"t":"state"}                                   the position, legal options, log
//   {"t":"act","action":"{move: [harris], path: [2302]}"}
//   {"t":"odds","action":"{attack: [harris], target: [2405]}"}
//   {"t":"preview","action":"{move: [me20], value: 1200, value2: 2400}"}   tabletop: what the action
//                                                   would do (the unit's base after it), or its refusal
//   {"t":"undo"}  {"t":"export"}  {"t":"import","save":"game: ..."}
//   {"t":"key","key":"<64 hex>"}                    fair dice (fair_dice.h): the side's Ed25519 public key
//   {"t":"commit","hash":"<64 hex>","sig":"<128 hex>"}  {"t":"reveal","secret":"<64 hex>","sig":...}
//   {"t":"void","sig":...}  {"t":"claim","value":4,"sig":...}   a stalled round's ways out
//   {"t":"die","value":4}                            a referee's die (a game whose dice are supplied)
//   {"t":"replay","to":N}                            the position after the first N actions (web_replay.cc)
//   {"t":"why","unit":"harris"}                      why the unit is not among the options (its rule)
//
// The dice: a seeded game rolls them (a remote link never gets its seed: it
// may not export the save before the game is over). A game whose every die is supplied
// (two remote players, or a referee's save continued) draws each die the
// action waits for from the two links by commit-reveal when each side has its
// own link and no side is the computer's (fair dice), else the player at the
// page enters it (a referee rolling real dice; the computer's actions wait too).
// Answers: {"t":"state",...}, {"t":"refused","rule":"7.5","message":...},
// {"t":"odds",...}, {"t":"save","save":...}, {"t":"error","message":...}.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "fair_dice.h"
#include "wargame/players.h"
#include "wargame/session.h"

namespace wg {
class HexQueries;
struct AttackAnalysis;
}  // namespace wg

namespace wg::cli {

// The longest message the page may send (an imported save is the biggest).
inline constexpr size_t kMaxMessageBytes = 1 << 20;
// The longest action a message may carry (the longest legal one is a few hundred bytes).
inline constexpr size_t kMaxActionText = 2000;

class WebGame {
 public:
  // kinds: per side "human" (this page; every human side shares one link:
  // hot-seat), "remote" (its own link) or "ai".
  WebGame(std::unique_ptr<Session> session, std::vector<std::string> kinds, uint64_t seed, int ai_budget);

  // The bit mask of sides a token may act for (bit i = side i); 0: not a player.
  int SidesOf(const std::string& token) const;
  // The tokens to hand out, with the sides they play (one per link).
  struct Seat {
    std::string token;
    int sides = 0;
  };
  const std::vector<Seat>& seats() const { return seats_; }

  // Handles one message from a page whose token plays `sides`. Returns the
  // answer; *changed is set when the game changed (every page needs the state).
  // A link that plays no side (a club's spectator: sides 0 apart from role
  // bits) may only ask for the state and odds.
  std::string Handle(int sides, const std::string& message, bool* changed);
  // The state message for a page playing `sides`.
  std::string StateMessage(int sides);

  // The computer's turn: true when an ai side decides now.
  bool AiToMove() const;
  // Applies one action of the computer player; false if it had none.
  bool AiStep();

  const Session& session() const { return *session_; }
  // The fair dice of a loaded save (VerifyFairDice): kept in what is exported,
  // and its pending action (if any) waits for its round again. "" or the error
  // (a save whose dice nothing binds to the players cannot go on as a fair game).
  std::string SetFairDice(FairDiceRecord record);
  // Seconds a round may wait on one side before the other may claim its die (0: never);
  // set for a new fair game (a loaded one keeps its own).
  void set_dice_deadline(long seconds);
  // Tests: the clock of the deadlines (unix seconds).
  void set_clock(std::function<long()> clock) { clock_ = std::move(clock); }
  const FairDiceGame& fair_game() const { return fair_game_; }
  // The dice come from commit-reveal rounds between the two links.
  bool fair_dice() const { return fair_; }
  // An action waits for its die.
  bool waiting_for_die() const { return pending_.has_value(); }
  // The save as exported: the session's save and the fair dice record.
  std::string SaveText() const;
  // Replaces the game by a save of it (SaveText), replayed as an imported save
  // is (Session::LoadFor, the fair dice verified): "" or why not (then nothing
  // changed). `wargame serve --club` rebuilds its games so.
  std::string Restore(const std::string& save);

 private:
  std::string Act(int sides, const std::string& text, bool* changed);
  // web_replay.cc: the replay and the reason a unit may not be chosen.
  std::string Replay(const nlohmann::json& m);
  std::string ReplayIndex();
  std::string Why(int sides, const std::string& unit_id);
  std::string Odds(const std::string& message_json);
  std::string Preview(int sides, const std::string& text);
  std::string Undo(int sides, bool* changed);
  std::string Import(int sides, const std::string& save, bool* changed);
  // key, commit, reveal, void, claim (fair_dice.h).
  std::string FairMessage(int sides, const std::string& t, const nlohmann::json& m, bool* changed);
  std::string Export(int sides) const;
  // Every side the link plays is a remote seat (another player's machine, not the host's page).
  bool RemoteLink(int sides) const;
  std::string EnterDie(int sides, const nlohmann::json& value, bool* changed);
  // An action refused for a missing die waits for it (true), when this game draws its dice so.
  bool WaitForDie(const Status& st, const Action& a, int side);
  void StartRound(const Status& needs_die);
  void NewRound(int sides, const std::string& label);
  long Now() const;
  FairDiceRecord FairRecord() const;
  nlohmann::json FairJson(int sides) const;
  // The die is known: supplied, and the waiting action applied again.
  void DieKnown(int value);
  void SetDiceMode();
  nlohmann::json RoundJson(int sides) const;
  bool UndoAllowed(int sides) const;
  // Every side is played by this link or by the computer (a game on one page).
  bool ControlsGame(int sides) const;
  void MakePlayers();
  nlohmann::json LegalJson(int sides);

  std::unique_ptr<Session> session_;
  std::vector<std::string> kinds_;
  uint64_t seed_;
  int ai_budget_;
  std::vector<Seat> seats_;
  std::unique_ptr<Player> ai_[2];
  UndoHistory history_;
  // A session whose dice are all supplied: an action that needs a die waits
  // (pending_) for a commit-reveal round (fair_) or for the page to enter it.
  bool fair_ = false;
  FairDiceGame fair_game_;              // its id, the sides' keys, the deadline
  long dice_deadline_ = 0;
  long next_round_ = 0;                 // the index n of the next round
  std::function<long()> clock_;
  std::optional<FairDiceRound> round_;  // the die being drawn (both modes: its sides and label)
  std::vector<FairDiceRound> rounds_;   // every fair die of an applied action, in order (the save's fair_dice)
  std::vector<FairDiceRound> voided_;   // rounds both sides voided
  std::vector<FairDiceRound> drawn_;    // the fair dice the pending action has drawn so far
  std::optional<Action> pending_;       // the action waiting for the die
  int pending_side_ = -1;
  bool pending_by_ai_ = false;          // the computer took it (nobody's to undo)
  // The replay (web_replay.cc): a second session stepped through the actions,
  // and per action count the events logged and the turn, for the game whose
  // position and action count hash to replay_key_.
  std::unique_ptr<Session> replay_;
  uint64_t replay_key_ = 0;
  std::vector<size_t> replay_events_;
  std::vector<int> replay_turns_;
  std::vector<int> replay_by_;  // the side that took each action
};

// Whether a link playing the sides of the bit mask `sides` plays `side`.
bool Plays(int sides, int side);

// The answers of WebGame::Handle.
std::string Answer(const nlohmann::json& j);
std::string Refused(const std::string& rule, const std::string& message);
std::string ErrorAnswer(const std::string& message);

// A game on a table (Rules::tabletop(), wargame/tabletop.h) in the page (web_tabletop.cc).
bool IsTabletop(const Game& g);
// The action applied to a copy of `s` by the ruleset with no dice (one needed:
// refused "this action rolls dice"), after the shape and canonical checks of
// Session::Apply. `s` is unchanged; *out is the state after.
Status PreviewApply(const Game& g, const State& s, Scratch* scratch, const Action& action, State* out);
// The table's size, every base's corners, the ranges from the active unit to
// each enemy, and (can_move) the outline of where the active unit may move.
nlohmann::json TabletopJson(const Game& g, const State& s, Scratch* scratch, bool can_move);
nlohmann::json ReachJson(const Game& g, const State& s, Scratch* scratch, UnitId u);
nlohmann::json OddsJson(const Game& g, const HexQueries& hex, const AttackAnalysis& an, const Action& a);

// A random token (128 bits from std::random_device, as hex).
std::string NewToken();

}  // namespace wg::cli
