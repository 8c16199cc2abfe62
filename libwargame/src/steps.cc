// The step stack and the step table (wargame/steps.h).
#include "wargame/steps.h"

#include <algorithm>
#include <iterator>

#include "wargame/game.h"
#include "wargame/rule_index.h"

namespace wg {

StepTable::StepTable() {
  rules_.emplace_back();
  StepDef none;
  none.name = "none";
  defs_.push_back(std::move(none));
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
  s.decision = t.Def(top.kind).decision;
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
  s.steps.items[--s.steps.depth] = Step{};
  Mirror(s, t);
}

void PopStepsTo(State& s, const StepTable& t, int depth) {
  while (s.steps.depth > std::max(depth, 0)) s.steps.items[--s.steps.depth] = Step{};
  Mirror(s, t);
}

void ClearSteps(State& s) {
  for (int i = 0; i < s.steps.depth; ++i) s.steps.items[i] = Step{};
  s.steps.depth = 0;
  s.decision = DecisionType::kNone;
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

std::string StepPrompt(const StepTable& t, const State& s) {
  if (TopKind(s) == kNoStep) return std::string();
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
    RollPendingChance(t, s, ctx);
  }
  return st;
}

const ChanceDef* PendingChance(const StepTable& t, const State& s) {
  const StepDef& d = t.Def(TopKind(s));
  return d.chance.sides > 0 && d.resolve ? &d.chance : nullptr;
}

Status ResolveChance(const StepTable& t, State& s, Context& ctx, int value) {
  const ChanceDef* c = PendingChance(t, s);
  if (!c) return Status::Refused("", "no die is to be rolled now");
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
  for (int i = 0; i < s.steps.depth; ++i) {
    if (s.steps.items[i].kind == kNoStep || s.steps.items[i].kind >= t.size()) fail("a step of no registered kind");
  }
  const Step* top = TopStep(s);
  const DecisionType want = top ? t.Def(top->kind).decision : DecisionType::kNone;
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
