// YamlReader: strict, error-collecting access to a parsed YAML document.
// Every loader in libwargame and every ruleset reads its files through this,
// so that every error reads "file:line:col: key.path: message" (yaml-cpp's
// Mark gives 0-based positions; we print them 1-based), unknown keys are
// refused as typos, and loading goes on after an error to report them all.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/error.h"

namespace wg {

class YamlReader {
 public:
  // Parses a file; a syntax error is recorded (with its position) and the root is null.
  static YamlReader FromFile(const std::string& path);
  // Parses text; `name` stands for the file name in messages.
  static YamlReader FromString(const std::string& text, const std::string& name);

  const YAML::Node& root() const { return root_; }
  const std::string& file() const { return file_; }
  bool ok() const { return errors_.ok(); }
  ErrorList& errors() { return errors_; }
  const ErrorList& errors() const { return errors_; }

  // The errors recorded since the reader held `before` of them (what one
  // loader found, for its Result).
  ErrorList ErrorsSince(size_t before) const;

  // Records an error at the node's position.
  void Fail(const YAML::Node& node, const std::string& path, const std::string& message);

  // Refuses any key of a map that is not in `allowed`. False if node is not a map.
  bool CheckKeys(const YAML::Node& node, const std::string& path,
                 std::initializer_list<std::string_view> allowed);
  bool ExpectMap(const YAML::Node& node, const std::string& path);
  bool ExpectSequence(const YAML::Node& node, const std::string& path);

  // Typed scalar reads. Required reads record an error when missing;
  // optional reads return the fallback when the key is absent.
  std::optional<int> Int(const YAML::Node& node, const std::string& path);
  std::optional<double> Double(const YAML::Node& node, const std::string& path);
  std::optional<bool> Bool(const YAML::Node& node, const std::string& path);
  std::optional<std::string> String(const YAML::Node& node, const std::string& path);

  std::optional<int> RequiredInt(const YAML::Node& map, const std::string& path, const char* key);
  std::optional<std::string> RequiredString(const YAML::Node& map, const std::string& path,
                                            const char* key);
  int OptionalInt(const YAML::Node& map, const std::string& path, const char* key, int fallback);
  double OptionalDouble(const YAML::Node& map, const std::string& path, const char* key,
                        double fallback);
  bool OptionalBool(const YAML::Node& map, const std::string& path, const char* key, bool fallback);
  std::string OptionalString(const YAML::Node& map, const std::string& path, const char* key,
                             const std::string& fallback);
  // A list of strings (a scalar is accepted as a list of one).
  std::vector<std::string> StringList(const YAML::Node& node, const std::string& path);

  static std::string Child(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }
  static std::string Item(const std::string& path, size_t i) {
    return path + "[" + std::to_string(i) + "]";
  }

 private:
  std::string file_;
  YAML::Node root_;
  ErrorList errors_;
};

}  // namespace wg
