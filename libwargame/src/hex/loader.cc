// Loading the hex engine's sections of a ruleset (hex_rules.h: LoadHexGameData, LoadHexGame).
#include <algorithm>
#include <cstring>

#include "internal.h"
#include "wargame/hex_rules.h"
#include "wargame/registry.h"

namespace wg {

namespace {

const std::vector<std::string> kHexSections = {"movement", "zoc", "los", "crt", "tables", "combat", "rule_numbers"};

MoveRuleLabels LabelsFrom(const HexGameData& d) {
  MoveRuleLabels l;
  l.adjacency = d.Rule(RuleKey::kMovement);
  l.prohibited = d.Rule(RuleKey::kTerrain);
  l.enemy = d.Rule(RuleKey::kEnemyHex);
  l.zoc_stop = d.Rule(RuleKey::kZoc);
  l.zoc_leave = d.Rule(RuleKey::kZocLeave);
  l.infiltration = d.Rule(RuleKey::kInfiltration);
  l.allowance = d.Rule(RuleKey::kAllowance);
  l.stacking = d.Rule(RuleKey::kStacking);
  l.entry = d.Rule(RuleKey::kReinforcements);
  return l;
}

}  // namespace

// --- Loading ----------------------------------------------------------------------

namespace {

// Runs the loader of one section. Section loaders record their errors in the
// section's reader, where doc.Errors() collects them, and return a copy: only
// the value is taken here, so every error is reported once.
template <typename T, typename Load>
void LoadSection(RulesetDocument& doc, const char* key, bool required, T* out, Load&& load) {
  if (!doc.Has(key)) {
    // Recorded in the reader: doc.Errors() reports it.
    if (required) doc.readers.front()->Fail(doc.readers.front()->root(), key, "missing required section");
    return;
  }
  auto result = load(*doc.ReaderFor(key), doc.Section(key), std::string(key));
  if (result.ok()) *out = std::move(result.value());
}

void LoadZoc(RulesetDocument& doc, const Game& game, HexGameData* data) {
  if (!doc.Has("zoc")) return;
  YamlReader& r = *doc.ReaderFor("zoc");
  const YAML::Node n = doc.Section("zoc");
  if (!r.CheckKeys(n, "zoc", {"blocked_by", "unblocked_by", "not_into", "stop_on_entry",
                              "leave_only_if_started", "leave_cost", "no_infiltration", "rigid"})) {
    return;
  }
  auto features = [&](const char* key) {
    FeatureMask m = 0;
    if (!n[key]) return m;
    for (const auto& f : r.StringList(n[key], YamlReader::Child("zoc", key))) {
      const int id = game.hex_board().map.FeatureId(f);
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
      const int id = game.hex_board().map.TerrainId(t);
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

void LoadCombatSection(RulesetDocument& doc, const Game& game, HexGameData* data) {
  YamlReader& r = *doc.ReaderFor("combat");
  const YAML::Node n = doc.Section("combat");
  auto attr = [&](const char* key, const char* fallback) {
    const std::string name = n ? r.OptionalString(n, "combat", key, fallback) : fallback;
    const int idx = game.AttributeIndex(name);
    if (idx < 0) {
      r.Fail(n ? n : r.root(), YamlReader::Child("combat", key), "unknown attribute \"" + name + "\"");
    }
    return idx;
  };
  if (n) {
    r.CheckKeys(n, "combat", {"attack", "defense", "movement", "mandatory", "obligations", "retreat_hexes",
                              "retreat_through_ezoc", "advance", "stacking_check", "stacking_untrained_first", "control_kinds",
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
    data->stacking_untrained_first = r.OptionalBool(n, "combat", "stacking_untrained_first", false);
    if (n["control_kinds"]) data->control_kinds = r.StringList(n["control_kinds"], "combat.control_kinds");
    if (n["artillery_kind"]) {
      const std::string k = r.String(n["artillery_kind"], "combat.artillery_kind").value_or("");
      data->artillery_kind = game.KindIndex(k);
      if (data->artillery_kind < 0) r.Fail(n["artillery_kind"], "combat.artillery_kind", "unknown kind \"" + k + "\"");
    }
    data->artillery_range = r.OptionalInt(n, "combat", "artillery_range", 0);
  }
}

void LoadRuleNumbers(RulesetDocument& doc, HexGameData* data) {
  for (const char* k : kRuleKeys) YamlReader::AcceptKey("rule_numbers", k);
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
  // The map's nodes stay put (it is not changed after this), so the pointers hold.
  for (size_t i = 0; i < kNumRuleKeys; ++i) data->rule_text[i] = data->Rule(kRuleKeys[i]);
}

}  // namespace

ErrorList LoadHexGameData(RulesetDocument& doc, Game* game) {
  ErrorList errors;
  auto data = std::make_shared<HexGameData>();
  const MapVocabulary& vocab = game->hex_board().map.vocabulary;
  LoadSection(doc, "movement", /*required=*/true, &data->movement,
              [&](YamlReader& r, const YAML::Node& n, const std::string& p) { return LoadMovementRules(r, n, p, vocab); });
  LoadZoc(doc, *game, data.get());
  LoadSection(doc, "los", /*required=*/false, &data->los_rules,
              [&](YamlReader& r, const YAML::Node& n, const std::string& p) { return LoadLosRules(r, n, p, vocab); });
  LoadSection(doc, "crt", /*required=*/true, &data->crt, LoadCombatTable);
  LoadSection(doc, "tables", /*required=*/false, &data->tables, LoadDieTables);
  LoadCombatSection(doc, *game, data.get());
  data->phase_movement = game->turns.PhaseIndex("movement");
  data->phase_combat = game->turns.PhaseIndex("combat");
  LoadRuleNumbers(doc, data.get());
  data->move_labels = LabelsFrom(*data);
  errors.Append(doc.Errors());
  if (!errors.ok()) return errors;
  // Kinds' movement classes must exist in the movement rules.
  const YAML::Node kinds = doc.Section("kinds");
  for (size_t i = 0; i < game->kinds.size(); ++i) {
    if (game->kinds[i].movement_class < data->movement.num_classes()) continue;
    YamlReader& r = *doc.ReaderFor("kinds");
    r.Fail(kinds.IsSequence() && i < kinds.size() ? kinds[i] : kinds, YamlReader::Item("kinds", i),
           "kind \"" + game->kinds[i].id + "\" has no movement class");
    errors.Append(r.ErrorsSince(r.errors().size() - 1));
  }
  data->los = std::make_unique<LineOfSight>(game->hex_board().map, data->los_rules);
  // The step-cost tables, built once here: every scratch copies them.
  if (errors.ok()) data->pathfinder_prototype = std::make_unique<Pathfinder>(game->hex_board().map, data->movement);
  game->data = data;
  return errors;
}

namespace {

// --- The hex engine's sections among the generic ones (game_loader.h: BoardSections):
// `terrain:` (the map's vocabulary), `stacking:`, `map:`.

// `*ok` is false when the vocabulary has errors (the map is then not read).
MapVocabulary LoadTerrainVocabulary(RulesetDocument& doc, bool* ok) {
  MapVocabulary vocab;
  YamlReader& r = *doc.ReaderFor("terrain");
  const size_t before = r.errors().size();
  const YAML::Node n = doc.Section("terrain");
  if (!n) {
    r.Fail(r.root(), "terrain", "missing required section");
  } else if (r.CheckKeys(n, "terrain", {"types", "features", "directed", "paths", "place_kinds", "default"})) {
    vocab.terrain = r.StringList(n["types"], "terrain.types");
    vocab.features = r.StringList(n["features"], "terrain.features");
    vocab.directed = r.StringList(n["directed"], "terrain.directed");
    vocab.paths = r.StringList(n["paths"], "terrain.paths");
    vocab.place_kinds = r.StringList(n["place_kinds"], "terrain.place_kinds");
    vocab.default_terrain = r.OptionalString(n, "terrain", "default", vocab.terrain.empty() ? "" : vocab.terrain[0]);
    if (vocab.terrain.size() > static_cast<size_t>(kMaxTerrainTypes)) {
      r.Fail(n["types"], "terrain.types", "at most " + std::to_string(kMaxTerrainTypes) + " terrain types");
    }
    if (vocab.features.size() > static_cast<size_t>(kMaxFeatureTypes)) {
      r.Fail(n["features"], "terrain.features", "at most " + std::to_string(kMaxFeatureTypes) + " features");
    }
    if (const YAML::Node d = n["default"];
        d && std::find(vocab.terrain.begin(), vocab.terrain.end(), vocab.default_terrain) == vocab.terrain.end()) {
      r.Fail(d, "terrain.default", "\"" + vocab.default_terrain + "\" is not one of terrain.types");
    }
  }
  *ok = r.errors().size() == before;
  return vocab;
}

void LoadStacking(RulesetDocument& doc, Game* game) {
  if (!doc.Has("stacking")) return;
  YamlReader& r = *doc.ReaderFor("stacking");
  const YAML::Node n = doc.Section("stacking");
  if (r.CheckKeys(n, "stacking", {"limit"})) {
    MutableHexBoard(*game).stacking.limit = r.OptionalInt(n, "stacking", "limit", 2, 0, kMaxUnits);
  }
}

void LoadMapSection(RulesetDocument& doc, const MapVocabulary& vocab, Game* game, ErrorList* errors) {
  YamlReader& r = *doc.ReaderFor("map");
  if (!doc.Has("map")) {
    r.Fail(r.root(), "map",
           "missing required section (in ruleset.yaml or the scenario; a scenario file of your own names "
           "the map, or `extends:` a scenario that does)");
  } else if (auto name = r.String(doc.Section("map"), "map")) {
    auto map = LoadMap(doc.FileFor("map", *name), &vocab);
    if (map.ok()) {
      MutableHexBoard(*game).map = std::move(map.value());
    } else {
      errors->Append(map.errors());
    }
  }
}

class HexSections final : public BoardSections {
 public:
  void ReadVocabulary(RulesetDocument& doc) override { vocab_ = LoadTerrainVocabulary(doc, &vocab_ok_); }
  void ReadLimits(RulesetDocument& doc, Game* game) override { LoadStacking(doc, game); }
  void ReadBoard(RulesetDocument& doc, Game* game, ErrorList* errors) override {
    if (vocab_ok_) LoadMapSection(doc, vocab_, game, errors);
  }

 private:
  bool vocab_ok_ = true;
  MapVocabulary vocab_;
};

// The side not moving first starts within the stacking limit, counted by the
// rules' own predicate (HexQueries::StackingCountOf: what play counts, optional
// rules included, e.g. Stars and Bars 12.2's battery stacking free with its
// brigade). The side to move first may start over the limit: its own stacking
// checkpoint resolves it (as the invariant allows during its movement).
void CheckHexStartStacking(RulesetDocument& doc, const Game& game, ErrorList* errors) {
  const HexQueries* hq = game.rules ? game.rules->hex() : nullptr;
  if (hq == nullptr || game.hex_board().map.size() <= 0) return;
  CheckStartStacking(
      doc, game, game.hex_board().stacking.limit,
      [hq](const State& s, int hex, int side) { return hq->StackingCountOf(s, hex, side); }, errors);
}

// A data-only ruleset plays on HexRules::ApplyCombatResult: any CRT token it
// does not apply (the standard AE, AR, DE, DR and the codes its crt.effects
// declares) would silently do nothing, so it is an error at load.
void CheckDefaultResultCodes(RulesetDocument& doc, ErrorList* errors) {
  if (!doc.Has("crt")) return;
  const YAML::Node crt = doc.Section("crt");
  std::vector<std::string> codes;  // the declared codes (the rules below view them)
  const YAML::Node effects = YamlReader::Get(crt, "effects");
  if (effects.IsMap()) {
    for (const auto& kv : effects) {
      if (kv.first.IsScalar()) codes.push_back(kv.first.Scalar());
    }
  }
  std::vector<CrtTokenRule> tokens(kStandardCrtTokens.tokens.begin(), kStandardCrtTokens.tokens.end());
  for (const std::string& c : codes) tokens.push_back(CrtTokenRule{c, true, true, true, false});
  const CrtTokenSet set{"the standard hex rules", tokens, /*takes_effects=*/true};
  CheckCrtTokens(*doc.ReaderFor("crt"), crt, "crt", set);
  (void)errors;  // recorded in the document's reader, which LoadHexGame reports
}

}  // namespace

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
  HexSections board;
  ErrorList errors = LoadGenericSections(**doc, game.get(), &board);
  if (!errors.ok()) return errors;
  errors = LoadHexGameData(**doc, game.get());
  if (!errors.ok()) return errors;
  game->rules = make_rules(*game, **doc, &errors);
  if (game->rules) game->rules->FinishSteps();
  RecordDataRules(**doc, game.get());  // the keys read, the ruleset's own included
  errors.Append((*doc)->Errors());
  if (!errors.ok()) return errors;
  // A builder that refuses says why (its errors, reported once); one that returns
  // no rules and no error is a fault of its hooks, reported here, never played.
  if (!game->rules) return NoRulesError(params.ruleset);
  CheckHexStartStacking(**doc, *game, &errors);  // the rules' stacking predicate (Stars and Bars 12.2)
  if (!errors.ok()) return errors;
  return std::shared_ptr<const Game>(std::move(game));
}

// A data-only ruleset (registry.h) plays on the standard hex-game flow, set before
// main. Every program that links the hex engine keeps this definition, and so the
// setting, whether or not it calls LoadHexGame itself: wargame_hex's link option
// --undefined=wg_hex_data_only_rulesets (libwargame/CMakeLists.txt).
extern "C" {
bool wg_hex_data_only_rulesets = SetDataOnlyRulesetLoader([](const std::string& folder, const GameParams& params) {
  return LoadHexGame(folder, params, {},
                     [](const Game& g, RulesetDocument& doc, ErrorList* errors) -> std::unique_ptr<Rules> {
                       CheckDefaultResultCodes(doc, errors);
                       return std::make_unique<HexRules>(g);
                     });
});
}

}  // namespace wg
