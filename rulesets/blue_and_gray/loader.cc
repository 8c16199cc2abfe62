// Blue & Gray's own sections of ruleset.yaml and the scenario files
// (exclusive_rules, strategic_movement, victory_points: rules.h), read into a
// BgConfig for the hooks in rules/, and the CRT tokens its result handler
// applies. A section of the wrong shape is
// reported at its position and not read further.
#include "rules.h"
#include "wargame/yaml_reader.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("blue_and_gray");  // the WG_RULE marks below: the rules each function implements

namespace wg::blue_and_gray {
namespace {

using Y = YamlReader;

// The tokens BgRules::ApplyCombatResult applies (8.3): single-part results only
// (an "A/D" cell would do nothing).
constexpr CrtTokenRule kBgTokens[] = {
    {"AE", true, false, false, false}, {"AR", true, false, false, false}, {"DE", true, false, false, false},
    {"DR", true, false, false, false}, {"EX", true, false, false, false},
};
constexpr CrtTokenSet kBgCrtTokens{"the Blue & Gray rules (8.3)", kBgTokens};

// The reading context of one section: its file's reader and the game's names.
struct Reader {
  YamlReader& r;
  const Game& game;

  int SideOf(const YAML::Node& n, const std::string& path, const char* key, int fallback) const {
    const YAML::Node v = Y::Get(n, key);
    if (!v) return fallback;
    const std::string name = r.String(v, Y::Child(path, key)).value_or("");
    const int s = game.SideIndex(name);
    if (s < 0) r.Fail(v, Y::Child(path, key), "unknown side \"" + name + "\"");
    return s;
  }
  int HexOf(const YAML::Node& n, const std::string& path) const {
    const std::string v = r.String(n, path).value_or("");
    const int h = game.hex_board().map.Index(v);
    if (h < 0) r.Fail(n, path, "hex \"" + v + "\" is not on the map");
    return h;
  }
  std::vector<int> UnitsOf(const YAML::Node& n, const std::string& path) const {
    std::vector<int> out;
    for (const auto& id : r.StringList(n, path)) {
      const int u = game.UnitIndex(id);
      if (u < 0) r.Fail(n, path, "unknown unit \"" + id + "\"");
      out.push_back(u);
    }
    return out;
  }
  std::vector<int> KindsOf(const YAML::Node& n, const std::string& path) const {
    std::vector<int> out;
    for (const auto& k : r.StringList(n, path)) {
      const int id = game.KindIndex(k);
      if (id < 0) r.Fail(n, path, "unknown kind \"" + k + "\"");
      out.push_back(id);
    }
    return out;
  }
};

// 16.11-16.13
WG_RULE("16.11/16.13", ReadFixedArtillery);
void ReadFixedArtillery(const Reader& in, const YAML::Node& f, BgConfig& c) {
  const std::string p = "exclusive_rules.union_artillery_fixed";
  YamlReader& r = in.r;
  if (!r.CheckKeys(f, p, {"rule", "side", "kind", "except_units"})) return;
  c.fixed_artillery = true;
  c.fixed_rule = r.OptionalString(f, p, "rule", "16.11");
  c.fixed_side = in.SideOf(f, p, "side", 0);
  const std::string kind = r.OptionalString(f, p, "kind", "artillery");
  c.fixed_kind = in.game.KindIndex(kind);
  if (c.fixed_kind < 0) r.Fail(Y::Get(f, "kind") ? Y::Get(f, "kind") : f, Y::Child(p, "kind"), "unknown kind \"" + kind + "\"");
  if (const YAML::Node e = Y::Get(f, "except_units")) c.fixed_except = in.UnitsOf(e, Y::Child(p, "except_units"));
}

// 17.11-17.14
WG_RULE("17.11/17.12/17.14", ReadMovementQuota);
void ReadMovementQuota(const Reader& in, const YAML::Node& q, BgConfig& c) {
  const std::string p = "exclusive_rules.union_movement_quota";
  YamlReader& r = in.r;
  if (!r.CheckKeys(q, p, {"rule", "side", "units_per_phase", "bonus_units", "bonus_if_controls",
                          "exempt_reinforcements_before_turn"})) {
    return;
  }
  c.quota = true;
  c.quota_rule = r.OptionalString(q, p, "rule", "17.11");
  c.quota_side = in.SideOf(q, p, "side", 0);
  c.quota_units = r.OptionalInt(q, p, "units_per_phase", 11, 0, kMaxUnits);
  c.quota_bonus = r.OptionalInt(q, p, "bonus_units", 0, 0, kMaxUnits);
  if (const YAML::Node h = Y::Get(q, "bonus_if_controls")) c.quota_key_hex = in.HexOf(h, Y::Child(p, "bonus_if_controls"));
  c.quota_exempt_before = r.OptionalInt(q, p, "exempt_reinforcements_before_turn", 0, 0, kMaxTurns);
}

WG_RULE("15.12/17.2/19.12/19.13", ReadExclusiveRules);
void ReadExclusiveRules(const Reader& in, const YAML::Node& n, BgConfig& c) {
  YamlReader& r = in.r;
  if (!r.CheckKeys(n, "exclusive_rules", {"union_artillery_fixed", "union_movement_quota", "night_movement", "ferries",
                                          "reinforcement_deadline"})) {
    return;
  }
  if (const YAML::Node f = Y::Get(n, "union_artillery_fixed")) ReadFixedArtillery(in, f, c);
  if (const YAML::Node q = Y::Get(n, "union_movement_quota")) ReadMovementQuota(in, q, c);
  if (const YAML::Node m = Y::Get(n, "night_movement")) {
    const std::string p = "exclusive_rules.night_movement";
    if (r.CheckKeys(m, p, {"rule", "no_move_side", "exit_ezoc_side"})) {
      c.night_rule = r.OptionalString(m, p, "rule", "17.2");
      c.night_no_move_side = in.SideOf(m, p, "no_move_side", -1);
      c.night_exit_side = in.SideOf(m, p, "exit_ezoc_side", -1);
    }
  }
  if (const YAML::Node f = Y::Get(n, "ferries")) {
    const std::string p = "exclusive_rules.ferries";
    if (r.CheckKeys(f, p, {"rule", "no_end_of_move", "retreat_into_eliminates"})) {
      c.ferries = true;
      c.ferry_no_end = r.OptionalBool(f, p, "no_end_of_move", true);
      c.ferry_retreat_eliminates = r.OptionalBool(f, p, "retreat_into_eliminates", true);
    }
  }
  if (const YAML::Node d = Y::Get(n, "reinforcement_deadline")) {
    const std::string p = "exclusive_rules.reinforcement_deadline";
    if (r.CheckKeys(d, p, {"rule", "turn"})) c.deadline_turn = r.RequiredInt(d, p, "turn", 1, kMaxTurns).value_or(0);
  }
}

// 11.1
WG_RULE("11.1", ReadStrategicMovement);
void ReadStrategicMovement(const Reader& in, const YAML::Node& n, BgConfig& c) {
  YamlReader& r = in.r;
  if (!r.CheckKeys(n, "strategic_movement", {"allowed", "min_distance", "bonus"})) return;
  c.strategic = r.OptionalBool(n, "strategic_movement", "allowed", false);
  c.strategic_distance = r.OptionalInt(n, "strategic_movement", "min_distance", 4, 0, 1000);
  const YAML::Node b = Y::Get(n, "bonus");
  if (!b || !r.ExpectMap(b, "strategic_movement.bonus")) return;
  for (const auto& kv : b) {
    const std::string kind = Y::KeyText(kv.first);
    const int k = in.game.KindIndex(kind);
    const std::string p = "strategic_movement.bonus." + kind;
    if (k < 0) {
      r.Fail(kv.first, p, "unknown kind");
    } else {
      c.strategic_bonus[static_cast<size_t>(k)] = r.Int(kv.second, p, 0, 1000).value_or(0);
    }
  }
}

// 20.1: one award of the victory point schedule.
WG_RULE("20.11/20.12", ReadAward);
void ReadAward(const Reader& in, const YAML::Node& a, const std::string& p, BgConfig& c) {
  YamlReader& r = in.r;
  if (!r.CheckKeys(a, p, {"rule", "side", "when", "event", "of_side", "hexes", "place", "unit_kinds", "points"})) return;
  VpAward w;
  w.rule = r.OptionalString(a, p, "rule", "20.0");
  w.side = in.SideOf(a, p, "side", 0);
  const std::string when = r.RequiredString(a, p, "when").value_or("");
  if (Y::Get(a, "when") && when != "during_play" && when != "game_end") {
    r.Fail(Y::Get(a, "when"), Y::Child(p, "when"), "expected during_play or game_end");
  }
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
  } else if (Y::Get(a, "event")) {
    r.Fail(Y::Get(a, "event"), Y::Child(p, "event"), "unknown event \"" + ev + "\"");
  }
  w.of_side = in.SideOf(a, p, "of_side", 1 - w.side);
  const std::string hp = Y::Child(p, "hexes");
  if (const YAML::Node hexes = Y::Get(a, "hexes"); hexes && r.ExpectSequence(hexes, hp)) {
    for (size_t k = 0; k < hexes.size(); ++k) w.hexes.push_back(in.HexOf(hexes[k], Y::Item(hp, k)));
  }
  if (const YAML::Node place = Y::Get(a, "place")) {
    const std::string name = r.String(place, Y::Child(p, "place")).value_or("");
    const Place* pl = in.game.hex_board().map.FindPlace(name);
    if (!pl) {
      r.Fail(place, Y::Child(p, "place"), "no place named \"" + name + "\"");
    } else {
      w.hexes.insert(w.hexes.end(), pl->hexes.begin(), pl->hexes.end());
    }
  }
  if (const YAML::Node k = Y::Get(a, "unit_kinds")) w.unit_kinds = in.KindsOf(k, Y::Child(p, "unit_kinds"));
  w.points = r.RequiredInt(a, p, "points", -1000, 1000).value_or(0);
  c.awards.push_back(std::move(w));
}

void ReadVictoryPoints(const Reader& in, const YAML::Node& n, BgConfig& c) {
  YamlReader& r = in.r;
  if (!r.CheckKeys(n, "victory_points", {"rule", "awards"})) return;
  const YAML::Node list = Y::Get(n, "awards");
  if (!list || !r.ExpectSequence(list, "victory_points.awards")) return;
  for (size_t i = 0; i < list.size(); ++i) ReadAward(in, list[i], Y::Item("victory_points.awards", i), c);
}

}  // namespace

BgConfig ReadConfig(const Game& game, RulesetDocument& doc) {
  BgConfig c;
  const Map& map = game.hex_board().map;
  c.is_ferry.assign(static_cast<size_t>(map.size()), 0);
  for (const Place* p : map.PlacesOfKind("ferry")) {
    for (int h : p->hexes) c.is_ferry[static_cast<size_t>(h)] = 1;
  }
  c.strategic_bonus.assign(game.kinds.size(), 0);
  if (doc.Has("exclusive_rules")) {
    ReadExclusiveRules(Reader{*doc.ReaderFor("exclusive_rules"), game}, doc.Section("exclusive_rules"), c);
  }
  if (doc.Has("strategic_movement")) {
    ReadStrategicMovement(Reader{*doc.ReaderFor("strategic_movement"), game}, doc.Section("strategic_movement"), c);
  }
  if (doc.Has("victory_points")) {
    ReadVictoryPoints(Reader{*doc.ReaderFor("victory_points"), game}, doc.Section("victory_points"), c);
  }
  if (doc.Has("crt")) CheckCrtTokens(*doc.ReaderFor("crt"), doc.Section("crt"), "crt", kBgCrtTokens);
  return c;
}

}  // namespace wg::blue_and_gray
