// Session: one game being played. Holds the shared Game, the current State,
// the dice (seeded or supplied), the event log, the actions taken, and undo
// snapshots. A game is fully described by (game spec, seed, supplied dice,
// actions), which is what Save() writes and Load() replays.
//
// Apply() is the public entry point around Rules::Apply (OpenSpiel's
// ApplyAction/DoApplyAction split): it rejects actions when the game is over,
// backs up the State, and restores it byte for byte if the ruleset refuses
// the action or a die value is missing, so a refused action changes nothing.
//
// Save file (YAML):
//   game: "stars_and_bars(scenario=perryville)"
//   seed: 1
//   dice: seeded            # or supplied: every value below was entered by hand
//   supplied: [3, 5, 1]     # dice: supplied only: every value, in the order used
//   supplied_at: {1: [4]}   # dice: seeded: values a referee supplied, at the
//                           #   index in `actions` of the action that used them
//   queued: [2, 6]          # values supplied and not used yet (only if any): Load
//                           #   queues them again, so a continued game uses them
//   actions:                # in the script language (action_text.h); [] if none
//     - {move: [harris], path: [2302, 2303]}
//     - end
//   hash: "a1b2c3d4e5f60718"  # state hash after the last action: required, checked on load
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "wargame/action.h"
#include "wargame/dice.h"
#include "wargame/event.h"
#include "wargame/game.h"

namespace wg {

class Session {
 public:
  // seed: the dice seed. supplied_dice: every die must be supplied (a referee).
  Session(std::shared_ptr<const Game> game, uint64_t seed, bool supplied_dice = false);
  // Gives its scratch back to the game (Rules::ReturnScratch) for the next Session.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  // A copy of the game in progress (state, log, actions, dice) that plays on
  // independently; it has no undo history before the copy.
  std::unique_ptr<Session> Clone() const;

  const Game& game() const { return *game_; }
  std::shared_ptr<const Game> game_ptr() const { return game_; }
  const State& state() const { return state_; }
  bool over() const { return state_.game_over != 0; }
  uint64_t seed() const { return seed_; }

  // Applies an action or returns why it is refused (state unchanged).
  Status Apply(const Action& a);
  // Listable legal actions now.
  std::vector<Action> LegalActions();
  // The same into *out (cleared first), reusing its storage: a playout loop that
  // keeps one vector allocates nothing per decision once it has grown.
  void LegalActions(std::vector<Action>* out);
  // The same actions in the same order, the moves not copied (LegalActionList,
  // action.h: valid until the next listing or Apply): for playouts that apply one
  // listed action and never look at the rest (PlayRandomGame, `wargame simulate`).
  void LegalActions(LegalActionList* out);
  // Undoes the last applied action. False if there is none (or in playout mode).
  bool Undo();
  // Playout mode (issue 15), for callers that play games to the end and never
  // undo (random playouts, benchmarks, `wargame simulate`): Apply keeps no undo
  // snapshot (a whole State, ~3.5 KB, per action), so Undo() returns false for
  // every action applied while it is on (turning it on drops the snapshots
  // taken before). Play is identical either way: the same State, events,
  // actions and Save(); only undo is given up. Off by default.
  void set_playout(bool on);
  bool playout() const { return playout_; }
  // Die values from outside, used before the seeded generator (or instead of it).
  void SupplyDice(const std::vector<int>& values);
  size_t dice_queued() const { return queue_.size(); }
  // The values supplied and not used yet, in the order they will be used (Save writes
  // them as `queued:`); ClearQueuedDice drops them.
  std::vector<int> queued_dice() const { return std::vector<int>(queue_.begin(), queue_.end()); }
  void ClearQueuedDice() { queue_.clear(); }
  // Every die must be supplied (a referee's dice, or fair remote dice): no generator.
  bool supplied_only() const { return supplied_only_; }

  const std::vector<Event>& events() const { return log_.events; }
  const std::vector<Action>& actions() const { return actions_; }
  // Die values supplied from outside and used so far, in order.
  const std::vector<int>& supplied_used() const { return supplied_used_; }
  // Events since the given index, as readable lines.
  std::vector<std::string> DescribeEvents(size_t from = 0) const;
  std::string DescribeDecision() const { return game_->rules->DescribeDecision(state_); }

  std::string Save() const;
  // Replays a saved game; refuses a file whose actions do not replay or whose
  // hash does not match. `name` is the file name for messages.
  static Result<std::unique_ptr<Session>> Load(const std::string& text, const std::string& name);
  // Same, stopping after `max_actions` actions (replay --to N).
  static Result<std::unique_ptr<Session>> Load(const std::string& text, const std::string& name,
                                               size_t max_actions);
  // Same, replaying on `game` instead of loading the save's spec again: a save of
  // another game spec is refused, and nothing the spec names is loaded, so no file
  // it names is read (`wargame serve`'s Import of a save sent over the network).
  // The session shares `game` (the Python module's states play on the Game they belong to).
  static Result<std::unique_ptr<Session>> LoadFor(std::shared_ptr<const Game> game, const std::string& text,
                                                  const std::string& name);

  Scratch& scratch() { return *scratch_; }

  // The largest die value a save or a referee may supply (a d1000).
  static constexpr int kMaxDieValue = 1000;
  // The save format Save writes (`format:`): 1 had no key (the State before its step
  // stack; Load checks its hash against HashStatePrefix), 2 hashes the whole State,
  // 3 too, since the combat's advance stage and the tabletop's activation and charge
  // are the steps' arguments (Load checks an older save against the States
  // Rules::LegacySaveStates gives, with those bytes as the older code left them).
  // 4 hashes as 3 does; it came when choices the program made for the players became
  // theirs by default (ruleset.yaml `choices:`, PlayerChoice::since_format): Load reads
  // the spec of an older save as the game it was, the program making such a choice
  // (`auto=ID`), or the players if it named the choice in `optional` (then an optional rule).
  // 5 since what a combat owes is in its script steps' frames (retreats, losses, Stand)
  // rather than unit flags and ruleset counters (LegacySaveStates again).
  // 6 since an action a step goes on with is the step's, in State::held (Blue & Gray
  // 11.2's attack while the cavalry chooses), not the ruleset's State::ext; and Stars and
  // Bars asks the captures (5.8) a handler owes before the dice its action goes on to roll,
  // and its 7.8 advance is the advance step's argument, not an SbExt flag.
  static constexpr int kSaveFormat = 6;

 private:
  static Result<std::unique_ptr<Session>> Guarded(const std::string& text, const std::string& name,
                                                  size_t max_actions, std::shared_ptr<const Game> game);
  static Result<std::unique_ptr<Session>> LoadUnguarded(const std::string& text, const std::string& name,
                                                        size_t max_actions, std::shared_ptr<const Game> game);
  // For Clone: the state as it is, no set-up.
  Session(std::shared_ptr<const Game> game, uint64_t seed, bool supplied_dice, const State& state);
  // Per applied action: the log and supplied-dice sizes before it (Save and Undo).
  struct Snapshot {
    size_t events;
    size_t supplied;
  };
  std::shared_ptr<const Game> game_;
  uint64_t seed_;
  bool supplied_only_;
  std::deque<int> queue_;  // supplied values not used yet
  EventLog log_;
  std::unique_ptr<Scratch> scratch_;
  State state_;
  std::vector<Action> actions_;
  std::vector<Snapshot> undo_;
  // The State before each of the last undo_states_.size() actions (none taken in
  // playout mode); aligned with the end of undo_.
  std::vector<State> undo_states_;
  State backup_;  // the State before the action being applied (restored if it is refused)
  bool playout_ = false;
  std::vector<int> supplied_used_;
};

}  // namespace wg
