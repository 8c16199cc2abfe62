#include "wargame/hex_rules.h"

#include <algorithm>
#include <cstring>

namespace wg {

namespace {

const std::vector<std::string> kHexSections = {"movement", "zoc", "los", "crt", "tables", "combat", "rule_numbers"};

MoveRuleLabels LabelsFrom(const HexGameData& d) {
  MoveRuleLabels l;
  l.adjacency = d.Rule("movement");
  l.prohibited = d.Rule("terrain");
  l.enemy = d.Rule("enemy_hex");
  l.zoc_stop = d.Rule("zoc");
  l.zoc_leave = d.Rule("zoc_leave");
  l.infiltration = d.Rule("infiltration");
  l.allowance = d.Rule("allowance");
  l.stacking = d.Rule("stacking");
  l.entry = d.Rule("reinforcements");
  return l;
}

}  // namespace

// --- Loading ----------------------------------------------------------------------

namespace {

// Runs the loader of one section. Section loaders record their errors in the
// section's reader, where doc.Errors() collects them, and return a copy: only
// the value is taken here, so every error is reported once.
template <typename T, typename Load>
void LoadSection(RulesetDocument& doc, const char* key, bool required, T* out, ErrorList* errors, Load&& load) {
  if (!doc.Has(key)) {
    if (required) errors->Add(Error{doc.readers.front()->file(), 0, 0, key, "missing required section", ""});
    return;
  }
  auto result = load(*doc.ReaderFor(key), doc.Section(key), std::string(key));
  if (result.ok()) *out = std::move(result.value());
}

}  // namespace

ErrorList LoadHexGameData(RulesetDocument& doc, Game* game) {
  ErrorList errors;
  auto data = std::make_shared<HexGameData>();
  const MapVocabulary& vocab = game->map.vocabulary;
  LoadSection(doc, "movement", /*required=*/true, &data->movement, &errors,
              [&](YamlReader& r, const YAML::Node& n, const std::string& p) { return LoadMovementRules(r, n, p, vocab); });
  if (doc.Has("zoc")) {
    YamlReader& r = *doc.ReaderFor("zoc");
    const YAML::Node n = doc.Section("zoc");
    if (r.CheckKeys(n, "zoc", {"blocked_by", "unblocked_by", "not_into", "stop_on_entry",
                               "leave_only_if_started", "leave_cost", "no_infiltration", "rigid"})) {
      auto features = [&](const char* key) {
        FeatureMask m = 0;
        if (!n[key]) return m;
        for (const auto& f : r.StringList(n[key], YamlReader::Child("zoc", key))) {
          const int id = game->map.FeatureId(f);
          if (id < 0) {
            r.Fail(n[key], YamlReader::Child("zoc", key), "unknown hexside feature \"" + f + "\"");
          } else {
            m |= 1u << id;
          }
        }
        return m;
      };
      data->zoc.blocked_by = features("blocked_by");
      data->zoc.unblocked_by = features("unblocked_by");
      if (n["not_into"]) {
        for (const auto& t : r.StringList(n["not_into"], "zoc.not_into")) {
          const int id = game->map.TerrainId(t);
          if (id < 0) {
            r.Fail(n["not_into"], "zoc.not_into", "unknown terrain \"" + t + "\"");
          } else {
            data->zoc.not_into |= 1u << id;
          }
        }
      }
      data->zoc.stop_on_entry = r.OptionalBool(n, "zoc", "stop_on_entry", true);
      data->zoc.leave_only_if_started = r.OptionalBool(n, "zoc", "leave_only_if_started", false);
      const double leave = r.OptionalDouble(n, "zoc", "leave_cost", 0);
      data->zoc.leave_cost = static_cast<int>(leave * 2 + 0.5);
      data->zoc.no_infiltration = r.OptionalBool(n, "zoc", "no_infiltration", false);
      data->zoc.rigid = r.OptionalBool(n, "zoc", "rigid", false);
    }
  }
  LoadSection(doc, "los", /*required=*/false, &data->los_rules, &errors,
              [&](YamlReader& r, const YAML::Node& n, const std::string& p) { return LoadLosRules(r, n, p, vocab); });
  LoadSection(doc, "crt", /*required=*/true, &data->crt, &errors, LoadCombatTable);
  LoadSection(doc, "tables", /*required=*/false, &data->tables, &errors, LoadDieTables);
  {
    YamlReader& r = *doc.ReaderFor("combat");
    const YAML::Node n = doc.Section("combat");
    auto attr = [&](const char* key, const char* fallback) {
      const std::string name = n ? r.OptionalString(n, "combat", key, fallback) : fallback;
      const int idx = game->AttributeIndex(name);
      if (idx < 0) {
        r.Fail(n ? n : r.root(), YamlReader::Child("combat", key), "unknown attribute \"" + name + "\"");
      }
      return idx;
    };
    if (n) {
      r.CheckKeys(n, "combat", {"attack", "defense", "movement", "mandatory", "obligations", "retreat_hexes",
                                "retreat_through_ezoc", "advance", "stacking_check", "control_kinds",
                                "artillery_kind", "artillery_range"});
    }
    data->attack = attr("attack", "attack");
    data->defense = attr("defense", "defense");
    data->movement_attribute = attr("movement", "movement");
    if (n) {
      data->mandatory = r.OptionalBool(n, "combat", "mandatory", true);
      data->obligations = data->mandatory && r.OptionalBool(n, "combat", "obligations", false);
      data->retreat_hexes = r.OptionalInt(n, "combat", "retreat_hexes", 1);
      data->retreat_through_ezoc = r.OptionalBool(n, "combat", "retreat_through_ezoc", false);
      const std::string adv = r.OptionalString(n, "combat", "advance", "stacking");
      if (adv == "stacking") {
        data->advance = HexGameData::Advance::kStacking;
      } else if (adv == "one") {
        data->advance = HexGameData::Advance::kOne;
      } else if (adv == "none") {
        data->advance = HexGameData::Advance::kNone;
      } else {
        r.Fail(n["advance"], "combat.advance", "expected stacking, one or none");
      }
      const std::string sc = r.OptionalString(n, "combat", "stacking_check", "refuse");
      if (sc == "refuse") {
        data->stacking_check = HexGameData::StackingCheck::kRefuse;
      } else if (sc == "eliminate") {
        data->stacking_check = HexGameData::StackingCheck::kEliminate;
      } else {
        r.Fail(n["stacking_check"], "combat.stacking_check", "expected refuse or eliminate");
      }
      if (n["control_kinds"]) data->control_kinds = r.StringList(n["control_kinds"], "combat.control_kinds");
      if (n["artillery_kind"]) {
        const std::string k = r.String(n["artillery_kind"], "combat.artillery_kind").value_or("");
        data->artillery_kind = game->KindIndex(k);
        if (data->artillery_kind < 0) r.Fail(n["artillery_kind"], "combat.artillery_kind", "unknown kind \"" + k + "\"");
      }
      data->artillery_range = r.OptionalInt(n, "combat", "artillery_range", 0);
    }
  }
  data->phase_movement = game->turns.PhaseIndex("movement");
  data->phase_combat = game->turns.PhaseIndex("combat");
  if (doc.Has("rule_numbers")) {
    YamlReader& r = *doc.ReaderFor("rule_numbers");
    const YAML::Node n = doc.Section("rule_numbers");
    if (r.ExpectMap(n, "rule_numbers")) {
      for (const auto& kv : n) {
        const std::string key = kv.first.Scalar();
        if (std::find(std::begin(kRuleKeys), std::end(kRuleKeys), key) == std::end(kRuleKeys)) {
          std::string list;
          for (const char* k : kRuleKeys) list += (list.empty() ? "" : ", ") + std::string(k);
          r.Fail(kv.first, "rule_numbers." + key, "unknown rule key (expected one of: " + list + ")");
          continue;
        }
        data->rule_numbers[key] = r.String(kv.second, "rule_numbers." + key).value_or(key);
      }
    }
  }
  data->move_labels = LabelsFrom(*data);
  errors.Append(doc.Errors());
  if (!errors.ok()) return errors;
  // Kinds' movement classes must exist in the movement rules.
  for (const auto& k : game->kinds) {
    if (k.movement_class >= data->movement.num_classes()) {
      errors.Add(Error{doc.readers.front()->file(), 0, 0, "kinds", "kind \"" + k.id + "\" has no movement class", ""});
    }
  }
  data->los = std::make_unique<LineOfSight>(game->map, data->los_rules);
  // The step-cost tables, built once here: every scratch copies them.
  if (errors.ok()) data->pathfinder_prototype = std::make_unique<Pathfinder>(game->map, data->movement);
  game->data = data;
  return errors;
}

Result<std::shared_ptr<const Game>> LoadHexGame(
    const std::string& folder, const GameParams& params, const std::vector<std::string>& extra_sections,
    const std::function<std::unique_ptr<Rules>(const Game&, RulesetDocument&, ErrorList*)>& make_rules) {
  std::vector<std::string> sections = kHexSections;
  sections.insert(sections.end(), extra_sections.begin(), extra_sections.end());
  auto doc = LoadRulesetDocument(folder, params.scenario, sections);
  if (!doc.ok()) return doc.errors();
  auto game = std::make_unique<Game>();
  game->params = params;
  game->folder = folder;
  ErrorList errors = LoadGenericSections(**doc, game.get());
  if (!errors.ok()) return errors;
  errors = LoadHexGameData(**doc, game.get());
  if (!errors.ok()) return errors;
  game->rules = make_rules(*game, **doc, &errors);
  errors.Append((*doc)->Errors());
  if (!errors.ok()) return errors;
  return std::shared_ptr<const Game>(std::move(game));
}

// --- Scratch ------------------------------------------------------------------------

namespace {
// A copy of the Game's prototype (its step-cost tables are built once per Game),
// or a new Pathfinder if there is none for this map and cost model.
Pathfinder ScratchPathfinder(const Game& game) {
  const HexGameData& d = game.Data<HexGameData>();
  const Pathfinder* proto = d.pathfinder_prototype.get();
  if (proto != nullptr && &proto->map() == &game.map && &proto->rules() == &d.movement) return *proto;
  return Pathfinder(game.map, d.movement);
}
}  // namespace

HexScratch::HexScratch(const Game& game) : pathfinder(ScratchPathfinder(game)) {
  const size_t n = static_cast<size_t>(game.map.size());
  enemy.assign(n, 0);
  overrun.assign(n, 0);
  friendly.assign(n, 0);
  hex_head.assign(n, -1);
  hex_duty.assign(n, 0);
  enemy_hexes.reserve(n);
  sources.reserve(kMaxUnits);
  actions.reserve(256);
}

std::unique_ptr<Scratch> HexRules::NewScratch() const { return std::make_unique<HexScratch>(game_); }

std::string HexRules::PositionText(const State& s, UnitId u) const {
  const int16_t h = s.unit(u).hex;
  return h >= 0 ? game_.map.Label(h) : Rules::PositionText(s, u);
}

const char* HexGameData::Rule(const std::string& key) const {
  auto it = rule_numbers.find(key);
  if (it != rule_numbers.end()) return it->second.c_str();
  // Keys without a number print as themselves; the strings are static.
  for (const char* k : kRuleKeys) {
    if (key == k) return k;
  }
  return "";
}

namespace {
HexScratch& Hs(Context& ctx) { return static_cast<HexScratch&>(ctx.scratch()); }

// Appends a move/enter action along the searched path to `to` (what
// Pathfinder::Path returns, without building a vector); skips an empty path or
// one longer than an Action holds.
void AppendPathAction(const Reachable& r, ActionType type, UnitId u, int start, int to,
                      std::vector<Action>* out) {
  int16_t back[kMaxActionHexes];  // the path from `to` back to the start
  int len = 0;
  for (int h = to; h >= 0 && h != start; h = r.Predecessor(h)) {
    if (len == kMaxActionHexes) return;
    back[len++] = static_cast<int16_t>(h);
  }
  if (len == 0) return;
  Action& a = out->emplace_back();
  a.type = type;
  a.AddUnit(u);
  a.num_hexes = static_cast<uint8_t>(len);
  for (int i = 0; i < len; ++i) a.hexes[static_cast<size_t>(i)] = back[len - 1 - i];
}
}  // namespace

// --- Queries ------------------------------------------------------------------------

const std::string& HexRules::PhaseName(const State& s) const {
  return game_.turns.phases[s.phase];
}

int HexRules::UnitsIn(const State& s, int hex, int side, UnitId* out, int max) const {
  int n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex == hex && (side < 0 || u.side == side)) {
      if (n < max && out) out[n] = static_cast<UnitId>(i);
      ++n;
    }
  }
  return n;
}

int HexRules::CountIn(const State& s, int hex, int side) const { return UnitsIn(s, hex, side, nullptr, 0); }

int HexRules::StackingCount(const State& s, int hex, int side) const {
  int n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex == hex && u.side == side && CountsForStacking(s, static_cast<UnitId>(i))) ++n;
  }
  return n;
}

bool HexRules::Adjacent(int a, int b) const {
  const int32_t* nb = game_.map.grid.Neighbors(a);
  for (int d = 0; d < 6; ++d) {
    if (nb[d] == b) return true;
  }
  return false;
}

HexStatePin::HexStatePin(Context& ctx, const State& s)
    : hs_(Hs(ctx)), prev_state_(hs_.pinned), prev_pin_(hs_.pin) {
  if (hs_.pinned != &s || hs_.pin == 0) {
    hs_.pinned = &s;
    hs_.pin = ++hs_.pin_counter;
  }
}

HexStatePin::~HexStatePin() {
  hs_.pinned = prev_state_;
  hs_.pin = prev_pin_;
}


const ZocField& HexRules::EnemyZoc(const State& s, Context& ctx, int side) const {
  HexScratch& hs = Hs(ctx);
  if (hs.zoc_side == side && hs.CacheFresh(hs.zoc_pin, hs.zoc_state, s)) return hs.enemy_zoc;
  hs.sources.clear();
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (!u.OnMap() || u.side == side) continue;
    const ZocKind k = ZocOf(s, static_cast<UnitId>(i));
    if (k != ZocKind::kNone) hs.sources.push_back(ZocSource{u.hex, k});
  }
  hs.enemy_zoc.Compute(game_.map, data().zoc, hs.sources);
  std::memcpy(static_cast<void*>(&hs.zoc_state), &s, sizeof(State));
  hs.zoc_side = side;
  hs.zoc_pin = hs.PinOf(s);
  return hs.enemy_zoc;
}

bool HexRules::InEnemyZoc(const State& s, Context& ctx, int side, int hex) const {
  return EnemyZoc(s, ctx, side).InEzoc(hex);
}

// --- Effects -------------------------------------------------------------------------

void HexRules::Eliminate(State& s, Context& ctx, UnitId u, const char* rule, const char* why) const {
  UnitState& us = s.unit(u);
  if (!us.OnMap()) return;
  const int hex = us.hex;
  Event e;
  e.type = EventType::kEliminated;
  e.unit = u;
  e.hex = static_cast<int16_t>(hex);
  e.side = static_cast<int8_t>(us.side);
  e.rule = rule;
  e.text = why;
  us.hex = kEliminated;
  ctx.Emit(e);
  OnEliminated(s, ctx, u, hex);
}

void HexRules::AddMarker(State& s, Context& ctx, UnitId u, int marker, int amount, const char* rule) const {
  UnitState& us = s.unit(u);
  us.markers[marker] = static_cast<uint8_t>(std::min(255, us.markers[marker] + amount));
  Event e;
  e.type = EventType::kLoss;
  e.unit = u;
  e.hex = us.hex;
  e.a = amount;
  e.rule = rule;
  e.text = game_.markers[static_cast<size_t>(marker)].name.c_str();
  ctx.Emit(e);
}

void HexRules::AwardVp(State& s, Context& ctx, int side, int points, const char* rule, const char* why) const {
  if (points == 0) return;
  s.vp[side] = static_cast<int16_t>(s.vp[side] + points);
  const int t = std::clamp(static_cast<int>(s.turn), 1, kMaxTurns) - 1;
  s.vp_by_turn[side][t] = static_cast<int16_t>(s.vp_by_turn[side][t] + points);
  Event e;
  e.type = EventType::kVictoryPoints;
  e.side = static_cast<int8_t>(side);
  e.a = points;
  e.rule = rule;
  e.text = why;
  ctx.Emit(e);
}

void HexRules::TouchHex(State& s, Context& ctx, int hex, int side) const {
  const auto& kinds = data().control_kinds;
  if (kinds.empty()) return;
  for (size_t p = 0; p < game_.map.places.size() && p < static_cast<size_t>(kMaxPlaces); ++p) {
    const Place& place = game_.map.places[p];
    if (std::find(kinds.begin(), kinds.end(), place.kind) == kinds.end()) continue;
    if (std::find(place.hexes.begin(), place.hexes.end(), hex) == place.hexes.end()) continue;
    if (s.place_control[p] == side + 1) continue;
    s.place_control[p] = static_cast<uint8_t>(side + 1);
    Event e;
    e.type = EventType::kControl;
    e.side = static_cast<int8_t>(side);
    e.hex = static_cast<int16_t>(hex);
    e.a = static_cast<int>(p);
    ctx.Emit(e);
  }
}

void HexRules::MoveUnit(State& s, Context& ctx, UnitId u, int to, EventType type, const char* rule) const {
  UnitState& us = s.unit(u);
  Event e;
  e.type = type;
  e.unit = u;
  e.hex = us.hex;
  e.hex2 = static_cast<int16_t>(to);
  e.rule = rule;
  us.hex = static_cast<int16_t>(to);
  ctx.Emit(e);
}

// --- Default hooks ----------------------------------------------------------------------

bool HexRules::PhaseApplies(const State&, int) const { return true; }

void HexRules::OnTurnStart(State&, Context&) const {}

void HexRules::OnGameEnd(State&, Context&) const {}

void HexRules::OnPhaseStart(State& s, Context& ctx) const {
  const int side = s.phasing_side;
  if (IsPhase(s, data().phase_movement)) {
    for (int i = 0; i < s.num_units; ++i) {
      UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.side != side) continue;
      u.flags &= static_cast<uint16_t>(~(kUnitMoved | kUnitEnteredEzoc));
      const UnitDef& d = game_.units[static_cast<size_t>(i)];
      if (!u.Has(kUnitReleased) && d.release_turn > 0 && d.release_turn <= s.turn) {
        u.flags |= kUnitReleased;
        Event e;
        e.type = EventType::kRelease;
        e.unit = static_cast<UnitId>(i);
        e.rule = data().Rule("release");
        ctx.Emit(e);
      }
    }
    s.decision = DecisionType::kMovement;
    s.decision_side = static_cast<uint8_t>(side);
  } else if (IsPhase(s, data().phase_combat)) {
    for (int i = 0; i < s.num_units; ++i) {
      s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~(kUnitAttacked | kUnitDefended));
    }
    s.combat = PendingCombat{};
    s.combat.vacated_hex = -1;
    s.combat.current = kNoUnit;
    for (auto& h : s.combat.defender_hexes) h = -1;
    s.decision = DecisionType::kCombat;
    s.decision_side = static_cast<uint8_t>(side);
  } else {
    s.decision = DecisionType::kNone;
  }
}

void HexRules::OnPhaseEnd(State& s, Context& ctx) const {
  if (data().stacking_check == HexGameData::StackingCheck::kEliminate &&
      (IsPhase(s, data().phase_movement) || IsPhase(s, data().phase_combat))) {
    EnforceStacking(s, ctx, 0, data().Rule("stacking"));
    EnforceStacking(s, ctx, 1, data().Rule("stacking"));
  }
}

Status HexRules::ApplyPhaseAction(State&, const Action&, Context&) const { return Status::Refused("", ""); }
void HexRules::ListPhaseActions(const State&, Context&, std::vector<Action>*) const {}

int HexRules::ReinforcementTurn(const State&, UnitId u) const {
  return game_.units[static_cast<size_t>(u)].reinforcement_turn;
}

int HexRules::MovementAllowance(const State& s, UnitId u) const {
  return 2 * game_.Current(s, u, data().movement_attribute);
}

Status HexRules::CanMove(const State& s, UnitId u) const {
  if (!s.unit(u).Has(kUnitReleased)) {
    return Status::Refused(data().Rule("release"), game_.UnitLabel(u) + " is not released yet");
  }
  return Status::Ok();
}

ZocKind HexRules::ZocOf(const State& s, UnitId u) const {
  return DefenseStrength(s, u) > 0 ? ZocKind::kSix : ZocKind::kNone;
}

bool HexRules::CountsForStacking(const State&, UnitId u) const {
  return game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].counts_for_stacking;
}

int HexRules::AttackStrength(const State& s, UnitId u) const { return game_.Current(s, u, data().attack); }
int HexRules::DefenseStrength(const State& s, UnitId u) const { return game_.Current(s, u, data().defense); }

bool HexRules::Overrunnable(const State&, int, int) const { return false; }
void HexRules::OnOverrun(State&, Context&, int, int) const {}

Status HexRules::ApplyModeChange(State&, const Action&, Context&) const {
  return Status::Refused(data().Rule("movement"), "this ruleset has no unit modes to change");
}

void HexRules::OnEliminated(State&, Context&, UnitId, int) const {}
Status HexRules::CheckMove(const State&, const Action&, Context&) const { return Status::Ok(); }
void HexRules::AfterMove(State&, const Action&, Context&) const {}
Status HexRules::CheckAttack(const State&, const Action&, Context&) const { return Status::Ok(); }
void HexRules::CombatModifiers(const State&, Context&, CombatMods*) const {}
void HexRules::AfterCombat(State&, Context&) const {}
const char* HexRules::AutomaticAttack(const State&, const AttackPlan&) const { return nullptr; }
bool HexRules::VacatedForAdvance(const State& s, int hex) const { return CountIn(s, hex, -1) == 0; }

bool HexRules::MustAttack(const State& s, Context& ctx, UnitId u) const {
  const UnitState& us = s.unit(u);
  return us.OnMap() && AttackStrength(s, u) > 0 && InEnemyZoc(s, ctx, us.side, us.hex);
}

bool HexRules::MustBeAttacked(const State& s, Context& ctx, UnitId u) const {
  const UnitState& us = s.unit(u);
  // An enemy unit in a hex the phasing side controls.
  return us.OnMap() && InEnemyZoc(s, ctx, us.side, us.hex);
}

// --- Sequence -------------------------------------------------------------------------------

void HexRules::Start(State& s, Context& ctx) const {
  Event t;
  t.type = EventType::kTurnStart;
  t.a = s.turn;
  ctx.Emit(t);
  OnTurnStart(s, ctx);
  if (PhaseApplies(s, s.phase)) {
    Event e;
    e.type = EventType::kPhaseStart;
    e.side = static_cast<int8_t>(s.phasing_side);
    e.text = game_.turns.phases[s.phase].c_str();
    ctx.Emit(e);
    OnPhaseStart(s, ctx);
  } else {
    s.decision = DecisionType::kNone;
  }
  if (s.decision == DecisionType::kNone && !s.game_over) AdvancePhase(s, ctx);
}

void HexRules::AdvancePhase(State& s, Context& ctx) const {
  OnPhaseEnd(s, ctx);
  for (int guard = 0; guard < 1000 && !s.game_over; ++guard) {
    ++s.phase;
    if (s.phase >= game_.turns.phases.size()) {
      s.phase = 0;
      ++s.player_turn;
      if (s.player_turn >= game_.turns.order.size()) {
        s.player_turn = 0;
        if (s.turn >= game_.turns.num_turns()) {
          EndGame(s, ctx, data().Rule("victory"));
          return;
        }
        ++s.turn;
        Event t;
        t.type = EventType::kTurnStart;
        t.a = s.turn;
        ctx.Emit(t);
        OnTurnStart(s, ctx);
        if (s.game_over) return;
      }
      s.phasing_side = static_cast<uint8_t>(game_.turns.order[s.player_turn]);
    }
    if (!PhaseApplies(s, s.phase)) continue;
    Event e;
    e.type = EventType::kPhaseStart;
    e.side = static_cast<int8_t>(s.phasing_side);
    e.text = game_.turns.phases[s.phase].c_str();
    ctx.Emit(e);
    s.decision = DecisionType::kNone;
    OnPhaseStart(s, ctx);
    if (s.game_over) return;
    if (s.decision != DecisionType::kNone) return;
    OnPhaseEnd(s, ctx);
  }
}

void HexRules::EndGame(State& s, Context& ctx, const char* rule) const {
  if (s.game_over) return;
  OnGameEnd(s, ctx);
  s.game_over = 1;
  s.decision = DecisionType::kNone;
  const VictoryRules& v = game_.victory;
  Event e;
  e.type = EventType::kGameEnd;
  e.rule = rule;
  if (s.conceded_by != 0xFF) {
    s.winner = static_cast<int8_t>(1 - s.conceded_by);
    e.text = "concession";
  } else if (v.kind == VictoryRules::Kind::kThresholds) {
    // The side with more VPs wins if it reached its minimum; otherwise a draw.
    const int lead = s.vp[0] > s.vp[1] ? 0 : (s.vp[1] > s.vp[0] ? 1 : -1);
    s.winner = static_cast<int8_t>(lead >= 0 && s.vp[lead] >= v.thresholds[lead] ? lead : -1);
  } else {
    const int diff = s.vp[0] - s.vp[1];
    s.winner = -1;
    for (size_t i = 0; i < v.levels.size(); ++i) {
      if (diff >= v.levels[i].min && diff <= v.levels[i].max) {
        s.winner = static_cast<int8_t>(v.levels[i].winner);
        s.level = static_cast<uint8_t>(i);
        e.text = v.levels[i].name.c_str();
        break;
      }
    }
  }
  e.side = s.winner;
  e.a = s.vp[0];
  e.b = s.vp[1];
  ctx.Emit(e);
}

// --- Listing ------------------------------------------------------------------------------

void HexRules::LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const {
  out->clear();
  if (s.game_over) return;
  const HexStatePin pin(ctx, s);
  switch (s.decision) {
    case DecisionType::kMovement: {
      ListMoves(s, ctx, out);
      ListPhaseActions(s, ctx, out);
      // Ending the phase is listed only if the ruleset accepts it now (e.g.
      // reinforcements that must enter first): tried on a copy.
      bool listed = false;
      for (const Action& a : *out) listed = listed || a.type == ActionType::kEndPhase;
      if (!listed) {
        State copy;
        std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
        Context quiet(game_, nullptr, nullptr, &ctx.scratch());
        if (Apply(copy, Action::EndPhase(), quiet).ok()) out->push_back(Action::EndPhase());
      }
      break;
    }
    case DecisionType::kCombat:
      ListAttacks(s, ctx, out);
      ListPhaseActions(s, ctx, out);
      {
        State copy;
        std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
        Context quiet(game_, nullptr, nullptr, &ctx.scratch());
        if (EndCombatPhase(copy, quiet).ok()) out->push_back(Action::EndPhase());
      }
      break;
    case DecisionType::kRetreat:
      RetreatPaths(s, ctx, s.combat.current, s.combat.retreat_hexes, out);
      ListPhaseActions(s, ctx, out);
      break;
    case DecisionType::kAdvance:
      ListAdvances(s, ctx, out);
      break;
    default:
      ListPhaseActions(s, ctx, out);
      break;
  }
}

void HexRules::RefreshOccupancy(const State& s, Context& ctx, int side) const {
  HexScratch& hs = Hs(ctx);
  if (hs.occupancy_side == side && hs.CacheFresh(hs.occupancy_pin, hs.occupancy_state, s)) return;
  std::fill(hs.enemy.begin(), hs.enemy.end(), 0);
  std::fill(hs.overrun.begin(), hs.overrun.end(), 0);
  std::fill(hs.friendly.begin(), hs.friendly.end(), 0);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (!u.OnMap()) continue;
    if (u.side == side) {
      if (CountsForStacking(s, static_cast<UnitId>(i))) ++hs.friendly[static_cast<size_t>(u.hex)];
    } else {
      hs.enemy[static_cast<size_t>(u.hex)] = 1;
    }
  }
  for (size_t h = 0; h < hs.enemy.size(); ++h) {
    if (hs.enemy[h] && Overrunnable(s, static_cast<int>(h), side)) hs.overrun[h] = 1;
  }
  std::memcpy(static_cast<void*>(&hs.occupancy_state), &s, sizeof(State));
  hs.occupancy_side = side;
  hs.occupancy_pin = hs.PinOf(s);
}

MoveQuery HexRules::BuildQuery(const State& s, Context& ctx, const UnitId* units, int n) const {
  HexScratch& hs = Hs(ctx);
  const int side = s.unit(units[0]).side;
  RefreshOccupancy(s, ctx, side);
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  MoveQuery q;
  q.start = s.unit(units[0]).hex;
  q.enemy = hs.enemy.data();
  q.overrunnable = hs.overrun.data();
  q.friendly_count = hs.friendly.data();
  q.zoc = &zoc;
  q.zoc_rules = &data().zoc;
  q.started_in_ezoc = q.start >= 0 && zoc.InEzoc(q.start);
  q.minimum_one_hex = data().movement.minimum_one_hex;
  q.allowance = 1 << 20;
  q.classes = 0;
  int moving = 0;
  for (int i = 0; i < n; ++i) {
    const UnitId u = units[i];
    q.allowance = std::min(q.allowance, MovementAllowance(s, u));
    q.classes |= MoveClassBit(game_.kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].movement_class);
    if (CountsForStacking(s, u)) ++moving;
  }
  q.moving_count = moving;
  q.stack_limit = data().stacking_check == HexGameData::StackingCheck::kRefuse ? game_.stacking.limit : 0;
  if (q.start >= 0 && q.stack_limit > 0) {
    // The movers leave their hex: do not count them twice at the start.
  }
  return q;
}

const Reachable& HexRules::SearchMoves(const State& s, Context& ctx, const UnitId* units, int n) const {
  const MoveQuery q = BuildQuery(s, ctx, units, n);
  return Hs(ctx).pathfinder.Search(q);
}

void HexRules::ListMoves(const State& s, Context& ctx, std::vector<Action>* out) const {
  HexScratch& hs = Hs(ctx);
  const int side = s.phasing_side;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != side || us.Has(kUnitMoved)) continue;
    if (us.OnMap()) {
      if (!CanMove(s, u).ok() || MovementAllowance(s, u) <= 0) continue;
      const Reachable& r = SearchMoves(s, ctx, &u, 1);
      for (int h : r.hexes()) {
        if (h == us.hex || !r.CanEnd(h)) continue;
        AppendPathAction(r, ActionType::kMove, u, us.hex, h, out);
      }
    } else if (us.hex == kNotYetEntered) {
      const UnitDef& d = game_.units[static_cast<size_t>(i)];
      const int due = ReinforcementTurn(s, u);
      if (d.entry_place < 0 || due > s.turn || due == 0) continue;
      const Place& place = game_.map.places[static_cast<size_t>(d.entry_place)];
      MoveQuery q = BuildQuery(s, ctx, &u, 1);
      q.start = -1;
      q.entry_hexes = std::span<const int>(place.hexes.data(), place.hexes.size());
      q.started_in_ezoc = false;
      const Reachable& r = hs.pathfinder.Search(q);
      for (int h : r.hexes()) {
        if (!r.CanEnd(h)) continue;
        AppendPathAction(r, ActionType::kEnter, u, -1, h, out);
      }
    }
  }
}

void HexRules::ListAttacks(const State& s, Context& ctx, std::vector<Action>* out) const {
  const int side = s.phasing_side;
  const auto& grid = game_.map.grid;
  // For each enemy-occupied hex not yet attacked: all eligible adjacent
  // attackers together, and each one alone.
  std::vector<int> seen;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    if (!e.OnMap() || e.side == side || e.Has(kUnitDefended)) continue;
    if (std::find(seen.begin(), seen.end(), e.hex) != seen.end()) continue;
    seen.push_back(e.hex);
    Action all = Action::Of(ActionType::kAttack);
    all.AddHex(e.hex);
    for (int d = 0; d < 6; ++d) {
      const int nb = grid.NeighborIndex(e.hex, d);
      if (nb < 0) continue;
      for (int j = 0; j < s.num_units; ++j) {
        const UnitState& a = s.units[static_cast<size_t>(j)];
        if (a.hex != nb || a.side != side || a.Has(kUnitAttacked)) continue;
        if (AttackStrength(s, static_cast<UnitId>(j)) <= 0) continue;
        Action one = Action::Of(ActionType::kAttack);
        one.AddUnit(static_cast<UnitId>(j)).AddHex(e.hex);
        out->push_back(one);
        all.AddUnit(static_cast<UnitId>(j));
      }
    }
    if (all.num_units > 1) out->push_back(all);
  }
  if (data().obligations) ListDutyAttacks(s, ctx, out);
}

void HexRules::ListAdvances(const State& s, Context& ctx, std::vector<Action>* out) const {
  (void)ctx;
  out->push_back(Action::Of(ActionType::kAdvance));  // decline
  const PendingCombat& c = s.combat;
  for (int i = 0; i < c.num_attackers; ++i) {
    const UnitId u = c.attackers[i];
    const UnitState& us = s.unit(u);
    if (!us.OnMap() || !Adjacent(us.hex, c.vacated_hex)) continue;
    if (data().artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == data().artillery_kind) continue;
    Action a = Action::Of(ActionType::kAdvance);
    a.AddUnit(u);
    out->push_back(a);
  }
}

// --- Applying --------------------------------------------------------------------------------

Status HexRules::Apply(State& s, const Action& a, Context& ctx) const {
  if (s.game_over) return Status::Refused("", "the game is over");
  if (a.type == ActionType::kConcede) {
    s.conceded_by = s.decision_side;
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(s.decision_side);
    e.text = "concedes";
    ctx.Emit(e);
    EndGame(s, ctx, data().Rule("concession"));
    return Status::Ok();
  }
  {
    Status st = ApplyPhaseAction(s, a, ctx);
    if (st.ok() || !st.error().message.empty()) return st;
  }
  switch (s.decision) {
    case DecisionType::kMovement:
      switch (a.type) {
        case ActionType::kMove: return ApplyMove(s, a, ctx);
        case ActionType::kEnter: return ApplyEnter(s, a, ctx);
        case ActionType::kChangeMode: return ApplyModeChange(s, a, ctx);
        case ActionType::kEndPhase: AdvancePhase(s, ctx); return Status::Ok();
        default: break;
      }
      break;
    case DecisionType::kCombat:
      switch (a.type) {
        case ActionType::kAttack: return ApplyAttack(s, a, ctx);
        case ActionType::kEndPhase: {
          Status st = EndCombatPhase(s, ctx);
          if (!st.ok()) return st;
          AdvancePhase(s, ctx);
          return Status::Ok();
        }
        default: break;
      }
      break;
    case DecisionType::kRetreat:
      if (a.type == ActionType::kRetreat) return ApplyRetreat(s, a, ctx);
      break;
    case DecisionType::kAdvance:
      if (a.type == ActionType::kAdvance) return ApplyAdvance(s, a, ctx);
      break;
    default:
      break;
  }
  return Status::Refused(data().Rule("sequence"), "a " + std::string(ActionTypeName(a.type)) +
                                         " action is not allowed now (the decision is: " +
                                         DescribeDecision(s) + ")");
}

Status HexRules::ApplyMove(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 0) return Status::Refused(data().Rule("movement"), "no unit to move");
  if (a.num_hexes == 0) return Status::Refused(data().Rule("movement"), "the path is empty");
  const int start = s.unit(a.units[0]).hex;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const UnitState& us = s.unit(u);
    if (u < 0 || u >= s.num_units) return Status::Refused(data().Rule("movement"), "no such unit");
    if (us.side != s.phasing_side) return Status::Refused(data().Rule("movement"), game_.UnitLabel(u) + " is not the phasing side's");
    if (!us.OnMap()) return Status::Refused(data().Rule("movement"), game_.UnitLabel(u) + " is not on the map");
    if (us.hex != start) return Status::Refused(data().Rule("movement"), "units moving together must start in the same hex");
    if (us.Has(kUnitMoved)) return Status::Refused(data().Rule("movement"), game_.UnitLabel(u) + " has already moved this phase");
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return Status::Refused(data().Rule("movement"), "a unit is listed twice");
    }
    Status st = CanMove(s, u);
    if (!st.ok()) return st;
  }
  {
    Status st = CheckMove(s, a, ctx);
    if (!st.ok()) return st;
  }
  const MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
  PathCheck pc;
  bool ezoc = false;
  {
    Status st = WalkPath(s, a, ctx, q, &pc, &ezoc);
    if (!st.ok()) return st;
  }
  FinishMove(s, a, ctx, start, pc.cost, ezoc, "");
  return Status::Ok();
}

void HexRules::FinishMove(State& s, const Action& a, Context& ctx, int start, int cost, bool ends_in_ezoc,
                          const char* rule) const {
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    Event e;
    e.type = EventType::kMove;
    e.unit = u;
    e.hex = static_cast<int16_t>(start);
    e.hex2 = static_cast<int16_t>(to);
    e.a = cost;
    e.rule = rule;
    ctx.Emit(e);
    UnitState& us = s.unit(u);
    us.hex = static_cast<int16_t>(to);
    us.flags |= kUnitMoved;
    if (ends_in_ezoc) us.flags |= kUnitEnteredEzoc;
  }
  AfterMove(s, a, ctx);
}

Status HexRules::WalkPath(State& s, const Action& a, Context& ctx, const MoveQuery& q, PathCheck* pc,
                          bool* ends_in_ezoc) const {
  HexScratch& hs = Hs(ctx);
  hs.path.assign(a.hexes.begin(), a.hexes.begin() + a.num_hexes);
  *pc = hs.pathfinder.CheckPath(q, hs.path, data().move_labels);
  if (!pc->ok) return Status::Refused(pc->rule, pc->message);
  const int side = s.phasing_side;
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (hs.enemy[static_cast<size_t>(h)]) OnOverrun(s, ctx, h, side);
    TouchHex(s, ctx, h, side);
  }
  *ends_in_ezoc = EnemyZoc(s, ctx, side).InEzoc(a.hexes[static_cast<size_t>(a.num_hexes - 1)]);
  return Status::Ok();
}

Status HexRules::ApplyEnter(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 0 || a.num_hexes == 0) return Status::Refused(data().Rule("reinforcements"), "an entry needs units and a path");
  int place = -1;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const UnitDef& d = game_.units[static_cast<size_t>(u)];
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side) return Status::Refused(data().Rule("reinforcements"), game_.UnitLabel(u) + " is not the phasing side's");
    if (us.hex != kNotYetEntered || d.entry_place < 0) {
      return Status::Refused(data().Rule("reinforcements"), game_.UnitLabel(u) + " is not a reinforcement waiting to enter");
    }
    if (ReinforcementTurn(s, u) > s.turn) {
      return Status::Refused(data().Rule("reinforcements"), game_.UnitLabel(u) + " enters on turn " + std::to_string(ReinforcementTurn(s, u)));
    }
    if (place >= 0 && place != d.entry_place) return Status::Refused(data().Rule("reinforcements"), "units entering together must share an entry area");
    place = d.entry_place;
  }
  const Place& p = game_.map.places[static_cast<size_t>(place)];
  const int first = a.hexes[0];
  if (std::find(p.hexes.begin(), p.hexes.end(), first) == p.hexes.end()) {
    return Status::Refused(data().Rule("reinforcements"), "hex " + game_.HexLabel(first) + " is not in the entry area " + p.name);
  }
  {
    Status st = CheckMove(s, a, ctx);
    if (!st.ok()) return st;
  }
  MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
  q.start = -1;
  q.entry_hexes = std::span<const int>(p.hexes.data(), p.hexes.size());
  q.started_in_ezoc = false;
  PathCheck pc;
  bool ezoc = false;
  {
    Status st = WalkPath(s, a, ctx, q, &pc, &ezoc);
    if (!st.ok()) return st;
  }
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    UnitState& us = s.unit(u);
    Event e;
    e.type = EventType::kEnter;
    e.unit = u;
    e.hex = static_cast<int16_t>(first);
    e.rule = data().Rule("reinforcements");
    ctx.Emit(e);
    if (to != first) {
      Event m;
      m.type = EventType::kMove;
      m.unit = u;
      m.hex = static_cast<int16_t>(first);
      m.hex2 = static_cast<int16_t>(to);
      m.a = pc.cost;
      ctx.Emit(m);
    }
    us.hex = static_cast<int16_t>(to);
    us.flags |= kUnitMoved | kUnitReleased;
    if (ezoc) us.flags |= kUnitEnteredEzoc;
  }
  AfterMove(s, a, ctx);
  return Status::Ok();
}

Status HexRules::PrepareAttack(const State& s, const Action& a, Context& ctx, AttackPlan* plan) const {
  const HexGameData& d = data();
  const int side = s.phasing_side;
  if (a.num_units == 0) return Status::Refused(data().Rule("combat"), "an attack needs at least one attacking unit");
  if (a.num_hexes == 0) return Status::Refused(data().Rule("combat"), "an attack needs at least one defending hex");
  if (a.num_units > kMaxCombatUnits) return Status::Refused(data().Rule("combat"), "too many attackers");
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (!EnemyIn(s, h, side)) return Status::Refused(data().Rule("combat"), "hex " + game_.HexLabel(h) + " holds no enemy unit");
    for (int j = 0; j < k; ++j) {
      if (a.hexes[static_cast<size_t>(j)] == h) return Status::Refused(data().Rule("combat"), "a hex is listed twice");
    }
  }
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap()) return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " cannot attack (not a phasing unit on the map)");
    if (us.Has(kUnitAttacked)) return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " has already attacked this phase");
    if (AttackStrength(s, u) <= 0) return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " has no attack strength");
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return Status::Refused(data().Rule("combat"), "a unit is listed twice");
    }
    const bool artillery = d.artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == d.artillery_kind &&
                           d.artillery_range > 1;
    bool in_range_of_one = false;
    for (int k = 0; k < a.num_hexes; ++k) {
      const int h = a.hexes[static_cast<size_t>(k)];
      const bool adjacent = Adjacent(us.hex, h);
      if (artillery) {
        const bool ok = adjacent || (DistanceBetween(us.hex, h) <= d.artillery_range && d.los->Clear(us.hex, h));
        in_range_of_one = in_range_of_one || ok;
      } else if (!adjacent) {
        return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " is not adjacent to " + game_.HexLabel(h));
      }
    }
    if (artillery && !in_range_of_one) {
      return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " has no target hex in range and sight");
    }
  }
  UnitId defenders[kMaxCombatUnits];
  int nd = 0;
  for (int k = 0; k < a.num_hexes; ++k) {
    UnitId here[kMaxCombatUnits];
    const int n = UnitsIn(s, a.hexes[static_cast<size_t>(k)], 1 - side, here, kMaxCombatUnits);
    for (int i = 0; i < n && nd < kMaxCombatUnits; ++i) {
      if (s.unit(here[i]).Has(kUnitDefended)) {
        return Status::Refused(data().Rule("combat"), game_.UnitLabel(here[i]) + " has already been attacked this phase");
      }
      defenders[nd++] = here[i];
    }
  }
  {
    Status st = CheckAttack(s, a, ctx);
    if (!st.ok()) return st;
  }
  if (data().obligations && IsPhase(s, data().phase_combat)) {
    Status st = CheckDutiesAfter(s, ctx, a);
    if (!st.ok()) return st;
  }
  *plan = AttackPlan{};
  plan->num_defenders = nd;
  for (int i = 0; i < nd; ++i) plan->defenders[i] = defenders[i];
  for (int i = 0; i < a.num_units; ++i) plan->attack += AttackStrength(s, a.units[static_cast<size_t>(i)]);
  for (int i = 0; i < nd; ++i) plan->defense += DefenseStrength(s, defenders[i]);
  {
    // Modifiers see the combat as declared.
    State view;
    std::memcpy(static_cast<void*>(&view), &s, sizeof(State));
    FillCombat(view, a, defenders, nd);
    CombatModifiers(view, ctx, &plan->mods);
  }
  const CombatMods& mods = plan->mods;
  plan->modified_defense =
      ModifiedStrength(plan->defense, std::span<const int>(mods.multipliers, static_cast<size_t>(mods.num_multipliers)));
  plan->modified_defense += mods.defense_bonus;
  int column = d.crt.ColumnFor(plan->attack, plan->modified_defense);
  if (column != CombatTable::kBelowLowest && mods.column_shift != 0) {
    column = std::clamp(column + mods.column_shift, 0, d.crt.num_columns() - 1);
  }
  plan->computed_column = column;
  if (a.value < 0) {
    const int chosen = column == CombatTable::kBelowLowest ? column : column + a.value;
    if (chosen < 0 || !d.crt.IsValidReduction(column, chosen)) {
      return Status::Refused(data().Rule("odds"), "cannot reduce the odds by " + std::to_string(-a.value) + " columns");
    }
    column = chosen;
  } else if (a.value > 0) {
    return Status::Refused(data().Rule("odds"), "the attacker may only reduce the odds");
  }
  plan->column = column;
  return Status::Ok();
}

void HexRules::FillCombat(State& s, const Action& a, const UnitId* defenders, int nd) const {
  PendingCombat& c = s.combat;
  c = PendingCombat{};
  for (auto& h : c.defender_hexes) h = -1;
  c.active = 1;
  c.vacated_hex = -1;
  c.current = kNoUnit;
  c.num_attackers = a.num_units;
  for (int i = 0; i < a.num_units; ++i) c.attackers[i] = a.units[static_cast<size_t>(i)];
  c.num_defenders = static_cast<uint8_t>(nd);
  for (int i = 0; i < nd; ++i) c.defenders[i] = defenders[i];
  c.num_defender_hexes = static_cast<uint8_t>(std::min<int>(a.num_hexes, 6));
  for (int k = 0; k < c.num_defender_hexes; ++k) c.defender_hexes[k] = a.hexes[static_cast<size_t>(k)];
}

AttackAnalysis HexRules::AnalyzeAttack(const State& s, Context& ctx, const Action& a) const {
  AttackAnalysis out;
  out.status = PrepareAttack(s, a, ctx, &out.plan);
  if (!out.status.ok()) return out;
  if (const char* automatic = AutomaticAttack(s, out.plan)) {
    out.automatic = automatic;
    return out;
  }
  const CombatTable& crt = data().crt;
  if (out.plan.column == CombatTable::kBelowLowest) {
    CrtOutcome o;
    o.numerator = 1;
    o.denominator = 1;
    o.result = &crt.below_result;
    out.outcomes.push_back(o);
  } else {
    out.outcomes = Distribution(crt, out.plan.column, out.plan.mods.drm, crt.die);
  }
  return out;
}

std::string HexRules::ColumnLabel(int column) const {
  return column == CombatTable::kBelowLowest ? "below the lowest column"
                                             : data().crt.columns[static_cast<size_t>(column)].label;
}

Status HexRules::ApplyAttack(State& s, const Action& a, Context& ctx) const {
  const HexGameData& d = data();
  const int side = s.phasing_side;
  AttackPlan plan;
  {
    Status st = PrepareAttack(s, a, ctx, &plan);
    if (!st.ok()) return st;
  }
  FillCombat(s, a, plan.defenders, plan.num_defenders);
  PendingCombat& c = s.combat;
  const CombatMods& mods = plan.mods;
  const int att = plan.attack, def_mod = plan.modified_defense, column = plan.column;
  for (int i = 0; i < c.num_attackers; ++i) s.unit(c.attackers[i]).flags |= kUnitAttacked;
  for (int i = 0; i < c.num_defenders; ++i) s.unit(c.defenders[i]).flags |= kUnitDefended;
  c.column = static_cast<int16_t>(column);
  c.drm = static_cast<int8_t>(mods.drm);
  Event e;
  e.type = EventType::kAttack;
  e.side = static_cast<int8_t>(side);
  e.hex = c.defender_hexes[0];
  e.a = att;
  e.b = def_mod;
  e.rule = data().Rule("combat");
  e.text = column == CombatTable::kBelowLowest ? "below the lowest column"
                                                : d.crt.columns[static_cast<size_t>(column)].label.c_str();
  ctx.Emit(e);
  for (int i = 0; i < mods.num_notes; ++i) {
    Event n;
    n.type = EventType::kNote;
    n.text = mods.notes[i];
    ctx.Emit(n);
  }
  const CombatResult* result;
  if (column == CombatTable::kBelowLowest) {
    result = &d.crt.below_result;
  } else {
    const int roll = ctx.RollSum(s, d.crt.die.count, d.crt.die.sides, "combat");
    c.roll = static_cast<int8_t>(roll);
    const int drms[1] = {mods.drm};
    const int row = ModifiedRoll(d.crt, roll, drms);
    result = &d.crt.Lookup(column, row);
  }
  Event r;
  r.type = EventType::kCombatResult;
  r.rule = data().Rule("combat");
  r.text = result->text.c_str();
  ctx.Emit(r);
  ++s.combat_count;
  s.decision = DecisionType::kCombat;
  ApplyCombatResult(s, ctx, *result);
  if (s.decision == DecisionType::kCombat && !s.game_over) NextCombatStep(s, ctx);
  return Status::Ok();
}

void HexRules::ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const {
  const PendingCombat& c = s.combat;
  auto tokens = r.two_sided ? r.defender : r.tokens;
  bool attacker_retreat = false, defender_retreat = false;
  for (const auto& t : (r.two_sided ? r.attacker : r.tokens)) {
    if (t.code == "AE") {
      for (int i = 0; i < c.num_attackers; ++i) Eliminate(s, ctx, c.attackers[i], data().Rule("combat"), "AE");
    } else if (t.code == "AR") {
      attacker_retreat = true;
    }
  }
  for (const auto& t : tokens) {
    if (t.code == "DE" || t.code == "EX") {
      int printed = 0;
      for (int i = 0; i < c.num_defenders; ++i) printed += game_.Printed(s, c.defenders[i], data().defense);
      for (int i = 0; i < c.num_defenders; ++i) Eliminate(s, ctx, c.defenders[i], data().Rule("combat"), t.code == "EX" ? "EX" : "DE");
      if (t.code == "EX") {
        // The attacker loses units whose strength totals at least the
        // defenders' printed strength: eliminate the weakest first (the
        // ruleset may override with a decision).
        int lost = 0;
        while (lost < printed) {
          int best = -1;
          for (int i = 0; i < c.num_attackers; ++i) {
            const UnitId u = c.attackers[i];
            if (!s.unit(u).OnMap()) continue;
            if (best < 0 || AttackStrength(s, u) < AttackStrength(s, c.attackers[best])) best = i;
          }
          if (best < 0) break;
          lost += game_.Printed(s, c.attackers[best], data().attack);
          Eliminate(s, ctx, c.attackers[best], data().Rule("combat"), "EX");
        }
      }
    } else if (t.code == "DR") {
      defender_retreat = true;
    }
  }
  for (int i = 0; i < c.num_attackers; ++i) s.unit(c.attackers[i]).flags &= static_cast<uint16_t>(~kUnitCoreSpare);
  for (int i = 0; i < c.num_defenders; ++i) s.unit(c.defenders[i]).flags &= static_cast<uint16_t>(~kUnitCoreSpare);
  if (defender_retreat) BeginRetreats(s, ctx, /*attacker=*/false, data().retreat_hexes);
  if (attacker_retreat) BeginRetreats(s, ctx, /*attacker=*/true, data().retreat_hexes);
}

void HexRules::BeginRetreats(State& s, Context&, bool attacker, int hexes) const {
  PendingCombat& c = s.combat;
  c.retreat_hexes = static_cast<int16_t>(hexes);
  const int n = attacker ? c.num_attackers : c.num_defenders;
  for (int i = 0; i < n; ++i) {
    const UnitId u = attacker ? c.attackers[i] : c.defenders[i];
    if (s.unit(u).OnMap()) s.unit(u).flags |= kUnitCoreSpare;
  }
}

void HexRules::NextCombatStep(State& s, Context& ctx) const {
  PendingCombat& c = s.combat;
  // Retreats owed: defenders first, then attackers.
  for (int pass = 0; pass < 2; ++pass) {
    const int n = pass == 0 ? c.num_defenders : c.num_attackers;
    for (int i = 0; i < n; ++i) {
      const UnitId u = pass == 0 ? c.defenders[i] : c.attackers[i];
      UnitState& us = s.unit(u);
      if (!us.Has(kUnitCoreSpare)) continue;
      if (!us.OnMap()) {
        us.flags &= static_cast<uint16_t>(~kUnitCoreSpare);
        continue;
      }
      HexScratch& hs = Hs(ctx);
      hs.actions.clear();
      RetreatPaths(s, ctx, u, c.retreat_hexes, &hs.actions);
      if (hs.actions.empty()) {
        us.flags &= static_cast<uint16_t>(~kUnitCoreSpare);
        Eliminate(s, ctx, u, data().Rule("retreat"), "cannot retreat");
        continue;
      }
      c.current = u;
      s.decision = DecisionType::kRetreat;
      s.decision_side = us.side;
      return;
    }
  }
  c.current = kNoUnit;
  // Advance after combat into a vacated defender hex.
  if (c.vacated_hex < 0 && data().advance != HexGameData::Advance::kNone) {
    for (int k = 0; k < c.num_defender_hexes; ++k) {
      const int h = c.defender_hexes[k];
      if (h >= 0 && VacatedForAdvance(s, h)) {
        bool any_attacker = false;
        for (int i = 0; i < c.num_attackers; ++i) {
          const UnitState& us = s.unit(c.attackers[i]);
          any_attacker = any_attacker || (us.OnMap() && Adjacent(us.hex, h));
        }
        if (any_attacker) {
          c.vacated_hex = static_cast<int16_t>(h);
          break;
        }
      }
    }
    if (c.vacated_hex >= 0 && c.stage == 0) {
      c.stage = 1;
      HexScratch& hs = Hs(ctx);
      hs.actions.clear();
      ListAdvances(s, ctx, &hs.actions);
      if (hs.actions.size() > 1) {
        s.decision = DecisionType::kAdvance;
        s.decision_side = s.phasing_side;
        return;
      }
    }
  }
  c.active = 0;
  AfterCombat(s, ctx);
  if (s.game_over) return;
  s.decision = DecisionType::kCombat;
  s.decision_side = s.phasing_side;
}

void HexRules::BeginAdvance(State& s, Context& ctx) const { NextCombatStep(s, ctx); }

Status HexRules::CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n) const {
  const UnitState& us = s.unit(u);
  const int hexes = s.combat.retreat_hexes;
  if (n != hexes) {
    return Status::Refused(data().Rule("retreat"), "a retreat is exactly " + std::to_string(hexes) + " hexes");
  }
  const ZocField& zoc = EnemyZoc(s, ctx, us.side);
  const auto& kinds = game_.kinds;
  const int cls = kinds[static_cast<size_t>(game_.units[static_cast<size_t>(u)].kind)].movement_class;
  int prev = us.hex;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    const int dir = DirectionTo(game_.map.grid.HexAt(prev), game_.map.grid.HexAt(h));
    if (h < 0 || dir < 0) return Status::Refused(data().Rule("retreat"), "retreat hexes must be adjacent");
    std::string why;
    if (StepCost(game_.map, data().movement, cls, prev, dir, &why) == kProhibitedCost) {
      return Status::Refused(data().Rule("retreat"), "cannot retreat there: " + why);
    }
    if (EnemyIn(s, h, us.side) && !Overrunnable(s, h, us.side)) {
      return Status::Refused(data().Rule("retreat"), "cannot retreat into an enemy-occupied hex " + game_.HexLabel(h));
    }
    if (!data().retreat_through_ezoc && zoc.InEzoc(h)) {
      return Status::Refused(data().Rule("retreat"), "cannot retreat into an enemy zone of control (" + game_.HexLabel(h) + ")");
    }
    if (DistanceBetween(us.hex, h) != i + 1) {
      return Status::Refused(data().Rule("retreat"), "each retreat hex must be farther from the start");
    }
    prev = h;
  }
  if (data().stacking_check == HexGameData::StackingCheck::kRefuse &&
      StackingCount(s, path[n - 1], us.side) + (CountsForStacking(s, u) ? 1 : 0) > game_.stacking.limit) {
    return Status::Refused(data().Rule("stacking"), "retreat would overstack " + game_.HexLabel(path[n - 1]));
  }
  return Status::Ok();
}

void HexRules::RetreatPaths(const State& s, Context& ctx, UnitId u, int hexes, std::vector<Action>* out) const {
  if (u < 0 || hexes <= 0 || hexes > 3) return;
  const auto& grid = game_.map.grid;
  int16_t path[3];
  // Depth-first over paths of exactly `hexes` steps moving away each step.
  auto dfs = [&](auto& self, int from, int depth) -> void {
    if (depth == hexes) {
      if (CheckRetreat(s, ctx, u, path, hexes).ok()) {
        Action a = Action::Of(ActionType::kRetreat);
        a.AddUnit(u);
        for (int i = 0; i < hexes; ++i) a.AddHex(path[i]);
        out->push_back(a);
      }
      return;
    }
    if (depth >= 3) return;  // never: hexes <= 3 (tells the compiler path[] is large enough)
    for (int d = 0; d < 6; ++d) {
      const int nb = grid.NeighborIndex(from, d);
      if (nb < 0 || DistanceBetween(s.unit(u).hex, nb) != depth + 1) continue;
      path[depth] = static_cast<int16_t>(nb);
      self(self, nb, depth + 1);
    }
  };
  dfs(dfs, s.unit(u).hex, 0);
}

Status HexRules::ApplyRetreat(State& s, const Action& a, Context& ctx) const {
  const UnitId u = s.combat.current;
  if (a.num_units != 1 || a.units[0] != u) {
    return Status::Refused(data().Rule("retreat"), "the retreating unit is " + game_.UnitLabel(u));
  }
  Status st = CheckRetreat(s, ctx, u, a.hexes.data(), a.num_hexes);
  if (!st.ok()) return st;
  for (int i = 0; i < a.num_hexes; ++i) {
    const int h = a.hexes[static_cast<size_t>(i)];
    if (EnemyIn(s, h, s.unit(u).side)) OnOverrun(s, ctx, h, s.unit(u).side);
  }
  MoveUnit(s, ctx, u, a.hexes[static_cast<size_t>(a.num_hexes - 1)], EventType::kRetreat, data().Rule("retreat"));
  s.unit(u).flags &= static_cast<uint16_t>(~kUnitCoreSpare);
  NextCombatStep(s, ctx);
  return Status::Ok();
}

Status HexRules::ApplyAdvance(State& s, const Action& a, Context& ctx) const {
  PendingCombat& c = s.combat;
  const int h = c.vacated_hex;
  int limit = game_.stacking.limit;
  if (data().advance == HexGameData::Advance::kOne) limit = 1;
  int counted = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    bool attacker = false;
    for (int k = 0; k < c.num_attackers; ++k) attacker = attacker || c.attackers[k] == u;
    if (!attacker) return Status::Refused(data().Rule("advance"), game_.UnitLabel(u) + " did not take part in this attack");
    const UnitState& us = s.unit(u);
    if (!us.OnMap() || !Adjacent(us.hex, h)) return Status::Refused(data().Rule("advance"), game_.UnitLabel(u) + " is not adjacent to the vacated hex");
    if (data().artillery_kind >= 0 && game_.units[static_cast<size_t>(u)].kind == data().artillery_kind) {
      return Status::Refused(data().Rule("advance"), "artillery may not advance after combat");
    }
    if (CountsForStacking(s, u)) ++counted;
  }
  if (counted > limit) return Status::Refused(data().Rule("advance"), "at most " + std::to_string(limit) + " units may advance");
  if (a.num_units > 0 && EnemyIn(s, h, s.phasing_side)) OnOverrun(s, ctx, h, s.phasing_side);
  for (int i = 0; i < a.num_units; ++i) {
    TouchHex(s, ctx, h, s.unit(a.units[static_cast<size_t>(i)]).side);
    MoveUnit(s, ctx, a.units[static_cast<size_t>(i)], h, EventType::kAdvance, data().Rule("advance"));
  }
  c.stage = 2;
  NextCombatStep(s, ctx);
  return Status::Ok();
}

Status HexRules::EndCombatPhase(State& s, Context& ctx) const {
  if (!data().mandatory) return Status::Ok();
  if (data().obligations) return DutiesMet(s, ctx);
  const int side = s.phasing_side;
  const auto& grid = game_.map.grid;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (!us.OnMap()) continue;
    if (us.side == side && !us.Has(kUnitAttacked) && MustAttack(s, ctx, u)) {
      // Only if it still has an enemy it may attack.
      for (int d = 0; d < 6; ++d) {
        const int nb = grid.NeighborIndex(us.hex, d);
        if (nb < 0) continue;
        for (int j = 0; j < s.num_units; ++j) {
          const UnitState& e = s.units[static_cast<size_t>(j)];
          if (e.hex == nb && e.side != side && !e.Has(kUnitDefended)) {
            return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " is in an enemy zone of control and must attack");
          }
        }
      }
    }
    if (us.side != side && !us.Has(kUnitDefended) && MustBeAttacked(s, ctx, u)) {
      for (int d = 0; d < 6; ++d) {
        const int nb = grid.NeighborIndex(us.hex, d);
        if (nb < 0) continue;
        for (int j = 0; j < s.num_units; ++j) {
          const UnitState& f = s.units[static_cast<size_t>(j)];
          if (f.hex == nb && f.side == side && !f.Has(kUnitAttacked) && AttackStrength(s, static_cast<UnitId>(j)) > 0) {
            return Status::Refused(data().Rule("combat"), game_.UnitLabel(u) + " is in a friendly zone of control and must be attacked");
          }
        }
      }
    }
  }
  return Status::Ok();
}

void HexRules::EnforceStacking(State& s, Context& ctx, int side, const char* rule) const {
  // The side's units per hex (counted or not: an upper bound of StackingCount), so
  // only hexes that might be over the limit are counted; recounted after each
  // elimination (its hook may change the position).
  std::vector<uint16_t> units(static_cast<size_t>(game_.map.size()), 0);
  auto recount = [&] {
    std::fill(units.begin(), units.end(), 0);
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.side == side && u.hex >= 0 && u.hex < game_.map.size()) ++units[static_cast<size_t>(u.hex)];
    }
  };
  recount();
  for (int h = 0; h < game_.map.size(); ++h) {
    if (static_cast<int>(units[static_cast<size_t>(h)]) <= game_.stacking.limit) continue;
    while (StackingCount(s, h, side) > game_.stacking.limit) {
      // Eliminate the excess: untrained units first, then the weakest.
      int pick = -1;
      for (int i = 0; i < s.num_units; ++i) {
        const UnitId u = static_cast<UnitId>(i);
        const UnitState& us = s.unit(u);
        if (us.hex != h || us.side != side || !CountsForStacking(s, u)) continue;
        if (pick < 0) {
          pick = i;
          continue;
        }
        const UnitId p = static_cast<UnitId>(pick);
        const bool ut = !game_.units[static_cast<size_t>(i)].trained, pt = !game_.units[static_cast<size_t>(pick)].trained;
        if (ut != pt ? ut : DefenseStrength(s, u) < DefenseStrength(s, p)) pick = i;
      }
      if (pick < 0) break;
      Eliminate(s, ctx, static_cast<UnitId>(pick), rule, "over the stacking limit");
      recount();
    }
  }
}

// --- Invariants --------------------------------------------------------------------------

void HexRules::CheckInvariants(const State& s, ErrorList* out) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex >= game_.map.size()) out->Add(Error{"", 0, 0, "", game_.UnitLabel(static_cast<UnitId>(i)) + " is off the grid", "invariant"});
    if (!u.OnMap()) continue;
    for (int j = i + 1; j < s.num_units; ++j) {
      const UnitState& v = s.units[static_cast<size_t>(j)];
      if (v.hex == u.hex && v.side != u.side) {
        out->Add(Error{"", 0, 0, "", "units of both sides in " + game_.HexLabel(u.hex), "invariant"});
      }
    }
  }
  for (int side = 0; side < 2; ++side) {
    int sum = 0;
    for (int t = 0; t < kMaxTurns; ++t) sum += s.vp_by_turn[side][t];
    if (sum != s.vp[side]) out->Add(Error{"", 0, 0, "", "VP ledger does not add up", "invariant"});
  }
  // Stacking of the side that cannot move, during the other's movement phase.
  if (s.decision == DecisionType::kMovement) {
    const int other = 1 - s.phasing_side;
    for (int h = 0; h < game_.map.size(); ++h) {
      if (StackingCount(s, h, other) > game_.stacking.limit) {
        out->Add(Error{"", 0, 0, "", "over the stacking limit in " + game_.HexLabel(h), "invariant"});
      }
    }
  }
}

}  // namespace wg
