// Loads the Civil War miniatures ruleset and a scenario (keys listed in
// rules.h) into a Game, without a hex map.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <optional>
#include <type_traits>

#include "rules.h"
#include "wargame/game_loader.h"
#include "wargame/registry.h"
#include "wargame/yaml_reader.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

std::unique_ptr<Rules> MakeMiniRules(const Game* game);  // rules/steps.cc

namespace {

namespace fs = std::filesystem;
using YAML::Node;

int16_t Hundredths(double inches) { return static_cast<int16_t>(std::lround(inches * 100.0)); }

// A required number: a missing key is an error at the map.
template <typename T>
void Req(YamlReader& r, const Node& n, const std::string& p, const char* key, T* out) {
  const Node v = n[key];
  const std::string kp = YamlReader::Child(p, key);
  if (!v) {
    r.Fail(n, kp, "missing required key");
    return;
  }
  if constexpr (std::is_same_v<T, int>) {
    if (auto x = r.Int(v, kp)) *out = *x;
  } else {
    if (auto x = r.Double(v, kp)) *out = *x;
  }
}

// A die size: 2 to 100 sides.
void ReqDie(YamlReader& r, const Node& n, const std::string& p, const char* key, int* out) {
  Req(r, n, p, key, out);
  if (n[key] && (*out < 2 || *out > 100)) r.Fail(n[key], YamlReader::Child(p, key), "a die has 2 to 100 sides");
}

// A required list: the node, or nothing (with an error) when it is missing or not a list.
std::optional<Node> RequiredList(YamlReader& r, const Node& n, const std::string& p, const char* key) {
  const Node v = n[key];
  if (!v) {
    r.Fail(n, YamlReader::Child(p, key), "missing required key");
    return std::nullopt;
  }
  if (!r.ExpectSequence(v, YamlReader::Child(p, key))) return std::nullopt;
  return v;
}

// Faces of a die, as a list of numbers 1..die.
std::vector<int> ReadFaces(YamlReader& r, const Node& n, const std::string& p, const char* key, int die) {
  std::vector<int> out;
  const std::string kp = YamlReader::Child(p, key);
  if (const auto list = RequiredList(r, n, p, key)) {
    const Node v = *list;
    for (size_t i = 0; i < v.size(); ++i) {
      const auto f = r.Int(v[i], YamlReader::Item(kp, i));
      if (f && (*f < 1 || *f > die)) r.Fail(v[i], YamlReader::Item(kp, i), "not a face of the die");
      if (f) out.push_back(*f);
    }
  }
  return out;
}

// A map section that must be there; false (with an error) when it is missing or not a map.
bool Section(YamlReader& r, const Node& parent, const std::string& p, const char* key,
             std::initializer_list<std::string_view> keys) {
  const Node n = parent[key];
  if (!n) {
    r.Fail(parent, YamlReader::Child(p, key), "missing required section");
    return false;
  }
  return r.CheckKeys(n, YamlReader::Child(p, key), keys);
}

// 9.1 / 9.2: a direction table, one entry per face of the livestock die.
WG_RULE("9.1/9.2/D", ReadHerdTable);
std::vector<HerdFace> ReadHerdTable(YamlReader& r, const Node& n, const std::string& p, const char* key, int die) {
  std::vector<HerdFace> out;
  const std::string kp = YamlReader::Child(p, key);
  const auto list = RequiredList(r, n, p, key);
  if (!list) return out;
  const Node v = *list;
  if (static_cast<int>(v.size()) != die) r.Fail(v, kp, "one entry per face of the die (" + std::to_string(die) + ")");
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string ip = YamlReader::Item(kp, i);
    const auto name = r.String(v[i], ip);
    if (!name) continue;
    HerdFace f;
    if (*name == "stay") {
      f.move = HerdMove::kStay;
    } else if (*name == "scatter") {
      f.move = HerdMove::kScatter;
    } else if (*name == "closest_unit") {
      f.move = HerdMove::kClosestUnit;
    } else if (auto h = ParseHeading(*name)) {
      f.move = HerdMove::kDirection;
      f.dir = HeadingVector(*h);
    } else {
      r.Fail(v[i], ip, "expected a heading (N, NE, ...), stay, scatter or closest_unit, got \"" + *name + "\"");
    }
    out.push_back(f);
  }
  return out;
}

WG_RULE("D", ReadMechanics);
void ReadMechanics(YamlReader& r, const Node& n, const std::string& p, MiniData* d) {
  if (Section(r, n, p, "morale", {"provenance", "die", "battery_die", "regimental"})) {
    const std::string mp = YamlReader::Child(p, "morale");
    ReqDie(r, n["morale"], mp, "die", &d->morale_die);
    ReqDie(r, n["morale"], mp, "battery_die", &d->battery_morale_die);
    Req(r, n["morale"], mp, "regimental", &d->morale_regimental);
  }
  if (Section(r, n, p, "officers", {"provenance", "die", "regimental_death", "divisional_death"})) {
    const std::string op = YamlReader::Child(p, "officers");
    ReqDie(r, n["officers"], op, "die", &d->officer_die);
    d->regimental_death = ReadFaces(r, n["officers"], op, "regimental_death", d->officer_die);
    d->divisional_death = ReadFaces(r, n["officers"], op, "divisional_death", d->officer_die);
  }
  if (Section(r, n, p, "melee", {"provenance", "die", "loss_die", "winner_divisor", "tie_loss", "max_rounds"})) {
    const std::string mp = YamlReader::Child(p, "melee");
    const Node m = n["melee"];
    ReqDie(r, m, mp, "die", &d->melee_die);
    ReqDie(r, m, mp, "loss_die", &d->melee_loss_die);
    Req(r, m, mp, "winner_divisor", &d->melee_winner_divisor);
    Req(r, m, mp, "tie_loss", &d->melee_tie_loss);
    d->melee_max_rounds = r.OptionalInt(m, mp, "max_rounds", d->melee_max_rounds);
    if (d->melee_winner_divisor < 1) r.Fail(m["winner_divisor"], YamlReader::Child(mp, "winner_divisor"), "must be >= 1");
    if (d->melee_max_rounds < 1) r.Fail(m["max_rounds"], YamlReader::Child(mp, "max_rounds"), "must be >= 1");
  }
  if (Section(r, n, p, "dinner", {"provenance", "die", "men_die"})) {
    ReqDie(r, n["dinner"], YamlReader::Child(p, "dinner"), "die", &d->dinner_die);
    ReqDie(r, n["dinner"], YamlReader::Child(p, "dinner"), "men_die", &d->dinner_men_die);
  }
  if (Section(r, n, p, "livestock",
              {"provenance", "direction_die", "move_dice", "move_die", "cows", "pigs", "scatter"})) {
    const std::string lp = YamlReader::Child(p, "livestock");
    const Node l = n["livestock"];
    ReqDie(r, l, lp, "direction_die", &d->herd_direction_die);
    Req(r, l, lp, "move_dice", &d->herd_move_dice);
    ReqDie(r, l, lp, "move_die", &d->herd_move_die);
    if (d->herd_move_dice < 1 || d->herd_move_dice > 10) r.Fail(l["move_dice"], YamlReader::Child(lp, "move_dice"), "1 to 10 dice");
    d->cow_faces = ReadHerdTable(r, l, lp, "cows", d->herd_direction_die);
    d->pig_faces = ReadHerdTable(r, l, lp, "pigs", d->herd_direction_die);
    d->scatter.clear();
    const Node sc = l["scatter"];
    const std::string sp = YamlReader::Child(lp, "scatter");
    if (!sc) {
      r.Fail(l, sp, "missing required key");
    } else {
      for (const std::string& h : r.StringList(sc, sp)) {
        if (auto heading = ParseHeading(h)) {
          d->scatter.push_back(HeadingVector(*heading));
        } else {
          r.Fail(sc, sp, "not a heading: \"" + h + "\"");
        }
      }
      if (d->scatter.size() != 4) r.Fail(sc, sp, "four headings, one for each group of a scattered herd");
    }
  }
}

WG_RULE("D", ReadChart);
void ReadChart(YamlReader& r, const Node& n, const std::string& p, MiniData* d) {
  if (!r.CheckKeys(n, p,
                   {"provenance", "charge_range", "retreat", "countercharge_move", "dinner_radius",
                    "dinner_roll", "dinner_roll_officer", "pig_escape_roll", "pig_auto_turn",
                    "gun_destroyed_on", "gun_hit_die", "house_fire", "barn_fire", "modifiers", "bonuses", "morale",
                    "officers", "melee", "dinner", "livestock"})) {
    return;
  }
  Req(r, n, p, "charge_range", &d->charge_range);
  Req(r, n, p, "retreat", &d->retreat);
  Req(r, n, p, "countercharge_move", &d->countercharge_move);
  Req(r, n, p, "dinner_radius", &d->dinner_radius);
  Req(r, n, p, "dinner_roll", &d->dinner_roll);
  Req(r, n, p, "dinner_roll_officer", &d->dinner_roll_officer);
  Req(r, n, p, "pig_escape_roll", &d->pig_escape_roll);
  Req(r, n, p, "pig_auto_turn", &d->pig_auto_turn);
  Req(r, n, p, "gun_destroyed_on", &d->gun_destroyed_on);
  ReqDie(r, n, p, "gun_hit_die", &d->gun_hit_die);
  Req(r, n, p, "house_fire", &d->house_fire);
  Req(r, n, p, "barn_fire", &d->barn_fire);
  if (Section(r, n, p, "modifiers", {"building", "woods_or_fence", "terrain_advantage", "disorganized"})) {
    const Node m = n["modifiers"];
    const std::string mp = YamlReader::Child(p, "modifiers");
    Req(r, m, mp, "building", &d->mod_building);
    Req(r, m, mp, "woods_or_fence", &d->mod_cover);
    Req(r, m, mp, "terrain_advantage", &d->mod_terrain);
    Req(r, m, mp, "disorganized", &d->mod_disorganized);
  }
  if (Section(r, n, p, "bonuses", {"artillery_opponent", "flank_or_rear", "regimental", "divisional"})) {
    const Node b = n["bonuses"];
    const std::string bp = YamlReader::Child(p, "bonuses");
    Req(r, b, bp, "artillery_opponent", &d->bonus_artillery);
    Req(r, b, bp, "flank_or_rear", &d->bonus_flank);
    Req(r, b, bp, "regimental", &d->bonus_regimental);
    Req(r, b, bp, "divisional", &d->bonus_divisional);
  }
  ReadMechanics(r, n, p, d);
}

WG_RULE("CAL", ReadCalibration);
void ReadCalibration(YamlReader& r, const Node& n, const std::string& p, MiniData* d) {
  if (!r.CheckKeys(n, p,
                   {"provenance", "figures_per_stand", "figures_per_fire_die", "column_files", "stand_width",
                    "stand_depth", "fence_cost", "woods_factor", "hit_floor", "fire_arc"})) {
    return;
  }
  d->figures_per_stand = r.OptionalInt(n, p, "figures_per_stand", d->figures_per_stand);
  d->figures_per_fire_die = r.OptionalInt(n, p, "figures_per_fire_die", d->figures_per_fire_die);
  d->column_files = r.OptionalInt(n, p, "column_files", d->column_files);
  d->stand_width = r.OptionalDouble(n, p, "stand_width", d->stand_width);
  d->stand_depth = r.OptionalDouble(n, p, "stand_depth", d->stand_depth);
  d->fence_cost = r.OptionalDouble(n, p, "fence_cost", d->fence_cost);
  d->woods_factor = r.OptionalDouble(n, p, "woods_factor", d->woods_factor);
  d->hit_floor = r.OptionalInt(n, p, "hit_floor", d->hit_floor);
  Req(r, n, p, "fire_arc", &d->fire_arc);
  if (d->fire_arc < 0 || d->fire_arc >= 90) r.Fail(n["fire_arc"], YamlReader::Child(p, "fire_arc"), "0 to 89 degrees");
  if (d->figures_per_stand < 1) r.Fail(n["figures_per_stand"], p, "figures_per_stand must be >= 1");
  if (d->figures_per_fire_die < 1) r.Fail(n["figures_per_fire_die"], p, "figures_per_fire_die must be >= 1");
  if (d->column_files < 1) r.Fail(n["column_files"], p, "column_files must be >= 1");
}

WG_RULE("3/M", ReadTypes);
void ReadTypes(YamlReader& r, const Node& n, const std::string& p, MiniData* d) {
  if (!r.ExpectMap(n, p)) return;
  for (const auto& kv : n) {
    UnitType t;
    t.id = kv.first.Scalar();
    const std::string tp = YamlReader::Child(p, t.id);
    const Node v = kv.second;
    if (!r.CheckKeys(v, tp,
                     {"kind", "provenance", "move", "crew_per_gun", "dice_per_gun", "gun_width", "gun_depth",
                      "fire_in_column", "hits"})) {
      continue;
    }
    const std::string kind = r.RequiredString(v, tp, "kind").value_or("infantry");
    if (kind != "infantry" && kind != "artillery")
      r.Fail(v["kind"], tp, "kind must be infantry or artillery");
    t.artillery = kind == "artillery";
    if (const Node m = v["move"]) {
      const std::string mp = YamlReader::Child(tp, "move");
      if (r.CheckKeys(m, mp, {"column", "line"})) {
        t.move_column = r.OptionalDouble(m, mp, "column", 0);
        t.move_line = r.OptionalDouble(m, mp, "line", 0);
      }
    } else {
      r.Fail(v, YamlReader::Child(tp, "move"), "missing required key");
    }
    t.crew_per_gun = r.OptionalInt(v, tp, "crew_per_gun", t.artillery ? 3 : 0);
    t.dice_per_gun = r.OptionalInt(v, tp, "dice_per_gun", 1);
    t.gun_width = r.OptionalDouble(v, tp, "gun_width", t.gun_width);
    t.gun_depth = r.OptionalDouble(v, tp, "gun_depth", t.gun_depth);
    t.fire_in_column = r.OptionalBool(v, tp, "fire_in_column", false);
    if (t.artillery && t.crew_per_gun < 1) r.Fail(v, tp, "crew_per_gun must be >= 1");
    const Node h = v["hits"];
    const std::string hp = YamlReader::Child(tp, "hits");
    if (!h) {
      r.Fail(v, YamlReader::Child(tp, "hits"), "missing required key");
    } else if (r.ExpectSequence(h, hp)) {
      for (size_t i = 0; i < h.size(); ++i) {
        const std::string ip = YamlReader::Item(hp, i);
        if (!r.CheckKeys(h[i], ip, {"up_to", "hit"})) continue;
        HitBand b;
        b.up_to = r.OptionalDouble(h[i], ip, "up_to", 0);
        b.hit = r.RequiredInt(h[i], ip, "hit").value_or(6);
        if (!t.hits.empty() && b.up_to <= t.hits.back().up_to) r.Fail(h[i], ip, "bands must grow in range");
        t.hits.push_back(b);
      }
    }
    d->types.push_back(std::move(t));
  }
}

double ReadFacing(YamlReader& r, const Node& n, const std::string& p) {
  if (!n) return 0;
  if (auto h = ParseHeading(n.Scalar())) return HeadingAngle(*h) * 180.0 / std::numbers::pi;
  const auto deg = r.Double(n, p);
  return deg.value_or(0);
}

bool ReadPoint(YamlReader& r, const Node& n, const std::string& p, Vec2* out) {
  if (!n || !n.IsSequence() || n.size() != 2) {
    r.Fail(n, p, "expected a point [x, y] in inches");
    return false;
  }
  out->x = r.Double(n[0], YamlReader::Item(p, 0)).value_or(0);
  out->y = r.Double(n[1], YamlReader::Item(p, 1)).value_or(0);
  return true;
}

void ReadSides(YamlReader& r, const Node& root, Game* game) {
  if (!root["sides"]) r.Fail(root, "sides", "missing required section");
  if (const Node s = root["sides"]; s && r.ExpectSequence(s, "sides")) {
    for (size_t i = 0; i < s.size(); ++i) {
      const std::string p = YamlReader::Item("sides", i);
      if (!r.CheckKeys(s[i], p, {"id", "name"})) continue;
      SideDef d;
      d.id = r.RequiredString(s[i], p, "id").value_or("");
      d.name = r.OptionalString(s[i], p, "name", d.id);
      game->sides.push_back(d);
    }
    if (game->sides.size() != 2) r.Fail(s, "sides", "exactly two sides are needed");
  }
}

// The scenario's table and each side's home edge.
void ReadScenarioTable(YamlReader& sr, const Node& sc, Game* game, MiniData* data) {
  if (const Node t = sc["table"]) {
    auto table = LoadTable(sr, t, "table");
    if (table.ok()) SetTable(*game, *table);
  } else {
    sr.Fail(sc, "table", "missing required section");
  }
  for (int side = 0; side < static_cast<int>(game->sides.size()) && side < 2; ++side) {
    auto it = game->table().home_edges.find(game->sides[static_cast<size_t>(side)].id);
    if (it == game->table().home_edges.end()) {
      if (sc["table"])
        sr.Fail(sc["table"], "table.home_edges",
                "no home edge for side " + game->sides[static_cast<size_t>(side)].id);
    } else {
      data->home[side] = it->second;
    }
  }
}

WG_RULE("V", ReadLivestockAndVictory);
void ReadLivestockAndVictory(YamlReader& sr, const Node& sc, MiniData* data) {
  if (const Node l = sc["livestock"]) {
    if (sr.CheckKeys(l, "livestock", {"cows", "pigs"})) {
      if (l["cows"]) data->has_cows = ReadPoint(sr, l["cows"], "livestock.cows", &data->cows);
      if (l["pigs"]) data->has_pigs = ReadPoint(sr, l["pigs"], "livestock.pigs", &data->pigs);
    }
  }
  if (const Node v = sc["victory"]) {
    if (sr.CheckKeys(v, "victory", {"figure", "gun", "building"})) {
      data->vp_figure = sr.OptionalInt(v, "victory", "figure", data->vp_figure);
      data->vp_gun = sr.OptionalInt(v, "victory", "gun", data->vp_gun);
      data->vp_building = sr.OptionalInt(v, "victory", "building", data->vp_building);
    }
  }
}

// One scenario unit: its UnitDef, UnitInfo and start position (MiniUnit).
WG_RULE("S", ReadMiniUnit);
void ReadMiniUnit(YamlReader& sr, const Node& u, const std::string& p, size_t i, Game* game, MiniData* data) {
  MiniState* start = &data->start;
  UnitDef d;
  d.id = sr.RequiredString(u, p, "id").value_or("");
  d.name = sr.OptionalString(u, p, "name", d.id);
  if (game->UnitIndex(d.id) >= 0) sr.Fail(u["id"], p, "duplicate unit id \"" + d.id + "\"");
  const std::string side = sr.RequiredString(u, p, "side").value_or("");
  d.side = game->SideIndex(side);
  if (d.side < 0) {
    sr.Fail(u["side"], YamlReader::Child(p, "side"), "unknown side \"" + side + "\"");
    d.side = 0;
  }
  const std::string type = sr.RequiredString(u, p, "type").value_or("");
  UnitInfo info;
  info.type = -1;
  for (size_t k = 0; k < data->types.size(); ++k) {
    if (data->types[k].id == type) info.type = static_cast<int>(k);
  }
  if (info.type < 0) {
    sr.Fail(u["type"], YamlReader::Child(p, "type"), "unknown unit type \"" + type + "\"");
    info.type = 0;
  }
  const UnitType& ut = data->types[static_cast<size_t>(info.type)];
  d.kind = ut.artillery ? 1 : 0;
  info.start_figures = sr.RequiredInt(u, p, "figures").value_or(1);
  if (info.start_figures < 1 || info.start_figures > 255)
    sr.Fail(u["figures"], p, "figures must be 1..255");
  info.start_guns = ut.artillery ? sr.RequiredInt(u, p, "guns").value_or(1) : 0;
  if (!ut.artillery && u["guns"]) sr.Fail(u["guns"], p, "only artillery has guns");
  if (info.start_guns < 0 || info.start_guns > 12) sr.Fail(u["guns"], p, "guns must be 0..12");
  Vec2 at;
  if (!u["at"]) {
    sr.Fail(u, YamlReader::Child(p, "at"), "missing required key");
  } else {
    ReadPoint(sr, u["at"], YamlReader::Child(p, "at"), &at);
  }
  if (!game->table().Contains(at)) sr.Fail(u["at"], YamlReader::Child(p, "at"), "not on the table");
  const double facing = ReadFacing(sr, u["facing"], YamlReader::Child(p, "facing"));
  const std::string formation = sr.OptionalString(u, p, "formation", "line");
  if (formation != "line" && formation != "column") {
    sr.Fail(u["formation"], YamlReader::Child(p, "formation"), "formation must be line or column");
  }
  d.face = formation == "line" ? 1 : 0;
  d.setup_hex = kOnTable;  // no hex: the position is in the MiniState
  MiniUnit& mu = start->units[i];
  mu.x = Hundredths(at.x);
  mu.y = Hundredths(at.y);
  mu.facing = static_cast<int16_t>(std::lround(facing));
  mu.figures = static_cast<uint8_t>(std::clamp(info.start_figures, 1, 255));
  mu.guns = static_cast<uint8_t>(std::clamp(info.start_guns, 0, 12));
  if (const Node o = u["officers"]) {
    for (const std::string& off : sr.StringList(o, YamlReader::Child(p, "officers"))) {
      if (off == "regimental") {
        mu.officers |= kRegimental;
      } else if (off == "divisional") {
        mu.officers |= kDivisional;
      } else {
        sr.Fail(o, YamlReader::Child(p, "officers"), "officer must be regimental or divisional");
      }
    }
  }
  if (sr.OptionalBool(u, p, "routed", false)) data->start_routed |= 1u << i;
  if (sr.OptionalBool(u, p, "pinned", false)) data->start_pinned |= 1u << i;
  game->units.push_back(d);
  data->info.push_back(info);
}

// T.1: the deck's cards before shuffling.
WG_RULE("T.1", ReadDeck);
void ReadDeck(YamlReader& sr, const Node& sc, Game* game, MiniData* data) {
  if (const Node dk = sc["deck"]) {
    for (const std::string& c : sr.StringList(dk, "deck")) {
      const int u = game->UnitIndex(c);
      if (c == "cows") {
        data->deck_order.push_back(kCowCard);
      } else if (c == "pigs") {
        data->deck_order.push_back(kPigCard);
      } else if (u >= 0) {
        data->deck_order.push_back(u);
      } else {
        sr.Fail(dk, "deck", "unknown card \"" + c + "\" (a unit id, cows or pigs)");
      }
    }
    if (data->deck_order.size() != game->units.size() + 2) {
      sr.Fail(dk, "deck", "the deck lists every unit once, plus cows and pigs");
    }
  } else {
    for (int u = 0; u < game->num_units(); ++u) data->deck_order.push_back(u);
    data->deck_order.push_back(kCowCard);
    data->deck_order.push_back(kPigCard);
  }
}

}  // namespace

WG_RULE("L/S", LoadMiniGame);
Result<std::shared_ptr<const Game>> LoadMiniGame(const std::string& folder, const std::string& scenario_file,
                                                 const GameParams& params) {
  auto game = std::make_shared<Game>();
  auto data = std::make_shared<MiniData>();
  game->params = params;
  game->folder = folder;
  YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
  if (!r.ok()) return r.errors();
  const Node root = r.root();
  if (!root.IsMap()) {
    r.Fail(root, "", "expected a map (name, sides, chart, calibration, unit_types, scenarios)");
    return r.errors();
  }
  r.CheckKeys(root, "",
              {"name", "title", "provenance", "sides", "chart", "calibration", "unit_types", "scenarios",
               "default_scenario"});
  game->title = r.OptionalString(root, "", "title", "Civil War miniatures");
  // No choices the program can make for the players (Game::choices): `auto=` names none.
  for (const auto& want : params.automated) {
    r.Fail(root, "auto", "this ruleset has no choice \"" + want + "\" the program can make (it has no choices)");
  }
  ReadSides(r, root, game.get());
  for (const char* key : {"chart", "calibration", "unit_types"}) {
    if (!root[key]) r.Fail(root, key, "missing required section");
  }
  if (root["chart"]) ReadChart(r, root["chart"], "chart", data.get());
  if (root["calibration"]) ReadCalibration(r, root["calibration"], "calibration", data.get());
  if (root["unit_types"]) ReadTypes(r, root["unit_types"], "unit_types", data.get());
  if (data->types.empty() && r.ok()) r.Fail(root["unit_types"], "unit_types", "at least one unit type");
  if (!r.ok()) return r.errors();

  // The scenario.
  const std::string sf = fs::path(scenario_file).is_absolute() ? scenario_file : folder + "/" + scenario_file;
  YamlReader sr = YamlReader::FromFile(sf);
  if (!sr.ok()) return sr.errors();
  const Node sc = sr.root();
  if (!sc.IsMap()) {
    sr.Fail(sc, "", "expected a map (title, turns, table, units...)");
    return sr.errors();
  }
  sr.CheckKeys(sc, "",
               {"title", "provenance", "turns", "start_turn", "shuffle", "deck", "table", "livestock", "units",
                "victory"});
  if (sc["title"]) game->title += ": " + sr.String(sc["title"], "title").value_or("");
  const int turns = sr.RequiredInt(sc, "", "turns").value_or(1);
  if (turns < 1 || turns >= kMaxTurns)
    sr.Fail(sc["turns"], "turns", "turns must be 1.." + std::to_string(kMaxTurns - 1));
  for (int t = 1; t <= turns; ++t) game->turns.turns.push_back(TurnDef{"", false});
  data->start_turn = sr.OptionalInt(sc, "", "start_turn", 1);
  if (data->start_turn < 1 || data->start_turn > std::max(1, turns))
    sr.Fail(sc["start_turn"], "start_turn", "start_turn must be 1.." + std::to_string(std::max(1, turns)));
  game->turns.order = {0};
  game->turns.phases = {"cards"};
  data->shuffle = sr.OptionalBool(sc, "", "shuffle", true);
  ReadScenarioTable(sr, sc, game.get(), data.get());
  ReadLivestockAndVictory(sr, sc, data.get());
  game->kinds = {KindDef{"infantry", 0, true}, KindDef{"artillery", 1, true}};
  game->attributes = {"figures"};
  // Start positions are kept in the Game as a MiniState template (Start copies it).
  MiniState* start = &data->start;
  const Node units = sc["units"];
  if (!units) sr.Fail(sc, "units", "missing required section");
  if (units && sr.ExpectSequence(units, "units")) {
    if (units.size() > static_cast<size_t>(kMaxMiniUnits)) sr.Fail(units, "units", "at most 24 units");
    for (size_t i = 0; i < units.size() && i < static_cast<size_t>(kMaxMiniUnits); ++i) {
      const std::string p = YamlReader::Item("units", i);
      const Node u = units[i];
      if (!sr.CheckKeys(u, p,
                        {"id", "name", "side", "type", "figures", "guns", "at", "facing", "formation",
                         "officers", "routed", "pinned"})) {
        continue;
      }
      ReadMiniUnit(sr, u, p, i, game.get(), data.get());
    }
  }
  ReadDeck(sr, sc, game.get(), data.get());
  if (!sr.ok()) return sr.errors();
  for (auto& h : start->herds) h = Herd{};
  if (data->has_cows) start->herds[0] = Herd{Hundredths(data->cows.x), Hundredths(data->cows.y), 1, 0};
  if (data->has_pigs) start->herds[4] = Herd{Hundredths(data->pigs.x), Hundredths(data->pigs.y), 1, 1};
  game->start.turn = 1;
  PrepareTableGeometry(game->table(), data.get());
  game->data = std::move(data);
  game->rules = MakeMiniRules(game.get());
  RecordDataRules(r, game.get());  // the keys read whose line names a rule (`wargame rules`)
  RecordDataRules(sr, game.get());
  return std::shared_ptr<const Game>(std::move(game));
}

namespace {

Result<std::shared_ptr<const Game>> Factory(const GameParams& params) {
  const std::string folder = FindRulesetFolder("civil_war_miniatures");
  YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
  if (!r.ok()) return r.errors();
  std::string scenario = params.scenario;
  if (scenario.empty()) scenario = r.OptionalString(r.root(), "", "default_scenario", "farm");
  // --scenario FILE: a scenario file of this ruleset's format (rules.h).
  if (fs::is_regular_file(scenario)) {
    GameParams p = params;
    p.ruleset = "civil_war_miniatures";
    return LoadMiniGame(folder, fs::absolute(scenario).string(), p);
  }
  if (!r.root().IsMap()) {
    r.Fail(r.root(), "", "expected a map");
    return r.errors();
  }
  const Node sc = r.root()["scenarios"];
  if (!sc || !sc.IsMap() || !sc[scenario]) {
    Error e;
    e.file = folder + "/ruleset.yaml";
    e.path = "scenarios";
    e.message = "unknown scenario \"" + scenario + "\"";
    return e;
  }
  GameParams p = params;
  p.ruleset = "civil_war_miniatures";
  p.scenario = scenario;
  return LoadMiniGame(folder, sc[scenario].Scalar(), p);
}

WG_REGISTER_RULESET((RulesetInfo{"civil_war_miniatures",
                                 "Civil War tabletop miniatures (Confederate quick-reference chart)",
                                 "civil_war_miniatures"}),
                    Factory);

}  // namespace
}  // namespace wg::civil_war_miniatures
