// YamlReader: strict, error-collecting access to a parsed YAML document.
// Every loader in libwargame and every ruleset reads its files through this,
// so that every error reads "file:line:col: key.path: message" (yaml-cpp's
// Mark gives 0-based positions; we print them 1-based), unknown keys are
// refused as typos, and loading goes on after an error to report them all.
//
// Untrusted input: no accessor here ever throws. A missing key, a node of the
// wrong shape or a parent that is not a map reads as absent (Get) or as an
// error (the typed reads), never as a yaml-cpp exception. Loading a document
// also reports duplicate keys (yaml-cpp keeps both, and which one a loader
// sees would depend on how it looks), nesting deeper than kMaxDepth and
// documents whose aliases expand to more than kMaxNodes nodes.
#pragma once

#include <yaml-cpp/yaml.h>

#include <climits>
#include <initializer_list>
#include <optional>
#include <map>
#include <set>
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

  static constexpr int kMaxDepth = 64;
  static constexpr long kMaxNodes = 250'000;
  static constexpr unsigned long long kMaxFileBytes = 64ull << 20;

  // map[key] if `map` is a map that has the key, else an undefined node
  // (false in a boolean test); never throws, whatever `map` is.
  static YAML::Node Get(const YAML::Node& map, std::string_view key);
  // The key as text: its scalar, or "" for a key that is a list or a map.
  static std::string KeyText(const YAML::Node& key);

  // Records an error at the node's position.
  void Fail(const YAML::Node& node, const std::string& path, const std::string& message);

  // Refuses any key of a map that is not in `allowed`. False if node is not a map.
  bool CheckKeys(const YAML::Node& node, const std::string& path,
                 std::initializer_list<std::string_view> allowed);
  bool ExpectMap(const YAML::Node& node, const std::string& path);
  bool ExpectSequence(const YAML::Node& node, const std::string& path);

  // Typed scalar reads. Required reads record an error when missing;
  // optional reads return the fallback when the key is absent. Integers are
  // range-checked against [lo, hi] (the field they land in), and the message
  // gives the allowed range: nothing is narrowed silently.
  std::optional<int> Int(const YAML::Node& node, const std::string& path, int lo = INT_MIN,
                         int hi = INT_MAX);
  std::optional<long long> Int64(const YAML::Node& node, const std::string& path,
                                 long long lo = LLONG_MIN, long long hi = LLONG_MAX);
  std::optional<double> Double(const YAML::Node& node, const std::string& path);
  std::optional<bool> Bool(const YAML::Node& node, const std::string& path);
  std::optional<std::string> String(const YAML::Node& node, const std::string& path);

  std::optional<int> RequiredInt(const YAML::Node& map, const std::string& path, const char* key,
                                 int lo = INT_MIN, int hi = INT_MAX);
  std::optional<std::string> RequiredString(const YAML::Node& map, const std::string& path,
                                            const char* key);
  int OptionalInt(const YAML::Node& map, const std::string& path, const char* key, int fallback,
                  int lo = INT_MIN, int hi = INT_MAX);
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

  // The key paths the loaders accept, for the test that checks each is
  // documented in docs/ruleset-format.md (tests/ruleset_format_doc_test.cc).
  // Off by default. While on, CheckKeys records every key of its allowed list
  // and the Optional* / Required* reads record the key they read, as a path
  // inside its file with list indices dropped: "combat.obligations",
  // "units.reinforcement.turn", "tables.bombardment.die". A loader with its
  // own key list (the top-level sections) records it with AcceptKey.
  static void RecordAcceptedKeys(bool on);
  static void AcceptKey(const std::string& path, std::string_view key);
  static std::set<std::string> AcceptedKeys();

  // The scalars this reader read (the typed reads above) on a line whose comment
  // names rules ("retreat_hexes: 2   # 7.5.1"), each by its key path, 1-based
  // line and those rules: what a loaded game reads from its data, traced to the
  // file (Game::data_rules, `wargame rules`).
  struct Read {
    std::string path;
    int line = 0;
    std::vector<std::string> rules;
  };
  const std::vector<Read>& reads() const { return reads_; }
  // The rule numbers a YAML line's trailing comment starts with: "# 7.5.1" ->
  // {7.5.1}; "# 7.1: over the whole phase" -> {7.1}; "# 8.0/7.8" -> {8.0, 7.8};
  // "# T.1" -> {T.1}; none for words, a number without a dot ("# 1", a die
  // roll's row) or a '#' inside a quoted value.
  static std::vector<std::string> RulesOfComment(std::string_view line);

 private:
  // Duplicate keys, depth and alias-expansion limits over the whole document.
  void CheckDocument(const YAML::Node& node, const std::string& path, int depth, long* budget);

  void NoteRead(const YAML::Node& node, const std::string& path);

  std::string file_;
  YAML::Node root_;
  ErrorList errors_;
  std::map<int, std::vector<std::string>> line_rules_;  // line -> the rules its comment names
  std::vector<Read> reads_;
};

}  // namespace wg
