// Map loader: reads a map YAML file (format in docs/map-format.md) and
// compiles it into the dense arrays of wg::Map.
//
// YAML keys read: name, provenance, layout {orientation, offset, label,
// first_label, cols, rows}, vocabulary {terrain, features, directed, paths,
// place_kinds, default_terrain} (only when no vocabulary is passed in),
// terrain {<terrain>: [hexes]}, hexsides {<feature>: [[hex, dir|hex]...]},
// paths {<feature>: [[hex, hex, ...]...]}, places [{name, kind, hexes, enter,
// exit, attributes}].
//
// Every error is collected (file:line:col: key.path: message); when there is
// any, no map is returned.
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "wargame/map.h"
#include "wargame/yaml_reader.h"

namespace wg {
namespace {

int IndexOfName(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool IsFourDigits(const std::string& s) {
  if (s.size() != 4) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool IsAllAlpha(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalpha(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// The key node of `key` in a map, or an undefined node.
YAML::Node KeyNode(const YAML::Node& map, const std::string& key) {
  for (const auto& kv : map) {
    if (kv.first.Scalar() == key) return kv.first;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

class MapCompiler {
 public:
  explicit MapCompiler(YamlReader* reader) : r_(*reader) {}

  Result<Map> Compile(const MapVocabulary* vocabulary);

 private:
  bool ReadVocabulary(const YAML::Node& node, MapVocabulary* v);
  std::vector<std::string> ReadNameList(const YAML::Node& node, const std::string& path,
                                        const char* what);
  bool ReadLayout(const YAML::Node& node, MapLayout* layout);
  int ReadChoice(const YAML::Node& map, const std::string& path, const char* key,
                 std::initializer_list<const char*> choices);
  // A single hex label on the map: its grid index, or -1 (error recorded).
  int ReadHex(const YAML::Node& node, const std::string& path);
  // Appends the hexes of a label or an "AAAA-BBBB" run; false on error.
  bool ReadHexItem(const YAML::Node& node, const std::string& path, std::vector<int>* out);
  // A list of labels and runs (a scalar is a list of one).
  void ReadHexList(const YAML::Node& node, const std::string& path, std::vector<int>* out);
  int ReadDirection(const YAML::Node& node, const std::string& path);
  uint8_t ReadDirectionMask(const YAML::Node& node, const std::string& path);
  void ReadTerrain(const YAML::Node& node);
  void ReadHexsides(const YAML::Node& node);
  void ReadPaths(const YAML::Node& node);
  void ReadPlaces(const YAML::Node& node);
  // Marks feature `bit` on the hexside of hex `a` in direction `d`, on both hexes.
  void MarkSide(int a, int d, FeatureMask bit);

  YamlReader& r_;
  Map map_;
  std::vector<bool> listed_;  // per hex: listed under some terrain
};

std::vector<std::string> MapCompiler::ReadNameList(const YAML::Node& node,
                                                   const std::string& path, const char* what) {
  std::vector<std::string> out;
  if (!r_.ExpectSequence(node, path)) return out;
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string item = YamlReader::Item(path, i);
    auto s = r_.String(node[i], item);
    if (!s) continue;
    if (IndexOfName(out, *s) >= 0) {
      r_.Fail(node[i], item, std::string("duplicate ") + what + " name \"" + *s + "\"");
      continue;
    }
    out.push_back(*s);
  }
  return out;
}

bool MapCompiler::ReadVocabulary(const YAML::Node& node, MapVocabulary* v) {
  const size_t errors_before = r_.errors().size();
  const std::string path = "vocabulary";
  if (!r_.CheckKeys(node, path,
                    {"terrain", "features", "directed", "paths", "place_kinds", "default_terrain"})) {
    return false;
  }
  const YAML::Node terrain = node["terrain"];
  if (!terrain) {
    r_.Fail(node, "vocabulary.terrain", "missing required key");
  } else {
    v->terrain = ReadNameList(terrain, "vocabulary.terrain", "terrain");
    if (v->terrain.size() > static_cast<size_t>(kMaxTerrainTypes)) {
      r_.Fail(terrain, "vocabulary.terrain",
              "at most 32 terrain names are allowed, got " + std::to_string(v->terrain.size()));
    }
  }
  if (const YAML::Node features = node["features"]) {
    v->features = ReadNameList(features, "vocabulary.features", "feature");
    if (v->features.size() > static_cast<size_t>(kMaxFeatureTypes)) {
      r_.Fail(features, "vocabulary.features",
              "at most 32 feature names are allowed, got " + std::to_string(v->features.size()));
    }
  }
  for (const char* key : {"directed", "paths"}) {
    const YAML::Node list = node[key];
    if (!list) continue;
    const std::string sub = YamlReader::Child(path, key);
    auto names = ReadNameList(list, sub, "feature");
    for (size_t i = 0; i < names.size(); ++i) {
      if (IndexOfName(v->features, names[i]) < 0) {
        // Find the item node for the position (names skip bad items, so search).
        for (size_t j = 0; j < list.size(); ++j) {
          if (list[j].IsScalar() && list[j].Scalar() == names[i]) {
            r_.Fail(list[j], YamlReader::Item(sub, j),
                    "\"" + names[i] + "\" is not listed under vocabulary.features");
            break;
          }
        }
      }
    }
    (std::string(key) == "directed" ? v->directed : v->paths) = std::move(names);
  }
  if (const YAML::Node kinds = node["place_kinds"]) {
    v->place_kinds = ReadNameList(kinds, "vocabulary.place_kinds", "place kind");
  }
  if (auto def = r_.RequiredString(node, path, "default_terrain")) {
    if (terrain && IndexOfName(v->terrain, *def) < 0) {
      r_.Fail(node["default_terrain"], "vocabulary.default_terrain",
              "unknown terrain \"" + *def + "\" (expected one of: " + JoinNames(v->terrain) + ")");
    }
    v->default_terrain = *def;
  }
  return r_.errors().size() == errors_before;
}

int MapCompiler::ReadChoice(const YAML::Node& map, const std::string& path, const char* key,
                            std::initializer_list<const char*> choices) {
  auto s = r_.RequiredString(map, path, key);
  if (!s) return -1;
  int i = 0;
  std::string list;
  for (const char* c : choices) {
    if (*s == c) return i;
    list += (list.empty() ? "" : ", ") + std::string(c);
    ++i;
  }
  r_.Fail(map[key], YamlReader::Child(path, key),
          "expected one of: " + list + " (got \"" + *s + "\")");
  return -1;
}

bool MapCompiler::ReadLayout(const YAML::Node& node, MapLayout* layout) {
  const size_t errors_before = r_.errors().size();
  const std::string path = "layout";
  if (!r_.CheckKeys(node, path, {"orientation", "offset", "label", "first_label", "cols", "rows"})) {
    return false;
  }
  const int orientation = ReadChoice(node, path, "orientation", {"flat", "pointy"});
  if (orientation >= 0) {
    layout->orientation = orientation == 0 ? Orientation::kFlatTop : Orientation::kPointyTop;
  }
  const int offset = ReadChoice(node, path, "offset", {"odd", "even"});
  if (offset >= 0) layout->parity = offset == 0 ? OffsetParity::kOdd : OffsetParity::kEven;
  const int label = ReadChoice(node, path, "label", {"col_row", "row_col"});
  if (label >= 0) layout->label_order = label == 0 ? LabelOrder::kColRow : LabelOrder::kRowCol;
  if (const YAML::Node first = node["first_label"]) {
    const std::string fpath = "layout.first_label";
    if (!first.IsSequence() || first.size() != 2) {
      r_.Fail(first, fpath, "expected [first column label, first row label]");
    } else {
      auto c = r_.Int(first[0], YamlReader::Item(fpath, 0));
      auto rw = r_.Int(first[1], YamlReader::Item(fpath, 1));
      if (c) layout->first_col_label = *c;
      if (rw) layout->first_row_label = *rw;
      if ((c && (*c < 0 || *c > 99)) || (rw && (*rw < 0 || *rw > 99))) {
        r_.Fail(first, fpath, "labels must be between 0 and 99");
      }
    }
  }
  auto cols = r_.RequiredInt(node, path, "cols");
  auto rows = r_.RequiredInt(node, path, "rows");
  if (cols) {
    layout->cols = *cols;
    if (*cols < 1 || layout->first_col_label + *cols - 1 > 99) {
      r_.Fail(node["cols"], "layout.cols", "column labels must fit in two digits (1 to 99 columns)");
    }
  }
  if (rows) {
    layout->rows = *rows;
    if (*rows < 1 || layout->first_row_label + *rows - 1 > 99) {
      r_.Fail(node["rows"], "layout.rows", "row labels must fit in two digits (1 to 99 rows)");
    }
  }
  return r_.errors().size() == errors_before;
}

int MapCompiler::ReadHex(const YAML::Node& node, const std::string& path) {
  auto s = r_.String(node, path);
  if (!s) return -1;
  if (!IsFourDigits(*s)) {
    r_.Fail(node, path, "\"" + *s + "\" is not a hex label (expected four digits XXYY)");
    return -1;
  }
  const int idx = map_.grid.IndexOfLabel(*s);
  if (idx < 0) r_.Fail(node, path, "hex " + *s + " is off the map");
  return idx;
}

bool MapCompiler::ReadHexItem(const YAML::Node& node, const std::string& path,
                              std::vector<int>* out) {
  if (!node.IsScalar()) {
    r_.Fail(node, path, "expected a hex label or a range AAAA-BBBB");
    return false;
  }
  const std::string& s = node.Scalar();
  const size_t dash = s.find('-');
  if (dash == std::string::npos) {
    const int idx = ReadHex(node, path);
    if (idx < 0) return false;
    out->push_back(idx);
    return true;
  }
  const std::string a = s.substr(0, dash);
  const std::string b = s.substr(dash + 1);
  if (!IsFourDigits(a) || !IsFourDigits(b)) {
    r_.Fail(node, path, "\"" + s + "\" is not a hex range (expected AAAA-BBBB)");
    return false;
  }
  const int a1 = std::stoi(a.substr(0, 2)), a2 = std::stoi(a.substr(2));
  const int b1 = std::stoi(b.substr(0, 2)), b2 = std::stoi(b.substr(2));
  if (a1 != b1 && a2 != b2) {
    r_.Fail(node, path, "range " + s + ": the ends share neither digit pair");
    return false;
  }
  const bool first_varies = a1 != b1;
  const int from = first_varies ? a1 : a2;
  const int to = first_varies ? b1 : b2;
  if (to < from) {
    r_.Fail(node, path, "range " + s + ": must count up from the first end to the second");
    return false;
  }
  for (const std::string& end : {a, b}) {
    if (map_.grid.IndexOfLabel(end) < 0) {
      r_.Fail(node, path, "range " + s + ": hex " + end + " is off the map");
      return false;
    }
  }
  char buf[8];
  for (int k = from; k <= to; ++k) {
    std::snprintf(buf, sizeof buf, "%02d%02d", first_varies ? k : a1, first_varies ? a2 : k);
    const int idx = map_.grid.IndexOfLabel(buf);
    WG_CHECK(idx >= 0, "a run between on-map ends stays on the map");
    out->push_back(idx);
  }
  return true;
}

void MapCompiler::ReadHexList(const YAML::Node& node, const std::string& path,
                              std::vector<int>* out) {
  if (node.IsScalar()) {
    ReadHexItem(node, path, out);
    return;
  }
  if (!r_.ExpectSequence(node, path)) return;
  for (size_t i = 0; i < node.size(); ++i) ReadHexItem(node[i], YamlReader::Item(path, i), out);
}

int MapCompiler::ReadDirection(const YAML::Node& node, const std::string& path) {
  auto s = r_.String(node, path);
  if (!s) return -1;
  const MapLayout& layout = map_.grid.layout();
  const int d = layout.DirectionFromName(*s);
  if (d < 0) {
    std::string list;
    // List in compass order, starting at the top.
    const int start = layout.orientation == Orientation::kFlatTop ? 2 : 1;
    for (int k = 0; k < 6; ++k) {
      const int dir = (start + 6 - k) % 6;  // clockwise: decreasing Red Blob index
      list += (list.empty() ? "" : ", ") + std::string(layout.DirectionName(dir));
    }
    r_.Fail(node, path, "unknown direction \"" + *s + "\" (expected one of: " + list + ")");
  }
  return d;
}

uint8_t MapCompiler::ReadDirectionMask(const YAML::Node& node, const std::string& path) {
  uint8_t mask = 0;
  if (node.IsScalar()) {
    const int d = ReadDirection(node, path);
    return d < 0 ? kAllDirections : static_cast<uint8_t>(1u << d);
  }
  if (!r_.ExpectSequence(node, path)) return kAllDirections;
  for (size_t i = 0; i < node.size(); ++i) {
    const int d = ReadDirection(node[i], YamlReader::Item(path, i));
    if (d >= 0) mask = static_cast<uint8_t>(mask | (1u << d));
  }
  return mask;
}

void MapCompiler::ReadTerrain(const YAML::Node& node) {
  if (!r_.ExpectMap(node, "terrain")) return;
  const MapVocabulary& v = map_.vocabulary;
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    const std::string path = YamlReader::Child("terrain", name);
    const int id = IndexOfName(v.terrain, name);
    if (id < 0) {
      r_.Fail(kv.first, path,
              "unknown terrain \"" + name + "\" (expected one of: " + JoinNames(v.terrain) + ")");
      continue;
    }
    std::vector<int> hexes;
    ReadHexList(kv.second, path, &hexes);
    for (int h : hexes) {
      const size_t i = static_cast<size_t>(h);
      if (!listed_[i]) map_.terrain[i] = 0;
      listed_[i] = true;
      map_.terrain[i] |= 1u << id;
    }
  }
}

void MapCompiler::MarkSide(int a, int d, FeatureMask bit) {
  map_.sides[static_cast<size_t>(a) * 6 + static_cast<size_t>(d)] |= bit;
  const int b = map_.grid.NeighborIndex(a, d);
  if (b >= 0) {
    map_.sides[static_cast<size_t>(b) * 6 + static_cast<size_t>(OppositeDirection(d))] |= bit;
  }
}

void MapCompiler::ReadHexsides(const YAML::Node& node) {
  if (!r_.ExpectMap(node, "hexsides")) return;
  const MapVocabulary& v = map_.vocabulary;
  const HexGrid& grid = map_.grid;
  struct Designation {
    int hex;
    std::string where;
  };
  // (feature, hexside) -> designated hex, for directed features.
  std::map<std::pair<int, Hexside>, Designation> designated;
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    const std::string path = YamlReader::Child("hexsides", name);
    const int id = IndexOfName(v.features, name);
    if (id < 0) {
      r_.Fail(kv.first, path,
              "unknown feature \"" + name + "\" (expected one of: " + JoinNames(v.features) + ")");
      continue;
    }
    if (IndexOfName(v.paths, name) >= 0) {
      r_.Fail(kv.first, path, "\"" + name + "\" is a path feature: list it under paths");
      continue;
    }
    const bool directed = IndexOfName(v.directed, name) >= 0;
    const FeatureMask bit = 1u << id;
    const YAML::Node list = kv.second;
    if (!r_.ExpectSequence(list, path)) continue;
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node e = list[i];
      const std::string epath = YamlReader::Item(path, i);
      if (!e.IsSequence() || e.size() != 2) {
        r_.Fail(e, epath, "expected [hex, direction] or [hex, hex]");
        continue;
      }
      const int a = ReadHex(e[0], YamlReader::Item(epath, 0));
      int d = -1;
      int target = -1;  // designated hex of a directed feature; -1: none on the map
      const YAML::Node second = e[1];
      const std::string spath = YamlReader::Item(epath, 1);
      if (second.IsScalar() && IsAllAlpha(second.Scalar())) {
        d = ReadDirection(second, spath);
        if (a < 0 || d < 0) continue;
        target = a;
      } else {
        const int b = ReadHex(second, spath);
        if (a < 0 || b < 0) continue;
        d = DirectionTo(grid.HexAt(a), grid.HexAt(b));
        if (d < 0) {
          r_.Fail(e, epath, "hexes " + grid.Label(a) + " and " + grid.Label(b) +
                                " are not adjacent");
          continue;
        }
        target = b;
      }
      MarkSide(a, d, bit);
      if (!directed) continue;
      // The entry crossing into the designated hex: from the other hex of the side.
      const int from = target == a ? grid.NeighborIndex(a, d) : a;
      const int dir_into = target == a ? OppositeDirection(d) : d;
      if (from < 0) continue;  // designated hex on the edge, other side off the map
      const auto key = std::make_pair(id, Hexside::Of(grid.HexAt(a), d));
      const std::string where = std::to_string(e.Mark().line + 1) + ":" +
                                std::to_string(e.Mark().column + 1);
      auto [it, inserted] = designated.emplace(key, Designation{target, where});
      if (!inserted && it->second.hex != target) {
        r_.Fail(e, epath, "\"" + name + "\" on this hexside is already listed at " +
                              it->second.where + " with the opposite designated hex " +
                              grid.Label(it->second.hex));
        continue;
      }
      map_.toward[static_cast<size_t>(from) * 6 + static_cast<size_t>(dir_into)] |= bit;
    }
  }
}

void MapCompiler::ReadPaths(const YAML::Node& node) {
  if (!r_.ExpectMap(node, "paths")) return;
  const MapVocabulary& v = map_.vocabulary;
  const HexGrid& grid = map_.grid;
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    const std::string path = YamlReader::Child("paths", name);
    const int id = IndexOfName(v.features, name);
    if (id < 0) {
      r_.Fail(kv.first, path,
              "unknown feature \"" + name + "\" (expected one of: " + JoinNames(v.features) + ")");
      continue;
    }
    if (IndexOfName(v.paths, name) < 0) {
      r_.Fail(kv.first, path, "\"" + name + "\" is not a path feature: list it under hexsides");
      continue;
    }
    const FeatureMask bit = 1u << id;
    const YAML::Node list = kv.second;
    if (!r_.ExpectSequence(list, path)) continue;
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node p = list[i];
      const std::string ppath = YamlReader::Item(path, i);
      if (!p.IsSequence()) {
        r_.Fail(p, ppath, "expected a list of hexes");
        continue;
      }
      int prev = -1;
      size_t count = 0;  // hexes in the path, runs expanded
      bool bad_item = false;
      for (size_t k = 0; k < p.size(); ++k) {
        const std::string kpath = YamlReader::Item(ppath, k);
        std::vector<int> hexes;
        if (!ReadHexItem(p[k], kpath, &hexes)) {
          prev = -1;  // do not report a jump over a bad label
          bad_item = true;
          continue;
        }
        count += hexes.size();
        for (int h : hexes) {
          if (prev >= 0) {
            const int d = DirectionTo(grid.HexAt(prev), grid.HexAt(h));
            if (d < 0) {
              r_.Fail(p[k], kpath, "path jumps from " + grid.Label(prev) + " to " +
                                       grid.Label(h) + " (not adjacent)");
            } else {
              MarkSide(prev, d, bit);
            }
          }
          prev = h;
        }
      }
      if (count < 2 && !bad_item) r_.Fail(p, ppath, "a path needs at least two hexes");
    }
  }
}

void MapCompiler::ReadPlaces(const YAML::Node& node) {
  if (!r_.ExpectSequence(node, "places")) return;
  const MapVocabulary& v = map_.vocabulary;
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node p = node[i];
    const std::string path = YamlReader::Item("places", i);
    if (!r_.CheckKeys(p, path, {"name", "kind", "hexes", "enter", "exit", "attributes"})) continue;
    Place place;
    auto name = r_.RequiredString(p, path, "name");
    if (name) {
      if (map_.FindPlace(*name) != nullptr) {
        r_.Fail(p["name"], YamlReader::Child(path, "name"),
                "duplicate place name \"" + *name + "\"");
      }
      place.name = *name;
    }
    if (auto kind = r_.RequiredString(p, path, "kind")) {
      if (IndexOfName(v.place_kinds, *kind) < 0) {
        r_.Fail(p["kind"], YamlReader::Child(path, "kind"),
                "unknown place kind \"" + *kind + "\" (expected one of: " +
                    JoinNames(v.place_kinds) + ")");
      }
      place.kind = *kind;
    }
    if (const YAML::Node hexes = p["hexes"]) {
      ReadHexList(hexes, YamlReader::Child(path, "hexes"), &place.hexes);
    } else {
      r_.Fail(p, YamlReader::Child(path, "hexes"), "missing required key");
    }
    uint8_t enter = kAllDirections, exit = kAllDirections;
    if (const YAML::Node n = p["enter"]) enter = ReadDirectionMask(n, YamlReader::Child(path, "enter"));
    if (const YAML::Node n = p["exit"]) exit = ReadDirectionMask(n, YamlReader::Child(path, "exit"));
    for (int h : place.hexes) {
      map_.enter_dirs[static_cast<size_t>(h)] &= enter;
      map_.exit_dirs[static_cast<size_t>(h)] &= exit;
    }
    if (const YAML::Node attrs = p["attributes"]) {
      const std::string apath = YamlReader::Child(path, "attributes");
      if (r_.ExpectMap(attrs, apath)) {
        for (const auto& kv : attrs) {
          const std::string key = kv.first.Scalar();
          if (auto s = r_.String(kv.second, YamlReader::Child(apath, key))) {
            place.attributes[key] = *s;
          }
        }
      }
    }
    // Keep duplicates out so FindPlace stays unambiguous; the error is recorded.
    if (name && map_.FindPlace(*name) == nullptr) map_.places.push_back(std::move(place));
  }
}

Result<Map> MapCompiler::Compile(const MapVocabulary* vocabulary) {
  const YAML::Node& root = r_.root();
  if (!r_.ok()) return r_.errors();  // unreadable file or YAML syntax error
  if (!r_.CheckKeys(root, "", {"name", "provenance", "layout", "vocabulary", "terrain", "hexsides",
                               "paths", "places"})) {
    return r_.errors();
  }
  map_.file = r_.file();
  if (auto s = r_.RequiredString(root, "", "name")) map_.name = *s;
  if (auto s = r_.RequiredString(root, "", "provenance")) map_.provenance = *s;

  bool vocabulary_ok = true;
  const YAML::Node vnode = root["vocabulary"];
  if (vocabulary != nullptr) {
    if (vnode) {
      r_.Fail(KeyNode(root, "vocabulary"), "vocabulary",
              "not allowed here: the ruleset supplies the vocabulary");
    }
    map_.vocabulary = *vocabulary;
    const auto& v = map_.vocabulary;
    if (v.terrain.size() > static_cast<size_t>(kMaxTerrainTypes) ||
        v.features.size() > static_cast<size_t>(kMaxFeatureTypes)) {
      r_.errors().Add(Error{r_.file(), 0, 0, "vocabulary",
                            "the ruleset vocabulary has more than 32 terrain or feature names", ""});
      vocabulary_ok = false;
    }
    if (!v.default_terrain.empty() && IndexOfName(v.terrain, v.default_terrain) < 0) {
      r_.errors().Add(Error{r_.file(), 0, 0, "vocabulary.default_terrain",
                            "the ruleset's default terrain \"" + v.default_terrain +
                                "\" is not one of its terrain names", ""});
      vocabulary_ok = false;
    }
  } else if (!vnode) {
    r_.Fail(root, "vocabulary", "missing required key (no ruleset vocabulary was passed in)");
    vocabulary_ok = false;
  } else {
    vocabulary_ok = ReadVocabulary(vnode, &map_.vocabulary);
  }

  MapLayout layout;
  bool layout_ok = false;
  if (const YAML::Node lnode = root["layout"]) {
    layout_ok = ReadLayout(lnode, &layout);
  } else {
    r_.Fail(root, "layout", "missing required key");
  }
  // Without a layout no label can be checked, and without a vocabulary no name.
  if (!layout_ok || !vocabulary_ok) return r_.errors();

  map_.grid = HexGrid(layout);
  const size_t n = static_cast<size_t>(map_.grid.size());
  const int def = IndexOfName(map_.vocabulary.terrain, map_.vocabulary.default_terrain);
  map_.terrain.assign(n, def < 0 ? 0u : (1u << def));
  listed_.assign(n, false);
  map_.sides.assign(n * 6, 0);
  map_.toward.assign(n * 6, 0);
  map_.enter_dirs.assign(n, kAllDirections);
  map_.exit_dirs.assign(n, kAllDirections);

  // An empty section ("terrain:" with nothing under it) is the same as none.
  if (const YAML::Node t = root["terrain"]; t && !t.IsNull()) ReadTerrain(t);
  if (const YAML::Node h = root["hexsides"]; h && !h.IsNull()) ReadHexsides(h);
  if (const YAML::Node p = root["paths"]; p && !p.IsNull()) ReadPaths(p);
  if (const YAML::Node p = root["places"]; p && !p.IsNull()) ReadPlaces(p);

  if (!r_.ok()) return r_.errors();
  return std::move(map_);
}

}  // namespace

Result<Map> LoadMap(const std::string& path, const MapVocabulary* vocabulary) {
  YamlReader reader = YamlReader::FromFile(path);
  return MapCompiler(&reader).Compile(vocabulary);
}

Result<Map> LoadMapFromString(const std::string& text, const std::string& name,
                              const MapVocabulary* vocabulary) {
  YamlReader reader = YamlReader::FromString(text, name);
  return MapCompiler(&reader).Compile(vocabulary);
}

}  // namespace wg
