// The step stack and the step table (wargame/steps.h).
#include "wargame/steps.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <set>
#include <type_traits>

#include "wargame/game.h"
#include "wargame/rule_index.h"

namespace wg {

StepTable::StepTable() {
  rules_.emplace_back();
  StepDef none;
  none.name = "none";
  defs_.push_back(std::move(none));
  held_.name = "held_roll";
}

uint16_t StepTable::Intern(const std::string& rule) {
  for (size_t i = 0; i < rules_.size(); ++i) {
    if (rules_[i] == rule) return static_cast<uint16_t>(i);
  }
  rules_.push_back(rule);
  return static_cast<uint16_t>(rules_.size() - 1);
}

StepKind StepTable::Register(StepDef def) {
  def.rule_id = Intern(def.rule);
  const StepKind existing = Find(def.name);
  if (existing != kNoStep) {
    defs_[existing] = std::move(def);
    return existing;
  }
  // Kinds are one byte; a table never holds more than a few dozen steps.
  if (defs_.size() >= 255) return kNoStep;
  defs_.push_back(std::move(def));
  return static_cast<StepKind>(defs_.size() - 1);
}

StepKind StepTable::Find(std::string_view name) const {
  for (size_t i = 1; i < defs_.size(); ++i) {
    if (defs_[i].name == name) return static_cast<StepKind>(i);
  }
  return kNoStep;
}

// --- The stack --------------------------------------------------------------------------------

namespace {

// The mirror: decision and decision_side are the top step's (no step: kNone).
void Mirror(State& s, const StepTable& t) {
  if (s.steps.depth == 0) {
    s.decision = DecisionType::kNone;
    return;
  }
  const Step& top = s.steps.items[s.steps.depth - 1];
  // A held roll keeps the decision of the step that took the action (below it).
  const Step& decides = top.kind == kHeldRollStep && s.steps.depth > 1 ? s.steps.items[s.steps.depth - 2] : top;
  s.decision = t.Def(decides.kind).decision;
  s.decision_side = top.side;
}

Step MakeStep(const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args) {
  Step st;
  st.kind = k;
  st.side = static_cast<uint8_t>(side);
  st.rule = t.Def(k).rule_id;
  int i = 0;
  for (int16_t a : args) {
    if (i < kStepArgs) st.args[i++] = a;
  }
  return st;
}

}  // namespace

const Step* TopStep(const State& s) { return s.steps.depth > 0 ? &s.steps.items[s.steps.depth - 1] : nullptr; }
int StepDepth(const State& s) { return s.steps.depth; }

bool PushStep(State& s, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args) {
  if (s.steps.depth >= kMaxSteps) return false;
  s.steps.items[s.steps.depth++] = MakeStep(t, k, side, args);
  Mirror(s, t);
  return true;
}

void ReplaceStep(State& s, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args) {
  if (s.steps.depth == 0) {
    PushStep(s, t, k, side, args);
    return;
  }
  s.steps.items[s.steps.depth - 1] = MakeStep(t, k, side, args);
  Mirror(s, t);
}

void PopStep(State& s, const StepTable& t) {
  if (s.steps.depth == 0) return;
  // The action a step holds goes with it.
  if (TopKind(s) == kHeldRollStep || t.Def(TopKind(s)).holds_action) s.held = HeldRoll{};
  s.steps.items[--s.steps.depth] = Step{};
  Mirror(s, t);
}

void PopStepsTo(State& s, const StepTable& t, int depth) {
  while (s.steps.depth > std::max(depth, 0)) PopStep(s, t);
  Mirror(s, t);
}

void ClearSteps(State& s) {
  for (int i = 0; i < s.steps.depth; ++i) s.steps.items[i] = Step{};
  s.held = HeldRoll{};
  s.steps.depth = 0;
  s.decision = DecisionType::kNone;
}

bool HoldsAction(const State& s) {
  static const HeldRoll kNone{};
  return std::memcmp(&s.held, &kNone, sizeof(HeldRoll)) != 0;
}

bool HoldAction(State& s, const StepTable& t, const Action& a) {
  static_assert(sizeof(Action) == kHeldActionBytes && std::is_trivially_copyable_v<Action>);
  if (s.steps.depth == 0 || !t.Def(TopKind(s)).holds_action || HoldsAction(s)) return false;
  std::memcpy(s.held.action, &a, sizeof(Action));
  return true;
}

Action TakeHeldAction(State& s, const StepTable& t) {
  Action a;
  if (s.steps.depth == 0 || !t.Def(TopKind(s)).holds_action) return a;
  std::memcpy(&a, s.held.action, sizeof(Action));
  s.held = HeldRoll{};
  return a;
}

void SetStartingSide(State& s, int side) { s.decision_side = static_cast<uint8_t>(side); }

void EnterStep(State& s, Context& ctx, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args) {
  CallStep(s, ctx, t, k, side, args);
}

// --- Call, goto, end ----------------------------------------------------------------------------

bool IsScript(const StepTable& t, StepKind k) {
  const StepDef& d = t.Def(k);
  return k != kNoStep && d.decision == DecisionType::kNone && d.resume != nullptr;
}

Step* TopFrame(State& s) { return s.steps.depth > 0 ? &s.steps.items[s.steps.depth - 1] : nullptr; }

Step* FindFrame(State& s, StepKind k) {
  for (int i = s.steps.depth - 1; i >= 0; --i) {
    if (s.steps.items[i].kind == k) return &s.steps.items[i];
  }
  return nullptr;
}

const Step* FindFrame(const State& s, StepKind k) { return FindFrame(const_cast<State&>(s), k); }

bool CallStep(State& s, Context& ctx, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args) {
  if (!PushStep(s, t, k, side, args)) return false;
  if (const auto& begin = t.Def(k).begin) begin(s, ctx);
  Settle(s, ctx, t);
  return true;
}

void GotoStep(State& s, Context& ctx, const StepTable& t, StepKind k, int side, std::initializer_list<int16_t> args) {
  ReplaceStep(s, t, k, side, args);
  if (const auto& begin = t.Def(k).begin) begin(s, ctx);
  Settle(s, ctx, t);
}

void EndStep(State& s, Context& ctx, const StepTable& t, int result) {
  PopStep(s, t);
  if (s.steps.depth > 0 && !s.game_over) {
    if (const auto& resume = t.Def(TopKind(s)).resume) resume(s, ctx, result);
  }
  Settle(s, ctx, t);
}

void Settle(State& s, Context& ctx, const StepTable& t) {
  // Bounded: each resume calls a step or ends the script (a script that did
  // neither forever would be a ruleset bug; CheckStepStack then reports it on top).
  for (int guard = 0; guard < 4096 && !s.game_over && IsScript(t, TopKind(s)); ++guard) {
    t.Def(TopKind(s)).resume(s, ctx, kEntered);
  }
}

// --- The held roll ----------------------------------------------------------------------------

namespace {

std::string HeldLabel(const State& s) {
  return std::string(s.held.label, strnlen(s.held.label, sizeof s.held.label));
}

// Keeps an action's events until it completes (a held action's runs emit nothing).
class BufferSink : public EventSink {
 public:
  void OnEvent(const Event& e) override { events.push_back(e); }
  void FlushTo(EventSink* sink) const {
    if (sink) {
      for (const Event& e : events) sink->OnEvent(e);
    }
  }
  std::vector<Event> events;
};

// Runs `apply` with ctx's rolls taken from `h` and its events kept in `buf`.
template <typename Fn>
Status RunWithDice(Context& ctx, Context::HeldDice* h, BufferSink* buf, Fn&& apply) {
  EventSink* sink = ctx.sink();
  ctx.set_sink(sink ? buf : nullptr);
  ctx.set_held_dice(h);
  const Status st = apply();
  ctx.set_held_dice(nullptr);
  ctx.set_sink(sink);
  return st;
}

// Records the held roll in s (the State before the action) and pushes its step:
// the same side decides, under the rule of the step that took the action.
bool Hold(const StepTable& t, State& s, const Action& a, const uint8_t* dice, int n, const Context::HeldDice& h) {
  static_assert(sizeof(Action) == kHeldActionBytes && std::is_trivially_copyable_v<Action>);
  if (s.steps.depth >= kMaxSteps) return false;
  HeldRoll& r = s.held;
  r = HeldRoll{};
  std::memcpy(r.action, &a, sizeof(Action));
  r.num_dice = static_cast<uint8_t>(n);
  std::copy(dice, dice + n, r.dice);
  r.sides = static_cast<uint8_t>(h.short_sides);
  std::strncpy(r.label, h.short_label, sizeof r.label - 1);
  const Step* top = TopStep(s);
  Step held;
  held.kind = kHeldRollStep;
  held.side = s.decision_side;
  held.rule = top ? top->rule : 0;
  held.args[0] = static_cast<int16_t>(n);
  s.steps.items[s.steps.depth++] = held;
  Mirror(s, t);
  return true;
}

// ApplyStep for a Context that stops at chance: applies the action (by `apply`)
// with no die given; if it rolled one, s goes back to the State before it and
// the roll is held. A full stack (no room for the held roll's step) or a step that
// holds another action (one at a time) rolls at once.
template <typename Fn>
Status ApplyHolding(const StepTable& t, State& s, Context& ctx, const Action& a, Fn&& apply) {
  State before;
  std::memcpy(static_cast<void*>(&before), &s, sizeof(State));
  Context::HeldDice h;
  // No room for the held roll's step, or a step holds another action: rolled at once.
  h.roll_beyond = s.steps.depth >= kMaxSteps || HoldsAction(s);
  BufferSink buf;
  const Status st = RunWithDice(ctx, &h, &buf, apply);
  if (h.short_sides == 0) {
    if (st.ok()) buf.FlushTo(ctx.sink());
    return st;
  }
  std::memcpy(static_cast<void*>(&s), &before, sizeof(State));
  Hold(t, s, a, nullptr, 0, h);
  return Status::Ok();
}

// ResolveChance at a held roll: the next die (value 0: from ctx's dice), then the
// action again from the State before it with every die given so far. It completes
// (the State after it, its events), or holds again at the die after.
Status ResolveHeld(const StepTable& t, State& s, Context& ctx, int value) {
  const int sides = s.held.sides;
  const std::string label = HeldLabel(s);
  if (value == 0) {
    // A label that outlives this call (a DiceStream keeps the labels of its requests).
    thread_local std::set<std::string> labels;
    const char* stable = labels.insert(label).first->c_str();
    EventSink* sink = ctx.sink();
    ctx.set_sink(nullptr);  // the action's run reports the die
    const bool missing = ctx.missing_die();
    value = ctx.Roll(s, sides, stable);
    ctx.set_sink(sink);
    if (!missing && ctx.missing_die()) {
      return Status::Refused("", "needs a die value (d" + std::to_string(sides) + ", " + label + ")");
    }
  } else if (value < 1 || value > sides) {
    return Status::Refused("", "a " + label + " roll is from 1 to " + std::to_string(sides));
  }
  uint8_t dice[kMaxHeldDice];
  const int n = s.held.num_dice + 1;
  std::copy(s.held.dice, s.held.dice + n - 1, dice);
  dice[n - 1] = static_cast<uint8_t>(value);
  Action a;
  std::memcpy(&a, s.held.action, sizeof(Action));
  State work;
  std::memcpy(static_cast<void*>(&work), &s, sizeof(State));
  PopStep(work, t);
  work.held = HeldRoll{};
  Context::HeldDice h;
  h.given = dice;
  h.num_given = n;
  h.roll_beyond = n >= kMaxHeldDice;  // no room for another: the rest are rolled at once
  BufferSink buf;
  const Status st = RunWithDice(ctx, &h, &buf, [&] { return ctx.game().rules->Apply(work, a, ctx); });
  if (h.short_sides != 0) {  // another die: s stays the State before the action
    PopStep(s, t);
    Hold(t, s, a, dice, n, h);
    return Status::Ok();
  }
  if (!st.ok()) return st;  // the same action with the same dice: refused only by a ruleset bug
  std::memcpy(static_cast<void*>(&s), &work, sizeof(State));
  buf.FlushTo(ctx.sink());
  return Status::Ok();
}

}  // namespace

std::string StepPrompt(const StepTable& t, const State& s) {
  if (TopKind(s) == kNoStep) return std::string();
  if (TopKind(s) == kHeldRollStep) {
    return "roll a d" + std::to_string(s.held.sides) + ": " + HeldLabel(s) + " (" + t.RuleText(TopStep(s)->rule) + ")";
  }
  const auto& prompt = t.Def(TopKind(s)).prompt;
  return prompt ? prompt(s) : std::string();
}

// --- Dispatch ---------------------------------------------------------------------------------

void ListStep(const StepTable& t, const State& s, Context& ctx, std::vector<Action>* out) {
  const StepKind k = TopKind(s);
  if (k == kNoStep) return;
  if (const auto& list = t.Def(k).list) list(s, ctx, out);
}

Status RefuseOutOfSequence(const Rules& rules, const State& s, const Action& a, const char* sequence_rule) {
  return Status::Refused(sequence_rule, "a " + std::string(ActionTypeName(a.type)) +
                                            " action is not allowed now (the decision is: " +
                                            rules.DescribeDecision(s) + ")");
}

Status ApplyStep(const Rules& rules, const StepTable& t, State& s, const Action& a, Context& ctx,
                 const char* sequence_rule) {
  // A Context that stops at chance holds the action at its first die (the held roll).
  if (ctx.stops_at_chance() && ctx.held_dice() == nullptr && TopKind(s) != kHeldRollStep) {
    return ApplyHolding(t, s, ctx, a, [&] { return ApplyStep(rules, t, s, a, ctx, sequence_rule); });
  }
  const StepDef& d = t.Def(TopKind(s));
  const StepDef::Handler* handler = nullptr;
  for (const auto& [type, h] : d.handlers) {
    if (type == a.type) {
      handler = &h;
      break;
    }
  }
  if (handler == nullptr) {
    const bool taken = d.apply && (d.takes == 0 || (d.takes & Takes(a.type)) != 0);
    if (!taken) return RefuseOutOfSequence(rules, s, a, sequence_rule);
    handler = &d.apply;
  }
  Status st = (*handler)(s, a, ctx);
  if (st.ok()) {
    Settle(s, ctx, t);
    if (t.after_handler()) t.after_handler()(s, ctx);
    RollPendingChance(t, s, ctx);
  }
  return st;
}

const ChanceDef* PendingChance(const StepTable& t, const State& s) {
  if (TopKind(s) == kHeldRollStep) {
    thread_local ChanceDef held;
    held.sides = s.held.sides;
    held.count = 1;
    held.label = HeldLabel(s);
    return &held;
  }
  const StepDef& d = t.Def(TopKind(s));
  return d.chance.sides > 0 && d.resolve ? &d.chance : nullptr;
}

Status ResolveChance(const StepTable& t, State& s, Context& ctx, int value) {
  const ChanceDef* c = PendingChance(t, s);
  if (!c) return Status::Refused("", "no die is to be rolled now");
  if (TopKind(s) == kHeldRollStep) return ResolveHeld(t, s, ctx, value);
  const int count = std::max(1, c->count);
  if (value == 0) {
    value = ctx.RollSum(s, count, c->sides, c->label.c_str());
  } else {
    if (value < count || value > count * c->sides) {
      return Status::Refused("", "a " + c->label + " roll is from " + std::to_string(count) + " to " +
                                     std::to_string(count * c->sides));
    }
    Event e;
    e.type = EventType::kDieRoll;
    e.a = c->sides;
    e.b = value;
    e.text = c->label.c_str();
    ctx.Emit(e);
  }
  t.Def(TopKind(s)).resolve(s, ctx, value);
  if (t.after_handler()) t.after_handler()(s, ctx);
  Settle(s, ctx, t);
  return Status::Ok();
}

void RollPendingChance(const StepTable& t, State& s, Context& ctx) {
  // Bounded: each resolution pops its step (a chance step that pushed itself
  // again forever would be a ruleset bug; the bound keeps it from hanging).
  for (int guard = 0; guard < 4096 && !ctx.stops_at_chance() && !s.game_over && PendingChance(t, s); ++guard) {
    ResolveChance(t, s, ctx, 0);
  }
}

std::vector<std::pair<int, double>> ChanceOutcomes(const ChanceDef& c) {
  std::vector<std::pair<int, double>> out;
  if (c.sides <= 0) return out;
  const int count = std::max(1, c.count);
  // Distribution of the sum of `count` dice, by convolution.
  std::vector<double> dist(1, 1.0);
  for (int i = 0; i < count; ++i) {
    std::vector<double> next(dist.size() + static_cast<size_t>(c.sides), 0.0);
    for (size_t v = 0; v < dist.size(); ++v) {
      for (int f = 1; f <= c.sides; ++f) next[v + static_cast<size_t>(f)] += dist[v] / c.sides;
    }
    dist = std::move(next);
  }
  for (size_t v = 0; v < dist.size(); ++v) {
    if (dist[v] > 0) out.emplace_back(static_cast<int>(v), dist[v]);
  }
  return out;
}

void CheckStepStack(const StepTable& t, const State& s, ErrorList* out) {
  auto fail = [&](const std::string& m) { out->Add(Error{"", 0, 0, "", m, "invariant"}); };
  if (s.steps.depth > kMaxSteps) {
    fail("the step stack is over its capacity");
    return;
  }
  int holders = 0;
  for (int i = 0; i < s.steps.depth; ++i) {
    const StepKind k = s.steps.items[i].kind;
    if (k == kNoStep || (k >= t.size() && k != kHeldRollStep)) fail("a step of no registered kind");
    if (k == kHeldRollStep && i != s.steps.depth - 1) fail("a held roll is not on top");
    if (k == kHeldRollStep || t.Def(k).holds_action) ++holders;
  }
  const Step* top = TopStep(s);
  if ((TopKind(s) == kHeldRollStep) != (s.held.sides != 0)) fail("the held roll and its step disagree");
  // One action held at a time, by the step that holds it: none left behind.
  if (holders > 1) fail("two steps hold an action");
  if ((holders == 1) != HoldsAction(s)) fail("the held action and the step that holds it disagree");
  const Step* decides = top && top->kind == kHeldRollStep && s.steps.depth > 1 ? top - 1 : top;
  const DecisionType want = decides ? t.Def(decides->kind).decision : DecisionType::kNone;
  if (s.decision != want || (top && s.decision_side != top->side)) fail("the decision is not the top step's");
  if (top && IsScript(t, top->kind)) fail("a script step (" + t.Def(top->kind).name + ") was left on top");
}

const char* DecisionPrompt(DecisionType d) {
  static constexpr const char* kWords[] = {
      "game over",                                  // kNone
      "move units or end the movement phase",       // kMovement
      "declare an attack or end the combat phase",  // kCombat
      "bombard or end the bombardment phase",       // kBombard
      "divide losses",                              // kLosses
      "stand or retreat",                           // kStandOrRetreat
      "choose a retreat path",                      // kRetreat
      "advance after combat or decline",            // kAdvance
      "choose an option",                           // kChoice
      "set up",                                     // kSetup
  };
  const auto i = static_cast<size_t>(d);
  return i < std::size(kWords) ? kWords[i] : "";
}

StepDef& StepDef::On(ActionType t, Handler h) {
  handlers.emplace_back(t, std::move(h));
  takes |= Takes(t);
  return *this;
}

StepDef NewStep(std::string name, std::string rule, DecisionType decision, uint32_t takes, const char* file,
                int line) {
  StepDef d;
  d.where = SourceRelative(file ? file : "") + ":" + std::to_string(line);
  d.name = std::move(name);
  d.rule = std::move(rule);
  d.decision = decision;
  d.takes = takes;
  d.prompt = [decision](const State&) { return std::string(DecisionPrompt(decision)); };
  return d;
}

// --- The turn procedure ---------------------------------------------------------------

void Procedure::At(ProcedureAt at, std::string phase, std::string rule, std::string name,
                   std::function<void(State&, Context&)> run, const char* file, int line) {
  ProcedureHandler h;
  h.at = at;
  h.phase = std::move(phase);
  h.rule = std::move(rule);
  h.name = std::move(name);
  h.where = SourceRelative(file ? file : "") + ":" + std::to_string(line);
  h.run = std::move(run);
  handlers_.push_back(std::move(h));
}

void Procedure::Run(ProcedureAt at, std::string_view phase, State& s, Context& ctx) const {
  for (const ProcedureHandler& h : handlers_) {
    if (at != ProcedureAt::kGameOver && s.game_over) return;
    if (h.at != at || (at == ProcedureAt::kPhaseEnd && !h.phase.empty() && h.phase != phase)) continue;
    h.run(s, ctx);
  }
}

}  // namespace wg
