// Outputs of the `wargame` program: the state as JSON (keys documented in
// docs/scripting.md), the map as SVG, and the text map for the human player.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <sstream>

#include "cli.h"
#include "wargame/action_text.h"
#include "wargame/hex_rules.h"

namespace wg::cli {

namespace {

std::string Esc(const std::string& s) {  // JSON and XML safe enough for names
  std::string o;
  for (char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o;
}
std::string Q(const std::string& s) {
  std::string o = "\"";  // appended, not `"\"" + ...`: GCC 12 warns falsely (-Wrestrict) on that
  o += Esc(s);
  o += '"';
  return o;
}

}  // namespace

std::string XmlText(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&') o += "&amp;";
    else if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

namespace {

const char* DecisionName(DecisionType d) {
  switch (d) {
    case DecisionType::kNone: return "none";
    case DecisionType::kMovement: return "movement";
    case DecisionType::kCombat: return "combat";
    case DecisionType::kBombard: return "bombard";
    case DecisionType::kLosses: return "losses";
    case DecisionType::kStandOrRetreat: return "stand_or_retreat";
    case DecisionType::kRetreat: return "retreat";
    case DecisionType::kAdvance: return "advance";
    case DecisionType::kChoice: return "choice";
    case DecisionType::kSetup: return "setup";
  }
  return "unknown";
}

const char* EventTypeName(EventType t) {
  static const char* const kNames[] = {"game_start", "turn_start", "phase_start", "move", "enter",
                                       "mode_change", "release", "attack", "die_roll", "combat_result",
                                       "loss", "recover", "retreat", "advance", "eliminated", "captured",
                                       "bombard", "victory_points", "control", "choice", "note", "game_end"};
  const size_t i = static_cast<size_t>(t);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "event";
}

const char* StatusName(int16_t hex) {
  if (hex >= 0) return "on_map";
  if (hex == kOnTable) return "on_table";
  if (hex == kNotYetEntered) return "not_yet_entered";
  if (hex == kEliminated) return "eliminated";
  return "withdrawn";
}

}  // namespace

std::string SideName(const Game& game, int side) {
  if (side < 0 || side >= static_cast<int>(game.sides.size())) return "nobody";
  return game.sides[static_cast<size_t>(side)].name;
}

std::string PhaseName(const Game& game, const State& s) {
  if (s.phase < game.turns.phases.size()) return game.turns.phases[s.phase];
  return "phase " + std::to_string(s.phase);
}

std::string UnitValues(const Game& game, const State& s, UnitId u) {
  std::string o;
  for (size_t a = 0; a < game.attributes.size(); ++a) {
    if (a) o += '-';
    o += std::to_string(game.Current(s, u, static_cast<int>(a)));
  }
  return o;
}

std::string MarkersText(const Game& game, const State& s, UnitId u) {
  std::string o;
  const UnitState& us = s.unit(u);
  for (size_t m = 0; m < game.markers.size() && m < static_cast<size_t>(kMaxMarkers); ++m) {
    if (us.markers[m]) o += ", " + game.markers[m].name + " " + std::to_string(us.markers[m]);
  }
  return o;
}

std::string StateJson(const Session& session) {
  const Game& g = session.game();
  const State& s = session.state();
  std::string o = "{\n";
  o += "  \"format\": \"wargame-state-1\",\n";
  o += "  \"game\": " + Q(g.params.ToString()) + ",\n";
  o += "  \"title\": " + Q(g.title) + ",\n";
  o += "  \"seed\": " + std::to_string(session.seed()) + ",\n";
  o += "  \"actions\": " + std::to_string(session.actions().size()) + ",\n";
  o += "  \"turn\": " + std::to_string(s.turn) + ",\n";
  const std::string label =
      s.turn >= 1 && s.turn <= g.turns.turns.size() ? g.turns.turns[s.turn - 1u].label : std::string();
  o += "  \"turn_label\": " + Q(label) + ",\n";
  o += "  \"phase\": " + Q(PhaseName(g, s)) + ",\n";
  o += "  \"phasing_side\": " + Q(g.sides[s.phasing_side & 1].id) + ",\n";
  o += "  \"decision\": {\"side\": " + (s.game_over ? std::string("null") : Q(g.sides[s.decision_side & 1].id)) +
       ", \"kind\": " + Q(DecisionName(s.decision)) + ", \"text\": " + Q(g.rules->DescribeDecision(s)) + "},\n";
  o += "  \"vp\": {" + Q(g.sides[0].id) + ": " + std::to_string(s.vp[0]) + ", " + Q(g.sides[1].id) + ": " +
       std::to_string(s.vp[1]) + "},\n";
  o += "  \"units\": [\n";
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitDef& d = g.units[static_cast<size_t>(i)];
    const UnitState& us = s.unit(u);
    o += "    {\"id\": " + Q(d.id) + ", \"name\": " + Q(d.name) + ", \"side\": " + Q(g.sides[us.side & 1].id) +
         ", \"kind\": " + Q(g.kinds[static_cast<size_t>(d.kind)].id) + ", \"status\": " + Q(StatusName(us.hex)) +
         ", \"hex\": " + (us.OnMap() && us.hex < g.hex_board().map.size() ? Q(g.HexLabel(us.hex)) : std::string("null")) +
         ", \"position\": " + Q(g.rules->PositionText(s, u)) + ", \"face\": " + std::to_string(us.face) +
         ", \"mode\": " + Q(us.face ? "back" : "front");
    o += ", \"printed\": {";
    for (size_t a = 0; a < g.attributes.size(); ++a) {
      o += (a ? ", " : "") + Q(g.attributes[a]) + ": " + std::to_string(g.Printed(s, u, static_cast<int>(a)));
    }
    o += "}, \"current\": {";
    for (size_t a = 0; a < g.attributes.size(); ++a) {
      o += (a ? ", " : "") + Q(g.attributes[a]) + ": " + std::to_string(g.rules->CurrentValue(g, s, u, static_cast<int>(a)));
    }
    o += "}, \"markers\": {";
    bool first = true;
    for (size_t m = 0; m < g.markers.size() && m < static_cast<size_t>(kMaxMarkers); ++m) {
      if (!us.markers[m]) continue;
      o += (first ? "" : ", ") + Q(g.markers[m].id) + ": " + std::to_string(us.markers[m]);
      first = false;
    }
    o += "}, \"released\": " + std::string(us.Has(kUnitReleased) ? "true" : "false") +
         ", \"moved\": " + (us.Has(kUnitMoved) ? "true" : "false") +
         ", \"attacked\": " + (us.Has(kUnitAttacked) ? "true" : "false") + "}";
    o += i + 1 < s.num_units ? ",\n" : "\n";
  }
  o += "  ],\n";
  o += "  \"places\": [";
  for (size_t p = 0; p < g.hex_board().map.places.size(); ++p) {
    const Place& pl = g.hex_board().map.places[p];
    const int c = p < static_cast<size_t>(kMaxPlaces) ? s.place_control[p] : 0;
    o += std::string(p ? ",\n    " : "\n    ") + "{\"name\": " + Q(pl.name) + ", \"kind\": " + Q(pl.kind) +
         ", \"controlled_by\": " + (c ? Q(g.sides[static_cast<size_t>((c - 1) & 1)].id) : std::string("null")) + "}";
  }
  o += g.hex_board().map.places.empty() ? "],\n" : "\n  ],\n";
  if (const std::string own = g.rules->StateJson(s); !own.empty()) o += "  \"ruleset_state\": " + own + ",\n";
  o += "  \"events\": [";
  const auto& ev = session.events();
  for (size_t i = 0; i < ev.size(); ++i) {
    const Event& e = ev[i];
    o += std::string(i ? ",\n    " : "\n    ") + "{\"type\": " + Q(EventTypeName(e.type)) +
         ", \"rule\": " + Q(e.rule ? e.rule : "") + ", \"side\": " +
         (e.side >= 0 && e.side < 2 ? Q(g.sides[static_cast<size_t>(e.side)].id) : std::string("null")) +
         ", \"text\": " + Q(Describe(g, e)) + "}";
  }
  o += ev.empty() ? "],\n" : "\n  ],\n";
  if (s.game_over) {
    std::string level;
    if (g.victory.kind == VictoryRules::Kind::kDifferential && s.level < g.victory.levels.size()) {
      level = g.victory.levels[s.level].name;
    }
    o += "  \"result\": {\"winner\": " + (s.winner >= 0 ? Q(g.sides[static_cast<size_t>(s.winner)].id) : "null") +
         ", \"level\": " + Q(level) + ", \"conceded_by\": " +
         (s.conceded_by < 2 ? Q(g.sides[s.conceded_by].id) : std::string("null")) + "}\n";
  } else {
    o += "  \"result\": null\n";
  }
  o += "}\n";
  return o;
}

std::string OddsText(const Game& g, Session& s, const Action& a, bool* ok) {
  *ok = false;
  std::ostringstream out;
  const HexQueries* rules = g.rules->hex();
  if (!rules) return "this ruleset has no odds table on a hex map\n";
  const HexQueries& hex = *rules;
  Context ctx(g, nullptr, nullptr, &s.scratch());
  const AttackAnalysis an = hex.AnalyzeAttack(s.state(), ctx, a);
  out << "attack: " << ActionToText(g, a) << "\n";
  if (!an.status.ok()) {
    out << "refused: " << an.status.ToString() << "\n";
    return out.str();
  }
  const AttackPlan& p = an.plan;
  out << "attack strength " << p.attack << ", defense strength " << p.defense;
  if (p.modified_defense != p.defense) out << " (modified " << p.modified_defense << ")";
  out << "\n";
  if (!an.automatic.empty()) {  // resolved without the table (S&B 7.1)
    out << "no die roll: " << an.automatic << "\n";
    *ok = true;
    return out.str();
  }
  for (int i = 0; i < p.mods.num_multipliers; ++i) out << "  defense x" << p.mods.multipliers[i] << "\n";
  if (p.mods.drm) out << "  die roll modifier " << (p.mods.drm > 0 ? "+" : "") << p.mods.drm << "\n";
  if (p.mods.column_shift) out << "  column shift " << p.mods.column_shift << "\n";
  for (int i = 0; i < p.mods.num_notes; ++i) out << "  note: " << p.mods.notes[i] << "\n";
  out << "column: " << hex.ColumnLabel(p.column);
  if (p.column != p.computed_column) out << " (computed " << hex.ColumnLabel(p.computed_column) << ")";
  out << "\noutcomes:\n";
  for (const auto& o : an.outcomes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%6.2f%%  (%llu/%llu)", 100.0 * o.probability(),
                  static_cast<unsigned long long>(o.numerator), static_cast<unsigned long long>(o.denominator));
    out << "  " << (o.result ? o.result->text : "?") << "  " << buf << "\n";
  }
  *ok = true;
  return out.str();
}

std::string TextMapAround(const Game& g, const State& s, const std::vector<int>& centers, int radius) {
  if (!g.has_hex_board()) {
    // A tabletop game: every unit in play with its position in the ruleset's words.
    std::string o;
    for (int i = 0; i < s.num_units; ++i) {
      if (!s.units[static_cast<size_t>(i)].OnMap()) continue;
      o += "  " + g.units[static_cast<size_t>(i)].name + " (" + g.sides[s.units[static_cast<size_t>(i)].side & 1].name +
           "): " + g.rules->PositionText(s, static_cast<UnitId>(i)) + "\n";
    }
    return o;
  }
  std::set<int> hexes;
  for (int c : centers) {
    if (c < 0) continue;
    for (int i = 0; i < g.hex_board().map.size(); ++i) {
      if (g.hex_board().map.grid.DistanceIdx(c, i) <= radius) hexes.insert(i);
    }
  }
  std::string o;
  const auto& vocab = g.hex_board().map.vocabulary;
  for (int h : hexes) {
    std::string units;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& us = s.units[static_cast<size_t>(i)];
      if (us.hex != h) continue;
      units += (units.empty() ? "" : ", ") + g.units[static_cast<size_t>(i)].id + " (" +
               g.sides[us.side & 1].id + " " + UnitValues(g, s, static_cast<UnitId>(i)) +
               MarkersText(g, s, static_cast<UnitId>(i)) + ")";
    }
    std::string places;
    for (const auto& p : g.hex_board().map.places) {
      if (std::find(p.hexes.begin(), p.hexes.end(), h) != p.hexes.end()) places += " [" + p.name + "]";
    }
    if (units.empty() && places.empty()) continue;
    std::string terrain;
    for (size_t b = 0; b < vocab.terrain.size(); ++b) {
      if ((g.hex_board().map.terrain[static_cast<size_t>(h)] >> b) & 1u) {
        terrain += (terrain.empty() ? "" : "+") + vocab.terrain[b];
      }
    }
    o += "  " + g.hex_board().map.Label(h) + " " + (terrain.empty() ? vocab.default_terrain : terrain) + places +
         (units.empty() ? "" : ": " + units) + "\n";
  }
  return o;
}

}  // namespace wg::cli
