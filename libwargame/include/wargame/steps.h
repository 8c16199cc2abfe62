// Steps: the sequence of play as data.
//
// A game's flow is a stack of steps in the State (State::steps, fixed
// capacity, no heap). Each step has a kind, a side (who decides), a rule
// number and a few integer arguments. A step's kind names a StepDef in the
// Rules' StepTable: what it asks (DecisionType), which actions it takes, how
// to list them, how to apply one. A handler pushes, replaces or pops steps:
// a phase is a step at the bottom; "divide the losses", "retreat this unit",
// "advance or decline" are pushed above it and popped when done.
//
// Only the functions below write State::decision and State::decision_side:
// they mirror the top step (an empty stack: no decision, kNone).
//
// Chance: a step with `chance.sides > 0` is a die rolled at that point. By
// default the engine rolls it at once (from the supplied dice or the seeded
// generator) when the action that reached it is applied; a Context that asks
// (Context::StopAtChance) stops there, so a search can list the outcomes
// (ChanceOutcomes) and apply one (ResolveChance with the value), and a referee
// can be asked for a physical die at exactly that point.
//
// Call, goto and end: a step may call another (CallStep: pushed above it) and
// is resumed (StepDef::resume) with the callee's small integer result when the
// callee ends (EndStep); GotoStep replaces the top step, so its replacement
// ends to the same caller. A *script* step asks nothing (decision kNone): it
// holds what a sequence still owes in its own arguments (a combat's retreats,
// a combat result's losses and stand), calls the steps that decide, and ends
// when nothing is owed. A script is never left on top: Settle resumes it
// (result kEntered) until a step that decides, a die, or nothing is on top.
//
// See docs/steps.md for how a ruleset adds a step.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/action.h"
#include "wargame/error.h"
#include "wargame/state.h"

namespace wg {

class Context;
class Rules;

using StepKind = uint8_t;
inline constexpr StepKind kNoStep = 0;
// The held roll: a die rolled inside an action (Context::Roll) while the Context
// stops at chance. ApplyStep then keeps the State as it was before the action,
// records the action and the dice given so far in State::held, and pushes this
// chance step (the same side decides, the rule is the step's that took the
// action); ResolveChance gives the next die and applies the action again with
// every die given, until it completes without asking for another. So every die a
// ruleset rolls is a chance step, explicit (a StepDef with `chance`) or held; a
// search lists each die's outcomes and a referee is asked for it at that point.
// A held action costs one more run of the action per die: a ruleset whose
// action rolls many dice makes them explicit chance steps.
inline constexpr StepKind kHeldRollStep = 255;
// The result Settle resumes a script with when it has just been entered (it
// called nothing yet).
inline constexpr int kEntered = -32768;

// "A die is rolled here": the dice one step of chance rolls.
struct ChanceDef {
  int sides = 0;  // 0: not a chance step
  int count = 1;  // dice summed
  std::string label;
};

struct StepDef {
  std::string name;  // "movement", "stand_or_retreat", ... (a phase's step has the phase's name)
  std::string rule;  // the rule it applies, e.g. "7.5.2"
  DecisionType decision = DecisionType::kNone;
  // Action types it takes (bit 1 << ActionType); 0: any (apply refuses itself).
  // Another type is refused citing the sequence rule and the step's prompt.
  uint32_t takes = 0;
  // Appends the legal actions of this step.
  std::function<void(const State&, Context&, std::vector<Action>*)> list;
  using Handler = std::function<Status(State&, const Action&, Context&)>;
  // One handler per action type (On): validates and applies an action of that
  // type, then calls, goes to or ends steps.
  std::vector<std::pair<ActionType, Handler>> handlers;
  // The action types without a handler of their own (a core step's whole dispatch).
  Handler apply;
  // Adds the handler of actions of type t (and t to `takes`).
  StepDef& On(ActionType t, Handler h);
  // Called when a step this one called ends (EndStep), with its result; and, for
  // a script (decision kNone), by Settle with kEntered when it is on top and has
  // not run yet. It goes on from where the step stopped (its args say where):
  // calls the next step, or ends this one.
  std::function<void(State&, Context&, int result)> resume;
  // What the step asks, in a player's words ("divide combat losses (7.3)"):
  // shown by programs for any decision (Rules::DescribeDecision is the top
  // step's prompt). NewStep sets the generic words of its DecisionType
  // (DecisionPrompt); a step that says more sets its own.
  std::function<std::string(const State&)> prompt;
  // Called when the step is entered (EnterStep; a phase's step when the phase
  // begins): may do the automatic work of the step and push or pop steps. A
  // phase whose begin leaves no step of its own on the stack is over.
  std::function<void(State&, Context&)> begin;
  // A phase's step: whether the phase happens at all this player-turn (Blue &
  // Gray 9.0: no combat phase at night); a phase that does not is skipped
  // unannounced. Null: always.
  std::function<bool(const State&)> applies;
  // A phase's step whose kEndPhase handler accepts whenever asked (the hex engine's
  // movement step, which only goes on to the next phase): its listing offers the end
  // of the phase without trying it. A ruleset that refines the step, or refuses the end
  // in its Apply, leaves it false (NewStep's default) and the end is tried on a copy.
  bool end_always_accepted = false;
  // The step holds an action until it ends (HoldAction, TakeHeldAction): what it goes
  // on with once its decision is made (Blue & Gray 11.2: the attack, while the attacked
  // cavalry chooses). The action is the step's, in State::held: popping the step drops it.
  bool holds_action = false;
  // A chance step: the dice, and what the outcome `value` does (pops the step).
  ChanceDef chance;
  std::function<void(State&, Context&, int value)> resolve;
  uint16_t rule_id = 0;  // interned `rule` (set by Register)
  // Where the step was made (NewStep's caller: "rulesets/stars_and_bars/rules/steps.cc:174"),
  // for `wargame rules`.
  std::string where;
};

// The generic words of a kind of decision ("choose a retreat path"): the
// prompt of a step that sets none of its own.
const char* DecisionPrompt(DecisionType d);

// A StepDef with its name, rule, what it asks (its prompt: DecisionPrompt) and
// the action types it takes (Takes(...); 0: any); the caller sets its handlers.
// `file` and `line` default to the caller's (GCC's and clang's builtins: clang 14, the
// fuzz build's, has no std::source_location).
StepDef NewStep(std::string name, std::string rule, DecisionType decision, uint32_t takes = 0,
                const char* file = __builtin_FILE(), int line = __builtin_LINE());

// Bit of StepDef::takes for an action type.
constexpr uint32_t Takes(ActionType t) { return 1u << static_cast<unsigned>(t); }
constexpr uint32_t Takes(std::initializer_list<ActionType> ts) {
  uint32_t m = 0;
  for (ActionType t : ts) m |= Takes(t);
  return m;
}

// The steps a Rules knows, by kind (index) and name.
class StepTable {
 public:
  StepTable();
  // Adds a step, or replaces the one of the same name (keeping its kind, so a
  // ruleset can refine a core step such as "movement"). Returns its kind.
  StepKind Register(StepDef def);
  // kNoStep if there is none of that name.
  StepKind Find(std::string_view name) const;
  const StepDef& Def(StepKind k) const { return k == kHeldRollStep ? held_ : defs_[k < defs_.size() ? k : 0]; }
  const std::string& RuleText(uint16_t id) const { return rules_[id < rules_.size() ? id : 0]; }
  int size() const { return static_cast<int>(defs_.size()); }
  // What the ruleset does at the end of every handler (once it settled) and right after
  // every die's resolution (before it settles), before the next die is rolled: the
  // choices the action owes at its end (Stars and Bars 5.8: the captures of the convoys
  // it eliminated). Null: none.
  using AfterHandler = std::function<void(State&, Context&)>;
  void SetAfterHandler(AfterHandler f) { after_handler_ = std::move(f); }
  const AfterHandler& after_handler() const { return after_handler_; }

 private:
  uint16_t Intern(const std::string& rule);
  std::vector<StepDef> defs_;  // [0]: the empty step
  std::vector<std::string> rules_;
  StepDef held_;  // kHeldRollStep's: "held_roll" (its die and prompt are State::held's)
  AfterHandler after_handler_;
};

// --- The turn procedure ---------------------------------------------------------------
//
// The turn track (the `turns:` section) is a procedure: game-turn -> player-turn
// (one per side in `order`) -> phase (each the step of its name). A phase begins
// with its step's `begin` and happens only if its step `applies`; the work done
// at the other points of the procedure is handlers registered with a rule number
// and their source location (`wargame rules` lists them): when a game-turn begins
// (B&G 10.4) or ends, when a phase ends (stacking checkpoints, S&B 8.1.F), when
// the game ends (before the winner is judged: end-of-game awards) and once it is
// over (after the result is announced). Handlers run in registration order: the
// engine's first, then the ruleset's.
enum class ProcedureAt : uint8_t { kTurnBegin, kTurnEnd, kPhaseEnd, kGameEnd, kGameOver };

struct ProcedureHandler {
  ProcedureAt at = ProcedureAt::kTurnBegin;
  std::string phase;  // kPhaseEnd: the phase's name ("" any phase)
  std::string rule;   // "10.4"
  std::string name;   // what it does, for `wargame rules` ("ineffective units recover")
  std::string where;  // "rulesets/blue_and_gray/rules/steps.cc:19"
  std::function<void(State&, Context&)> run;
};

class Procedure {
 public:
  // Registers a handler; `file` and `line` default to the caller's.
  void At(ProcedureAt at, std::string phase, std::string rule, std::string name,
          std::function<void(State&, Context&)> run, const char* file = __builtin_FILE(),
          int line = __builtin_LINE());
  // Runs the handlers registered at `at` (for kPhaseEnd: those of `phase` and of
  // every phase), in order; a handler that ends the game stops the others
  // (except at kGameOver, which runs when the game is over).
  void Run(ProcedureAt at, std::string_view phase, State& s, Context& ctx) const;
  const std::vector<ProcedureHandler>& handlers() const { return handlers_; }

 private:
  std::vector<ProcedureHandler> handlers_;
};

// --- The stack (the only writers of State::decision / decision_side) -----------------

const Step* TopStep(const State& s);
inline StepKind TopKind(const State& s) { return s.steps.depth > 0 ? s.steps.items[s.steps.depth - 1].kind : kNoStep; }
int StepDepth(const State& s);
// Pushes a step of kind k for `side` (the rule of its StepDef). Returns false,
// changing nothing, when the stack is full (kMaxSteps; CheckStepStack reports it).
bool PushStep(State& s, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args = {});
// Replaces the top step (pushes when the stack is empty).
void ReplaceStep(State& s, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args = {});
// Pops the top step (nothing when empty); the next one decides.
void PopStep(State& s, const StepTable& t);
// Pops down to `depth` steps.
void PopStepsTo(State& s, const StepTable& t, int depth);
// Empties the stack: no decision (the game is over, or a phase ended).
// decision_side keeps its value.
void ClearSteps(State& s);
// Sets who decides before the first step (a scenario's start).
void SetStartingSide(State& s, int side);
// Pushes k and calls its begin (if any), then settles (a script k runs).
void EnterStep(State& s, Context& ctx, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args = {});

// --- Call, goto, end ---------------------------------------------------------------------

// Calls k above the top step: pushes it, runs its begin, settles. When k ends,
// the caller's resume runs with k's result. False (nothing changes) when the
// stack is full.
bool CallStep(State& s, Context& ctx, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args = {});
// Goes to k in place of the top step (pushes when the stack is empty): k ends
// to the replaced step's caller. Runs k's begin and settles.
void GotoStep(State& s, Context& ctx, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args = {});
// Ends the top step: pops it and resumes the step below (its caller) with
// `result`, then settles.
void EndStep(State& s, Context& ctx, const StepTable& t, int result = 0);
// While a script is on top (and the game is not over), resumes it with
// kEntered. Every dispatcher settles after an action and after a die.
void Settle(State& s, Context& ctx, const StepTable& t);
// A script step: it asks nothing and has a resume.
bool IsScript(const StepTable& t, StepKind k);
// The top step, to read or update its own arguments.
Step* TopFrame(State& s);
// The nearest step of kind k from the top (nullptr: none): a callee reading
// what its caller owes.
Step* FindFrame(State& s, StepKind k);
const Step* FindFrame(const State& s, StepKind k);
// --- The action a step holds ----------------------------------------------------------------
//
// A step may hold one action while it is on the stack (State::held): a held roll's
// (the action waiting for its next die), or, for a step whose StepDef::holds_action
// is set, the action it goes on with once its decision is made. One at a time: an
// action applied while a step holds another rolls its dice at once, never holds them.

// The top step (a holds_action step) holds `a`. False, changing nothing, when the top
// step does not hold actions or a step already holds one.
bool HoldAction(State& s, const StepTable& t, const Action& a);
// The action the top step holds (an empty Action{} when none), no longer held.
Action TakeHeldAction(State& s, const StepTable& t);
// Whether a step holds an action (a held roll or a holds_action step's).
bool HoldsAction(const State& s);

// The top step's prompt ("" when the stack is empty or the step has none).
std::string StepPrompt(const StepTable& t, const State& s);

// --- Dispatch ----------------------------------------------------------------------------

// Appends the legal actions of the top step.
void ListStep(const StepTable& t, const State& s, Context& ctx, std::vector<Action>* out);
// Applies `a` by the top step's handler; an action type it does not take is
// refused citing `sequence_rule` and rules.DescribeDecision. Chance steps the
// action reached are rolled at once unless ctx stops at chance.
Status ApplyStep(const Rules& rules, const StepTable& t, State& s, const Action& a, Context& ctx,
                 const char* sequence_rule);
// "a TYPE action is not allowed now (the decision is: ...)", citing sequence_rule.
Status RefuseOutOfSequence(const Rules& rules, const State& s, const Action& a, const char* sequence_rule);
// The top step's chance (nullptr: it is not a chance step). A held roll's
// (State::held) is a thread-local copy, valid until the next call.
const ChanceDef* PendingChance(const StepTable& t, const State& s);
// Rolls (value 0: from ctx's dice) or applies `value` at the top chance step.
// Refuses a value outside 1..sides x count or when no chance step is on top.
Status ResolveChance(const StepTable& t, State& s, Context& ctx, int value);
// Rolls every chance step on top, in turn, while ctx does not stop at chance.
void RollPendingChance(const StepTable& t, State& s, Context& ctx);
// Outcomes of the top chance step with their probabilities (sum of `count` dice).
std::vector<std::pair<int, double>> ChanceOutcomes(const ChanceDef& c);

// Invariant: the stack is within capacity, every kind is registered, the
// mirror fields equal the top step and no script is on top.
void CheckStepStack(const StepTable& t, const State& s, ErrorList* out);

}  // namespace wg
