#include "wargame/yaml_reader.h"

#include <fstream>
#include <sstream>

namespace wg {

YamlReader YamlReader::FromFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    YamlReader r;
    r.file_ = path;
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
  try {
    r.root_ = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    r.errors_.Add(Error{name, e.mark.line + 1, e.mark.column + 1, "", e.msg, ""});
    r.root_ = YAML::Node();
  }
  return r;
}

ErrorList YamlReader::ErrorsSince(size_t before) const {
  ErrorList out;
  const auto& all = errors_.errors();
  for (size_t i = before; i < all.size(); ++i) out.Add(all[i]);
  return out;
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
  if (node.IsMap()) return true;
  Fail(node, path, "expected a map");
  return false;
}

bool YamlReader::ExpectSequence(const YAML::Node& node, const std::string& path) {
  if (node.IsSequence()) return true;
  Fail(node, path, "expected a list");
  return false;
}

bool YamlReader::CheckKeys(const YAML::Node& node, const std::string& path,
                           std::initializer_list<std::string_view> allowed) {
  if (!ExpectMap(node, path)) return false;
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    bool found = false;
    for (auto a : allowed) found = found || a == key;
    if (!found) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      Fail(kv.first, Child(path, key), "unknown key (expected one of: " + list + ")");
    }
  }
  return true;
}

std::optional<int> YamlReader::Int(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) {
    Fail(node, path, "expected an integer");
    return std::nullopt;
  }
  const std::string& s = node.Scalar();
  try {
    size_t used = 0;
    const long v = std::stol(s, &used, 10);
    if (used == s.size()) return static_cast<int>(v);
  } catch (...) {
  }
  Fail(node, path, "expected an integer, got \"" + s + "\"");
  return std::nullopt;
}

std::optional<double> YamlReader::Double(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) {
    Fail(node, path, "expected a number");
    return std::nullopt;
  }
  const std::string& s = node.Scalar();
  try {
    size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (...) {
  }
  Fail(node, path, "expected a number, got \"" + s + "\"");
  return std::nullopt;
}

std::optional<bool> YamlReader::Bool(const YAML::Node& node, const std::string& path) {
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
  }
  Fail(node, path, "expected true or false");
  return std::nullopt;
}

std::optional<std::string> YamlReader::String(const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) {
    Fail(node, path, "expected a string");
    return std::nullopt;
  }
  return node.Scalar();
}

std::optional<int> YamlReader::RequiredInt(const YAML::Node& map, const std::string& path,
                                           const char* key) {
  const YAML::Node n = map[key];
  if (!n) {
    Fail(map, Child(path, key), "missing required key");
    return std::nullopt;
  }
  return Int(n, Child(path, key));
}

std::optional<std::string> YamlReader::RequiredString(const YAML::Node& map,
                                                      const std::string& path, const char* key) {
  const YAML::Node n = map[key];
  if (!n) {
    Fail(map, Child(path, key), "missing required key");
    return std::nullopt;
  }
  return String(n, Child(path, key));
}

int YamlReader::OptionalInt(const YAML::Node& map, const std::string& path, const char* key,
                            int fallback) {
  const YAML::Node n = map[key];
  if (!n) return fallback;
  return Int(n, Child(path, key)).value_or(fallback);
}

double YamlReader::OptionalDouble(const YAML::Node& map, const std::string& path, const char* key,
                                  double fallback) {
  const YAML::Node n = map[key];
  if (!n) return fallback;
  return Double(n, Child(path, key)).value_or(fallback);
}

bool YamlReader::OptionalBool(const YAML::Node& map, const std::string& path, const char* key,
                              bool fallback) {
  const YAML::Node n = map[key];
  if (!n) return fallback;
  return Bool(n, Child(path, key)).value_or(fallback);
}

std::string YamlReader::OptionalString(const YAML::Node& map, const std::string& path,
                                       const char* key, const std::string& fallback) {
  const YAML::Node n = map[key];
  if (!n) return fallback;
  return String(n, Child(path, key)).value_or(fallback);
}

std::vector<std::string> YamlReader::StringList(const YAML::Node& node, const std::string& path) {
  std::vector<std::string> out;
  if (node.IsScalar()) {
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
