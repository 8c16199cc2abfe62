// docs/ruleset-format.md documents every key the loaders accept (issue 11).
//
// The accepted keys come from the code, not from a list kept here:
//  - at run time, YamlReader records every key path its CheckKeys lists and
//    Optional*/Required* reads accept (YamlReader::RecordAcceptedKeys) while
//    this test loads every registered ruleset with each of its scenarios, the
//    test ruleset skirmish, examples/outpost and the test maps;
//  - in the source, every CheckKeys(...) / Section(...) call's list of key
//    literals in libwargame/ and rulesets/, so a loader no file exercises (a
//    section added later, such as a `victory:` schedule) is checked too.
// A key is documented when the first column of a table row of the doc names
// its path in backticks: `combat.obligations`, `tables.<name>.die`,
// `units[].reinforcement.turn` (a <name> or * segment matches any one
// segment; [] and list indices are ignored).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "skirmish.h"
#include "wargame/game_loader.h"
#include "wargame/hex_rules.h"
#include "wargame/map.h"
#include "wargame/registry.h"
#include "wargame/yaml_reader.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = WG_SOURCE_DIR;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string WithoutIndices(const std::string& s) {
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (depth == 0) {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> Segments(const std::string& path) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : path) {
    if (c == '.') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// The key-path patterns of the doc: backticked paths in the first column of table rows.
std::vector<std::vector<std::string>> DocumentedPatterns(const std::string& doc) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(doc);
  std::string line;
  const std::regex tick("`([^`]+)`");
  const std::regex path("^[A-Za-z0-9_<>*\\[\\].-]+$");
  while (std::getline(in, line)) {
    if (line.rfind("|", 0) != 0) continue;
    const size_t end = line.find('|', 1);
    if (end == std::string::npos) continue;
    const std::string cell = line.substr(1, end - 1);
    for (std::sregex_iterator it(cell.begin(), cell.end(), tick), e; it != e; ++it) {
      const std::string p = (*it)[1].str();
      if (std::regex_match(p, path)) out.push_back(Segments(WithoutIndices(p)));
    }
  }
  return out;
}

bool Wildcard(const std::string& seg) { return seg == "*" || (seg.size() > 2 && seg.front() == '<' && seg.back() == '>'); }

bool Documented(const std::vector<std::vector<std::string>>& patterns, const std::string& key_path) {
  const auto segs = Segments(WithoutIndices(key_path));
  for (const auto& p : patterns) {
    if (p.size() != segs.size()) continue;
    bool ok = true;
    for (size_t i = 0; ok && i < p.size(); ++i) ok = Wildcard(p[i]) || p[i] == segs[i];
    if (ok) return true;
  }
  return false;
}

// The key names of every CheckKeys(...) or Section(...) list in a source text.
std::set<std::string> KeyLiteralsInSource(const std::string& text) {
  std::set<std::string> out;
  const std::regex call("\\b(CheckKeys|Section)\\(");
  const std::regex literal("\"([A-Za-z0-9_]+)\"");
  for (std::sregex_iterator it(text.begin(), text.end(), call), e; it != e; ++it) {
    size_t i = static_cast<size_t>(it->position() + it->length());
    int depth = 1;
    size_t open = std::string::npos, close = std::string::npos;
    for (; i < text.size() && depth > 0; ++i) {
      const char c = text[i];
      if (c == '(') ++depth;
      if (c == ')') --depth;
      if (c == '{' && open == std::string::npos) open = i;
      if (c == '}' && open != std::string::npos && close == std::string::npos) close = i;
    }
    if (open == std::string::npos || close == std::string::npos) continue;
    const std::string list = text.substr(open, close - open);
    for (std::sregex_iterator l(list.begin(), list.end(), literal), le; l != le; ++l) out.insert((*l)[1].str());
  }
  return out;
}

// Action and save files are documented in docs/scripting.md, not here.
bool ReadsRulesetFiles(const fs::path& p) {
  const std::string name = p.filename().string();
  return name != "action_text.cc" && name != "session.cc";
}

std::set<std::string> LoadEverythingAndRecord() {
  YamlReader::RecordAcceptedKeys(true);
  for (const RulesetInfo& info : RulesetRegistry::Get().List()) {
    std::vector<std::string> scenarios = ListScenarios(info);
    scenarios.push_back("");
    for (const std::string& sc : scenarios) {
      auto game = LoadGame(sc.empty() ? info.name : info.name + "(scenario=" + sc + ")");
      EXPECT_TRUE(game.ok()) << info.name << " " << sc << ": " << (game.ok() ? "" : game.errors().ToString());
    }
  }
  GameParams params;
  params.ruleset = "outpost";
  auto outpost = LoadHexGame((kSource / "examples/outpost/data").string(), params, {},
                             [](const Game& g, RulesetDocument&, ErrorList*) -> std::unique_ptr<Rules> {
                               return std::make_unique<HexRules>(g);
                             });
  EXPECT_TRUE(outpost.ok()) << (outpost.ok() ? "" : outpost.errors().ToString());
  for (const auto& e : fs::directory_iterator(fs::path(WG_TEST_DATA_DIR) / "maps")) {
    if (e.path().extension() == ".yaml") (void)LoadMap(e.path().string(), nullptr);
  }
  YamlReader::RecordAcceptedKeys(false);
  return YamlReader::AcceptedKeys();
}

TEST(RulesetFormatDoc, EveryKeyTheLoadersAcceptIsDocumented) {
  const auto patterns = DocumentedPatterns(Slurp(kSource / "docs/ruleset-format.md"));
  ASSERT_GT(patterns.size(), 100u) << "docs/ruleset-format.md lists no key paths";
  const std::set<std::string> accepted = LoadEverythingAndRecord();
  // The recording works: keys of each loader are there.
  for (const char* k : {"combat.obligations", "zoc.stop_on_entry", "crt.columns", "layout.cols",
                        "units.reinforcement.turn", "chart.morale.die", "exclusive_rules.ferries.rule"}) {
    EXPECT_TRUE(accepted.count(k)) << k << " was not recorded";
  }
  std::string missing;
  for (const std::string& k : accepted) {
    if (!Documented(patterns, k)) missing += "\n  " + k;
  }
  EXPECT_TRUE(missing.empty()) << "keys the loaders accept that docs/ruleset-format.md does not document "
                                  "(add a table row whose first column names the path):" << missing;
}

TEST(RulesetFormatDoc, EveryKeyListedInALoaderIsDocumented) {
  const auto patterns = DocumentedPatterns(Slurp(kSource / "docs/ruleset-format.md"));
  std::set<std::string> last;
  for (const auto& p : patterns) last.insert(p.back());
  std::string missing;
  size_t scanned = 0;
  for (const char* dir : {"libwargame", "rulesets"}) {
    for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) {
      const auto ext = e.path().extension();
      if ((ext != ".cc" && ext != ".h") || !ReadsRulesetFiles(e.path())) continue;
      for (const std::string& key : KeyLiteralsInSource(Slurp(e.path()))) {
        ++scanned;
        if (!last.count(key)) missing += "\n  " + key + " (" + fs::relative(e.path(), kSource).string() + ")";
      }
    }
  }
  EXPECT_GT(scanned, 100u);
  EXPECT_TRUE(missing.empty()) << "keys in a loader's CheckKeys list that docs/ruleset-format.md does not "
                                  "document:" << missing;
}

// The check itself can fail: an undocumented path is reported, a documented one is not.
TEST(RulesetFormatDoc, TheCheckFindsAnUndocumentedKey) {
  const auto patterns = DocumentedPatterns(
      "| key | type |\n|---|---|\n| `combat.obligations` | bool |\n| `tables.<name>.die`, `units[].id` | x |\n");
  EXPECT_TRUE(Documented(patterns, "combat.obligations"));
  EXPECT_TRUE(Documented(patterns, "tables.bombardment.die"));
  EXPECT_TRUE(Documented(patterns, "units[3].id"));
  EXPECT_FALSE(Documented(patterns, "combat.no_such_key"));
  EXPECT_FALSE(Documented(patterns, "tables.die"));
  EXPECT_EQ(KeyLiteralsInSource("r.CheckKeys(n, \"zoc\", {\"rigid\", \"leave_cost\"});"),
            (std::set<std::string>{"rigid", "leave_cost"}));
}

}  // namespace
}  // namespace wg
