// Stars and Bars' own data: the battery_parents section (12.2), and the
// tables and map places the hooks in rules.cc need (rules.h).
#include "rules.h"
#include "wargame/yaml_reader.h"

namespace wg::stars_and_bars {
namespace {

std::vector<int> ReadBatteryParents(const Game& game, RulesetDocument& doc) {
  std::vector<int> battery_parent;
  battery_parent.assign(game.units.size(), -1);
  if (doc.Has("battery_parents")) {
    YamlReader& r = *doc.ReaderFor("battery_parents");
    const YAML::Node n = doc.Section("battery_parents");
    if (r.ExpectMap(n, "battery_parents")) {
      for (const auto& kv : n) {
        const std::string b = kv.first.Scalar(), p = kv.second.Scalar();
        const int bi = game.UnitIndex(b), pi = game.UnitIndex(p);
        // A scenario may replace the order of battle: batteries it lacks are skipped.
        if (bi < 0 || pi < 0) continue;
        battery_parent[static_cast<size_t>(bi)] = pi;
      }
    }
  }
  return battery_parent;
}

void CheckTables(const HexGameData& data, ErrorList* errors) {
  for (const char* t : {"bombardment", "reorganization", "cavalry_withdrawal", "untrained_advance", "union_initiative"}) {
    if (!data.tables.Find(t)) errors->Add(Error{"ruleset.yaml", 0, 0, "tables", std::string("missing table ") + t, ""});
  }
}

void FindPlaces(const Game& game, ErrorList* errors, SbData& places) {
  for (const Place& p : game.map.places) {
    if (p.kind == "army_hq" && !p.hexes.empty()) {
      auto it = p.attributes.find("side");
      if (it != p.attributes.end()) places.army_hq_hex[game.SideIndex(it->second) == 0 ? 0 : 1] = p.hexes[0];
    }
    if (p.kind == "objective" && !p.hexes.empty()) places.objective_place = static_cast<int>(&p - game.map.places.data());
  }
  if (places.army_hq_hex[0] < 0 || places.army_hq_hex[1] < 0 || places.objective_place < 0) {
    errors->Add(Error{"map.yaml", 0, 0, "places", "the two army HQ places and the objective are required (11.1)", ""});
  }
}

}  // namespace

SbData LoadSbData(const Game& game, const HexGameData& data, RulesetDocument& doc, ErrorList* errors) {
  SbData d;
  d.battery_parent = ReadBatteryParents(game, doc);
  CheckTables(data, errors);
  FindPlaces(game, errors, d);
  return d;
}

}  // namespace wg::stars_and_bars
