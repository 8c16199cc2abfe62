// Outputs of the `wargame` program: the state as JSON (keys documented in
// docs/scripting.md), the map as SVG, and the text map for the human player.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "cli.h"

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
std::string Q(const std::string& s) { return "\"" + Esc(s) + "\""; }

std::string Xml(const std::string& s) {
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
         ", \"hex\": " + (us.OnMap() && us.hex < g.map.size() ? Q(g.map.Label(us.hex)) : std::string("null")) +
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
  for (size_t p = 0; p < g.map.places.size(); ++p) {
    const Place& pl = g.map.places[p];
    const int c = p < static_cast<size_t>(kMaxPlaces) ? s.place_control[p] : 0;
    o += std::string(p ? ",\n    " : "\n    ") + "{\"name\": " + Q(pl.name) + ", \"kind\": " + Q(pl.kind) +
         ", \"controlled_by\": " + (c ? Q(g.sides[static_cast<size_t>((c - 1) & 1)].id) : std::string("null")) + "}";
  }
  o += g.map.places.empty() ? "],\n" : "\n  ],\n";
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

// --- SVG ---------------------------------------------------------------------

namespace {

// Terrain colours by name; unknown names get a stable pastel.
std::string HashColour(const std::string& name, int lightness) {
  uint32_t h = 2166136261u;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  char b[32];
  std::snprintf(b, sizeof b, "hsl(%u,45%%,%d%%)", h % 360, lightness);
  return b;
}

bool Has(const std::string& name, const char* word) { return name.find(word) != std::string::npos; }

std::string TerrainColour(const std::string& n) {
  if (Has(n, "clear") || Has(n, "open") || Has(n, "field")) return "#f1ecd0";
  if (Has(n, "wood") || Has(n, "forest")) return "#86a86a";
  if (Has(n, "orchard")) return "#b3cf8e";
  if (Has(n, "town") || Has(n, "city") || Has(n, "village") || Has(n, "house") || Has(n, "build")) return "#c9b9a6";
  if (Has(n, "river") || Has(n, "water") || Has(n, "lake") || Has(n, "pond")) return "#9cc3e8";
  if (Has(n, "swamp") || Has(n, "marsh")) return "#a8bfa6";
  if (Has(n, "hill") || Has(n, "height") || Has(n, "ridge") || Has(n, "rough")) return "#d8bf92";
  if (Has(n, "mountain")) return "#b39b7a";
  return HashColour(n, 80);
}

std::string FeatureColour(const std::string& n, double* width, bool* dashed) {
  *dashed = false;
  *width = 0.09;
  if (Has(n, "bridge")) { *width = 0.16; return "#7a5a3a"; }
  if (Has(n, "ford")) { *width = 0.14; return "#3fb0c0"; }
  if (Has(n, "river")) { *width = 0.14; return "#2f6fbf"; }
  if (Has(n, "stream") || Has(n, "creek") || Has(n, "run")) return "#4f9ad8";
  if (Has(n, "slope") || Has(n, "ridge") || Has(n, "bluff")) { *dashed = true; return "#8a5a2a"; }
  if (Has(n, "wall") || Has(n, "fence")) return "#666666";
  if (Has(n, "redoubt") || Has(n, "works") || Has(n, "trench")) { *width = 0.12; return "#222222"; }
  if (Has(n, "road") || Has(n, "pike")) { *width = 0.1; return "#8b5a2b"; }
  if (Has(n, "trail") || Has(n, "track")) { *dashed = true; return "#8b5a2b"; }
  if (Has(n, "rail")) { *dashed = true; return "#333333"; }
  return HashColour(n, 40);
}

std::string SideColour(const Game& g, int side) {
  const std::string id = side >= 0 && side < static_cast<int>(g.sides.size()) ? g.sides[static_cast<size_t>(side)].id : "";
  if (Has(id, "union") || Has(id, "blue") || Has(id, "federal") || Has(id, "north")) return "#3d6db5";
  if (Has(id, "confed") || Has(id, "red") || Has(id, "rebel") || Has(id, "south")) return "#9c9c9c";
  return side == 0 ? "#3d6db5" : "#b5443d";
}

std::string Num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

}  // namespace

std::string RenderSvg(const Game& g, const State& s) {
  std::string custom;
  if (g.rules->RenderSvg(s, &custom)) return custom;
  const MapLayout& L = g.map.grid.layout();
  const double R = 40.0;  // hex outer radius in SVG units
  const bool flat = L.orientation == Orientation::kFlatTop;
  double minx = 1e9, miny = 1e9, maxx = -1e9, maxy = -1e9;
  const int n = g.map.size();
  std::vector<double> cx(static_cast<size_t>(n)), cy(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    double x, y;
    L.Center(g.map.grid.HexAt(i), &x, &y);
    cx[static_cast<size_t>(i)] = x * R;
    cy[static_cast<size_t>(i)] = y * R;
    minx = std::min(minx, x * R);
    maxx = std::max(maxx, x * R);
    miny = std::min(miny, y * R);
    maxy = std::max(maxy, y * R);
  }
  if (n == 0) minx = miny = maxx = maxy = 0;
  const double pad = R * 1.2;
  const double legend = 30;
  const double w = maxx - minx + 2 * pad, h = maxy - miny + 2 * pad + legend;
  auto X = [&](double x) { return x - minx + pad; };
  auto Y = [&](double y) { return y - miny + pad + legend; };
  // Corner k of a hex (flat-top: corners at 0, 60, ...; pointy: 30, 90, ...).
  auto corner = [&](int i, int k, double scale, double* x, double* y) {
    const double ang = (flat ? 60.0 * k : 60.0 * k - 30.0) * M_PI / 180.0;
    *x = X(cx[static_cast<size_t>(i)]) + R * scale * std::cos(ang);
    *y = Y(cy[static_cast<size_t>(i)]) + R * scale * std::sin(ang);
  };
  std::string o;
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(w) + "\" height=\"" + Num(h) +
       "\" viewBox=\"0 0 " + Num(w) + " " + Num(h) + "\" font-family=\"sans-serif\">\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::string turn_label = s.turn >= 1 && s.turn <= g.turns.turns.size() ? g.turns.turns[s.turn - 1u].label : "";
  o += "<text x=\"8\" y=\"20\" font-size=\"16\">" + Xml(g.title) + " - turn " + std::to_string(s.turn) +
       (turn_label.empty() ? "" : " (" + Xml(turn_label) + ")") + ", " + Xml(PhaseName(g, s)) + " - VP " +
       Xml(SideName(g, 0)) + " " + std::to_string(s.vp[0]) + ", " + Xml(SideName(g, 1)) + " " +
       std::to_string(s.vp[1]) + "</text>\n";
  // Terrain: the hex's first terrain type that is not the default colours it.
  const auto& vocab = g.map.vocabulary;
  o += "<g id=\"terrain\" stroke=\"#777\" stroke-width=\"0.6\">\n";
  for (int i = 0; i < n; ++i) {
    const TerrainMask t = g.map.terrain[static_cast<size_t>(i)];
    std::string name = vocab.default_terrain;
    for (size_t b = 0; b < vocab.terrain.size(); ++b) {
      if (((t >> b) & 1u) && vocab.terrain[b] != vocab.default_terrain) {
        name = vocab.terrain[b];
        break;
      }
    }
    o += "<polygon fill=\"" + TerrainColour(name) + "\" points=\"";
    for (int k = 0; k < 6; ++k) {
      double x, y;
      corner(i, k, 1.0, &x, &y);
      o += Num(x) + "," + Num(y) + (k < 5 ? " " : "");
    }
    o += "\"><title>" + g.map.Label(i) + " " + Xml(name) + "</title></polygon>\n";
  }
  o += "</g>\n";
  // Paths (roads, trails) as lines through the hex centres.
  std::set<std::string> path_set(vocab.paths.begin(), vocab.paths.end());
  o += "<g id=\"paths\" fill=\"none\" stroke-linecap=\"round\">\n";
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 6; ++d) {
      const int j = g.map.grid.NeighborIndex(i, d);
      if (j < i) continue;  // each hexside once (j = -1 off map)
      const FeatureMask f = g.map.Side(i, d);
      for (size_t b = 0; b < vocab.features.size(); ++b) {
        if (!((f >> b) & 1u) || !path_set.count(vocab.features[b])) continue;
        double width;
        bool dashed;
        const std::string col = FeatureColour(vocab.features[b], &width, &dashed);
        o += "<line x1=\"" + Num(X(cx[static_cast<size_t>(i)])) + "\" y1=\"" + Num(Y(cy[static_cast<size_t>(i)])) +
             "\" x2=\"" + Num(X(cx[static_cast<size_t>(j)])) + "\" y2=\"" + Num(Y(cy[static_cast<size_t>(j)])) +
             "\" stroke=\"" + col + "\" stroke-width=\"" + Num(width * R) + "\"" +
             (dashed ? " stroke-dasharray=\"6,4\"" : "") + "/>\n";
      }
    }
  }
  o += "</g>\n";
  // Hexside features as coloured hexside lines.
  o += "<g id=\"hexsides\" stroke-linecap=\"round\">\n";
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 6; ++d) {
      const int j = g.map.grid.NeighborIndex(i, d);
      if (j >= 0 && j < i) continue;
      const FeatureMask f = g.map.Side(i, d);
      if (!f) continue;
      // The hexside between centre i and its neighbour in direction d: the
      // two corners nearest the midpoint toward the neighbour.
      double nx, ny;
      L.Center(Neighbor(g.map.grid.HexAt(i), d), &nx, &ny);
      const double mx = (X(cx[static_cast<size_t>(i)]) + X(nx * R)) / 2, my = (Y(cy[static_cast<size_t>(i)]) + Y(ny * R)) / 2;
      int k1 = 0, k2 = 1;
      double d1 = 1e18, d2 = 1e18;
      for (int k = 0; k < 6; ++k) {
        double x, y;
        corner(i, k, 1.0, &x, &y);
        const double dd = (x - mx) * (x - mx) + (y - my) * (y - my);
        if (dd < d1) {
          d2 = d1;
          k2 = k1;
          d1 = dd;
          k1 = k;
        } else if (dd < d2) {
          d2 = dd;
          k2 = k;
        }
      }
      double x1, y1, x2, y2;
      corner(i, k1, 1.0, &x1, &y1);
      corner(i, k2, 1.0, &x2, &y2);
      for (size_t b = 0; b < vocab.features.size(); ++b) {
        if (!((f >> b) & 1u) || path_set.count(vocab.features[b])) continue;
        double width;
        bool dashed;
        const std::string col = FeatureColour(vocab.features[b], &width, &dashed);
        o += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) +
             "\" stroke=\"" + col + "\" stroke-width=\"" + Num(width * R) + "\"" +
             (dashed ? " stroke-dasharray=\"5,3\"" : "") + "><title>" + Xml(vocab.features[b]) + "</title></line>\n";
      }
    }
  }
  o += "</g>\n";
  // Labels every few hexes (every hex on small maps).
  const int step = n <= 200 ? 1 : 2;
  o += "<g id=\"labels\" font-size=\"" + Num(R * 0.26) + "\" fill=\"#555\" text-anchor=\"middle\">\n";
  for (int i = 0; i < n; ++i) {
    int col, row;
    L.ToOffset(g.map.grid.HexAt(i), &col, &row);
    if (col % step || row % step) continue;
    o += "<text x=\"" + Num(X(cx[static_cast<size_t>(i)])) + "\" y=\"" + Num(Y(cy[static_cast<size_t>(i)]) - R * 0.62) +
         "\">" + g.map.Label(i) + "</text>\n";
  }
  o += "</g>\n";
  // Named places: outline of their hexes and the name.
  o += "<g id=\"places\">\n";
  for (size_t p = 0; p < g.map.places.size(); ++p) {
    const Place& pl = g.map.places[p];
    if (pl.hexes.empty()) continue;
    const bool objective = pl.kind == "objective";
    double sx = 0, sy = 0;
    for (int hx : pl.hexes) {
      sx += X(cx[static_cast<size_t>(hx)]);
      sy += Y(cy[static_cast<size_t>(hx)]);
      if (objective) {
        o += "<polygon fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2.5\" points=\"";
        for (int k = 0; k < 6; ++k) {
          double x, y;
          corner(hx, k, 0.9, &x, &y);
          o += Num(x) + "," + Num(y) + (k < 5 ? " " : "");
        }
        o += "\"/>\n";
      }
    }
    sx /= static_cast<double>(pl.hexes.size());
    sy /= static_cast<double>(pl.hexes.size());
    const int c = p < static_cast<size_t>(kMaxPlaces) ? s.place_control[p] : 0;
    o += "<text x=\"" + Num(sx) + "\" y=\"" + Num(sy + R * 0.8) + "\" font-size=\"" + Num(R * 0.28) +
         "\" text-anchor=\"middle\" font-style=\"italic\" fill=\"#222\">" + Xml(pl.name) +
         (c ? " [" + Xml(SideName(g, c - 1)) + "]" : "") + "</text>\n";
  }
  o += "</g>\n";
  // Units as counters, stacked with an offset.
  o += "<g id=\"units\" font-size=\"" + Num(R * 0.22) + "\" text-anchor=\"middle\">\n";
  std::map<int, int> stack;
  const double cs = R * 0.78;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (!us.OnMap() || us.hex >= n) continue;
    const int k = stack[us.hex]++;
    const double x = X(cx[static_cast<size_t>(us.hex)]) - cs / 2 + k * R * 0.12;
    const double y = Y(cy[static_cast<size_t>(us.hex)]) - cs / 2 + k * R * 0.12;
    const UnitDef& d = g.units[static_cast<size_t>(i)];
    const std::string fill = SideColour(g, us.side);
    o += "<g><title>" + Xml(d.name) + " (" + Xml(d.id) + ") " + UnitValues(g, s, u) + "</title>";
    o += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(cs) + "\" height=\"" + Num(cs) +
         "\" rx=\"3\" fill=\"" + fill + "\" stroke=\"black\" stroke-width=\"1\"" +
         (us.face ? " fill-opacity=\"0.6\" stroke-dasharray=\"3,2\"" : "") + "/>";
    std::string shortname = d.id.size() > 9 ? d.id.substr(0, 9) : d.id;
    o += "<text x=\"" + Num(x + cs / 2) + "\" y=\"" + Num(y + cs * 0.36) + "\" fill=\"white\">" + Xml(shortname) +
         "</text>";
    o += "<text x=\"" + Num(x + cs / 2) + "\" y=\"" + Num(y + cs * 0.8) + "\" fill=\"white\" font-weight=\"bold\">" +
         UnitValues(g, s, u) + "</text>";
    // Markers: a red badge with the marker's initial and count.
    int badge = 0;
    for (size_t m = 0; m < g.markers.size() && m < static_cast<size_t>(kMaxMarkers); ++m) {
      if (!us.markers[m]) continue;
      const double bx = x + cs - 2 - badge * R * 0.3, by = y + 2;
      std::string tag = g.markers[m].id.substr(0, 1) + std::to_string(us.markers[m]);
      o += "<circle cx=\"" + Num(bx) + "\" cy=\"" + Num(by) + "\" r=\"" + Num(R * 0.15) +
           "\" fill=\"#e03a2f\" stroke=\"white\"/><text x=\"" + Num(bx) + "\" y=\"" + Num(by + R * 0.07) +
           "\" font-size=\"" + Num(R * 0.17) + "\" fill=\"white\">" + Xml(tag) + "</text>";
      ++badge;
    }
    o += "</g>\n";
  }
  o += "</g>\n</svg>\n";
  return o;
}

std::string TextMapAround(const Game& g, const State& s, const std::vector<int>& centers, int radius) {
  if (g.map.size() == 0) {
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
    for (int i = 0; i < g.map.size(); ++i) {
      if (g.map.grid.DistanceIdx(c, i) <= radius) hexes.insert(i);
    }
  }
  std::string o;
  const auto& vocab = g.map.vocabulary;
  for (int h : hexes) {
    std::string units;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& us = s.units[static_cast<size_t>(i)];
      if (us.hex != h) continue;
      units += (units.empty() ? "" : ", ") + g.units[static_cast<size_t>(i)].id + " (" +
               g.sides[us.side & 1].id + " " + UnitValues(g, s, static_cast<UnitId>(i)) + ")";
    }
    std::string places;
    for (const auto& p : g.map.places) {
      if (std::find(p.hexes.begin(), p.hexes.end(), h) != p.hexes.end()) places += " [" + p.name + "]";
    }
    if (units.empty() && places.empty()) continue;
    std::string terrain;
    for (size_t b = 0; b < vocab.terrain.size(); ++b) {
      if ((g.map.terrain[static_cast<size_t>(h)] >> b) & 1u) terrain += (terrain.empty() ? "" : "+") + vocab.terrain[b];
    }
    o += "  " + g.map.Label(h) + " " + (terrain.empty() ? vocab.default_terrain : terrain) + places +
         (units.empty() ? "" : ": " + units) + "\n";
  }
  return o;
}

}  // namespace wg::cli
