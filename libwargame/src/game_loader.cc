#include "wargame/game_loader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "wargame/state.h"
#include "wargame/rule_index.h"

namespace wg {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kGenericKeys = {
    "name",    "title",   "provenance", "sides",     "kinds",   "attributes", "markers",
    "optional_rules", "choices", "terrain", "stacking", "turns",   "victory", "map",        "units",
    "scenarios", "default_scenario", "extends", "start", "place", "only_placed"};

std::string DirOf(const std::string& file) { return fs::path(file).parent_path().string(); }

std::string Join(const std::string& dir, const std::string& name) {
  if (name.empty() || name[0] == '/') return name;
  return (fs::path(dir) / name).lexically_normal().string();
}

// Adds the top-level sections of one file to the document (later files win).
bool AddFile(RulesetDocument& doc, const std::string& path, const std::vector<std::string>& allowed,
             int depth) {
  auto reader = std::make_unique<YamlReader>(YamlReader::FromFile(path));
  YamlReader* r = reader.get();
  doc.readers.push_back(std::move(reader));
  const size_t index = doc.readers.size() - 1;
  if (!r->ok()) return false;
  const YAML::Node root = r->root();
  if (!r->ExpectMap(root, "")) return false;
  // A scenario may extend another scenario file: load that first.
  if (root["extends"]) {
    if (depth > 8) {
      r->Fail(root["extends"], "extends", "scenarios extend each other too deeply");
      return false;
    }
    if (auto base = r->String(root["extends"], "extends")) {
      if (!AddFile(doc, Join(DirOf(path), *base), allowed, depth + 1)) return false;
    }
  }
  for (const auto& a : kGenericKeys) YamlReader::AcceptKey("", a);
  for (const auto& a : allowed) YamlReader::AcceptKey("", a);
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    bool ok = false;
    for (const auto& a : kGenericKeys) ok = ok || a == key;
    for (const auto& a : allowed) ok = ok || a == key;
    if (!ok) {
      std::string list;
      for (const auto& a : kGenericKeys) list += (list.empty() ? "" : ", ") + a;
      for (const auto& a : allowed) list += ", " + a;
      r->Fail(kv.first, key, "unknown section (expected one of: " + list + ")");
      continue;
    }
    if (key == "extends") continue;
    doc.sections_[key] = RulesetDocument::Entry{kv.second, index};
  }
  return true;
}

}  // namespace

YAML::Node RulesetDocument::Section(const std::string& key) const {
  auto it = sections_.find(key);
  return it == sections_.end() ? YAML::Node() : it->second.node;
}

YamlReader* RulesetDocument::ReaderFor(const std::string& key) {
  auto it = sections_.find(key);
  return it == sections_.end() ? readers.front().get() : readers[it->second.reader].get();
}

std::string RulesetDocument::DirFor(const std::string& key) const {
  auto it = sections_.find(key);
  const YamlReader& r = *(it == sections_.end() ? readers.front() : readers[it->second.reader]);
  return DirOf(r.file());
}

std::string RulesetDocument::FileFor(const std::string& key, const std::string& name) const {
  return Join(DirFor(key), name);
}

ErrorList RulesetDocument::Errors() const {
  ErrorList all;
  for (const auto& r : readers) all.Append(r->errors());
  return all;
}

std::string RulesetsRoot() {
  if (const char* env = std::getenv("WARGAME_RULESETS"); env && *env) return env;
#ifdef WG_RULESETS_SOURCE_DIR
  if (std::error_code ec; fs::exists(WG_RULESETS_SOURCE_DIR, ec)) return WG_RULESETS_SOURCE_DIR;
#endif
#ifdef WG_RULESETS_INSTALL_DIR
  return WG_RULESETS_INSTALL_DIR;
#else
  return "rulesets";
#endif
}

Result<std::unique_ptr<RulesetDocument>> LoadRulesetDocument(const std::string& folder,
                                                             const std::string& scenario,
                                                             const std::vector<std::string>& extra) {
  auto doc = std::make_unique<RulesetDocument>();
  const std::string main = Join(folder, "ruleset.yaml");
  AddFile(*doc, main, extra, 0);
  if (!doc->Errors().ok()) return doc->Errors();
  // Resolve the scenario: a name listed under `scenarios:`, else a file path.
  std::string name = scenario;
  if (name.empty() && doc->Has("default_scenario")) {
    name = doc->ReaderFor("default_scenario")->String(doc->Section("default_scenario"), "default_scenario").value_or("");
    if (!doc->Errors().ok()) return doc->Errors();
  }
  if (!name.empty()) {
    std::string file;
    const YAML::Node list = doc->Section("scenarios");
    if (list && list.IsMap() && list[name]) {
      const auto entry = doc->ReaderFor("scenarios")->String(list[name], YamlReader::Child("scenarios", name));
      if (!entry) return doc->Errors();
      file = Join(folder, *entry);
    } else if (std::error_code ec; fs::exists(name, ec)) {
      file = name;
    } else {
      std::string known;
      if (list && list.IsMap()) {
        for (const auto& kv : list) known += (known.empty() ? "" : ", ") + kv.first.Scalar();
      }
      // At the default_scenario that names it, else at the list it is missing from.
      const bool by_default = scenario.empty();
      YamlReader& r = *doc->ReaderFor(by_default ? "default_scenario" : "scenarios");
      r.Fail(by_default ? doc->Section("default_scenario") : (list ? list : r.root()),
             by_default ? "default_scenario" : "scenarios",
             "unknown scenario \"" + name + "\" (known: " + known + "; or give a file path)");
      return doc->Errors();
    }
    AddFile(*doc, file, extra, 0);
    if (!doc->Errors().ok()) return doc->Errors();
  }
  return doc;
}

namespace {

// A map marker -> count (units.yaml `markers`, a placement's `markers`).
void ReadMarkerCounts(YamlReader& r, const Game& game, const YAML::Node& m, const std::string& mp,
                      uint8_t* out) {
  if (!r.ExpectMap(m, mp)) return;
  for (const auto& kv : m) {
    const int idx = game.MarkerIndex(kv.first.Scalar());
    if (idx < 0) {
      r.Fail(kv.first, YamlReader::Child(mp, kv.first.Scalar()), "unknown marker");
      continue;
    }
    out[idx] = static_cast<uint8_t>(r.Int(kv.second, YamlReader::Child(mp, kv.first.Scalar()), 0, UINT8_MAX).value_or(0));
  }
}

void ReadFormations(YamlReader& r, const YAML::Node& f, Game* game) {
  if (!r.ExpectSequence(f, "formations")) return;
  for (size_t i = 0; i < f.size(); ++i) {
    const std::string p = YamlReader::Item("formations", i);
    if (!r.CheckKeys(f[i], p, {"id", "name", "side", "corps", "hq"})) continue;
    Formation fm;
    fm.id = r.RequiredString(f[i], p, "id").value_or("");
    fm.name = r.OptionalString(f[i], p, "name", fm.id);
    fm.corps = r.OptionalString(f[i], p, "corps", "");
    fm.hq = r.OptionalString(f[i], p, "hq", "");
    const std::string side = r.RequiredString(f[i], p, "side").value_or("");
    fm.side = game->SideIndex(side);
    if (fm.side < 0) r.Fail(f[i]["side"], YamlReader::Child(p, "side"), "unknown side \"" + side + "\"");
    if (game->FormationIndex(fm.id) >= 0) {
      r.Fail(f[i]["id"], YamlReader::Child(p, "id"), "duplicate formation id \"" + fm.id + "\"");
    }
    game->formations.push_back(fm);
  }
}

// A unit's `values` or `back`: attribute -> value. False when absent or not a map.
bool ReadUnitValues(YamlReader& r, const Game& game, const YAML::Node& n, const std::string& p, const char* key,
                    int16_t* out) {
  const YAML::Node v = n[key];
  if (!v) return false;
  const std::string vp = YamlReader::Child(p, key);
  if (!r.ExpectMap(v, vp)) return false;
  for (const auto& kv : v) {
    const std::string a = kv.first.Scalar();
    const int idx = game.AttributeIndex(a);
    if (idx < 0) {
      r.Fail(kv.first, YamlReader::Child(vp, a), "unknown attribute \"" + a + "\"");
      continue;
    }
    if (auto x = r.Int(kv.second, YamlReader::Child(vp, a), 0, INT16_MAX)) out[idx] = static_cast<int16_t>(*x);
  }
  return true;
}

// The unit's id, name, side, kind, size, values and back.
void ReadUnitIdentity(YamlReader& r, const Game& game, const YAML::Node& n, const std::string& p, UnitDef* u) {
  u->id = r.RequiredString(n, p, "id").value_or("");
  u->name = r.OptionalString(n, p, "name", u->id);
  if (game.UnitIndex(u->id) >= 0) {
    r.Fail(n["id"], YamlReader::Child(p, "id"), "duplicate unit id \"" + u->id + "\"");
  }
  const std::string side = r.RequiredString(n, p, "side").value_or("");
  u->side = game.SideIndex(side);
  if (u->side < 0 && n["side"]) r.Fail(n["side"], YamlReader::Child(p, "side"), "unknown side \"" + side + "\"");
  const std::string kind = r.RequiredString(n, p, "kind").value_or("");
  u->kind = game.KindIndex(kind);
  if (u->kind < 0 && n["kind"]) r.Fail(n["kind"], YamlReader::Child(p, "kind"), "unknown kind \"" + kind + "\"");
  u->size = r.OptionalString(n, p, "size", "");
  if (!ReadUnitValues(r, game, n, p, "values", u->front)) {
    if (!n["values"]) r.Fail(n, YamlReader::Child(p, "values"), "missing required key");
  }
  u->has_back = ReadUnitValues(r, game, n, p, "back", u->back);
  u->trained = r.OptionalBool(n, p, "trained", true);
  u->corps = r.OptionalString(n, p, "corps", "");
}

// parent, setup, face and release.
void ReadUnitPlacement(YamlReader& r, const Game& game, const YAML::Node& n, const std::string& p, UnitDef* u) {
  if (n["parent"]) {
    const std::string parent = r.String(n["parent"], YamlReader::Child(p, "parent")).value_or("");
    u->formation = game.FormationIndex(parent);
    if (u->formation < 0) {
      r.Fail(n["parent"], YamlReader::Child(p, "parent"), "unknown formation \"" + parent + "\"");
    }
  }
  if (n["setup"]) {
    const std::string label = r.String(n["setup"], YamlReader::Child(p, "setup")).value_or("");
    u->setup_hex = game.PositionIndex(label);
    if (u->setup_hex < 0) {
      r.Fail(n["setup"], YamlReader::Child(p, "setup"), "hex \"" + label + "\" is not on the map");
    }
  }
  const std::string face = r.OptionalString(n, p, "face", "front");
  if (face == "back") {
    u->face = 1;
  } else if (face != "front") {
    r.Fail(n["face"], YamlReader::Child(p, "face"), "expected front or back");
  }
  u->release_turn = r.OptionalInt(n, p, "release", 0, 0, kMaxTurns);
}

// `reinforcement: {turn, entry}`. False when the map's keys are wrong (the unit is kept as read so far).
bool ReadReinforcement(YamlReader& r, const Game& game, const YAML::Node& re, const std::string& rp, UnitDef* u) {
  if (!r.CheckKeys(re, rp, {"turn", "entry"})) return false;
  u->reinforcement_turn = r.RequiredInt(re, rp, "turn", 1, kMaxTurns).value_or(0);
  const std::string entry = r.RequiredString(re, rp, "entry").value_or("");
  for (size_t k = 0; k < game.places().size(); ++k) {
    if (game.places()[k].name == entry) u->entry_place = static_cast<int>(k);
  }
  if (u->entry_place < 0 && re["entry"]) {
    r.Fail(re["entry"], YamlReader::Child(rp, "entry"), "no place named \"" + entry + "\" on the map");
  }
  if (u->setup_hex >= 0) r.Fail(re, rp, "a unit with a set-up hex cannot also be a reinforcement");
  return true;
}

void ReadUnit(YamlReader& r, const YAML::Node& n, const std::string& p, Game* game) {
  if (!r.CheckKeys(n, p, {"id", "name", "side", "kind", "size", "values", "back", "trained", "corps",
                          "parent", "setup", "face", "release", "reinforcement", "markers", "optional"})) {
    return;
  }
  UnitDef u;
  ReadUnitIdentity(r, *game, n, p, &u);
  ReadUnitPlacement(r, *game, n, p, &u);
  if (const YAML::Node re = n["reinforcement"]) {
    if (!ReadReinforcement(r, *game, re, YamlReader::Child(p, "reinforcement"), &u)) {
      game->units.push_back(u);
      return;
    }
  }
  if (const YAML::Node m = n["markers"]) ReadMarkerCounts(r, *game, m, YamlReader::Child(p, "markers"), u.markers);
  u.optional_rule = r.OptionalString(n, p, "optional", "");
  if (!u.optional_rule.empty()) {
    bool known = false;
    for (const auto& o : game->optional_rules) known = known || o.id == u.optional_rule;
    if (!known) r.Fail(n["optional"], YamlReader::Child(p, "optional"), "unknown optional rule \"" + u.optional_rule + "\"");
  }
  game->units.push_back(u);
}

void LoadUnits(RulesetDocument& doc, Game* game, ErrorList* errors) {
  if (!doc.Has("units")) return;
  const auto name = doc.ReaderFor("units")->String(doc.Section("units"), "units");
  if (!name) {
    errors->Append(doc.Errors());
    return;
  }
  YamlReader r = YamlReader::FromFile(doc.FileFor("units", *name));
  if (!r.ok()) {
    errors->Append(r.errors());
    return;
  }
  const YAML::Node root = r.root();
  if (!r.CheckKeys(root, "", {"provenance", "formations", "units"})) {
    errors->Append(r.errors());
    return;
  }
  if (const YAML::Node f = root["formations"]) ReadFormations(r, f, game);
  const YAML::Node units = root["units"];
  if (!units) {
    r.Fail(root, "units", "missing required key");
  } else if (r.ExpectSequence(units, "units")) {
    for (size_t i = 0; i < units.size(); ++i) ReadUnit(r, units[i], YamlReader::Item("units", i), game);
  }
  if (game->units.size() > static_cast<size_t>(kMaxUnits)) {
    r.Fail(units, "units", "too many units (at most " + std::to_string(kMaxUnits) + ")");
  }
  errors->Append(r.errors());
}

// An error at the `setup` of the unit `id` in the units file (read again: the
// reader of LoadUnits is gone by now).
void ReportAtSetup(RulesetDocument& doc, const std::string& id, const std::string& what, ErrorList* errors) {
  YamlReader r = YamlReader::FromFile(doc.FileFor("units", doc.Section("units").Scalar()));
  const YAML::Node units = YamlReader::Get(r.root(), "units");
  for (size_t i = 0; units.IsSequence() && i < units.size(); ++i) {
    const YAML::Node id_node = YamlReader::Get(units[i], "id");
    if (!id_node.IsScalar() || id_node.Scalar() != id) continue;
    const YAML::Node setup = YamlReader::Get(units[i], "setup");
    r.Fail(setup ? setup : units[i], YamlReader::Child(YamlReader::Item("units", i), "setup"), what);
    errors->Append(r.ErrorsSince(r.errors().size() - 1));
    return;
  }
  errors->Add(Error{r.file(), 0, 0, "units", what, ""});
}

// Where each unit starts by the loaded data (set-up hex, then the scenario's
// placements) and which placement put it there, to name it in an error.
struct StartHexes {
  std::vector<int> hex, placed_by;
  explicit StartHexes(const Game& game) : hex(game.units.size()), placed_by(game.units.size(), -1) {
    const size_t n = game.units.size();
    for (size_t u = 0; u < n; ++u) {
      const UnitDef& d = game.units[u];
      const bool left_out = (!d.optional_rule.empty() && !game.OptionOn(d.optional_rule)) || game.start.only_placed;
      hex[u] = left_out ? kWithdrawn : d.setup_hex >= 0 ? d.setup_hex : kNotYetEntered;
    }
    const auto& placements = game.start.placements;
    for (size_t i = 0; i < placements.size(); ++i) {
      const Placement& pl = placements[i];
      if (pl.unit < 0 || static_cast<size_t>(pl.unit) >= n || pl.hex == kUnchangedHex) continue;
      hex[static_cast<size_t>(pl.unit)] = pl.hex;
      placed_by[static_cast<size_t>(pl.unit)] = static_cast<int>(i);
    }
  }
  // Reports `what` at the last placement of `who`, else at the first one's set-up.
  void Report(RulesetDocument& doc, const Game& game, const std::vector<size_t>& who, const std::string& what,
              ErrorList* errors) const {
    YamlReader* r = doc.Has("place") ? doc.ReaderFor("place") : nullptr;
    const YAML::Node place = doc.Section("place");
    int last = -1;
    for (size_t u : who) last = std::max(last, placed_by[u]);
    if (r && last >= 0 && place.IsSequence()) {
      r->Fail(place[static_cast<size_t>(last)], YamlReader::Item("place", static_cast<size_t>(last)), what);
      errors->Append(r->ErrorsSince(r->errors().size() - 1));
    } else {
      ReportAtSetup(doc, game.units[who.front()].id, what, errors);
    }
  }
  // The units starting in each map hex.
  std::vector<std::vector<size_t>> InHex(const Game& game) const {
    std::vector<std::vector<size_t>> in_hex(static_cast<size_t>(std::max(game.num_positions(), 0)));
    for (size_t u = 0; u < hex.size(); ++u) {
      if (hex[u] >= 0 && hex[u] < game.num_positions()) in_hex[static_cast<size_t>(hex[u])].push_back(u);
    }
    return in_hex;
  }
};

// The position a scenario starts from keeps the game's invariants: no unit off
// the grid, never both sides in one hex (the stacking limit is checked once the
// rules exist: CheckStartStacking). Each error names the placement (or the
// unit's set-up hex) responsible.
void CheckStartPositions(RulesetDocument& doc, const Game& game, ErrorList* errors) {
  const StartHexes start(game);
  for (size_t u = 0; u < start.hex.size(); ++u) {
    if (start.hex[u] >= game.num_positions()) start.Report(doc, game, {u}, game.units[u].id + " is off the map", errors);
  }
  const auto in_hex = start.InHex(game);
  for (size_t h = 0; h < in_hex.size(); ++h) {
    const auto& here = in_hex[h];
    bool both = false;
    for (size_t u : here) both = both || game.units[u].side != game.units[here.front()].side;
    if (both) start.Report(doc, game, here, "units of both sides start in hex " + game.HexLabel(static_cast<int>(h)), errors);
  }
}

void LoadSides(RulesetDocument& doc, Game* game) {
  YamlReader& r = *doc.ReaderFor("sides");
  const YAML::Node n = doc.Section("sides");
  if (!n) {
    r.Fail(r.root(), "sides", "missing required section");
    return;
  }
  if (!r.ExpectSequence(n, "sides")) return;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string p = YamlReader::Item("sides", i);
    if (!r.CheckKeys(n[i], p, {"id", "name"})) continue;
    SideDef s;
    s.id = r.RequiredString(n[i], p, "id").value_or("");
    s.name = r.OptionalString(n[i], p, "name", s.id);
    game->sides.push_back(s);
  }
  if (game->sides.size() != 2) r.Fail(n, "sides", "expected exactly two sides");
}

void LoadAttributes(RulesetDocument& doc, Game* game) {
  if (!doc.Has("attributes")) return;
  YamlReader& r = *doc.ReaderFor("attributes");
  game->attributes = r.StringList(doc.Section("attributes"), "attributes");
  if (game->attributes.size() > static_cast<size_t>(kMaxAttributes)) {
    r.Fail(doc.Section("attributes"), "attributes", "at most " + std::to_string(kMaxAttributes) + " attributes");
  }
}

void LoadMarkers(RulesetDocument& doc, Game* game) {
  if (!doc.Has("markers")) return;
  YamlReader& r = *doc.ReaderFor("markers");
  const YAML::Node n = doc.Section("markers");
  if (!r.ExpectSequence(n, "markers")) return;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string p = YamlReader::Item("markers", i);
    if (!r.CheckKeys(n[i], p, {"id", "name", "reduces"})) continue;
    MarkerDef m;
    m.id = r.RequiredString(n[i], p, "id").value_or("");
    m.name = r.OptionalString(n[i], p, "name", m.id);
    for (const auto& a : r.StringList(n[i]["reduces"], YamlReader::Child(p, "reduces"))) {
      const int idx = game->AttributeIndex(a);
      if (idx < 0) {
        r.Fail(n[i]["reduces"], YamlReader::Child(p, "reduces"), "unknown attribute \"" + a + "\"");
      } else {
        m.reduces.push_back(idx);
      }
    }
    game->markers.push_back(m);
  }
  if (game->markers.size() > static_cast<size_t>(kMaxMarkers)) {
    r.Fail(n, "markers", "at most " + std::to_string(kMaxMarkers) + " markers");
  }
}

void LoadOptionalRules(RulesetDocument& doc, Game* game) {
  if (!doc.Has("optional_rules")) {
    for (const auto& want : game->params.optional) {
      YamlReader& r = *doc.readers.front();
      r.Fail(r.root(), "optional", "this ruleset has no optional rule \"" + want + "\" (it has no optional_rules)");
    }
    return;
  }
  YamlReader& r = *doc.ReaderFor("optional_rules");
  const YAML::Node n = doc.Section("optional_rules");
  if (r.ExpectSequence(n, "optional_rules")) {
    for (size_t i = 0; i < n.size(); ++i) {
      const std::string p = YamlReader::Item("optional_rules", i);
      if (!r.CheckKeys(n[i], p, {"id", "title"})) continue;
      OptionalRule o;
      o.id = r.RequiredString(n[i], p, "id").value_or("");
      o.title = r.OptionalString(n[i], p, "title", "");
      game->optional_rules.push_back(o);
    }
  }
  std::string ids;
  for (const auto& o : game->optional_rules) ids += (ids.empty() ? "" : ", ") + o.id;
  for (const auto& want : game->params.optional) {
    bool known = false;
    for (const auto& o : game->optional_rules) known = known || o.id == want;
    if (!known) r.Fail(n, "optional", "unknown optional rule \"" + want + "\" (known: " + ids + ")");
  }
}

// choices: [{id, rule, title, since_format}]: the players' choices the program can make
// instead (`auto=ID+ID`, Game::Automated). An id `auto=` names must be one of them.
void LoadChoices(RulesetDocument& doc, Game* game) {
  if (!doc.Has("choices")) {
    for (const auto& want : game->params.automated) {
      YamlReader& r = *doc.readers.front();
      r.Fail(r.root(), "auto", "this ruleset has no choice \"" + want + "\" the program can make (it has no choices)");
    }
    return;
  }
  YamlReader& r = *doc.ReaderFor("choices");
  const YAML::Node n = doc.Section("choices");
  if (r.ExpectSequence(n, "choices")) {
    for (size_t i = 0; i < n.size(); ++i) {
      const std::string p = YamlReader::Item("choices", i);
      if (!r.CheckKeys(n[i], p, {"id", "rule", "title", "since_format"})) continue;
      PlayerChoice c;
      c.id = r.RequiredString(n[i], p, "id").value_or("");
      c.rule = r.OptionalString(n[i], p, "rule", "");
      c.title = r.OptionalString(n[i], p, "title", "");
      if (const YAML::Node f = n[i]["since_format"]) c.since_format = r.Int(f, YamlReader::Child(p, "since_format"), 1, 1000).value_or(0);
      for (const auto& o : game->optional_rules) {
        if (o.id == c.id) r.Fail(n[i]["id"], YamlReader::Child(p, "id"), "\"" + c.id + "\" is an optional rule too");
      }
      game->choices.push_back(c);
    }
  }
  std::string ids;
  for (const auto& c : game->choices) ids += (ids.empty() ? "" : ", ") + c.id;
  for (const auto& want : game->params.automated) {
    bool known = false;
    for (const auto& c : game->choices) known = known || c.id == want;
    if (!known) r.Fail(n, "auto", "unknown choice \"" + want + "\" the program can make (known: " + ids + ")");
  }
}

// Kinds (need the movement classes' names: the ruleset's `movement.classes`).
void LoadKinds(RulesetDocument& doc, Game* game) {
  YamlReader& r = *doc.ReaderFor("kinds");
  const YAML::Node n = doc.Section("kinds");
  std::vector<std::string> classes;
  if (const YAML::Node mv = doc.Section("movement"); mv && mv.IsMap() && mv["classes"]) {
    const YAML::Node list = mv["classes"];
    for (size_t c = 0; list.IsSequence() && c < list.size(); ++c) classes.push_back(YamlReader::KeyText(list[c]));
  }
  if (!n) {
    r.Fail(r.root(), "kinds", "missing required section");
    return;
  }
  if (!r.ExpectSequence(n, "kinds")) return;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string p = YamlReader::Item("kinds", i);
    if (!r.CheckKeys(n[i], p, {"id", "class", "stacking"})) continue;
    KindDef k;
    k.id = r.RequiredString(n[i], p, "id").value_or("");
    const std::string cls = r.OptionalString(n[i], p, "class", k.id);
    k.movement_class = 0;
    if (!classes.empty()) {
      k.movement_class = -1;
      for (size_t c = 0; c < classes.size(); ++c) {
        if (classes[c] == cls) k.movement_class = static_cast<int>(c);
      }
      if (k.movement_class < 0) {
        r.Fail(n[i], YamlReader::Child(p, "class"), "unknown movement class \"" + cls + "\"");
        k.movement_class = 0;
      }
    }
    k.counts_for_stacking = r.OptionalBool(n[i], p, "stacking", true);
    game->kinds.push_back(k);
  }
}

// Turn record track.
void LoadTurns(RulesetDocument& doc, Game* game) {
  YamlReader& r = *doc.ReaderFor("turns");
  const YAML::Node n = doc.Section("turns");
  if (!n) {
    r.Fail(r.root(), "turns", "missing required section");
    return;
  }
  if (!r.CheckKeys(n, "turns", {"count", "labels", "night", "order", "phases"})) return;
  const int count = r.RequiredInt(n, "turns", "count", 1, kMaxTurns).value_or(1);
  game->turns.turns.resize(static_cast<size_t>(count));
  const auto labels = r.StringList(n["labels"], "turns.labels");
  if (!labels.empty() && labels.size() != game->turns.turns.size()) {
    r.Fail(n["labels"], "turns.labels", "expected " + std::to_string(count) + " labels, got " +
                                            std::to_string(labels.size()));
  }
  for (size_t i = 0; i < labels.size() && i < game->turns.turns.size(); ++i) game->turns.turns[i].label = labels[i];
  if (const YAML::Node night = n["night"]; night && r.ExpectSequence(night, "turns.night")) {
    for (size_t i = 0; i < night.size(); ++i) {
      if (const auto t = r.Int(night[i], YamlReader::Item("turns.night", i), 1, count)) {
        game->turns.turns[static_cast<size_t>(*t - 1)].night = true;
      }
    }
  }
  for (const auto& side : r.StringList(n["order"], "turns.order")) {
    const int s = game->SideIndex(side);
    if (s < 0) r.Fail(n["order"], "turns.order", "unknown side \"" + side + "\"");
    game->turns.order.push_back(std::max(s, 0));
  }
  if (game->turns.order.empty()) r.Fail(n, "turns.order", "missing required key");
  game->turns.phases = r.StringList(n["phases"], "turns.phases");
  if (game->turns.phases.empty()) r.Fail(n, "turns.phases", "missing required key");
}

void LoadVictoryThresholds(YamlReader& r, const YAML::Node& n, Game* game) {
  game->victory.kind = VictoryRules::Kind::kThresholds;
  const YAML::Node t = n["thresholds"];
  if (!t || !r.ExpectMap(t, "victory.thresholds")) return;
  for (const auto& kv : t) {
    const int s = game->SideIndex(kv.first.Scalar());
    const std::string p = "victory.thresholds." + kv.first.Scalar();
    if (s < 0) {
      r.Fail(kv.first, p, "unknown side");
    } else {
      game->victory.thresholds[s] = r.Int(kv.second, p).value_or(0);
    }
  }
}

void LoadVictoryLevels(YamlReader& r, const YAML::Node& n, Game* game) {
  game->victory.kind = VictoryRules::Kind::kDifferential;
  const YAML::Node levels = n["levels"];
  if (!levels) {
    r.Fail(n, "victory.levels", "missing required key");
    return;
  }
  if (!r.ExpectSequence(levels, "victory.levels")) return;
  for (size_t i = 0; i < levels.size(); ++i) {
    const std::string p = YamlReader::Item("victory.levels", i);
    if (!r.CheckKeys(levels[i], p, {"name", "min", "max", "winner"})) continue;
    VictoryLevel l;
    l.name = r.RequiredString(levels[i], p, "name").value_or("");
    l.min = r.OptionalInt(levels[i], p, "min", -100000);
    l.max = r.OptionalInt(levels[i], p, "max", 100000);
    const std::string w = r.OptionalString(levels[i], p, "winner", "");
    l.winner = w.empty() || w == "draw" ? -1 : game->SideIndex(w);
    if (!w.empty() && w != "draw" && l.winner < 0) {
      r.Fail(levels[i]["winner"], YamlReader::Child(p, "winner"), "unknown side \"" + w + "\"");
    }
    game->victory.levels.push_back(l);
  }
}

void LoadVictory(RulesetDocument& doc, Game* game) {
  if (!doc.Has("victory")) return;
  YamlReader& r = *doc.ReaderFor("victory");
  const YAML::Node n = doc.Section("victory");
  if (!r.CheckKeys(n, "victory", {"kind", "thresholds", "levels", "points"})) return;
  const std::string kind = r.OptionalString(n, "victory", "kind", "thresholds");
  if (kind == "thresholds") {
    LoadVictoryThresholds(r, n, game);
  } else if (kind == "differential") {
    LoadVictoryLevels(r, n, game);
  } else {
    r.Fail(n["kind"], "victory.kind", "expected thresholds or differential");
  }
}

// Scenario start: `start: {turn, side, phase}`.
void LoadStart(RulesetDocument& doc, Game* game) {
  ScenarioStart* start = &game->start;
  YamlReader& r = *doc.ReaderFor("start");
  const YAML::Node n = doc.Section("start");
  if (!r.CheckKeys(n, "start", {"turn", "side", "phase"})) return;
  start->turn = r.OptionalInt(n, "start", "turn", 1, 1, game->turns.num_turns());
  if (n["side"]) {
    const std::string side = r.String(n["side"], "start.side").value_or("");
    const int s = game->SideIndex(side);
    start->player_turn = -1;
    for (size_t i = 0; i < game->turns.order.size(); ++i) {
      if (game->turns.order[i] == s) start->player_turn = static_cast<int>(i);
    }
    if (start->player_turn < 0) {
      r.Fail(n["side"], "start.side", "unknown side \"" + side + "\"");
      start->player_turn = 0;
    }
  }
  if (n["phase"]) {
    const std::string ph = r.String(n["phase"], "start.phase").value_or("");
    start->phase = game->turns.PhaseIndex(ph);
    if (start->phase < 0) {
      r.Fail(n["phase"], "start.phase", "unknown phase \"" + ph + "\"");
      start->phase = 0;
    }
  }
}

// One `place:` entry: {unit, hex, face, markers, released}.
void ReadPlacement(YamlReader& r, const YAML::Node& n, const std::string& p, Game* game) {
  if (!r.CheckKeys(n, p, {"unit", "hex", "face", "markers", "released"})) return;
  Placement pl;
  const std::string id = r.RequiredString(n, p, "unit").value_or("");
  pl.unit = game->UnitIndex(id);
  if (pl.unit < 0 && n["unit"]) r.Fail(n["unit"], YamlReader::Child(p, "unit"), "unknown unit \"" + id + "\"");
  if (n["hex"]) {
    const std::string h = r.String(n["hex"], YamlReader::Child(p, "hex")).value_or("");
    if (h == "eliminated") {
      pl.hex = kEliminated;
    } else if (h == "offmap") {
      pl.hex = kNotYetEntered;
    } else if (h == "withdrawn") {
      pl.hex = kWithdrawn;
    } else {
      pl.hex = game->PositionIndex(h);
      if (pl.hex < 0) r.Fail(n["hex"], YamlReader::Child(p, "hex"), "hex \"" + h + "\" is not on the map");
    }
  }
  if (n["face"]) {
    const std::string f = r.String(n["face"], YamlReader::Child(p, "face")).value_or("");
    pl.face = f == "back" ? 1 : 0;
    if (f != "back" && f != "front") r.Fail(n["face"], YamlReader::Child(p, "face"), "expected front or back");
  }
  if (const YAML::Node m = n["markers"]) {
    pl.set_markers = true;
    ReadMarkerCounts(r, *game, m, YamlReader::Child(p, "markers"), pl.markers);
  }
  if (n["released"]) {
    pl.released = r.Bool(n["released"], YamlReader::Child(p, "released")).value_or(false) ? 1 : 0;
  }
  game->start.placements.push_back(pl);
}

void LoadScenarioStart(RulesetDocument& doc, Game* game, ErrorList* errors) {
  if (doc.Has("start")) LoadStart(doc, game);
  if (doc.Has("only_placed")) {
    YamlReader& r = *doc.ReaderFor("only_placed");
    game->start.only_placed = r.Bool(doc.Section("only_placed"), "only_placed").value_or(false);
  }
  if (doc.Has("place")) {
    YamlReader& r = *doc.ReaderFor("place");
    const YAML::Node n = doc.Section("place");
    if (r.ExpectSequence(n, "place")) {
      for (size_t i = 0; i < n.size(); ++i) ReadPlacement(r, n[i], YamlReader::Item("place", i), game);
    }
  }
  errors->Append(doc.Errors());
  if (errors->ok()) CheckStartPositions(doc, *game, errors);
}

}  // namespace

ErrorList LoadGenericSections(RulesetDocument& doc, Game* game, BoardSections* board) {
  ErrorList errors;
  if (doc.Has("title")) game->title = doc.ReaderFor("title")->String(doc.Section("title"), "title").value_or("");
  LoadSides(doc, game);
  LoadAttributes(doc, game);
  LoadMarkers(doc, game);
  LoadOptionalRules(doc, game);
  LoadChoices(doc, game);
  if (board != nullptr) board->ReadVocabulary(doc);
  LoadKinds(doc, game);
  if (board != nullptr) board->ReadLimits(doc, game);
  LoadTurns(doc, game);
  LoadVictory(doc, game);
  if (board != nullptr) board->ReadBoard(doc, game, &errors);
  errors.Append(doc.Errors());
  if (!errors.ok()) return errors;
  // Units (need the map for set-up hexes and entry places).
  LoadUnits(doc, game, &errors);
  if (!errors.ok()) return errors;
  LoadVictoryPoints(doc, game);  // victory.points (victory.h): needs the map and the units
  LoadScenarioStart(doc, game, &errors);
  return errors;
}

void CheckStartStacking(RulesetDocument& doc, const Game& game, int limit, const StackingCounter& count,
                        ErrorList* errors) {
  const StartHexes start(game);
  const State s = PlacedInitialState(game, 0);
  const int moving = game.turns.order.empty() ? -1 : game.turns.order[static_cast<size_t>(game.start.player_turn)];
  const auto in_hex = start.InHex(game);
  for (size_t h = 0; h < in_hex.size(); ++h) {
    if (in_hex[h].empty()) continue;
    for (int side = 0; side < 2; ++side) {
      if (side == moving) continue;
      const int n = count(s, static_cast<int>(h), side);
      if (n <= limit) continue;
      start.Report(doc, game, in_hex[h], std::to_string(n) + " units of " + game.sides[static_cast<size_t>(side)].id +
                                             " start in hex " + game.HexLabel(static_cast<int>(h)) +
                                             " (the stacking limit is " + std::to_string(limit) + ")",
                   errors);
    }
  }
}

}  // namespace wg

namespace wg {

void RecordDataRules(const YamlReader& reader, Game* game) {
  if (reader.reads().empty()) return;
  const std::string file = SourceRelative(reader.file());
  std::set<std::string> seen;  // key@line
  for (const YamlReader::Read& r : reader.reads()) {
    const std::string where = file + ":" + std::to_string(r.line);
    // A list on one line is one key ("chart.livestock.pigs", not pigs[0]..pigs[5]).
    std::string key;
    for (size_t i = 0; i < r.path.size(); ++i) {
      if (r.path[i] == '[') {
        i = std::min(r.path.find(']', i), r.path.size());
      } else {
        key += r.path[i];
      }
    }
    if (!seen.insert(key + "@" + where).second) continue;
    for (const std::string& rule : r.rules) game->data_rules.push_back(DataRule{rule, key, where});
    if (key.rfind("rule_numbers.", 0) == 0) game->rule_number_lines.emplace_back(key, where);
  }
}

void RecordDataRules(const RulesetDocument& doc, Game* game) {
  for (const auto& reader : doc.readers) RecordDataRules(*reader, game);
}

}  // namespace wg
