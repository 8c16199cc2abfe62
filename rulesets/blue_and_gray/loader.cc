// Blue & Gray's own sections of ruleset.yaml and the scenario files
// (exclusive_rules, strategic_movement, victory_points: rules.h), read into a
// BgConfig for the hooks in rules.cc.
#include "rules.h"
#include "wargame/yaml_reader.h"

namespace wg::blue_and_gray {

BgConfig ReadConfig(const Game& game, RulesetDocument& doc) {
  BgConfig c;
  const Map& map = game.map;
  c.is_ferry.assign(static_cast<size_t>(map.size()), 0);
  for (const Place* p : map.PlacesOfKind("ferry")) {
    for (int h : p->hexes) c.is_ferry[static_cast<size_t>(h)] = 1;
  }
  auto side_of = [&](YamlReader& r, const YAML::Node& n, const std::string& path, const char* key, int fallback) {
    if (!n[key]) return fallback;
    const std::string v = r.String(n[key], YamlReader::Child(path, key)).value_or("");
    const int s = game.SideIndex(v);
    if (s < 0) r.Fail(n[key], YamlReader::Child(path, key), "unknown side \"" + v + "\"");
    return s;
  };
  auto hex_of = [&](YamlReader& r, const YAML::Node& n, const std::string& path) {
    const std::string v = r.String(n, path).value_or("");
    const int h = map.Index(v);
    if (h < 0) r.Fail(n, path, "hex \"" + v + "\" is not on the map");
    return h;
  };
  if (doc.Has("exclusive_rules")) {
    YamlReader& r = *doc.ReaderFor("exclusive_rules");
    const YAML::Node n = doc.Section("exclusive_rules");
    if (r.CheckKeys(n, "exclusive_rules", {"union_artillery_fixed", "union_movement_quota", "night_movement", "ferries",
                                           "reinforcement_deadline"})) {
      if (const YAML::Node f = n["union_artillery_fixed"]) {
        const std::string p = "exclusive_rules.union_artillery_fixed";
        r.CheckKeys(f, p, {"rule", "side", "kind", "except_units"});
        c.fixed_artillery = true;
        c.fixed_rule = r.OptionalString(f, p, "rule", "16.11");
        c.fixed_side = side_of(r, f, p, "side", 0);
        c.fixed_kind = game.KindIndex(r.OptionalString(f, p, "kind", "artillery"));
        if (c.fixed_kind < 0) r.Fail(f, YamlReader::Child(p, "kind"), "unknown kind");
        if (f["except_units"]) {
          for (const auto& id : r.StringList(f["except_units"], YamlReader::Child(p, "except_units"))) {
            const int u = game.UnitIndex(id);
            if (u < 0) r.Fail(f["except_units"], YamlReader::Child(p, "except_units"), "unknown unit \"" + id + "\"");
            c.fixed_except.push_back(u);
          }
        }
      }
      if (const YAML::Node q = n["union_movement_quota"]) {
        const std::string p = "exclusive_rules.union_movement_quota";
        r.CheckKeys(q, p, {"rule", "side", "units_per_phase", "bonus_units", "bonus_if_controls",
                           "exempt_reinforcements_before_turn"});
        c.quota = true;
        c.quota_rule = r.OptionalString(q, p, "rule", "17.11");
        c.quota_side = side_of(r, q, p, "side", 0);
        c.quota_units = r.OptionalInt(q, p, "units_per_phase", 11);
        c.quota_bonus = r.OptionalInt(q, p, "bonus_units", 0);
        if (q["bonus_if_controls"]) c.quota_key_hex = hex_of(r, q["bonus_if_controls"], YamlReader::Child(p, "bonus_if_controls"));
        c.quota_exempt_before = r.OptionalInt(q, p, "exempt_reinforcements_before_turn", 0);
      }
      if (const YAML::Node m = n["night_movement"]) {
        const std::string p = "exclusive_rules.night_movement";
        r.CheckKeys(m, p, {"rule", "no_move_side", "exit_ezoc_side"});
        c.night_rule = r.OptionalString(m, p, "rule", "17.2");
        c.night_no_move_side = side_of(r, m, p, "no_move_side", -1);
        c.night_exit_side = side_of(r, m, p, "exit_ezoc_side", -1);
      }
      if (const YAML::Node f = n["ferries"]) {
        const std::string p = "exclusive_rules.ferries";
        r.CheckKeys(f, p, {"rule", "no_end_of_move", "retreat_into_eliminates"});
        c.ferries = true;
        c.ferry_no_end = r.OptionalBool(f, p, "no_end_of_move", true);
        c.ferry_retreat_eliminates = r.OptionalBool(f, p, "retreat_into_eliminates", true);
      }
      if (const YAML::Node d = n["reinforcement_deadline"]) {
        const std::string p = "exclusive_rules.reinforcement_deadline";
        r.CheckKeys(d, p, {"rule", "turn"});
        c.deadline_turn = r.RequiredInt(d, p, "turn").value_or(0);
      }
    }
  }
  c.strategic_bonus.assign(game.kinds.size(), 0);
  if (doc.Has("strategic_movement")) {
    YamlReader& r = *doc.ReaderFor("strategic_movement");
    const YAML::Node n = doc.Section("strategic_movement");
    if (r.CheckKeys(n, "strategic_movement", {"allowed", "min_distance", "bonus"})) {
      c.strategic = r.OptionalBool(n, "strategic_movement", "allowed", false);
      c.strategic_distance = r.OptionalInt(n, "strategic_movement", "min_distance", 4);
      if (const YAML::Node b = n["bonus"]; b && r.ExpectMap(b, "strategic_movement.bonus")) {
        for (const auto& kv : b) {
          const int k = game.KindIndex(kv.first.Scalar());
          const std::string p = "strategic_movement.bonus." + kv.first.Scalar();
          if (k < 0) {
            r.Fail(kv.first, p, "unknown kind");
          } else {
            c.strategic_bonus[static_cast<size_t>(k)] = r.Int(kv.second, p).value_or(0);
          }
        }
      }
    }
  }
  if (doc.Has("victory_points")) {
    YamlReader& r = *doc.ReaderFor("victory_points");
    const YAML::Node n = doc.Section("victory_points");
    if (r.CheckKeys(n, "victory_points", {"rule", "awards"}) && n["awards"] &&
        r.ExpectSequence(n["awards"], "victory_points.awards")) {
      const YAML::Node list = n["awards"];
      for (size_t i = 0; i < list.size(); ++i) {
        const std::string p = YamlReader::Item("victory_points.awards", i);
        const YAML::Node a = list[i];
        r.CheckKeys(a, p, {"rule", "side", "when", "event", "of_side", "hexes", "place", "unit_kinds", "points"});
        VpAward w;
        w.rule = r.OptionalString(a, p, "rule", "20.0");
        w.side = side_of(r, a, p, "side", 0);
        const std::string when = r.RequiredString(a, p, "when").value_or("");
        if (when != "during_play" && when != "game_end") r.Fail(a["when"], YamlReader::Child(p, "when"), "expected during_play or game_end");
        w.at_end = when == "game_end";
        const std::string ev = r.RequiredString(a, p, "event").value_or("");
        if (ev == "unit_eliminated") {
          w.kind = VpAward::Kind::kUnitEliminated;
        } else if (ev == "hex_ever_controlled") {
          w.kind = VpAward::Kind::kHexEverControlled;
        } else if (ev == "hex_in_zoc") {
          w.kind = VpAward::Kind::kHexInZoc;
        } else if (ev == "hex_controlled_at_end") {
          w.kind = VpAward::Kind::kHexControlledAtEnd;
        } else {
          r.Fail(a["event"], YamlReader::Child(p, "event"), "unknown event \"" + ev + "\"");
        }
        w.of_side = side_of(r, a, p, "of_side", 1 - w.side);
        if (a["hexes"] && r.ExpectSequence(a["hexes"], YamlReader::Child(p, "hexes"))) {
          for (size_t k = 0; k < a["hexes"].size(); ++k) {
            w.hexes.push_back(hex_of(r, a["hexes"][k], YamlReader::Item(YamlReader::Child(p, "hexes"), k)));
          }
        }
        if (a["place"]) {
          const std::string name = r.String(a["place"], YamlReader::Child(p, "place")).value_or("");
          const Place* pl = map.FindPlace(name);
          if (!pl) {
            r.Fail(a["place"], YamlReader::Child(p, "place"), "no place named \"" + name + "\"");
          } else {
            w.hexes.insert(w.hexes.end(), pl->hexes.begin(), pl->hexes.end());
          }
        }
        if (a["unit_kinds"]) {
          for (const auto& k : r.StringList(a["unit_kinds"], YamlReader::Child(p, "unit_kinds"))) {
            const int id = game.KindIndex(k);
            if (id < 0) r.Fail(a["unit_kinds"], YamlReader::Child(p, "unit_kinds"), "unknown kind \"" + k + "\"");
            w.unit_kinds.push_back(id);
          }
        }
        w.points = r.RequiredInt(a, p, "points").value_or(0);
        c.awards.push_back(std::move(w));
      }
    }
  }
  return c;
}

}  // namespace wg::blue_and_gray
