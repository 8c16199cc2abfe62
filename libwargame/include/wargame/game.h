// Game: the immutable, compiled ruleset + scenario, shared by every State of
// one game (std::shared_ptr<const Game>), and Rules, the ruleset's hooks.
//
// A Game is built once by a ruleset factory (registry.h) from the ruleset's
// YAML (game_loader.h) and never changes; many threads may play it at once.
// Rules is the ruleset's C++: named hook points the engine calls while it
// applies actions. Everything a hook needs to mutate lives in the State or in
// the Context passed to it (dice, event sink, scratch buffers).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "wargame/action.h"
#include "wargame/board.h"
#include "wargame/dice.h"
#include "wargame/error.h"
#include "wargame/event.h"
#include "wargame/state.h"
#include "wargame/victory.h"
#include "wargame/steps.h"

namespace wg {

class Game;
class HexQueries;  // hex_rules.h
class TabletopQueries;  // tabletop.h
class MoveSampler;      // playout.h
class AiBoardFeatures;  // ai.h
struct RuleSource;  // rule_index.h

// Reusable per-thread buffers (pathfinder, action lists) a ruleset's hooks use
// while applying actions. Never shared between threads; Rules::NewScratch makes one.
class Scratch {
 public:
  virtual ~Scratch() = default;
};

// --- Catalog ----------------------------------------------------------------

struct SideDef {
  std::string id;    // "union"
  std::string name;  // "Union"
};

struct KindDef {
  std::string id;               // "infantry"
  int movement_class = 0;       // index into the movement rules' classes
  bool counts_for_stacking = true;
};

// A marker reduces the listed attributes by its count (permanent loss and
// disruption reduce attack and defense, 7.4).
struct MarkerDef {
  std::string id;
  std::string name;
  std::vector<int> reduces;  // attribute indices
};

struct Formation {
  std::string id, name, corps;
  int side = 0;
  std::string hq;  // unit id of its HQ
};

struct UnitDef {
  std::string id;    // unique, used in scripts and saves
  std::string name;  // as printed
  int side = 0;
  int kind = 0;
  std::string size;
  int16_t front[kMaxAttributes] = {};
  int16_t back[kMaxAttributes] = {};
  bool has_back = false;
  bool trained = true;
  std::string corps;
  int formation = -1;       // index into Game::formations
  int setup_hex = -1;       // grid index, -1 if not on the map at start, kOnTable on a table
  uint8_t face = 0;
  int release_turn = 0;     // 0: released from the start
  int reinforcement_turn = 0;
  int entry_place = -1;     // index into the board's places (Game::places())
  uint8_t markers[kMaxMarkers] = {};
  std::string optional_rule;  // present only when this optional rule is on
};

// --- Turn record track --------------------------------------------------------

struct TurnDef {
  std::string label;  // "3:00 AM"
  bool night = false;
};

struct TurnTrack {
  std::vector<TurnDef> turns;           // turn i+1 is turns[i]
  std::vector<int> order;               // side index per player-turn (Union first...)
  std::vector<std::string> phases;      // phase names per player-turn, in order
  int num_turns() const { return static_cast<int>(turns.size()); }
  int PhaseIndex(const std::string& name) const;
};

// --- Victory -------------------------------------------------------------------

struct VictoryLevel {
  std::string name;   // "Union Decisive Victory"
  int min = -100000;  // differential range, inclusive
  int max = 100000;
  int winner = -1;    // side index, -1 draw
};

struct VictoryRules {
  enum class Kind { kThresholds, kDifferential } kind = Kind::kThresholds;
  int thresholds[2] = {0, 0};        // kThresholds: minimum VPs a side needs to be able to win
  std::vector<VictoryLevel> levels;  // kDifferential: side 0 VPs minus side 1 VPs
  std::vector<VpScheduleEntry> points;  // victory.points: the VP schedule as data (victory.h)
};

// Optional rules the ruleset offers, switchable by name.
struct OptionalRule {
  std::string id;     // "12.1"
  std::string title;  // "Advance after combat: untrained units"
};

// A decision the rules give a player that the program can make instead (ruleset.yaml
// `choices:`): a game made with `auto=ID+ID` has the program make those for both players
// (Game::Automated), as a ruleset's hooks read it. `since_format`: the save format from
// which the players make it by default; a save of an older format was written while the
// program made it (or, with `optional=ID`, while the players did), and Session::Load reads
// its spec so (UpgradeSpecOfSave, session.cc).
struct PlayerChoice {
  std::string id;         // "setup"
  std::string rule;       // "3.0"
  std::string title;      // "each owner chooses its batteries' set-up mode"
  int since_format = 0;   // 0: no save format predates it
};

// key=value parameters a game was made with (scenario, optional rules...).
struct GameParams {
  std::string ruleset;
  std::string scenario;
  std::vector<std::string> optional;  // enabled optional rule ids
  std::vector<std::pair<std::string, std::string>> extra;
  std::vector<std::string> automated;  // `auto=`: choice ids the program makes for the players
  std::string ToString() const;  // "name(scenario=x,optional=12.1+12.6,auto=setup)"
};
Result<GameParams> ParseGameSpec(const std::string& spec);

// --- Applying actions -----------------------------------------------------------

// Status (what Rules::Apply returns) is in wargame/error.h.

// Everything a hook may touch besides the State: dice, events, scratch space.
class Context {
 public:
  Context(const Game& game, DiceStream* dice, EventSink* sink, Scratch* scratch)
      : game_(game), dice_(dice), sink_(sink), scratch_(scratch) {}

  const Game& game() const { return game_; }
  Scratch& scratch() { return *scratch_; }
  EventSink* sink() const { return sink_; }
  void Emit(const Event& e) {
    if (sink_) sink_->OnEvent(e);
  }
  // Rolls one die: from supplied values first, else from state.rng. If a value
  // is needed and none was supplied, records that and returns 1; the session
  // then refuses the whole action ("needs a die value") and restores the state.
  int Roll(State& s, int sides, const char* label);
  int RollSum(State& s, int count, int sides, const char* label);
  bool missing_die() const { return missing_die_; }
  // Chance steps (wargame/steps.h): stop at them instead of rolling at once.
  // A die rolled inside an action (Roll) is then a chance step too: the held roll.
  void StopAtChance(bool on) { stop_at_chance_ = on; }
  bool stops_at_chance() const { return stop_at_chance_; }
  // The held roll (wargame/steps.h, ApplyStep): while ApplyStep applies an action
  // for a Context that stops at chance, Roll takes its values from `given`; the
  // first die beyond them is recorded (`short_sides`, `short_label`) and every
  // roll from there returns 1: the action is then held, not applied.
  struct HeldDice {
    const uint8_t* given = nullptr;
    int num_given = 0;
    int used = 0;
    int short_sides = 0;  // > 0: a die beyond the given ones was asked for
    const char* short_label = "";
    bool roll_beyond = false;  // the dice beyond the given ones are rolled at once
  };
  HeldDice* held_dice() const { return held_; }
  void set_held_dice(HeldDice* h) { held_ = h; }
  // Where events go (the held roll buffers an action's events until it completes).
  void set_sink(EventSink* sink) { sink_ = sink; }
  const std::vector<RollRecord>* record() const { return dice_ ? &dice_->record() : nullptr; }

 private:
  const Game& game_;
  DiceStream* dice_;
  EventSink* sink_;
  Scratch* scratch_;
  bool missing_die_ = false;
  bool stop_at_chance_ = false;
  HeldDice* held_ = nullptr;
};

// The ruleset's hooks. The engine calls these; a ruleset overrides what it needs.
class Rules {
 public:
  virtual ~Rules() = default;

  // Called once after the generic set-up (units placed from the scenario).
  virtual void Start(State& s, Context& ctx) const = 0;
  // Legal actions where they can be listed (every action a random player may
  // take). Actions that cannot be listed exhaustively are still checked by Apply.
  virtual void LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const = 0;
  // The same actions, in the same order, in the cheap form (LegalActionList: the
  // moves by reference into ctx's scratch). The default lists into out->others.
  virtual void ListLegal(const State& s, Context& ctx, LegalActionList* out) const;
  // Validates and applies one action. On refusal the caller restores the state.
  virtual Status Apply(State& s, const Action& a, Context& ctx) const = 0;
  // Invariants the conformance harness checks after every action.
  virtual void CheckInvariants(const State& s, ErrorList* out) const;
  // A readable line for a ruleset-specific event, or "" for the generic one.
  virtual std::string DescribeEvent(const Event& /*e*/) const { return ""; }
  // A short text for the current decision (for prompts and --json): the top
  // step's prompt (StepDef::prompt; a ruleset words a decision there, next to
  // the step), "game over" when there is none.
  std::string DescribeDecision(const State& s) const;
  // Where a unit is, in words ("2302", "12.5, 30.0 in"), for logs and --json.
  virtual std::string PositionText(const State& s, UnitId u) const;
  // A unit's current value of an attribute as the rules count it, for displays
  // and state files. The default is Game::Current (printed minus markers); a
  // ruleset may say more (S&B 6.2: a unit with DS 0 has AS 0; 7.4.3: a
  // disrupted unit has MA - 1).
  virtual int CurrentValue(const Game& game, const State& s, UnitId u, int attribute) const;
  // A ruleset that is not played on the hex map (a tabletop measured in inches)
  // draws its own picture: fills `svg` and returns true. Hex games return false
  // and the generic renderer draws the map.
  virtual bool RenderSvg(const State& /*s*/, std::string* /*svg*/) const { return false; }
  // Ruleset knowledge for the computer player (ai.h): a term added to the
  // generic evaluation of a position for `side` (higher is better for it; one
  // point is worth about one strength point). The default adds nothing.
  virtual double Evaluate(const State& /*s*/, int /*side*/) const { return 0.0; }
  // A unit's strength for casualty reports (`wargame simulate`: strength lost),
  // or -1 to use the generic value (its current attack attribute).
  virtual int Strength(const State& /*s*/, UnitId /*u*/) const { return -1; }
  // The most faces of a die the ruleset's hooks roll inside an action (not at a
  // chance step, whose dice its StepDef declares): an explicit-chance search
  // sizes its outcomes by it (Python's max_chance_outcomes). A ruleset that
  // rolls a die of more than six faces says so.
  virtual int MaxDieFaces() const { return 6; }
  // The ruleset's own state as a JSON object (figures, facings, livestock on a
  // tabletop), written by --json under "ruleset_state"; "" for none.
  virtual std::string StateJson(const State& /*s*/) const { return ""; }
  // Saves of an older `format` (docs/scripting.md) hashed bytes that the engine
  // has since stopped writing (issue 11 moved them into the steps' arguments):
  // appends each State such a save may have hashed for `s`, those bytes put back
  // as the older code left them, so the save's hash is still checked. Default: none.
  virtual void LegacySaveStates(const State& /*s*/, int /*format*/, std::vector<State>* /*out*/) const {}
  // Buffers for one thread playing this game.
  virtual std::unique_ptr<Scratch> NewScratch() const { return std::make_unique<Scratch>(); }
  // A scratch for a Session of this game: one an earlier Session gave back
  // (ReturnScratch), its buffers grown and its caches keyed by what they were
  // computed from, so valid for any State (as after an undo); else NewScratch().
  // Game after game on one thread then allocate nothing once the first has grown
  // the buffers (issue 15). Thread-safe; at most kScratchPool are kept.
  std::unique_ptr<Scratch> TakeScratch() const;
  void ReturnScratch(std::unique_ptr<Scratch> scratch) const;
  static constexpr size_t kScratchPool = 16;
  // A game on a hex map answers the hex queries (hex_rules.h: odds, reachable
  // hexes, zones of control...) for players, referees and renderers; nullptr
  // for a game that is not (a tabletop measured in inches).
  virtual const HexQueries* hex() const { return nullptr; }
  // A game on a table measured in inches answers the tabletop queries (tabletop.h:
  // bases, rates, action labels) for players and pages; nullptr for a hex game.
  virtual const TabletopQueries* tabletop() const { return nullptr; }
  // The board engine's sampler of random moves for fast playouts (playout.h:
  // FastRandomPlayer); nullptr: the playouts pick from the listed actions.
  virtual const MoveSampler* move_sampler() const { return nullptr; }
  // The board engine's features for the computer player's evaluation (ai.h:
  // neighbours, distances, stacking); nullptr: the evaluation has no board terms.
  virtual const AiBoardFeatures* ai_features() const { return nullptr; }
  // What this game implements each rule number with (`wargame rules`, rule_index.h):
  // the YAML keys, steps and hooks that cite a rule. The default lists the steps.
  virtual void RuleSources(std::vector<RuleSource>* out) const;
  // The steps of this game's sequence of play (wargame/steps.h), registered by
  // the ruleset's constructor.
  const StepTable& steps() const { return steps_; }
  // The turn procedure's handlers (wargame/steps.h: what happens when a turn
  // begins or ends, a phase ends, the game ends), registered by the engine and
  // the ruleset's constructor.
  const Procedure& procedure() const { return procedure_; }
  // Called once by the loader after the ruleset's constructor: steps the engine
  // registers after the ruleset's own, so the kinds a State holds keep their numbers.
  virtual void FinishSteps() {}

 protected:
  StepTable steps_;
  Procedure procedure_;

 private:
  mutable std::mutex scratch_mutex_;
  mutable std::vector<std::unique_ptr<Scratch>> scratch_pool_;
};

inline constexpr int kUnchangedHex = -100;
// A scenario's start: turn, player-turn, phase, and unit placements that
// override the order of battle's set-up (rule tests and what-if set-ups).
struct Placement {
  int unit = -1;
  int hex = kUnchangedHex;  // grid index; kEliminated / kNotYetEntered / kWithdrawn allowed
  int face = -1;
  uint8_t markers[kMaxMarkers] = {};
  bool set_markers = false;
  int released = -1;  // -1 unchanged, 0 no, 1 yes
};
struct ScenarioStart {
  int turn = 1;
  int player_turn = 0;
  int phase = 0;
  bool only_placed = false;  // units not placed are withdrawn
  std::vector<Placement> placements;
};

// --- The game ------------------------------------------------------------------

// The base of a ruleset's compiled data (Game::data): tables, movement rules and
// whatever its loader builds, read back typed with Game::Data<T>().
struct RulesetData {
  virtual ~RulesetData() = default;
};

// A data key the loaded game read whose line names a rule (a trailing comment
// "# 7.5.1" or "# 7.1: ..."): the rule, the key path, where ("file:line").
struct DataRule {
  std::string rule;
  std::string key;
  std::string where;
};

class Game {
 public:
  GameParams params;
  std::string title;
  std::string folder;  // where the ruleset's files are
  std::vector<SideDef> sides;
  std::vector<KindDef> kinds;
  std::vector<std::string> attributes;
  std::vector<MarkerDef> markers;
  std::vector<OptionalRule> optional_rules;
  // What the game's data says it implements (`# RULE` comments on the keys read).
  std::vector<DataRule> data_rules;
  // Where each `rule_numbers:` entry was read ("rule_numbers.retreat" ->
  // "rulesets/stars_and_bars/ruleset.yaml:80"), for `wargame rules`.
  std::vector<std::pair<std::string, std::string>> rule_number_lines;
  std::vector<PlayerChoice> choices;  // the players' choices the program can make (`auto=`)
  std::vector<Formation> formations;
  std::vector<UnitDef> units;
  TurnTrack turns;
  VictoryRules victory;
  ScenarioStart start;  // where the scenario begins and what it places
  std::unique_ptr<Rules> rules;
  // Ruleset-specific compiled data (tables, movement rules, ...), owned here:
  // the ruleset's own struct, derived from RulesetData, read back with Data<T>().
  std::shared_ptr<const RulesetData> data;

  int num_units() const { return static_cast<int>(units.size()); }
  int SideIndex(const std::string& id) const;
  int KindIndex(const std::string& id) const;
  int AttributeIndex(const std::string& id) const;
  int MarkerIndex(const std::string& id) const;
  int FormationIndex(const std::string& id) const;
  // Unit index by id, -1 if none.
  int UnitIndex(const std::string& id) const;
  bool OptionOn(std::string_view optional_rule_id) const;
  // Whether the game was made with `auto=` naming this choice (PlayerChoice): the program
  // makes it for the players.
  bool Automated(std::string_view choice_id) const;
  // The value of a unit's attribute on its current face, before markers.
  // (Inline: the rulesets' strength hooks ask it per unit per listing.)
  int Printed(const State& s, UnitId u, int attribute) const {
    const UnitDef& d = units[static_cast<size_t>(u)];
    const bool back = s.unit(u).face == 1 && d.has_back;
    return (back ? d.back : d.front)[attribute];
  }
  // Printed value minus the markers that reduce it, not below zero.
  int Current(const State& s, UnitId u, int attribute) const;
  // Sum of the markers that reduce `attribute`.
  int Reduction(const State& s, UnitId u, int attribute) const;
  std::string UnitLabel(UnitId u) const;  // "Harris"
  // A position's label as the board gives it ("2302"); "off-map" for a unit not
  // on the board, "on the table" for kOnTable.
  std::string HexLabel(int hex) const;

  // --- Where the units stand: the board (board.h), whichever engine's it is: a
  // hex game has the hex engine's HexBoard (map.h), a tabletop game the tabletop
  // engine's Table measured in inches (tabletop.h). A game has one board or none;
  // giving it one takes the other away (Board.AGameHasAHexBoardOrATableNeverBoth).
  const Board* board() const { return board_.get(); }
  // What the core asks of any board: its indexed positions (0 without a board or
  // on a table), a label's position (-1 if none), its places (none without a board).
  int num_positions() const { return board_ ? board_->size() : 0; }
  int PositionIndex(std::string_view label) const { return board_ ? board_->Index(label) : -1; }
  const std::vector<Place>& places() const;
  const Place* FindPlace(std::string_view name) const { return board_ ? board_->FindPlace(name) : nullptr; }
  // The board as its engine's type B (HexBoard, Table), or nullptr if the game
  // has none or another engine's.
  template <class B>
  const B* board() const {
    return board_ ? static_cast<const Board&>(*board_).As<B>() : nullptr;
  }
  template <class B>
  B* mutable_board() {
    return board_ ? board_->As<B>() : nullptr;
  }
  // Gives the game this board (for loaders): a board it had is gone.
  template <class B>
  B& SetBoard(std::unique_ptr<B> board) {
    B& b = *board;
    board_ = std::move(board);
    return b;
  }
  // The engines' accessors (map.h: HexBoardOf, HasHexBoard; tabletop.h: TableOf,
  // HasTable) are declared with their engines; these members forward to them
  // (found where the engine's header is included), so `game.hex_board()` reads as
  // before and this header names no engine.
  template <class G = Game>
  decltype(auto) hex_board() const {
    return HexBoardOf(static_cast<const G&>(*this));
  }
  template <class G = Game>
  bool has_hex_board() const {
    return HasHexBoard(static_cast<const G&>(*this));
  }
  template <class G = Game>
  decltype(auto) table() const {
    return TableOf(static_cast<const G&>(*this));
  }
  template <class G = Game>
  bool has_table() const {
    return HasTable(static_cast<const G&>(*this));
  }

  // The ruleset's data as its own type (the hex engine's HexGameData, a tabletop's
  // MiniData...). T must be the type the loader stored: HasData<T>() tells.
  template <typename T>
  const T& Data() const {
    static_assert(std::is_base_of_v<RulesetData, T>, "a ruleset's data derives from wg::RulesetData");
    return *static_cast<const T*>(data.get());
  }
  template <typename T>
  bool HasData() const {
    return dynamic_cast<const T*>(data.get()) != nullptr;
  }

 private:
  std::unique_ptr<Board> board_;
};

// Makes the initial State: units placed per the unit definitions (optional
// units only if their rule is on), markers, faces, release flags; then the
// scenario's start (turn, phase, placements); then rules->Start.
State NewInitialState(const Game& game, uint64_t seed, DiceStream* dice, EventSink* sink,
                      Scratch* scratch);

// The initial State before rules->Start: what NewInitialState places (the
// scenario's set-up as loaded; the set-up check asks the rules about it).
State PlacedInitialState(const Game& game, uint64_t seed);

// Applies a scenario's start (turn, phase, placements) to a state.
void ApplyScenarioStart(const Game& game, const ScenarioStart& start, State* s);

// Clears a State to all zero bytes (including padding) and the defaults.
void ResetState(State* s);

}  // namespace wg
