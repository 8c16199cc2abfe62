#include "wargame/yaml_reader.h"

#include <yaml-cpp/eventhandler.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>

namespace wg {

namespace {

bool IsType(const YAML::Node& node, YAML::NodeType::value type) {
  return node.IsDefined() && node.Type() == type;
}

std::string RangeText(long long lo, long long hi) {
  if (lo == LLONG_MIN || lo == INT_MIN) return "at most " + std::to_string(hi);
  if (hi == LLONG_MAX || hi == INT_MAX) return "at least " + std::to_string(lo);
  return "between " + std::to_string(lo) + " and " + std::to_string(hi);
}

std::atomic<bool> g_recording{false};
std::mutex g_accepted_mutex;
std::set<std::string>& Accepted() {
  static auto* keys = new std::set<std::string>();
  return *keys;
}

// "units[3].values" -> "units.values".
std::string WithoutIndices(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  int depth = 0;
  for (char c : path) {
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      depth = std::max(depth - 1, 0);
    } else if (depth == 0) {
      out += c;
    }
  }
  return out;
}

// What the parser's events say of a text, before any node is built: where each
// document starts, and the nodes of the first kMaxNodes + 1 (aliases count one).
struct TextShape {
  std::vector<YAML::Mark> starts;
  long nodes = 0;
  YAML::Mark too_many;  // where the node past the limit is (nodes > limit)
};

class ShapeHandler : public YAML::EventHandler {
 public:
  explicit ShapeHandler(long limit) : limit_(limit) {}
  struct Stop {};
  TextShape shape;
  void OnDocumentStart(const YAML::Mark& mark) override {
    shape.starts.push_back(mark);
    if (shape.starts.size() > 1) throw Stop{};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { Node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { Node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { Node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    Node(m);
  }
  void OnMapEnd() override {}

 private:
  void Node(const YAML::Mark& m) {
    if (++shape.nodes > limit_) {
      shape.too_many = m;
      throw Stop{};
    }
  }
  long limit_;
};

// Scans `text` up to the start of a second document or the node past `limit`
// (a syntax error ends the scan where it is).
TextShape Scan(const std::string& text, long limit) {
  std::istringstream in(text);
  ShapeHandler h(limit);
  try {
    YAML::Parser parser(in);
    // yaml-cpp may return documents without end on some malformed texts (its own
    // LoadAll never returns on ",a: b\nc: d x"): a second one ends the scan.
    for (int docs = 1; parser.HandleNextDocument(h); ++docs) {
      if (docs >= 2) {
        if (h.shape.starts.size() < 2) h.shape.starts.push_back(h.shape.starts.empty() ? YAML::Mark() : h.shape.starts.back());
        break;
      }
    }
  } catch (const ShapeHandler::Stop&) {
  } catch (const std::exception&) {
  }
  return h.shape;
}

}  // namespace

void YamlReader::RecordAcceptedKeys(bool on) { g_recording.store(on, std::memory_order_relaxed); }

void YamlReader::AcceptKey(const std::string& path, std::string_view key) {
  if (!g_recording.load(std::memory_order_relaxed)) return;
  std::string full = WithoutIndices(Child(path, key));
  std::lock_guard<std::mutex> lock(g_accepted_mutex);
  Accepted().insert(std::move(full));
}

std::set<std::string> YamlReader::AcceptedKeys() {
  std::lock_guard<std::mutex> lock(g_accepted_mutex);
  return Accepted();
}

YamlReader YamlReader::FromFile(const std::string& path) {
  YamlReader r;
  r.file_ = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    r.errors_.Add(Error{path, 0, 0, "", "is a folder, not a file", ""});
    return r;
  }
  // Not a device or a pipe (/dev/zero would never end), and not huge.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    r.errors_.Add(Error{path, 0, 0, "", "is not a regular file", ""});
    return r;
  }
  if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxFileBytes) {
    r.errors_.Add(Error{path, 0, 0, "", "is larger than " + std::to_string(kMaxFileBytes >> 20) + " MB", ""});
    return r;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    r.errors_.Add(Error{path, 0, 0, "", "cannot open file", ""});
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return FromString(ss.str(), path);
}

YamlReader YamlReader::FromString(const std::string& text, const std::string& name) {
  YamlReader r;
  r.file_ = name;
  // A message is bounded as a file is (FromFile checks the size before reading).
  if (text.size() > kMaxFileBytes) {
    r.errors_.Add(Error{name, 0, 0, "", "is larger than " + std::to_string(kMaxFileBytes >> 20) + " MB", ""});
    return r;
  }
  // One document: a second one (after `---`) would be ignored silently, so that what a
  // reader sees and what the loader uses could differ.
  auto more_than_one = [&](const YAML::Mark& m) {
    r.errors_.Add(Error{name, m.line + 1, m.column + 1, "",
                        "more than one YAML document (a second one starts here): a file or message holds one", ""});
    return r;
  };
  // The parser's events first, before any node is built: a second document is
  // refused where it starts, and yaml-cpp builds every node before CheckDocument
  // counts them (some 100 bytes each, 8 GB for 64 MB of "1,"), so a text that may
  // hold more than kMaxNodes is counted here and refused before any node is built.
  const TextShape shape = Scan(text, text.size() > static_cast<size_t>(kMaxNodes) ? kMaxNodes : LONG_MAX);
  if (shape.starts.size() > 1) return more_than_one(shape.starts[1]);
  if (shape.nodes > kMaxNodes) {
    r.errors_.Add(Error{name, shape.too_many.line + 1, shape.too_many.column + 1, "",
                        "the document is too large (more than " + std::to_string(kMaxNodes) + " nodes)", ""});
    return r;
  }
  try {
    r.root_ = YAML::Load(text);  // never LoadAll: it does not return on some malformed texts
  } catch (const YAML::Exception& e) {
    r.errors_.Add(Error{name, e.mark.line + 1, e.mark.column + 1, "", e.msg, ""});
    r.root_ = YAML::Node();
    return r;
  } catch (const std::exception& e) {
    r.errors_.Add(Error{name, 0, 0, "", std::string("cannot parse: ") + e.what(), ""});
    r.root_ = YAML::Node();
    return r;
  }
  // The lines whose comment names rules (`# 7.5.1`): a read of a key there is traced.
  int line = 1;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view l(text.data() + at, end - at);
    if (l.find('#') != std::string_view::npos) {
      auto rules = RulesOfComment(l);
      if (!rules.empty()) r.line_rules_.emplace(line, std::move(rules));
    }
    at = end + 1;
    ++line;
  }
  long budget = kMaxNodes;
  const size_t before = r.errors_.size();
  r.CheckDocument(r.root_, "", 0, &budget);
  // A document too deep or too large is not handed to any loader.
  if (budget < 0 || r.errors_.size() > before) {
    for (size_t i = before; i < r.errors_.size(); ++i) {
      if (r.errors_.errors()[i].message.rfind("duplicate key", 0) != 0) {
        r.root_ = YAML::Node();
        break;
      }
    }
  }
  return r;
}

void YamlReader::CheckDocument(const YAML::Node& node, const std::string& path, int depth,
                               long* budget) {
  if (*budget < 0) return;
  if (--*budget < 0) {
    Fail(node, path, "the document is too large (more than " + std::to_string(kMaxNodes) +
                         " nodes once aliases are expanded)");
    return;
  }
  if (depth > kMaxDepth) {
    Fail(node, path, "nested more than " + std::to_string(kMaxDepth) + " levels deep");
    *budget = -1;
    return;
  }
  if (node.IsMap()) {
    std::map<std::string, YAML::Mark> seen;
    for (const auto& kv : node) {
      const std::string key = KeyText(kv.first);
      if (kv.first.IsScalar()) {
        auto [it, fresh] = seen.emplace(key, kv.first.Mark());
        if (!fresh) {
          Fail(kv.first, Child(path, key),
               "duplicate key (first at line " + std::to_string(it->second.line + 1) + ")");
        }
      } else {
        CheckDocument(kv.first, path, depth + 1, budget);
      }
      CheckDocument(kv.second, Child(path, key), depth + 1, budget);
      if (*budget < 0) return;
    }
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) {
      CheckDocument(node[i], Item(path, i), depth + 1, budget);
      if (*budget < 0) return;
    }
  }
}

ErrorList YamlReader::ErrorsSince(size_t before) const {
  ErrorList out;
  const auto& all = errors_.errors();
  for (size_t i = before; i < all.size(); ++i) out.Add(all[i]);
  return out;
}

YAML::Node YamlReader::Get(const YAML::Node& map, std::string_view key) {
  if (!IsType(map, YAML::NodeType::Map)) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& kv : map) {
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

std::string YamlReader::KeyText(const YAML::Node& key) {
  return IsType(key, YAML::NodeType::Scalar) ? key.Scalar() : std::string();
}

void YamlReader::Fail(const YAML::Node& node, const std::string& path, const std::string& message) {
  int line = 0, col = 0;
  if (node.IsDefined()) {
    const YAML::Mark m = node.Mark();
    if (m.line >= 0) {
      line = m.line + 1;
      col = m.column + 1;
    }
  }
  errors_.Add(Error{file_, line, col, path, message, ""});
}

bool YamlReader::ExpectMap(const YAML::Node& node, const std::string& path) {
  if (IsType(node, YAML::NodeType::Map)) return true;
  Fail(node, path, "expected a map");
  return false;
}

bool YamlReader::ExpectSequence(const YAML::Node& node, const std::string& path) {
  if (IsType(node, YAML::NodeType::Sequence)) return true;
  Fail(node, path, "expected a list");
  return false;
}

bool YamlReader::CheckKeys(const YAML::Node& node, const std::string& path,
                           std::initializer_list<std::string_view> allowed) {
  for (auto a : allowed) AcceptKey(path, a);
  if (!ExpectMap(node, path)) return false;
  for (const auto& kv : node) {
    const std::string key = KeyText(kv.first);
    bool found = false;
    for (auto a : allowed) found = found || (kv.first.IsScalar() && a == key);
    if (!found) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      Fail(kv.first, Child(path, key), "unknown key (expected one of: " + list + ")");
    }
  }
  return true;
}

// The rule numbers a YAML line's trailing comment starts with: "# 7.5.1" -> {7.5.1};
// "# 7.1: over the whole phase" -> {7.1}; "# 8.0/7.8" -> {8.0, 7.8}; "# T.1" -> {T.1};
// none for a comment of words ("# the default"), a number without a dot ("# 1", a die
// roll's row) or a '#' inside a quoted value.
std::vector<std::string> YamlReader::RulesOfComment(std::string_view line) {
  std::vector<std::string> out;
  size_t hash = std::string_view::npos;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      hash = i;
      break;
    }
  }
  if (hash == std::string_view::npos) return out;
  size_t i = hash + 1;
  while (i < line.size() && line[i] == ' ') ++i;
  for (;;) {
    size_t j = i;
    while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.')) ++j;
    std::string token(line.substr(i, j - i));
    while (!token.empty() && token.back() == '.') token.pop_back();
    // A rule number: digits and dots ("7.5.1", "8.52", "7.5.2.D"), or a letter section ("T.1").
    const bool starts_well = !token.empty() && (std::isdigit(static_cast<unsigned char>(token[0])) ||
                                                (token.size() > 2 && std::isupper(static_cast<unsigned char>(token[0])) && token[1] == '.'));
    // A dot is required: "# 1" (a die roll's row) or "# 2x" is not a rule number.
    if (!starts_well || token.find('.') == std::string::npos || token.find_first_of("0123456789") == std::string::npos) break;
    bool words = false;  // "3rd", "12pm": not a rule
    for (size_t k = 1; k < token.size(); ++k) {
      words = words || (std::islower(static_cast<unsigned char>(token[k])) != 0);
    }
    if (words) break;
    out.push_back(token);
    if (j < line.size() && (line[j] == '/' || line[j] == ',')) {
      i = j + 1;
      while (i < line.size() && line[i] == ' ') ++i;
      continue;
    }
    break;
  }
  return out;
}


void YamlReader::NoteRead(const YAML::Node& node, const std::string& path) {
  // A `rule_numbers:` entry is recorded with its line even without a rule comment: its
  // value is the rule (`wargame rules` shows where it was read).
  const bool rule_number = path.rfind("rule_numbers.", 0) == 0;
  if (line_rules_.empty() && !rule_number) return;
  const int line = node.Mark().line + 1;
  const auto it = line_rules_.find(line);
  if (it != line_rules_.end()) {
    reads_.push_back(Read{path, it->first, it->second});
  } else if (rule_number) {
    reads_.push_back(Read{path, line, {}});
  }
}

std::optional<long long> YamlReader::Int64(const YAML::Node& node, const std::string& path,
                                           long long lo, long long hi) {
  if (!IsType(node, YAML::NodeType::Scalar)) {
    Fail(node, path, "expected an integer");
    return std::nullopt;
  }
  NoteRead(node, path);
  const std::string& s = node.Scalar();
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  long long v = 0;
  const auto [end, ec] = std::from_chars(b, e, v, 10);
  if (ec == std::errc::result_out_of_range) {
    Fail(node, path, "integer " + s + " is out of range (" + RangeText(lo, hi) + ")");
    return std::nullopt;
  }
  if (ec != std::errc() || end != e || b == e) {
    Fail(node, path, "expected an integer, got \"" + s + "\"");
    return std::nullopt;
  }
  if (v < lo || v > hi) {
    Fail(node, path, "integer " + s + " is out of range (" + RangeText(lo, hi) + ")");
    return std::nullopt;
  }
  return v;
}

std::optional<int> YamlReader::Int(const YAML::Node& node, const std::string& path, int lo,
                                   int hi) {
  const auto v = Int64(node, path, lo, hi);
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<double> YamlReader::Double(const YAML::Node& node, const std::string& path) {
  if (!IsType(node, YAML::NodeType::Scalar)) {
    Fail(node, path, "expected a number");
    return std::nullopt;
  }
  NoteRead(node, path);
  const std::string& s = node.Scalar();
  try {
    size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size() && std::isfinite(v)) return v;
    if (used == s.size()) {
      Fail(node, path, "expected a finite number, got \"" + s + "\"");
      return std::nullopt;
    }
  } catch (...) {
  }
  Fail(node, path, "expected a number, got \"" + s + "\"");
  return std::nullopt;
}

std::optional<bool> YamlReader::Bool(const YAML::Node& node, const std::string& path) {
  if (IsType(node, YAML::NodeType::Scalar)) {
    NoteRead(node, path);
    const std::string& s = node.Scalar();
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
  }
  Fail(node, path, "expected true or false");
  return std::nullopt;
}

std::optional<std::string> YamlReader::String(const YAML::Node& node, const std::string& path) {
  if (!IsType(node, YAML::NodeType::Scalar)) {
    Fail(node, path, "expected a string");
    return std::nullopt;
  }
  NoteRead(node, path);
  return node.Scalar();
}

std::optional<int> YamlReader::RequiredInt(const YAML::Node& map, const std::string& path,
                                           const char* key, int lo, int hi) {
  AcceptKey(path, key);
  const YAML::Node n = Get(map, key);
  if (!n) {
    Fail(map, Child(path, key), "missing required key");
    return std::nullopt;
  }
  return Int(n, Child(path, key), lo, hi);
}

std::optional<std::string> YamlReader::RequiredString(const YAML::Node& map,
                                                      const std::string& path, const char* key) {
  AcceptKey(path, key);
  const YAML::Node n = Get(map, key);
  if (!n) {
    Fail(map, Child(path, key), "missing required key");
    return std::nullopt;
  }
  return String(n, Child(path, key));
}

int YamlReader::OptionalInt(const YAML::Node& map, const std::string& path, const char* key,
                            int fallback, int lo, int hi) {
  AcceptKey(path, key);
  const YAML::Node n = Get(map, key);
  if (!n) return fallback;
  return Int(n, Child(path, key), lo, hi).value_or(fallback);
}

double YamlReader::OptionalDouble(const YAML::Node& map, const std::string& path, const char* key,
                                  double fallback) {
  AcceptKey(path, key);
  const YAML::Node n = Get(map, key);
  if (!n) return fallback;
  return Double(n, Child(path, key)).value_or(fallback);
}

bool YamlReader::OptionalBool(const YAML::Node& map, const std::string& path, const char* key,
                              bool fallback) {
  AcceptKey(path, key);
  const YAML::Node n = Get(map, key);
  if (!n) return fallback;
  return Bool(n, Child(path, key)).value_or(fallback);
}

std::string YamlReader::OptionalString(const YAML::Node& map, const std::string& path,
                                       const char* key, const std::string& fallback) {
  AcceptKey(path, key);
  const YAML::Node n = Get(map, key);
  if (!n) return fallback;
  return String(n, Child(path, key)).value_or(fallback);
}

std::vector<std::string> YamlReader::StringList(const YAML::Node& node, const std::string& path) {
  std::vector<std::string> out;
  if (!node.IsDefined()) return out;
  if (node.IsScalar()) {
    NoteRead(node, path);
    out.push_back(node.Scalar());
    return out;
  }
  if (!ExpectSequence(node, path)) return out;
  for (size_t i = 0; i < node.size(); ++i) {
    if (auto s = String(node[i], Item(path, i))) out.push_back(*s);
  }
  return out;
}

}  // namespace wg
