// Loads the Civil War miniatures ruleset and a scenario (keys listed in
// civil_war_miniatures.h) into a Game, without a hex map.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "civil_war_miniatures.h"
#include "wargame/game_loader.h"
#include "wargame/registry.h"
#include "wargame/yaml_reader.h"

namespace wg::civil_war_miniatures {

std::unique_ptr<Rules> MakeMiniRules(const Game* game);  // hooks.cc

namespace {

namespace fs = std::filesystem;
using YAML::Node;

int16_t Hundredths(double inches) { return static_cast<int16_t>(std::lround(inches * 100.0)); }

void ReadChart(YamlReader& r, const Node& n, const std::string& p, MiniData* d) {
  if (!r.CheckKeys(n, p,
                   {"provenance", "charge_range", "retreat", "countercharge_move", "dinner_radius",
                    "dinner_roll", "dinner_roll_officer", "pig_escape_roll", "pig_auto_turn",
                    "gun_destroyed_on", "house_fire", "barn_fire", "modifiers", "bonuses"})) {
    return;
  }
  d->charge_range = r.OptionalDouble(n, p, "charge_range", d->charge_range);
  d->retreat = r.OptionalDouble(n, p, "retreat", d->retreat);
  d->countercharge_move = r.OptionalDouble(n, p, "countercharge_move", d->countercharge_move);
  d->dinner_radius = r.OptionalDouble(n, p, "dinner_radius", d->dinner_radius);
  d->dinner_roll = r.OptionalInt(n, p, "dinner_roll", d->dinner_roll);
  d->dinner_roll_officer = r.OptionalInt(n, p, "dinner_roll_officer", d->dinner_roll_officer);
  d->pig_escape_roll = r.OptionalInt(n, p, "pig_escape_roll", d->pig_escape_roll);
  d->pig_auto_turn = r.OptionalInt(n, p, "pig_auto_turn", d->pig_auto_turn);
  d->gun_destroyed_on = r.OptionalInt(n, p, "gun_destroyed_on", d->gun_destroyed_on);
  d->house_fire = r.OptionalInt(n, p, "house_fire", d->house_fire);
  d->barn_fire = r.OptionalInt(n, p, "barn_fire", d->barn_fire);
  if (const Node m = n["modifiers"]) {
    const std::string mp = YamlReader::Child(p, "modifiers");
    if (r.CheckKeys(m, mp, {"building", "woods_or_fence", "terrain_advantage", "disorganized"})) {
      d->mod_building = r.OptionalInt(m, mp, "building", d->mod_building);
      d->mod_cover = r.OptionalInt(m, mp, "woods_or_fence", d->mod_cover);
      d->mod_terrain = r.OptionalInt(m, mp, "terrain_advantage", d->mod_terrain);
      d->mod_disorganized = r.OptionalInt(m, mp, "disorganized", d->mod_disorganized);
    }
  }
  if (const Node b = n["bonuses"]) {
    const std::string bp = YamlReader::Child(p, "bonuses");
    if (r.CheckKeys(b, bp, {"artillery_opponent", "flank_or_rear", "regimental", "divisional"})) {
      d->bonus_artillery = r.OptionalInt(b, bp, "artillery_opponent", d->bonus_artillery);
      d->bonus_flank = r.OptionalInt(b, bp, "flank_or_rear", d->bonus_flank);
      d->bonus_regimental = r.OptionalInt(b, bp, "regimental", d->bonus_regimental);
      d->bonus_divisional = r.OptionalInt(b, bp, "divisional", d->bonus_divisional);
    }
  }
}

void ReadCalibration(YamlReader& r, const Node& n, const std::string& p, MiniData* d) {
  if (!r.CheckKeys(n, p,
                   {"provenance", "figures_per_stand", "stand_width", "stand_depth", "fence_cost",
                    "woods_factor", "hit_floor"})) {
    return;
  }
  d->figures_per_stand = r.OptionalInt(n, p, "figures_per_stand", d->figures_per_stand);
  d->stand_width = r.OptionalDouble(n, p, "stand_width", d->stand_width);
  d->stand_depth = r.OptionalDouble(n, p, "stand_depth", d->stand_depth);
  d->fence_cost = r.OptionalDouble(n, p, "fence_cost", d->fence_cost);
  d->woods_factor = r.OptionalDouble(n, p, "woods_factor", d->woods_factor);
  d->hit_floor = r.OptionalInt(n, p, "hit_floor", d->hit_floor);
  if (d->figures_per_stand < 1) r.Fail(n["figures_per_stand"], p, "figures_per_stand must be >= 1");
}

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
      r.Fail(v, tp, "missing key \"move\"");
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
      r.Fail(v, tp, "missing key \"hits\"");
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

}  // namespace

Result<std::shared_ptr<const Game>> LoadMiniGame(const std::string& folder, const std::string& scenario_file,
                                                 const GameParams& params) {
  auto game = std::make_shared<Game>();
  auto data = std::make_shared<MiniData>();
  game->params = params;
  game->folder = folder;
  YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
  if (!r.ok()) return r.errors();
  const Node root = r.root();
  r.CheckKeys(root, "",
              {"name", "title", "provenance", "sides", "chart", "calibration", "unit_types", "scenarios",
               "default_scenario"});
  game->title = r.OptionalString(root, "", "title", "Civil War miniatures");
  if (const Node s = root["sides"]; r.ExpectSequence(s, "sides")) {
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
  if (root["chart"]) ReadChart(r, root["chart"], "chart", data.get());
  if (root["calibration"]) ReadCalibration(r, root["calibration"], "calibration", data.get());
  ReadTypes(r, root["unit_types"], "unit_types", data.get());
  if (!r.ok()) return r.errors();

  // The scenario.
  const std::string sf = fs::path(scenario_file).is_absolute() ? scenario_file : folder + "/" + scenario_file;
  YamlReader sr = YamlReader::FromFile(sf);
  if (!sr.ok()) return sr.errors();
  const Node sc = sr.root();
  sr.CheckKeys(sc, "",
               {"title", "provenance", "turns", "shuffle", "deck", "table", "livestock", "units", "victory"});
  if (sc["title"]) game->title += ": " + sr.String(sc["title"], "title").value_or("");
  const int turns = sr.RequiredInt(sc, "", "turns").value_or(1);
  if (turns < 1 || turns >= kMaxTurns)
    sr.Fail(sc["turns"], "turns", "turns must be 1.." + std::to_string(kMaxTurns - 1));
  for (int t = 1; t <= turns; ++t) game->turns.turns.push_back(TurnDef{"", false});
  game->turns.order = {0};
  game->turns.phases = {"cards"};
  data->shuffle = sr.OptionalBool(sc, "", "shuffle", true);
  if (const Node t = sc["table"]) {
    auto table = LoadTable(sr, t, "table");
    if (table.ok()) data->table = *table;
  } else {
    sr.Fail(sc, "", "missing key \"table\"");
  }
  for (int side = 0; side < static_cast<int>(game->sides.size()) && side < 2; ++side) {
    auto it = data->table.home_edges.find(game->sides[static_cast<size_t>(side)].id);
    if (it == data->table.home_edges.end()) {
      if (sc["table"])
        sr.Fail(sc["table"], "table.home_edges",
                "no home edge for side " + game->sides[static_cast<size_t>(side)].id);
    } else {
      data->home[side] = it->second;
    }
  }
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
  game->kinds = {KindDef{"infantry", 0, true}, KindDef{"artillery", 1, true}};
  game->attributes = {"figures"};
  // Start positions are kept in the Game as a MiniState template (Start copies it).
  MiniState* start = &data->start;
  const Node units = sc["units"];
  if (sr.ExpectSequence(units, "units")) {
    if (units.size() > static_cast<size_t>(kMaxMiniUnits)) sr.Fail(units, "units", "at most 24 units");
    for (size_t i = 0; i < units.size() && i < static_cast<size_t>(kMaxMiniUnits); ++i) {
      const std::string p = YamlReader::Item("units", i);
      const Node u = units[i];
      if (!sr.CheckKeys(u, p,
                        {"id", "name", "side", "type", "figures", "guns", "at", "facing", "formation",
                         "officers", "routed"})) {
        continue;
      }
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
      ReadPoint(sr, u["at"], YamlReader::Child(p, "at"), &at);
      if (!data->table.Contains(at)) sr.Fail(u["at"], YamlReader::Child(p, "at"), "not on the table");
      const double facing = ReadFacing(sr, u["facing"], YamlReader::Child(p, "facing"));
      const std::string formation = sr.OptionalString(u, p, "formation", "line");
      if (formation != "line" && formation != "column") {
        sr.Fail(u["formation"], YamlReader::Child(p, "formation"), "formation must be line or column");
      }
      d.face = formation == "line" ? 1 : 0;
      d.setup_hex = 0;  // "on the table"; the position is in the MiniState
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
      game->units.push_back(d);
      data->info.push_back(info);
    }
  }
  // T.1: the deck's cards before shuffling.
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
  if (!sr.ok()) return sr.errors();
  for (auto& h : start->herds) h = Herd{};
  if (data->has_cows) start->herds[0] = Herd{Hundredths(data->cows.x), Hundredths(data->cows.y), 1, 0};
  if (data->has_pigs) start->herds[4] = Herd{Hundredths(data->pigs.x), Hundredths(data->pigs.y), 1, 1};
  game->start.turn = 1;
  game->data = std::shared_ptr<const void>(std::move(data));
  game->rules = MakeMiniRules(game.get());
  return std::shared_ptr<const Game>(std::move(game));
}

namespace {

Result<std::shared_ptr<const Game>> Factory(const GameParams& params) {
  const std::string folder = FindRulesetFolder("civil_war_miniatures");
  YamlReader r = YamlReader::FromFile(folder + "/ruleset.yaml");
  if (!r.ok()) return r.errors();
  std::string scenario = params.scenario;
  if (scenario.empty()) scenario = r.OptionalString(r.root(), "", "default_scenario", "farm");
  const Node sc = r.root()["scenarios"];
  if (!sc || !sc[scenario]) {
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
