// Stars and Bars' own data: the battery_parents section (12.2), the CRT
// tokens its result handler applies (7.3), and the tables and map places the
// hooks in rules/ need (rules.h). Every error has its file position.
#include "rules.h"
#include "wargame/yaml_reader.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {
namespace {

using Y = YamlReader;

// The tokens SbRules::ApplyCombatResult applies (7.3, the CRT's key): E# permanent
// loss, D# disruption, W withdraw, R retreat, for either side; AE (odds below
// 1-4) for the attacker only. A single-part cell is the attacker's (7.3).
constexpr CrtTokenRule kSbTokens[] = {
    {"AE", true, true, false, false}, {"E", true, true, true, true}, {"D", true, true, true, true},
    {"W", true, true, true, false},   {"R", true, true, true, false},
};
constexpr CrtTokenSet kSbCrtTokens{"the Stars and Bars rules (7.3)", kSbTokens};

WG_RULE("12.2", ReadBatteryParents);
std::vector<int> ReadBatteryParents(const Game& game, RulesetDocument& doc) {
  std::vector<int> battery_parent;
  battery_parent.assign(game.units.size(), -1);
  if (!doc.Has("battery_parents")) return battery_parent;
  YamlReader& r = *doc.ReaderFor("battery_parents");
  const YAML::Node n = doc.Section("battery_parents");
  if (!r.ExpectMap(n, "battery_parents")) return battery_parent;
  for (const auto& kv : n) {
    const std::string b = Y::KeyText(kv.first);
    const auto p = r.String(kv.second, Y::Child("battery_parents", b));
    if (!p) continue;
    const int bi = game.UnitIndex(b), pi = game.UnitIndex(*p);
    // A scenario may replace the order of battle: batteries it lacks are skipped.
    if (bi < 0 || pi < 0) continue;
    battery_parent[static_cast<size_t>(bi)] = pi;
  }
  return battery_parent;
}

// The tables the hooks roll on, at the `tables:` section (or the ruleset's top).
void CheckTables(const HexGameData& data, RulesetDocument& doc) {
  static constexpr const char* kNeeded[][2] = {{"bombardment", "8.2"},       {"reorganization", "9.0"},
                                               {"cavalry_withdrawal", "7.8"}, {"untrained_advance", "12.1"},
                                               {"union_initiative", "12.4"}};
  YamlReader& r = doc.Has("tables") ? *doc.ReaderFor("tables") : *doc.readers.front();
  const YAML::Node at = doc.Has("tables") ? doc.Section("tables") : r.root();
  for (const auto& [t, rule] : kNeeded) {
    if (!data.tables.Find(t)) {
      r.Fail(at, Y::Child("tables", t), std::string("missing table ") + t + " (" + rule + ")");
    }
  }
}

WG_RULE("11.1", FindPlaces);
void FindPlaces(const Game& game, ErrorList* errors, SbData& places) {
  for (const Place& p : game.hex_board().map.places) {
    if (p.kind == "army_hq" && !p.hexes.empty()) {
      auto it = p.attributes.find("side");
      if (it != p.attributes.end()) places.army_hq_hex[game.SideIndex(it->second) == 0 ? 0 : 1] = p.hexes[0];
    }
    if (p.kind == "objective" && !p.hexes.empty()) places.objective_place = static_cast<int>(&p - game.hex_board().map.places.data());
  }
  if (places.army_hq_hex[0] < 0 || places.army_hq_hex[1] < 0 || places.objective_place < 0) {
    // At the map file's `places:` (read again: the map loader's reader is gone).
    YamlReader r = YamlReader::FromFile(game.hex_board().map.file);
    const YAML::Node list = Y::Get(r.root(), "places");
    r.Fail(list ? list : r.root(), "places",
           "the two army HQ places (kind army_hq, attributes: {side: ...}) and the objective are required (11.1)");
    errors->Append(r.ErrorsSince(r.errors().size() - 1));
  }
}

}  // namespace

SbData LoadSbData(const Game& game, const HexGameData& data, RulesetDocument& doc, ErrorList* errors) {
  SbData d;
  d.battery_parent = ReadBatteryParents(game, doc);
  CheckTables(data, doc);
  if (doc.Has("crt")) CheckCrtTokens(*doc.ReaderFor("crt"), doc.Section("crt"), "crt", kSbCrtTokens);
  FindPlaces(game, errors, d);
  return d;
}

}  // namespace wg::stars_and_bars
