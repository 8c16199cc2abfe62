// Victory-point schedules as data (victory.h): loading victory.points and the awards.
#include "wargame/victory.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "wargame/game.h"
#include "wargame/game_loader.h"

namespace wg {

namespace {

using For = VpScheduleEntry::For;

struct ForName {
  std::string_view name;
  For what;
};
constexpr std::array<ForName, 5> kFor = {{
    {"enemy_unit_eliminated", For::kEnemyUnitEliminated},
    {"enemy_strength_eliminated", For::kEnemyStrengthEliminated},
    {"place_first_controlled", For::kPlaceFirstControlled},
    {"place_held_each_turn", For::kPlaceHeldEachTurn},
    {"place_held_at_end", For::kPlaceHeldAtEnd},
}};

bool IsPlaceAward(For f) { return f != For::kEnemyUnitEliminated && f != For::kEnemyStrengthEliminated; }

// The place kinds whose control the hex engine tracks (combat.control_kinds),
// read without reporting: the hex loader reports what is wrong with them.
std::vector<std::string> TrackedKinds(const RulesetDocument& doc) {
  std::vector<std::string> kinds;
  const YAML::Node list = YamlReader::Get(doc.Section("combat"), "control_kinds");
  if (list.IsScalar()) kinds.push_back(list.Scalar());
  if (list.IsSequence()) {
    for (const YAML::Node& k : list) {
      if (k.IsScalar()) kinds.push_back(k.Scalar());
    }
  }
  return kinds;
}

bool ReadFor(YamlReader& r, const YAML::Node& n, const std::string& p, VpScheduleEntry* e) {
  const std::optional<std::string> name = r.RequiredString(n, p, "for");
  if (!name) return false;
  for (const ForName& f : kFor) {
    if (f.name == *name) {
      e->what = f.what;
      return true;
    }
  }
  std::string list;
  for (const ForName& f : kFor) list += (list.empty() ? "" : ", ") + std::string(f.name);
  r.Fail(n["for"], YamlReader::Child(p, "for"), "unknown award \"" + *name + "\" (expected one of: " + list + ")");
  return false;
}

void ReadSide(YamlReader& r, const Game& game, const YAML::Node& n, const std::string& p, VpScheduleEntry* e) {
  const std::string side = r.OptionalString(n, p, "side", "any");
  if (side == "any") return;
  e->side = game.SideIndex(side);
  if (e->side < 0) r.Fail(n["side"], YamlReader::Child(p, "side"), "unknown side \"" + side + "\" (or any)");
}

// kinds and attribute: what an elimination award counts.
void ReadEliminationKeys(YamlReader& r, const Game& game, const YAML::Node& n, const std::string& p,
                         VpScheduleEntry* e) {
  if (const YAML::Node k = n["kinds"]) {
    for (const std::string& id : r.StringList(k, YamlReader::Child(p, "kinds"))) {
      const int kind = game.KindIndex(id);
      if (kind < 0) r.Fail(k, YamlReader::Child(p, "kinds"), "unknown kind \"" + id + "\"");
      e->kinds.push_back(kind);
    }
  }
  if (e->what == For::kEnemyStrengthEliminated) {
    const std::string a = r.RequiredString(n, p, "attribute").value_or("");
    e->attribute = game.AttributeIndex(a);
    if (e->attribute < 0 && n["attribute"]) {
      r.Fail(n["attribute"], YamlReader::Child(p, "attribute"), "unknown attribute \"" + a + "\"");
    }
  } else if (n["attribute"]) {
    r.Fail(n["attribute"], YamlReader::Child(p, "attribute"), "only enemy_strength_eliminated counts an attribute");
  }
  if (n["places"]) r.Fail(n["places"], YamlReader::Child(p, "places"), "an elimination award names no places");
}

std::string PlaceText(For what, const std::string& place) {
  switch (what) {
    case For::kPlaceFirstControlled: return "controls " + place + " for the first time";
    case For::kPlaceHeldEachTurn: return "holds " + place + " at the end of the game-turn";
    default: return "holds " + place + " at the end of the game";
  }
}

// places: each a place on the map whose control is tracked.
void ReadPlaces(YamlReader& r, const Game& game, const std::vector<std::string>& tracked, const YAML::Node& n,
                const std::string& p, VpScheduleEntry* e) {
  const std::string pp = YamlReader::Child(p, "places");
  if (n["kinds"]) r.Fail(n["kinds"], YamlReader::Child(p, "kinds"), "a place award counts no unit kinds");
  if (n["attribute"]) r.Fail(n["attribute"], YamlReader::Child(p, "attribute"), "a place award counts no attribute");
  const YAML::Node list = n["places"];
  if (!list) {
    r.Fail(n, pp, "missing required key");
    return;
  }
  const std::vector<std::string> names = r.StringList(list, pp);
  if (names.empty() && list.IsSequence()) r.Fail(list, pp, "expected at least one place");
  for (const std::string& name : names) {
    const Place* place = game.FindPlace(name);
    const int index = place ? static_cast<int>(place - game.places().data()) : -1;
    if (!place || index >= kMaxPlaces) {
      r.Fail(list, pp, place ? "place \"" + name + "\" is past the " + std::to_string(kMaxPlaces) + " places whose control is kept"
                             : "no place named \"" + name + "\" on the map");
    } else if (std::find(tracked.begin(), tracked.end(), place->kind) == tracked.end()) {
      r.Fail(list, pp, "place \"" + name + "\" is of kind \"" + place->kind +
                           "\", whose control is not tracked (add it to combat.control_kinds)");
    } else if (std::find(e->places.begin(), e->places.end(), index) != e->places.end()) {
      r.Fail(list, pp, "place \"" + name + "\" is listed twice");
    } else {
      e->places.push_back(index);
      e->texts.push_back(PlaceText(e->what, name));
    }
  }
}

// "enemy unit eliminated", "enemy strength eliminated (hq, artillery)".
std::string EliminationText(const Game& game, const VpScheduleEntry& e) {
  std::string text = e.what == For::kEnemyUnitEliminated ? "enemy unit eliminated" : "enemy strength eliminated";
  std::string kinds;
  for (int k : e.kinds) {
    if (k >= 0) kinds += (kinds.empty() ? "" : ", ") + game.kinds[static_cast<size_t>(k)].id;
  }
  return kinds.empty() ? text : text + " (" + kinds + ")";
}

void ReadEntry(YamlReader& r, const Game& game, const std::vector<std::string>& tracked, const YAML::Node& n,
               const std::string& p, int* next_bit, std::vector<VpScheduleEntry>* out) {
  if (!r.CheckKeys(n, p, {"rule", "for", "side", "points", "kinds", "attribute", "places"})) return;
  VpScheduleEntry e;
  e.rule = r.RequiredString(n, p, "rule").value_or("");
  const bool known = ReadFor(r, n, p, &e);
  ReadSide(r, game, n, p, &e);
  e.points = r.RequiredInt(n, p, "points", -1000, 1000).value_or(0);
  if (!known) return;
  if (!IsPlaceAward(e.what)) {
    ReadEliminationKeys(r, game, n, p, &e);
    e.texts.push_back(EliminationText(game, e));
  } else {
    ReadPlaces(r, game, tracked, n, p, &e);
  }
  if (e.what == For::kPlaceFirstControlled) {
    e.first_bit = *next_bit;
    *next_bit += static_cast<int>(e.places.size()) * (e.side < 0 ? 2 : 1);
    if (*next_bit > 64) {
      r.Fail(n, p, "place_first_controlled awards remember at most " + std::to_string(64 - kVpScheduleFirstBit) +
                       " place-and-side pairs in all (a place for `any` side counts twice)");
      return;
    }
  }
  out->push_back(std::move(e));
}

// The award for a place the side holds now, for every entry of `what`.
void AwardHeld(State& s, Context& ctx, For what) {
  for (const VpScheduleEntry& e : ctx.game().victory.points) {
    if (e.what != what) continue;
    for (size_t k = 0; k < e.places.size(); ++k) {
      const int holder = s.place_control[e.places[k]] - 1;
      if (holder < 0 || (e.side >= 0 && e.side != holder)) continue;
      const Place& place = ctx.game().places()[static_cast<size_t>(e.places[k])];
      AwardVictoryPoints(s, ctx, holder, e.points, e.rule.c_str(), e.texts[k].c_str(), kNoUnit,
                         place.hexes.empty() ? -1 : place.hexes.front());
    }
  }
}

}  // namespace

void LoadVictoryPoints(RulesetDocument& doc, Game* game) {
  if (!doc.Has("victory")) return;
  YamlReader& r = *doc.ReaderFor("victory");
  const YAML::Node list = YamlReader::Get(doc.Section("victory"), "points");
  if (!list || !r.ExpectSequence(list, "victory.points")) return;
  const std::vector<std::string> tracked = TrackedKinds(doc);
  int next_bit = kVpScheduleFirstBit;
  for (size_t i = 0; i < list.size(); ++i) {
    ReadEntry(r, *game, tracked, list[i], YamlReader::Item("victory.points", i), &next_bit, &game->victory.points);
  }
}

void AwardVictoryPoints(State& s, Context& ctx, int side, int points, const char* rule, const char* why, UnitId unit,
                        int hex) {
  if (points == 0) return;
  s.vp[side] = static_cast<int16_t>(s.vp[side] + points);
  const int t = std::clamp(static_cast<int>(s.turn), 1, kMaxTurns) - 1;
  s.vp_by_turn[side][t] = static_cast<int16_t>(s.vp_by_turn[side][t] + points);
  Event e;
  e.type = EventType::kVictoryPoints;
  e.side = static_cast<int8_t>(side);
  e.unit = unit;
  e.hex = static_cast<int16_t>(hex);
  e.a = points;
  e.rule = rule;
  e.text = why;
  ctx.Emit(e);
}

void VpOnEliminated(State& s, Context& ctx, UnitId u) {
  const Game& game = ctx.game();
  const int scorer = 1 - s.unit(u).side;
  const int kind = game.units[static_cast<size_t>(u)].kind;
  for (const VpScheduleEntry& e : game.victory.points) {
    if (IsPlaceAward(e.what) || (e.side >= 0 && e.side != scorer)) continue;
    if (!e.kinds.empty() && std::find(e.kinds.begin(), e.kinds.end(), kind) == e.kinds.end()) continue;
    const int per = e.what == For::kEnemyStrengthEliminated ? game.Printed(s, u, e.attribute) : 1;
    AwardVictoryPoints(s, ctx, scorer, e.points * per, e.rule.c_str(), e.texts[0].c_str(), u);
  }
}

void VpOnControl(State& s, Context& ctx, int place, int side) {
  for (const VpScheduleEntry& e : ctx.game().victory.points) {
    if (e.what != For::kPlaceFirstControlled || (e.side >= 0 && e.side != side)) continue;
    for (size_t k = 0; k < e.places.size(); ++k) {
      if (e.places[k] != place) continue;
      const uint64_t bit = uint64_t{1} << e.Bit(static_cast<int>(k), side);
      if (s.once_awarded & bit) continue;
      s.once_awarded |= bit;
      const Place& p = ctx.game().places()[static_cast<size_t>(place)];
      AwardVictoryPoints(s, ctx, side, e.points, e.rule.c_str(), e.texts[k].c_str(), kNoUnit,
                         p.hexes.empty() ? -1 : p.hexes.front());
    }
  }
}

void VpOnTurnEnd(State& s, Context& ctx) { AwardHeld(s, ctx, For::kPlaceHeldEachTurn); }

void VpOnGameEnd(State& s, Context& ctx) { AwardHeld(s, ctx, For::kPlaceHeldAtEnd); }

}  // namespace wg
