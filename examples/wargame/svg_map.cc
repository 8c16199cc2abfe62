// The map as SVG (`wargame render`, `play --svg`, and the page of `wargame
// serve`): terrain, paths and hexside features, every hex numbered, place
// names in words, counters with the names players know, their values, type
// symbols and markers (disruption and permanent losses drawn differently),
// every counter of a stack visible, and a legend. Hexes carry data-hex and
// counters data-unit, which the page uses to shade hexes and take clicks.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "cli.h"
#include "wargame/map.h"

namespace wg::cli {

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
  if (Has(n, "slope")) return "#dfe3b8";
  if (Has(n, "hill") || Has(n, "height") || Has(n, "ridge") || Has(n, "rough")) return "#d8bf92";
  if (Has(n, "mountain")) return "#b39b7a";
  return HashColour(n, 80);
}

struct Stroke {
  std::string colour;
  double width = 0.09;  // in hex radii
  bool dashed = false;
};

Stroke FeatureStroke(const std::string& n) {
  if (Has(n, "bridge")) return {"#7a5a3a", 0.16, false};
  if (Has(n, "ford")) return {"#3fb0c0", 0.14, false};
  if (Has(n, "river")) return {"#2f6fbf", 0.14, false};
  if (Has(n, "stream") || Has(n, "creek") || Has(n, "run")) return {"#4f9ad8", 0.09, false};
  if (Has(n, "slope") || Has(n, "ridge") || Has(n, "bluff")) return {"#8a5a2a", 0.09, true};
  if (Has(n, "wall") || Has(n, "fence")) return {"#666666", 0.09, false};
  if (Has(n, "redoubt") || Has(n, "works") || Has(n, "trench")) return {"#222222", 0.12, false};
  if (Has(n, "road") || Has(n, "pike")) return {"#8b5a2b", 0.1, false};
  if (Has(n, "trail") || Has(n, "track")) return {"#8b5a2b", 0.09, true};
  if (Has(n, "rail")) return {"#333333", 0.09, true};
  return {HashColour(n, 40), 0.09, false};
}

std::string SideFill(const Game& g, int side) {
  const std::string id = side >= 0 && side < static_cast<int>(g.sides.size()) ? g.sides[static_cast<size_t>(side)].id : "";
  if (Has(id, "union") || Has(id, "blue") || Has(id, "federal") || Has(id, "north")) return "#3d6db5";
  if (Has(id, "confed") || Has(id, "red") || Has(id, "rebel") || Has(id, "south")) return "#b9b4a8";
  return side == 0 ? "#3d6db5" : "#b5443d";
}
std::string SideInk(const std::string& fill) { return fill == "#b9b4a8" ? "#1a1a1a" : "#ffffff"; }

std::string Num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

// "springfield_pike" -> "Springfield Pike"; names already in words stay as they are.
std::string Words(const std::string& id) {
  if (id.find('_') == std::string::npos) return id;
  std::string o;
  bool start = true;
  for (char c : id) {
    if (c == '_' || c == ' ') {
      o += ' ';
      start = true;
      continue;
    }
    o += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    start = false;
  }
  return o;
}

// The name a player knows from the counter: "Laiboldt (35th Bde)" -> "Laiboldt".
std::string CounterName(const std::string& name) {
  std::string n = name.substr(0, name.find(" ("));
  return n.empty() ? name : n;
}

// Up to two lines of at most `width` characters; a longer last line ends in ".".
std::vector<std::string> Lines(const std::string& text, size_t width) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < text.size();) {
    size_t sp = text.find(' ', i);
    if (sp == std::string::npos) sp = text.size();
    const std::string word = text.substr(i, sp - i);
    i = sp + 1;
    if (!out.back().empty() && out.back().size() + 1 + word.size() > width) {
      if (out.size() == 2) {
        out.back() += " " + word;
        break;
      }
      out.emplace_back();
    }
    out.back() += (out.back().empty() ? "" : " ") + word;
  }
  for (auto& l : out) {
    if (l.size() > width + 1) l = l.substr(0, width) + ".";
  }
  return out;
}

class SvgMap {
 public:
  SvgMap(const Game& g, const State& s);
  std::string Draw();

 private:
  void Corner(int i, int k, double scale, double* x, double* y) const;
  std::string HexPoints(int i, double scale) const;
  std::string TerrainOf(int i) const;
  void DrawTerrain();
  void DrawPaths();
  void DrawHexsides();
  void DrawNumbers();
  void DrawPlaces();
  void DrawUnits();
  void DrawCounter(UnitId u, double x, double y, double size);
  void DrawMarkers(const UnitState& us, double x, double y, double size);
  void DrawLegend();

  const Game& g_;
  const State& s_;
  const MapLayout& layout_;
  const double r_ = 40.0;  // hex outer radius in SVG units
  const bool flat_;
  const int n_;
  std::vector<double> cx_, cy_;
  double width_ = 0, height_ = 0, legend_top_ = 0;
  std::set<std::string> paths_;
  std::string o_;
};

constexpr double kTitleHeight = 50;
constexpr double kLegendRow = 22;

SvgMap::SvgMap(const Game& g, const State& s)
    : g_(g), s_(s), layout_(g.hex_board().map.grid.layout()), flat_(layout_.orientation == Orientation::kFlatTop),
      n_(g.hex_board().map.size()),
      paths_(g.hex_board().map.vocabulary.paths.begin(), g.hex_board().map.vocabulary.paths.end()) {
  double minx = 1e9, miny = 1e9, maxx = -1e9, maxy = -1e9;
  cx_.resize(static_cast<size_t>(n_));
  cy_.resize(static_cast<size_t>(n_));
  for (int i = 0; i < n_; ++i) {
    double x, y;
    layout_.Center(g.hex_board().map.grid.HexAt(i), &x, &y);
    cx_[static_cast<size_t>(i)] = x * r_;
    cy_[static_cast<size_t>(i)] = y * r_;
    minx = std::min(minx, x * r_);
    maxx = std::max(maxx, x * r_);
    miny = std::min(miny, y * r_);
    maxy = std::max(maxy, y * r_);
  }
  if (n_ == 0) minx = miny = maxx = maxy = 0;
  const double pad = r_ * 1.1;
  for (int i = 0; i < n_; ++i) {
    cx_[static_cast<size_t>(i)] += pad - minx;
    cy_[static_cast<size_t>(i)] += pad + kTitleHeight - miny;
  }
  width_ = std::max(maxx - minx + 2 * pad, 640.0);
  legend_top_ = maxy - miny + 2 * pad + kTitleHeight;
  const MapVocabulary& vocab = g.hex_board().map.vocabulary;
  const size_t entries = vocab.terrain.size() + vocab.features.size() + g.markers.size() + 1;
  const size_t per_row = std::max<size_t>(1, static_cast<size_t>(width_ / 190));
  height_ = legend_top_ + 30 + kLegendRow * static_cast<double>((entries + per_row - 1) / per_row + 1) + 10;
}

void SvgMap::Corner(int i, int k, double scale, double* x, double* y) const {
  const double ang = (flat_ ? 60.0 * k : 60.0 * k - 30.0) * M_PI / 180.0;
  *x = cx_[static_cast<size_t>(i)] + r_ * scale * std::cos(ang);
  *y = cy_[static_cast<size_t>(i)] + r_ * scale * std::sin(ang);
}

std::string SvgMap::HexPoints(int i, double scale) const {
  std::string o;
  for (int k = 0; k < 6; ++k) {
    double x, y;
    Corner(i, k, scale, &x, &y);
    o += Num(x) + "," + Num(y) + (k < 5 ? " " : "");
  }
  return o;
}

// The hex's first terrain type that is not the default one colours it.
std::string SvgMap::TerrainOf(int i) const {
  const auto& vocab = g_.hex_board().map.vocabulary;
  const TerrainMask t = g_.hex_board().map.terrain[static_cast<size_t>(i)];
  for (size_t b = 0; b < vocab.terrain.size(); ++b) {
    if (((t >> b) & 1u) && vocab.terrain[b] != vocab.default_terrain) return vocab.terrain[b];
  }
  return vocab.default_terrain;
}

std::string SvgMap::Draw() {
  o_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width_) + "\" height=\"" + Num(height_) +
       "\" viewBox=\"0 0 " + Num(width_) + " " + Num(height_) + "\" font-family=\"DejaVu Sans, sans-serif\">\n";
  o_ += "<rect width=\"100%\" height=\"100%\" fill=\"#fbf8ee\"/>\n";
  const std::string label = s_.turn >= 1 && s_.turn <= g_.turns.turns.size() ? g_.turns.turns[s_.turn - 1u].label : "";
  // The title shrinks to the width so it is never cut off.
  const double title_size = std::min(20.0, (width_ - 16) / (0.6 * std::max<size_t>(1, g_.title.size())));
  o_ += "<text id=\"title\" x=\"8\" y=\"22\" font-size=\"" + Num(title_size) + "\" font-weight=\"bold\">" +
        XmlText(g_.title) + "</text>\n";
  o_ += "<text x=\"8\" y=\"42\" font-size=\"13\">Turn " + std::to_string(s_.turn) +
        (label.empty() ? "" : " (" + XmlText(label) + ")") + ", " + XmlText(SideName(g_, s_.phasing_side)) + " " +
        XmlText(Words(PhaseName(g_, s_))) + " phase. Victory points: " + XmlText(SideName(g_, 0)) + " " +
        std::to_string(s_.vp[0]) + ", " + XmlText(SideName(g_, 1)) + " " + std::to_string(s_.vp[1]) + "</text>\n";
  DrawTerrain();
  DrawPaths();
  DrawHexsides();
  DrawNumbers();
  DrawPlaces();
  DrawUnits();
  DrawLegend();
  o_ += "</svg>\n";
  return o_;
}

void SvgMap::DrawTerrain() {
  o_ += "<g id=\"terrain\" stroke=\"#8c8672\" stroke-width=\"0.7\">\n";
  for (int i = 0; i < n_; ++i) {
    const std::string name = TerrainOf(i);
    o_ += "<polygon data-hex=\"" + g_.hex_board().map.Label(i) + "\" fill=\"" + TerrainColour(name) + "\" points=\"" +
          HexPoints(i, 1.0) + "\"><title>" + g_.hex_board().map.Label(i) + " " + XmlText(Words(name)) + "</title></polygon>\n";
  }
  o_ += "</g>\n";
}

// Paths (roads, trails) as lines through the hex centres.
void SvgMap::DrawPaths() {
  const auto& vocab = g_.hex_board().map.vocabulary;
  o_ += "<g id=\"paths\" fill=\"none\" stroke-linecap=\"round\">\n";
  for (int i = 0; i < n_; ++i) {
    for (int d = 0; d < 6; ++d) {
      const int j = g_.hex_board().map.grid.NeighborIndex(i, d);
      if (j < i) continue;  // each hexside once (j = -1 off map)
      const FeatureMask f = g_.hex_board().map.Side(i, d);
      for (size_t b = 0; b < vocab.features.size(); ++b) {
        if (!((f >> b) & 1u) || !paths_.count(vocab.features[b])) continue;
        const Stroke st = FeatureStroke(vocab.features[b]);
        o_ += "<line x1=\"" + Num(cx_[static_cast<size_t>(i)]) + "\" y1=\"" + Num(cy_[static_cast<size_t>(i)]) +
              "\" x2=\"" + Num(cx_[static_cast<size_t>(j)]) + "\" y2=\"" + Num(cy_[static_cast<size_t>(j)]) +
              "\" stroke=\"" + st.colour + "\" stroke-width=\"" + Num(st.width * r_) + "\"" +
              (st.dashed ? " stroke-dasharray=\"6,4\"" : "") + "/>\n";
      }
    }
  }
  o_ += "</g>\n";
}

// Hexside features as coloured hexside lines.
void SvgMap::DrawHexsides() {
  const auto& vocab = g_.hex_board().map.vocabulary;
  o_ += "<g id=\"hexsides\" stroke-linecap=\"round\">\n";
  for (int i = 0; i < n_; ++i) {
    for (int d = 0; d < 6; ++d) {
      const int j = g_.hex_board().map.grid.NeighborIndex(i, d);
      if (j >= 0 && j < i) continue;
      const FeatureMask f = g_.hex_board().map.Side(i, d);
      if (!f) continue;
      // The hexside toward direction d: the two corners nearest the midpoint toward the neighbour.
      double nx, ny;
      layout_.Center(Neighbor(g_.hex_board().map.grid.HexAt(i), d), &nx, &ny);
      double ox, oy;
      layout_.Center(g_.hex_board().map.grid.HexAt(i), &ox, &oy);
      const double mx = cx_[static_cast<size_t>(i)] + (nx - ox) * r_ / 2;
      const double my = cy_[static_cast<size_t>(i)] + (ny - oy) * r_ / 2;
      std::vector<std::pair<double, int>> near;
      for (int k = 0; k < 6; ++k) {
        double x, y;
        Corner(i, k, 1.0, &x, &y);
        near.push_back({(x - mx) * (x - mx) + (y - my) * (y - my), k});
      }
      std::sort(near.begin(), near.end());
      double x1, y1, x2, y2;
      Corner(i, near[0].second, 1.0, &x1, &y1);
      Corner(i, near[1].second, 1.0, &x2, &y2);
      for (size_t b = 0; b < vocab.features.size(); ++b) {
        if (!((f >> b) & 1u) || paths_.count(vocab.features[b])) continue;
        const Stroke st = FeatureStroke(vocab.features[b]);
        o_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) +
              "\" stroke=\"" + st.colour + "\" stroke-width=\"" + Num(st.width * r_) + "\"" +
              (st.dashed ? " stroke-dasharray=\"5,3\"" : "") + "><title>" + XmlText(Words(vocab.features[b])) +
              "</title></line>\n";
      }
    }
  }
  o_ += "</g>\n";
}

void SvgMap::DrawNumbers() {
  o_ += "<g id=\"labels\" font-size=\"" + Num(r_ * 0.24) + "\" fill=\"#5b5443\" text-anchor=\"middle\">\n";
  for (int i = 0; i < n_; ++i) {
    o_ += "<text x=\"" + Num(cx_[static_cast<size_t>(i)]) + "\" y=\"" + Num(cy_[static_cast<size_t>(i)] - r_ * 0.6) +
          "\">" + g_.hex_board().map.Label(i) + "</text>\n";
  }
  o_ += "</g>\n";
}

// Named places: objectives outlined, the name in words under the hexes, and who holds it.
void SvgMap::DrawPlaces() {
  o_ += "<g id=\"places\">\n";
  for (size_t p = 0; p < g_.hex_board().map.places.size(); ++p) {
    const Place& pl = g_.hex_board().map.places[p];
    if (pl.hexes.empty()) continue;
    double sx = 0, sy = 0;
    for (int hx : pl.hexes) {
      sx += cx_[static_cast<size_t>(hx)];
      sy = std::max(sy, cy_[static_cast<size_t>(hx)]);
      if (pl.kind == "objective") {
        o_ += "<polygon fill=\"none\" stroke=\"#c0392b\" stroke-width=\"3\" points=\"" + HexPoints(hx, 0.9) + "\"/>\n";
      }
    }
    sx /= static_cast<double>(pl.hexes.size());
    const int c = p < static_cast<size_t>(kMaxPlaces) ? s_.place_control[p] : 0;
    const std::string text = Words(pl.name) + (c ? " (" + SideName(g_, c - 1) + ")" : "");
    const double half = 0.3 * r_ * 0.27 * static_cast<double>(text.size());  // about half the text's width
    sx = std::clamp(sx, half + 4, std::max(half + 4, width_ - half - 4));
    o_ += "<text x=\"" + Num(sx) + "\" y=\"" + Num(sy + r_ * 0.78) + "\" font-size=\"" + Num(r_ * 0.27) +
          "\" text-anchor=\"middle\" font-style=\"italic\" fill=\"#2a2418\" stroke=\"#fbf8ee\" stroke-width=\"3\" "
          "paint-order=\"stroke\">" + XmlText(text) + "</text>\n";
  }
  o_ += "</g>\n";
}

// A stack is tiled inside its hex, so every counter of it shows.
void SvgMap::DrawUnits() {
  o_ += "<g id=\"units\" text-anchor=\"middle\">\n";
  std::map<int, std::vector<UnitId>> stacks;
  for (int i = 0; i < s_.num_units; ++i) {
    const UnitState& us = s_.unit(static_cast<UnitId>(i));
    if (us.OnMap() && us.hex < n_) stacks[us.hex].push_back(static_cast<UnitId>(i));
  }
  for (const auto& [hex, units] : stacks) {
    const double x0 = cx_[static_cast<size_t>(hex)], y0 = cy_[static_cast<size_t>(hex)] + r_ * 0.06;
    const size_t k = units.size();
    const int cols = k == 1 ? 1 : k <= 4 ? 2 : 3;
    const int rows = static_cast<int>((k + static_cast<size_t>(cols) - 1) / static_cast<size_t>(cols));
    const double size = k == 1 ? r_ * 0.98 : k == 2 ? r_ * 0.74 : rows == 2 && cols == 2 ? r_ * 0.6 : r_ * 0.46;
    const double gap = 2;
    for (size_t i = 0; i < k; ++i) {
      const int c = static_cast<int>(i) % cols, r = static_cast<int>(i) / cols;
      const double x = x0 - (cols * size + (cols - 1) * gap) / 2 + c * (size + gap);
      const double y = y0 - (rows * size + (rows - 1) * gap) / 2 + r * (size + gap);
      DrawCounter(units[i], x, y, size);
    }
  }
  o_ += "</g>\n";
}

void SvgMap::DrawCounter(UnitId u, double x, double y, double size) {
  const UnitDef& d = g_.units[static_cast<size_t>(u)];
  const UnitState& us = s_.unit(u);
  const std::string fill = SideFill(g_, us.side), ink = SideInk(fill);
  const std::string values = UnitValues(g_, s_, u);
  o_ += "<g data-unit=\"" + XmlText(d.id) + "\"><title>" + XmlText(d.name) + " (" + XmlText(d.id) + "): " + values;
  for (size_t m = 0; m < g_.markers.size() && m < static_cast<size_t>(kMaxMarkers); ++m) {
    if (us.markers[m]) o_ += ", " + std::to_string(us.markers[m]) + " " + XmlText(g_.markers[m].name);
  }
  o_ += us.face ? ", back face" : "";
  o_ += "</title><rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(size) + "\" height=\"" + Num(size) +
        "\" rx=\"2\" fill=\"" + fill + "\" stroke=\"#111\" stroke-width=\"1\"" +
        (us.face ? " stroke-dasharray=\"3,2\"" : "") + "/>";
  // The type symbol: a small box with the usual marks.
  const std::string kind = g_.kinds[static_cast<size_t>(d.kind)].id;
  const double bw = size * 0.42, bh = size * 0.2, bx = x + (size - bw) / 2, by = y + size * 0.06;
  o_ += "<rect x=\"" + Num(bx) + "\" y=\"" + Num(by) + "\" width=\"" + Num(bw) + "\" height=\"" + Num(bh) +
        "\" fill=\"none\" stroke=\"" + ink + "\" stroke-width=\"0.8\"/>";
  auto line = [&](double x1, double y1, double x2, double y2) {
    o_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) +
          "\" stroke=\"" + ink + "\" stroke-width=\"0.8\"/>";
  };
  if (Has(kind, "inf") || Has(kind, "cav")) line(bx, by + bh, bx + bw, by);
  if (Has(kind, "inf")) line(bx, by, bx + bw, by + bh);
  if (Has(kind, "art")) {
    o_ += "<circle cx=\"" + Num(bx + bw / 2) + "\" cy=\"" + Num(by + bh / 2) + "\" r=\"" + Num(bh * 0.28) + "\" fill=\"" +
          ink + "\"/>";
  }
  if (Has(kind, "hq") || Has(kind, "supply") || Has(kind, "leader")) {
    o_ += "<text x=\"" + Num(bx + bw / 2) + "\" y=\"" + Num(by + bh * 0.82) + "\" font-size=\"" + Num(bh * 0.8) +
          "\" fill=\"" + ink + "\">" + (Has(kind, "supply") ? "S" : "HQ") + "</text>";
  }
  const auto lines = Lines(CounterName(d.name), size > r_ * 0.7 ? 10 : 7);
  const double fs = size * (lines.size() > 1 ? 0.17 : 0.19);
  for (size_t i = 0; i < lines.size(); ++i) {
    o_ += "<text x=\"" + Num(x + size / 2) + "\" y=\"" + Num(y + size * 0.46 + static_cast<double>(i) * fs * 1.05) +
          "\" font-size=\"" + Num(fs) + "\" fill=\"" + ink + "\">" + XmlText(lines[i]) + "</text>";
  }
  o_ += "<text x=\"" + Num(x + size / 2) + "\" y=\"" + Num(y + size * 0.93) + "\" font-size=\"" + Num(size * 0.24) +
        "\" font-weight=\"bold\" fill=\"" + ink + "\">" + values + "</text>";
  DrawMarkers(us, x, y, size);
  o_ += "</g>\n";
}

// Disruption: an orange circle; permanent loss: a dark red square; others: a purple circle.
void SvgMap::DrawMarkers(const UnitState& us, double x, double y, double size) {
  int badge = 0;
  for (size_t m = 0; m < g_.markers.size() && m < static_cast<size_t>(kMaxMarkers); ++m) {
    if (!us.markers[m]) continue;
    const std::string& id = g_.markers[m].id;
    const bool loss = Has(id, "loss") || Has(id, "perm") || Has(id, "step");
    const bool disruption = Has(id, "disrupt");
    const double br = std::max(5.5, size * 0.17), bx = x + size - br * 0.6 - badge * br * 2.1, by = y + br * 0.6;
    const std::string colour = loss ? "#7a0f0f" : disruption ? "#e8871e" : "#7b3fa0";
    if (loss) {
      o_ += "<rect x=\"" + Num(bx - br) + "\" y=\"" + Num(by - br) + "\" width=\"" + Num(2 * br) + "\" height=\"" +
            Num(2 * br) + "\" fill=\"" + colour + "\" stroke=\"white\"/>";
    } else {
      o_ += "<circle cx=\"" + Num(bx) + "\" cy=\"" + Num(by) + "\" r=\"" + Num(br) + "\" fill=\"" + colour +
            "\" stroke=\"white\"/>";
    }
    const char initial = static_cast<char>(std::toupper(static_cast<unsigned char>(id[0])));
    o_ += "<text x=\"" + Num(bx) + "\" y=\"" + Num(by + br * 0.45) + "\" font-size=\"" + Num(br * 1.15) +
          "\" font-weight=\"bold\" fill=\"white\">" + std::string(1, initial) + std::to_string(us.markers[m]) + "</text>";
    ++badge;
  }
}

void SvgMap::DrawLegend() {
  const auto& vocab = g_.hex_board().map.vocabulary;
  o_ += "<g id=\"legend\" font-size=\"12\" fill=\"#222\">\n<text x=\"8\" y=\"" + Num(legend_top_ + 16) +
        "\" font-weight=\"bold\">Legend</text>\n";
  const size_t per_row = std::max<size_t>(1, static_cast<size_t>(width_ / 190));
  size_t slot = 0;
  auto place = [&](double* x, double* y) {
    *x = 8 + 190.0 * static_cast<double>(slot % per_row);
    *y = legend_top_ + 30 + kLegendRow * static_cast<double>(slot / per_row);
    ++slot;
  };
  double x, y;
  for (const auto& t : vocab.terrain) {
    place(&x, &y);
    o_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"22\" height=\"14\" fill=\"" + TerrainColour(t) +
          "\" stroke=\"#8c8672\"/><text x=\"" + Num(x + 28) + "\" y=\"" + Num(y + 11) + "\">" + XmlText(Words(t)) +
          "</text>\n";
  }
  for (const auto& f : vocab.features) {
    place(&x, &y);
    const Stroke st = FeatureStroke(f);
    o_ += "<line x1=\"" + Num(x) + "\" y1=\"" + Num(y + 7) + "\" x2=\"" + Num(x + 22) + "\" y2=\"" + Num(y + 7) +
          "\" stroke=\"" + st.colour + "\" stroke-width=\"" + Num(std::max(2.0, st.width * r_ * 0.8)) + "\"" +
          (st.dashed ? " stroke-dasharray=\"5,3\"" : "") + "/><text x=\"" + Num(x + 28) + "\" y=\"" + Num(y + 11) +
          "\">" + XmlText(Words(f)) + (paths_.count(f) ? " (path)" : " (hexside)") + "</text>\n";
  }
  for (const auto& m : g_.markers) {
    place(&x, &y);
    const bool loss = Has(m.id, "loss") || Has(m.id, "perm") || Has(m.id, "step");
    const std::string colour = loss ? "#7a0f0f" : Has(m.id, "disrupt") ? "#e8871e" : "#7b3fa0";
    o_ += loss ? "<rect x=\"" + Num(x + 4) + "\" y=\"" + Num(y) + "\" width=\"14\" height=\"14\" fill=\"" + colour + "\"/>"
               : "<circle cx=\"" + Num(x + 11) + "\" cy=\"" + Num(y + 7) + "\" r=\"7\" fill=\"" + colour + "\"/>";
    o_ += "<text x=\"" + Num(x + 28) + "\" y=\"" + Num(y + 11) + "\">" + XmlText(m.name) + " (count)</text>\n";
  }
  place(&x, &y);
  o_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"22\" height=\"14\" fill=\"none\" stroke=\"#111\" "
        "stroke-dasharray=\"3,2\"/><text x=\"" + Num(x + 28) + "\" y=\"" + Num(y + 11) + "\">back face (reduced)</text>\n";
  // The counter key on a line of its own.
  std::string attrs;
  for (const auto& a : g_.attributes) attrs += (attrs.empty() ? "" : "-") + a;
  slot = (slot + per_row - 1) / per_row * per_row;
  place(&x, &y);
  o_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y + 11) + "\">Counters: name, type symbol, and current values " +
        XmlText(attrs) + " (reduced by losses and disruption)</text>\n";
  o_ += "</g>\n";
}

}  // namespace

std::string RenderSvg(const Game& g, const State& s) {
  std::string custom;
  if (g.rules->RenderSvg(s, &custom)) return custom;
  return SvgMap(g, s).Draw();
}

}  // namespace wg::cli
