#include "wargame/game.h"

#include "wargame/rule_index.h"
#include "wargame/steps.h"

#include <algorithm>
#include <cstring>

namespace wg {

namespace {
template <typename V, typename F>
int FindIndex(const V& v, F&& pred) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (pred(v[i])) return static_cast<int>(i);
  }
  return -1;
}
}  // namespace

int TurnTrack::PhaseIndex(const std::string& name) const {
  return FindIndex(phases, [&](const std::string& p) { return p == name; });
}

namespace {

// A spec value is quoted when it holds a character the spec syntax uses.
bool NeedsQuotes(const std::string& v) {
  for (char c : v) {
    if (c == ',' || c == '(' || c == ')' || c == '"' || c == '\\' || c == '=') return true;
  }
  return !v.empty() && (v.front() == ' ' || v.back() == ' ');
}

std::string QuoteIfNeeded(const std::string& v) {
  if (!NeedsQuotes(v)) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Reads "..." (with \" and \\ escapes) starting at text[*pos] == '"'.
bool ReadQuoted(const std::string& text, size_t* pos, std::string* out) {
  for (size_t i = *pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      *out += text[++i];
    } else if (text[i] == '"') {
      *pos = i + 1;
      return true;
    } else {
      *out += text[i];
    }
  }
  return false;
}

// "a+b" -> a, b (empty ids skipped).
void SplitIds(const std::string& value, std::vector<std::string>* out) {
  size_t q = 0;
  while (q <= value.size() && !value.empty()) {
    size_t plus = value.find('+', q);
    if (plus == std::string::npos) plus = value.size();
    if (plus > q) out->push_back(value.substr(q, plus - q));
    q = plus + 1;
  }
}

Error SpecError(const std::string& spec, const std::string& what) {
  return Error{"", 0, 0, "", "game spec \"" + spec + "\": " + what, ""};
}

}  // namespace

std::string GameParams::ToString() const {
  std::string out = QuoteIfNeeded(ruleset);
  std::vector<std::string> kv;
  if (!scenario.empty()) kv.push_back("scenario=" + QuoteIfNeeded(scenario));
  if (!optional.empty()) {
    std::string o;
    for (const auto& x : optional) o += (o.empty() ? "" : "+") + x;
    kv.push_back("optional=" + QuoteIfNeeded(o));
  }
  if (!automated.empty()) {
    std::string o;
    for (const auto& x : automated) o += (o.empty() ? "" : "+") + x;
    kv.push_back("auto=" + QuoteIfNeeded(o));
  }
  for (const auto& [k, v] : extra) kv.push_back(k + "=" + QuoteIfNeeded(v));
  if (!kv.empty()) {
    out += "(";
    for (size_t i = 0; i < kv.size(); ++i) out += (i ? "," : "") + kv[i];
    out += ")";
  }
  return out;
}
// NAME or NAME(key=value,...); NAME and values may be "quoted" (a backslash
// escapes " and itself) when they hold , ( ) = " or a backslash. The keys are
// scenario, optional (optional rule ids, ID+ID) and auto (choice ids, ID+ID:
// the choices of the players the program makes, Game::Automated).
Result<GameParams> ParseGameSpec(const std::string& spec) {
  GameParams p;
  size_t pos = 0;
  if (!spec.empty() && spec[0] == '"') {
    if (!ReadQuoted(spec, &pos, &p.ruleset)) return SpecError(spec, "unterminated quote");
  } else {
    pos = std::min(spec.find('('), spec.size());
    p.ruleset = spec.substr(0, pos);
  }
  if (p.ruleset.empty()) return SpecError(spec, "empty game name");
  if (pos == spec.size()) return p;
  if (spec[pos] != '(') return SpecError(spec, "expected '(' after the game name");
  if (spec.back() != ')') return SpecError(spec, "expected ')' at the end");
  const size_t end = spec.size() - 1;
  bool seen_scenario = false, seen_optional = false, seen_auto = false;
  for (++pos; pos < end;) {
    const size_t eq = spec.find('=', pos);
    const size_t comma = std::min(spec.find(',', pos), end);
    if (eq == std::string::npos || eq > comma) {
      return SpecError(spec, "expected key=value, got \"" + spec.substr(pos, comma - pos) + "\"");
    }
    const std::string key = spec.substr(pos, eq - pos);
    std::string value;
    pos = eq + 1;
    if (pos < end && spec[pos] == '"') {
      if (!ReadQuoted(spec, &pos, &value) || pos > end) return SpecError(spec, "unterminated quote");
      if (pos < end && spec[pos] != ',') return SpecError(spec, "expected ',' after a quoted value");
    } else {
      const size_t stop = std::min(spec.find(',', pos), end);
      value = spec.substr(pos, stop - pos);
      pos = stop;
    }
    if (pos < end) ++pos;  // the comma
    if (key == "scenario") {
      if (seen_scenario) return SpecError(spec, "scenario given twice");
      seen_scenario = true;
      p.scenario = value;
    } else if (key == "optional" || key == "auto") {
      bool& seen = key == "optional" ? seen_optional : seen_auto;
      if (seen) return SpecError(spec, key + " given twice");
      seen = true;
      SplitIds(value, key == "optional" ? &p.optional : &p.automated);
    } else {
      return SpecError(spec, "unknown key \"" + key + "\" (expected scenario, optional or auto)");
    }
  }
  return p;
}

void Rules::CheckInvariants(const State&, ErrorList*) const {}

std::unique_ptr<Scratch> Rules::TakeScratch() const {
  {
    const std::lock_guard<std::mutex> lock(scratch_mutex_);
    if (!scratch_pool_.empty()) {
      std::unique_ptr<Scratch> s = std::move(scratch_pool_.back());
      scratch_pool_.pop_back();
      return s;
    }
  }
  return NewScratch();
}

void Rules::ReturnScratch(std::unique_ptr<Scratch> scratch) const {
  if (!scratch) return;
  const std::lock_guard<std::mutex> lock(scratch_mutex_);
  if (scratch_pool_.size() < kScratchPool) scratch_pool_.push_back(std::move(scratch));
}

void Rules::ListLegal(const State& s, Context& ctx, LegalActionList* out) const {
  out->spans.clear();
  out->ends.clear();
  LegalActions(s, ctx, &out->others);
}

std::string Rules::DescribeDecision(const State& s) const {
  if (s.game_over || TopKind(s) == kNoStep) return DecisionPrompt(DecisionType::kNone);
  return StepPrompt(steps_, s);
}

int Rules::CurrentValue(const Game& game, const State& s, UnitId u, int attribute) const {
  return game.Current(s, u, attribute);
}

std::string Rules::PositionText(const State& s, UnitId u) const {
  const int16_t h = s.unit(u).hex;
  if (h >= 0) return std::to_string(h);
  if (h == kOnTable) return "on the table";
  if (h == kNotYetEntered) return "off-map";
  if (h == kEliminated) return "eliminated";
  return "withdrawn";
}

std::string Game::HexLabel(int hex) const {
  if (hex >= 0 && board_) return board_->Label(hex);
  return hex == kOnTable ? "on the table" : "off-map";
}

namespace {
const std::vector<Place> kNoPlaces;
}  // namespace

const std::vector<Place>& Game::places() const { return board_ ? board_->places() : kNoPlaces; }

const std::vector<Place>& Board::places() const { return kNoPlaces; }

const Place* FindPlaceIn(const std::vector<Place>& places, std::string_view name) {
  for (const Place& p : places) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

const Place* Board::FindPlace(std::string_view name) const { return FindPlaceIn(places(), name); }

int Context::Roll(State& s, int sides, const char* label) {
  int value = 1;
  // The held roll (steps.h): the dice given so far, then none (or, past what a
  // held roll holds, rolled at once).
  if (held_ && sides > 0 && sides <= 255 && (held_->used < held_->num_given || !held_->roll_beyond)) {
    if (held_->used >= held_->num_given) {
      if (held_->short_sides == 0) {
        held_->short_sides = sides;
        held_->short_label = label ? label : "";
      }
      return 1;
    }
    value = held_->given[held_->used++];
  } else if (dice_) {
    const DieRoll r = dice_->Roll(RollRequest{sides, label});
    if (!r.ok()) {
      missing_die_ = true;
      return 1;
    }
    value = r.value;
  } else {
    value = RollDie(s.rng, sides);
  }
  Event e;
  e.type = EventType::kDieRoll;
  e.a = sides;
  e.b = value;
  e.text = label;
  Emit(e);
  return value;
}

int Context::RollSum(State& s, int count, int sides, const char* label) {
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += Roll(s, sides, label);
  return sum;
}

int Game::SideIndex(const std::string& id) const {
  return FindIndex(sides, [&](const SideDef& d) { return d.id == id; });
}
int Game::KindIndex(const std::string& id) const {
  return FindIndex(kinds, [&](const KindDef& d) { return d.id == id; });
}
int Game::AttributeIndex(const std::string& id) const {
  return FindIndex(attributes, [&](const std::string& d) { return d == id; });
}
int Game::MarkerIndex(const std::string& id) const {
  return FindIndex(markers, [&](const MarkerDef& d) { return d.id == id; });
}
int Game::FormationIndex(const std::string& id) const {
  return FindIndex(formations, [&](const Formation& d) { return d.id == id; });
}
int Game::UnitIndex(const std::string& id) const {
  return FindIndex(units, [&](const UnitDef& d) { return d.id == id; });
}
bool Game::OptionOn(std::string_view id) const {
  return std::find(params.optional.begin(), params.optional.end(), id) != params.optional.end();
}
bool Game::Automated(std::string_view id) const {
  return std::find(params.automated.begin(), params.automated.end(), id) != params.automated.end();
}

int Game::Reduction(const State& s, UnitId u, int attribute) const {
  int r = 0;
  for (size_t m = 0; m < markers.size(); ++m) {
    for (int a : markers[m].reduces) {
      if (a == attribute) r += s.unit(u).markers[m];
    }
  }
  return r;
}

int Game::Current(const State& s, UnitId u, int attribute) const {
  return std::max(0, Printed(s, u, attribute) - Reduction(s, u, attribute));
}

std::string Game::UnitLabel(UnitId u) const {
  if (u < 0 || u >= num_units()) return "?";
  return units[static_cast<size_t>(u)].name;
}

void ResetState(State* s) {
  std::memset(static_cast<void*>(s), 0, sizeof(State));
  s->turn = 1;
  s->winner = -1;
  s->conceded_by = 0xFF;
  s->combat.column = -1;
  s->combat.vacated_hex = -1;
  s->combat.legacy_current = kNoUnit;
  for (auto& h : s->combat.defender_hexes) h = -1;
}

State PlacedInitialState(const Game& game, uint64_t seed) {
  State s;
  ResetState(&s);
  s.rng = SeedRng(seed);
  WG_CHECK(game.num_units() <= kMaxUnits, "too many units for kMaxUnits");
  s.num_units = static_cast<uint16_t>(game.num_units());
  for (int i = 0; i < game.num_units(); ++i) {
    const UnitDef& d = game.units[static_cast<size_t>(i)];
    UnitState& u = s.units[static_cast<size_t>(i)];
    u.side = static_cast<uint8_t>(d.side);
    u.face = d.face;
    std::memcpy(u.markers, d.markers, sizeof u.markers);
    if (!d.optional_rule.empty() && !game.OptionOn(d.optional_rule)) {
      u.hex = kWithdrawn;
    } else if (d.setup_hex >= 0 || d.setup_hex == kOnTable) {
      u.hex = static_cast<int16_t>(d.setup_hex);
    } else {
      u.hex = kNotYetEntered;
    }
    if (d.release_turn <= 1) u.flags |= kUnitReleased;
  }
  ApplyScenarioStart(game, game.start, &s);
  return s;
}

State NewInitialState(const Game& game, uint64_t seed, DiceStream* dice, EventSink* sink,
                      Scratch* scratch) {
  State s = PlacedInitialState(game, seed);
  Context ctx(game, dice, sink, scratch);
  Event start;
  start.type = EventType::kGameStart;
  ctx.Emit(start);
  game.rules->Start(s, ctx);
  return s;
}

void ApplyScenarioStart(const Game& game, const ScenarioStart& start, State* s) {
  s->turn = static_cast<uint8_t>(start.turn);
  s->player_turn = static_cast<uint8_t>(start.player_turn);
  s->phase = static_cast<uint8_t>(start.phase);
  if (!game.turns.order.empty()) {
    s->phasing_side = static_cast<uint8_t>(game.turns.order[static_cast<size_t>(start.player_turn)]);
    SetStartingSide(*s, s->phasing_side);
  }
  if (start.only_placed) {
    for (int i = 0; i < game.num_units(); ++i) s->units[static_cast<size_t>(i)].hex = kWithdrawn;
  }
  for (const auto& p : start.placements) {
    UnitState& u = s->units[static_cast<size_t>(p.unit)];
    if (p.hex != kUnchangedHex) u.hex = static_cast<int16_t>(p.hex);
    if (p.face >= 0) u.face = static_cast<uint8_t>(p.face);
    if (p.set_markers) std::memcpy(u.markers, p.markers, sizeof u.markers);
    if (p.released == 1) u.flags |= kUnitReleased;
    if (p.released == 0) u.flags &= static_cast<uint16_t>(~kUnitReleased);
  }
}

namespace {
uint64_t Fnv(const State& s, size_t n, uint64_t h = 1469598103934665603ull, size_t from = 0) {
  const auto* p = reinterpret_cast<const unsigned char*>(&s);
  for (size_t i = from; i < n; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}
}  // namespace

uint64_t HashState(const State& s) {
  const uint64_t h = Fnv(s, kStateHeldAt);
  return HoldsAction(s) ? Fnv(s, sizeof(State), h, kStateHeldAt) : h;
}
uint64_t HashStatePrefix(const State& s) { return Fnv(s, kStatePrefixBytes); }

void Rules::RuleSources(std::vector<RuleSource>* out) const {
  for (int k = 1; k < steps_.size(); ++k) {
    const StepDef& d = steps_.Def(static_cast<StepKind>(k));
    // A step may apply several rules ("8.0/7.8"): each is listed.
    size_t b = 0;
    while (b < d.rule.size()) {
      const size_t e = std::min(d.rule.find_first_of("/,", b), d.rule.size());
      if (e > b) out->push_back(RuleSource{d.rule.substr(b, e - b), "step", d.name, d.where});
      b = e + 1;
    }
  }
  static const char* const kAt[] = {"when a game-turn begins", "when a game-turn ends", "when a phase ends",
                                    "when the game ends", "once the game is over"};
  for (const ProcedureHandler& h : procedure_.handlers()) {
    std::string at = h.at == ProcedureAt::kPhaseEnd && !h.phase.empty() ? "when the " + h.phase + " phase ends"
                                                                        : kAt[static_cast<int>(h.at)];
    out->push_back(RuleSource{h.rule, "procedure", at + ": " + h.name, h.where});
  }
}

}  // namespace wg
