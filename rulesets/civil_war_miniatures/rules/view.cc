// Civil War miniatures: what a player sees: the state as JSON, the events as text, the SVG. The
// class MiniRules and the helpers the files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

// --- What a player sees: --json ------------------------------------------------------------

std::string JsonQuote(const std::string& in) {
  std::string out = "\"";
  for (char c : in) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      out += b;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

const char* Bool(bool b) { return b ? "true" : "false"; }

// Every unit's figures, stands, guns, officers, formation, facing, position and
// markers, its building occupancy (12.x), and the livestock.
WG_RULE("T.3", MiniRules::StateJson);
std::string MiniRules::StateJson(const State& s) const {
  if (!game_) return "";
  const Game& g = *game_;
  const MiniState& m = M(s);
  std::string o = "{\"units\": [";
  char b[160];
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    const MiniUnit& mu = m.units[u];
    const UnitState& us = s.unit(u);
    const bool on = OnTable(s, u);
    o += u ? ",\n    " : "\n    ";
    o += "{\"id\": " + JsonQuote(g.units[static_cast<size_t>(u)].id) +
         ", \"name\": " + JsonQuote(g.units[static_cast<size_t>(u)].name) + ", \"on_table\": " + Bool(on);
    std::snprintf(b, sizeof b, ", \"x\": %.2f, \"y\": %.2f, \"facing\": %d", mu.x / 100.0, mu.y / 100.0,
                  ((mu.facing % 360) + 360) % 360);
    o += b;
    o += std::string(", \"formation\": ") + (TypeOf(g, u).artillery ? (us.face ? "\"unlimbered\"" : "\"limbered\"")
                                                                     : (us.face ? "\"line\"" : "\"column\""));
    o += ", \"figures\": " + std::to_string(on ? mu.figures : 0) + ", \"stands\": " + std::to_string(on ? Stands(g, s, u) : 0) +
         ", \"guns\": " + std::to_string(on ? mu.guns : 0);
    o += std::string(", \"officers\": [") + ((mu.officers & kRegimental) ? "\"regimental\"" : "") +
         ((mu.officers & kRegimental) && (mu.officers & kDivisional) ? ", " : "") +
         ((mu.officers & kDivisional) ? "\"divisional\"" : "") + "]";
    o += std::string(", \"routed\": ") + Bool(us.Has(kRouted)) + ", \"pinned\": " + Bool(us.Has(kPinned)) +
         ", \"disorganized\": " + Bool(on && Disorganized(g, s, u)) + ", \"activated\": " + Bool(us.Has(kActivated));
    if (on && mu.building != 0) {
      o += ", \"building\": {\"name\": " + JsonQuote(g.table().areas[mu.building - 1u].name) +
           ", \"inside\": " + std::to_string(InsideFigures(g, s, u)) + ", \"line_beside\": " + std::to_string(mu.beside) +
           ", \"waiting\": " + std::to_string(Waiting(g, s, u)) +
           ", \"officers_outside\": " + Bool(us.Has(kOfficerOutside)) + "}";
    } else {
      o += ", \"building\": null";
    }
    o += "}";
  }
  o += "\n  ], \"livestock\": [";
  bool first = true;
  for (int h = 0; h < kNumHerds; ++h) {
    const Herd& herd = m.herds[h];
    if (!herd.alive) continue;
    std::snprintf(b, sizeof b, "%s{\"kind\": \"%s\", \"group\": %d, \"x\": %.2f, \"y\": %.2f, \"penned\": %s}",
                  first ? "\n    " : ",\n    ", h < 4 ? "cows" : "pigs", h % 4, herd.x / 100.0, herd.y / 100.0,
                  Bool(herd.penned != 0));
    o += b;
    first = false;
  }
  o += first ? "]" : "\n  ]";
  const uint8_t active = ActiveCard(s);
  const PendingCharge charge = PendingChargeOf(s);
  o += ", \"active\": " + (active != kNone ? JsonQuote(g.units[active].id) : std::string("null"));
  o += ", \"charge\": " + (charge.charger != kNone ? "{\"charger\": " + JsonQuote(g.units[charge.charger].id) +
                                                    ", \"target\": " + JsonQuote(g.units[charge.target].id) + "}"
                                              : std::string("null"));
  return o + "}";
}

// Readable lines for the events whose generic text speaks of hexes.
std::string MiniRules::DescribeEvent(const Event& e) const {
  if (!game_) return "";
  const Game& g = *game_;
  const std::string who = e.unit >= 0 && e.unit < g.num_units() ? g.UnitLabel(e.unit) : "";
  const std::string text = e.text ? e.text : "";
  char buf[160];
  std::string body;
  switch (e.type) {
    case EventType::kMove:
    case EventType::kRetreat:
    case EventType::kAdvance:
      if (text == "faces") {
        std::snprintf(buf, sizeof buf, "%s faces %d degrees", who.c_str(), e.a);
      } else {
        std::snprintf(buf, sizeof buf, "%s %s to %.2f, %.2f in", who.c_str(), text.c_str(), e.a / 100.0,
                      e.b / 100.0);
      }
      body = buf;
      break;
    case EventType::kLoss:
      body = who + " loses " + std::to_string(e.a) + " " + text;
      break;
    case EventType::kEliminated:
      body = who + " eliminated (" + text + ")";
      break;
    case EventType::kCaptured:
      body = who + ": " + std::to_string(e.a) + " figures captured";
      break;
    case EventType::kModeChange:
      body = who + " forms " + text;
      break;
    case EventType::kRecover:
      body = who + " " + text;
      break;
    case EventType::kAttack:
      std::snprintf(buf, sizeof buf, "%s charges %s (%.2f in away)", who.c_str(),
                    e.b >= 0 && e.b < g.num_units() ? g.UnitLabel(static_cast<UnitId>(e.b)).c_str() : "?",
                    e.a / 100.0);
      body = buf;
      break;
    case EventType::kBombard:
      std::snprintf(buf, sizeof buf, "%s fires at %.2f in (defender modifier %+d)", who.c_str(), e.a / 100.0,
                    e.b);
      body = buf;
      break;
    case EventType::kCombatResult:
      if (text == "melee") {
        std::snprintf(buf, sizeof buf, "melee: attacker %d, defender %d", e.a, e.b);
      } else {
        std::snprintf(buf, sizeof buf, "%s: %d hits (a D6 of %d or more)", who.c_str(), e.a, e.b);
      }
      body = buf;
      break;
    case EventType::kNote:
      body = who.empty() ? text : who + ": " + text;
      if (text == "cows move" || text == "pigs move" || text == "pigs run at the closest unit") {
        std::snprintf(buf, sizeof buf, " to %.2f, %.2f in", e.a / 100.0, e.b / 100.0);
        body += buf;
      } else if (e.a != 0 || e.b != 0) {
        body += " (" + std::to_string(e.a) + (e.b != 0 ? ", " + std::to_string(e.b) : "") + ")";
      }
      break;
    default:
      return "";
  }
  return std::string(e.rule) + ": " + body;
}

std::string XmlEscape(const std::string& in) {
  std::string out;
  for (char c : in) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// --- What a player sees: the SVG ---------------------------------------------------------

// Drawing on the table to scale: 10 px an inch, north up, a margin for the
// inch marks and a legend to the right.
struct Canvas {
  static constexpr double kPx = 10, kMargin = 34, kLegend = 260;
  double depth = 0;
  std::string o;
  char buf[512];
  double X(double x) const { return kMargin + x * kPx; }
  double Y(double y) const { return kMargin + (depth - y) * kPx; }
  void Poly(const char* tag, const std::vector<Vec2>& pts, const std::string& style, const std::string& title = "") {
    o += std::string("<") + tag + " " + style + " points=\"";
    for (Vec2 p : pts) {
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", X(p.x), Y(p.y));
      o += buf;
    }
    o += title.empty() ? "\"/>\n" : "\"><title>" + XmlEscape(title) + "</title></" + tag + ">\n";
  }
  void Text(double px, double py, const std::string& text, const char* style) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" %s>", px, py, style);
    o += buf + XmlEscape(text) + "</text>\n";
  }
};

const char* TerrainFill(const std::string& kind) {
  return kind == "woods" ? "#5f8f4a" : kind == "hill" ? "#c9b98a" : kind == "pen" ? "#b89a70"
         : kind == "barn" ? "#9b3b2f" : kind == "house" ? "#e8e0d0" : "#aaaaaa";
}
const char* SideFill(int side) { return side == 0 ? "#3355aa" : "#8a8a8a"; }

// Inch marks on the four edges (every inch, longer and numbered every 6") and a 12" scale bar.
void DrawRuler(Canvas& c, const Table& t) {
  for (int i = 0; i <= static_cast<int>(t.width); ++i) {
    const double len = i % 6 == 0 ? 8 : 4;
    std::snprintf(c.buf, sizeof c.buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  c.X(i), c.Y(t.depth), c.X(i), c.Y(t.depth) - len, c.X(i), c.Y(0), c.X(i), c.Y(0) + len);
    c.o += c.buf;
    if (i % 6 == 0) c.Text(c.X(i) - 4, c.Y(t.depth) - 11, std::to_string(i), "font-size=\"8\"");
  }
  for (int j = 0; j <= static_cast<int>(t.depth); ++j) {
    const double len = j % 6 == 0 ? 8 : 4;
    std::snprintf(c.buf, sizeof c.buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  c.X(0), c.Y(j), c.X(0) - len, c.Y(j), c.X(t.width), c.Y(j), c.X(t.width) + len, c.Y(j));
    c.o += c.buf;
    if (j % 6 == 0) c.Text(c.X(0) - 28, c.Y(j) + 3, std::to_string(j), "font-size=\"8\"");
  }
  const double y = c.Y(0) + 22;
  std::snprintf(c.buf, sizeof c.buf,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"5\" fill=\"black\"/>"
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"5\" fill=\"white\" stroke=\"black\"/>\n",
                c.X(0), y, 6 * Canvas::kPx, c.X(6), y, 6 * Canvas::kPx);
  c.o += c.buf;
  c.Text(c.X(12) + 6, y + 6, "12 inches (inch marks on every edge)", "font-size=\"9\"");
}

struct Box {
  double x0, y0, x1, y1;
  bool Meets(const Box& b) const { return x0 < b.x1 && b.x0 < x1 && y0 < b.y1 && b.y0 < y1; }
};

// Areas and fences, under the units.
void DrawTerrain(Canvas& c, const Table& t) {
  for (const TerrainArea& a : t.areas) {
    c.Poly("polygon", a.polygon, std::string("fill=\"") + TerrainFill(a.kind) + "\" stroke=\"#333\"", a.name);
  }
  for (const LineObstacle& l : t.obstacles) {
    c.Poly("polyline", l.points, "fill=\"none\" stroke=\"#6b4b2a\" stroke-width=\"3\" stroke-dasharray=\"6,3\"", l.name);
  }
}

// The first of the candidate boxes (w x h, each given by its top-left corner)
// that meets nothing in `taken`, else the first.
Box FirstFree(const std::vector<Box>& taken, const std::vector<Vec2>& corners, double w, double h) {
  for (Vec2 p : corners) {
    const Box b{p.x, p.y, p.x + w, p.y + h};
    if (std::none_of(taken.begin(), taken.end(), [&](const Box& o) { return o.Meets(b); })) return b;
  }
  return Box{corners[0].x, corners[0].y, corners[0].x + w, corners[0].y + h};
}

// Each area's and fence's name, over the units and beside them: at the area's
// middle unless a base (or a label placed before) is there, else just above,
// below, left or right of the area (the labels' boxes go to `taken`).
void DrawTerrainLabels(Canvas& c, const Table& t, std::vector<Box>* taken) {
  for (const TerrainArea& a : t.areas) {
    Vec2 mid{0, 0};
    Box bb{1e9, 1e9, -1e9, -1e9};
    for (Vec2 p : a.polygon) {
      mid = mid + p * (1.0 / static_cast<double>(a.polygon.size()));
      bb = {std::min(bb.x0, c.X(p.x)), std::min(bb.y0, c.Y(p.y)), std::max(bb.x1, c.X(p.x)), std::max(bb.y1, c.Y(p.y))};
    }
    const double w = 5.0 * static_cast<double>(a.name.size()), h = 10, cx = c.X(mid.x) - w / 2;
    const Box l = FirstFree(*taken,
                            {{cx, c.Y(mid.y) - 6}, {cx, bb.y0 - h - 1}, {cx, bb.y1 + 1},
                             {bb.x0 - w - 2, c.Y(mid.y) - 6}, {bb.x1 + 2, c.Y(mid.y) - 6}},
                            w, h);
    c.Text(l.x0, l.y1 - 2, a.name, "font-size=\"9\" font-style=\"italic\" fill=\"#222\"");
    taken->push_back(l);
  }
  for (const LineObstacle& l : t.obstacles) {
    const Vec2 mid = (l.points[0] + l.points[1]) * 0.5;
    const double w = 4.5 * static_cast<double>(l.name.size()), h = 9, x = c.X(mid.x), y = c.Y(mid.y);
    const Box b = FirstFree(*taken, {{x + 4, y - 12}, {x - w - 4, y - 12}, {x + 4, y + 3}, {x - w - 4, y + 3}}, w, h);
    c.Text(b.x0, b.y1 - 1, l.name, "font-size=\"8\" font-style=\"italic\" fill=\"#6b4b2a\"");
    taken->push_back(b);
  }
}

// A label beside a point that overlaps no label placed before it: the first
// free spot of a ring of candidates (right, left, above, below, then further out).
Box PlaceLabel(const std::vector<Box>& taken, double px, double py, double w, double h) {
  const Box best{px + 8, py - 4 - h, px + 8 + w, py - 4};
  for (int ring = 0; ring < 6; ++ring) {
    const double r = 12.0 * ring;
    const double steps[][2] = {{8 + r, 4}, {-8 - w - r, 4}, {-w / 2, -8 - r}, {-w / 2, h + 8 + r},
                               {8 + r, 4 + h + r / 2}, {8 + r, 4 - h - r / 2}, {-8 - w - r, 4 + h + r / 2},
                               {-8 - w - r, 4 - h - r / 2}};
    for (const auto& st : steps) {
      const Box b{px + st[0], py + st[1] - h, px + st[0] + w, py + st[1]};
      bool free = true;
      for (const Box& o : taken) free = free && !o.Meets(b);
      if (free) return b;
    }
  }
  return best;
}

void DrawLegend(Canvas& c, const Game& g, double x, double table_top) {
  double y = table_top + 4;
  c.Text(x, y, "Legend", "font-size=\"11\" font-weight=\"bold\"");
  auto row = [&](const std::string& swatch, const std::string& text) {
    y += 16;
    c.o += swatch;
    c.Text(x + 22, y + 4, text, "font-size=\"9\"");
  };
  char b[256];
  for (int side = 0; side < 2 && side < static_cast<int>(g.sides.size()); ++side) {
    std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"7\" fill=\"%s\" stroke=\"black\"/>", x,
                  y + 16 - 3, SideFill(side));
    row(b, g.sides[static_cast<size_t>(side)].name + " unit (base to scale; tick = facing)");
  }
  std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"7\" fill=\"#888\" stroke=\"black\" stroke-dasharray=\"2,2\"/>", x, y + 13);
  row(b, "line formed beside a building (12.3)");
  const struct { const char* letter; const char* colour; const char* text; } marks[] = {
      {"R", "#d62828", "routed (10.1)"}, {"P", "#f77f00", "pinned: no move or fire (2.2, 9.4)"},
      {"D", "#7b2cbf", "disorganized (12.5)"}, {"W", "#555555", "stands waiting behind a building (12.3)"}};
  for (const auto& mk : marks) {
    std::snprintf(b, sizeof b,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"7\" "
                  "fill=\"white\">%s</text>", x + 8, y + 16, mk.colour, x + 5.5, y + 18.5, mk.letter);
    row(b, mk.text);
  }
  row("", "label: name, stands (guns), officers r/d");
  std::snprintf(b, sizeof b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#5a3d1e\"/>", x + 8, y + 16);
  row(b, "cows (9.1)");
  std::snprintf(b, sizeof b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#f2a0b0\"/>", x + 8, y + 16);
  row(b, "pigs (9.2)");
  for (const char* kind : {"house", "barn", "pen", "woods", "hill"}) {
    std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"9\" fill=\"%s\" stroke=\"#333\"/>", x,
                  y + 12, TerrainFill(kind));
    row(b, std::string(kind) + (std::string(kind) == "hill" ? " (ridge: terrain advantage)" : ""));
  }
  std::snprintf(b, sizeof b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#6b4b2a\" stroke-width=\"3\" stroke-dasharray=\"6,3\"/>",
                x, y + 16, x + 16, y + 16);
  row(b, "fence");
}

// The unit's base, its facing tick, its 12.3 line, and the markers; returns the base's screen box.
Box DrawUnit(Canvas& c, const Game& g, const State& s, UnitId u) {
  const Footprint f = FootprintOf(g, s, u);
  const auto corners = f.Corners();
  const std::string name = g.units[static_cast<size_t>(u)].name;
  c.Poly("polygon", {corners.begin(), corners.end()},
         std::string("fill=\"") + SideFill(s.unit(u).side) + "\" stroke=\"black\"", name);
  Footprint line;
  if (LineBesideOf(g, s, u, &line)) {
    const auto lc = line.Corners();
    c.Poly("polygon", {lc.begin(), lc.end()},
           std::string("fill=\"") + SideFill(s.unit(u).side) + "\" stroke=\"black\" stroke-dasharray=\"2,2\"",
           name + " (line beside)");
  }
  const Vec2 mid = (corners[0] + corners[1]) * 0.5, tip = mid + f.Forward() * 0.8;
  std::snprintf(c.buf, sizeof c.buf, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"2\"/>\n",
                c.X(mid.x), c.Y(mid.y), c.X(tip.x), c.Y(tip.y));
  c.o += c.buf;
  Box box{1e9, 1e9, -1e9, -1e9};
  std::vector<Vec2> pts(corners.begin(), corners.end());
  if (LineBesideOf(g, s, u, &line)) {  // the line beside the building is part of what a label must not cover
    const auto lc = line.Corners();
    pts.insert(pts.end(), lc.begin(), lc.end());
  }
  for (Vec2 p : pts) {
    box = {std::min(box.x0, c.X(p.x)), std::min(box.y0, c.Y(p.y)), std::max(box.x1, c.X(p.x)), std::max(box.y1, c.Y(p.y))};
  }
  const UnitState& us = s.unit(u);
  const struct { bool on; const char* letter; const char* colour; } marks[] = {
      {us.Has(kRouted), "R", "#d62828"}, {us.Has(kPinned), "P", "#f77f00"},
      {Disorganized(g, s, u), "D", "#7b2cbf"}, {WaitingOf(g, s, u) > 0, "W", "#555555"}};
  double mx = box.x0;
  for (const auto& mk : marks) {
    if (!mk.on) continue;
    std::snprintf(c.buf, sizeof c.buf,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"white\"/><text x=\"%.1f\" y=\"%.1f\" "
                  "font-size=\"7\" fill=\"white\">%s</text>\n", mx, box.y0 - 6, mk.colour, mx - 2.5, box.y0 - 3.5, mk.letter);
    c.o += c.buf;
    mx += 11;
  }
  return box;
}

WG_RULE("T.4", MiniRules::RenderSvg);
bool MiniRules::RenderSvg(const State& s, std::string* svg) const {
  if (!game_) return false;
  const Game& g = *game_;
  Canvas c;
  c.depth = g.table().depth;
  const double w = Canvas::kMargin * 2 + g.table().width * Canvas::kPx + Canvas::kLegend;
  const double h = Canvas::kMargin * 2 + g.table().depth * Canvas::kPx + 20;
  std::snprintf(c.buf, sizeof c.buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\">\n"
                "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n"
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#d8e4b0\" stroke=\"black\"/>\n",
                w, h, w, h, c.X(0), c.Y(g.table().depth), g.table().width * Canvas::kPx, g.table().depth * Canvas::kPx);
  c.o = c.buf;
  DrawRuler(c, g.table());
  // Labels stay on the table: around it are the inch marks, and the legend's column.
  const double x0 = c.X(0), x1 = c.X(g.table().width), y0 = c.Y(g.table().depth), y1 = c.Y(0);
  std::vector<Box> taken = {Box{x1 + 16, -1e9, 1e9, 1e9}, Box{-1e9, -1e9, x0, 1e9}, Box{-1e9, -1e9, 1e9, y0},
                            Box{-1e9, y1, 1e9, 1e9}};
  DrawTerrain(c, g.table());
  std::vector<std::pair<UnitId, Box>> bases;
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (OnTable(s, u)) bases.emplace_back(u, DrawUnit(c, g, s, u));
  }
  for (const auto& [u, b] : bases) taken.push_back(b);  // labels never cover a base
  for (const Herd& herd : M(s).herds) {  // nor a herd's marker
    if (herd.alive) taken.push_back(Box{c.X(herd.x / 100.0) - 6, c.Y(herd.y / 100.0) - 6, c.X(herd.x / 100.0) + 6, c.Y(herd.y / 100.0) + 6});
  }
  DrawTerrainLabels(c, g.table(), &taken);
  for (const auto& [u, b] : bases) {
    const MiniUnit& mu = M(s).units[u];
    std::string label = g.units[static_cast<size_t>(u)].name + " " + std::to_string(Stands(g, s, u)) +
                        (TypeOf(g, u).artillery ? " guns" : " st") + ((mu.officers & kRegimental) ? " r" : "") +
                        ((mu.officers & kDivisional) ? " d" : "");
    const double tw = 5.6 * static_cast<double>(label.size()), th = 9;  // bold 9 px: about 5.6 px a character
    const Box l = PlaceLabel(taken, b.x1, (b.y0 + b.y1) / 2, tw, th);
    taken.push_back(l);
    const double lx = std::clamp((b.x0 + b.x1) / 2, l.x0, l.x1), ly = std::clamp((b.y0 + b.y1) / 2, l.y0, l.y1);
    if (!l.Meets(Box{b.x0 - 14, b.y0 - 14, b.x1 + 14, b.y1 + 14})) {  // far from its base: a leader line
      std::snprintf(c.buf, sizeof c.buf, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-width=\"0.6\"/>\n",
                    lx, ly, (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
      c.o += c.buf;
    }
    c.Text(l.x0, l.y1 - 1, label, "font-size=\"9\" font-weight=\"bold\"");
  }
  for (int hd = 0; hd < kNumHerds; ++hd) {
    const Herd& herd = M(s).herds[hd];
    if (!herd.alive) continue;
    const double px = c.X(herd.x / 100.0), py = c.Y(herd.y / 100.0);
    std::snprintf(c.buf, sizeof c.buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"black\"><title>%s</title></circle>\n",
                  px, py, hd < 4 ? "#5a3d1e" : "#f2a0b0", hd < 4 ? "cows" : "pigs");
    c.o += c.buf;
    const std::string label = std::string(hd < 4 ? "cows" : "pigs") + (herd.penned ? " (penned)" : "");
    const Box l = PlaceLabel(taken, px, py, 5.0 * static_cast<double>(label.size()), 8);
    taken.push_back(l);
    c.Text(l.x0, l.y1 - 1, label, "font-size=\"8\" font-style=\"italic\"");
  }
  DrawLegend(c, g, c.X(g.table().width) + 22, c.Y(g.table().depth));
  *svg = c.o + "</svg>\n";
  return true;
}

}  // namespace wg::civil_war_miniatures
