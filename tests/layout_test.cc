// The shape of the source tree that issue 11 asks for, checked on the files themselves:
// - every ruleset folder has the same layout (ruleset.yaml, rules.h, RULES.md, DATA.md,
//   CMakeLists.txt, tests/; scenarios in scenarios/; the hooks in rules/, one file per rule
//   section or step, the steps' registration in rules/steps.cc: issue 38), so a ruleset
//   author finds the same thing in the same place in each; no source file of a ruleset
//   (its tests/ aside) is longer than 600 lines;
// - the programs around the engine (libwargame/, examples/, python/, benchmarks/) talk to
//   interfaces (Rules, and Rules::hex()'s HexQueries), never dynamic_cast to the class a
//   ruleset derives from;
// - the programs (examples/, python/) reach a ruleset only through those interfaces and
//   Rules::tabletop()'s TabletopQueries: they include no ruleset's header and test no
//   ruleset's type (typeid, a cast to one of its classes);
// - the core (libwargame/src/*, libwargame/include/wargame/*, the engines' files aside:
//   issue 38) includes no header of the hex engine or of the tabletop engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = WG_SOURCE_DIR;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Layout, EveryRulesetFolderHasTheSameFiles) {
  int rulesets = 0;
  for (const auto& e : fs::directory_iterator(kRoot / "rulesets")) {
    if (!e.is_directory()) continue;
    ++rulesets;
    for (const char* f : {"ruleset.yaml", "rules.h", "RULES.md", "DATA.md", "CMakeLists.txt"}) {
      EXPECT_TRUE(fs::is_regular_file(e.path() / f)) << e.path().filename() << " has no " << f;
    }
    // The hooks: rules/<section>.cc, one file per rule section or step (issue 38).
    EXPECT_TRUE(fs::is_regular_file(e.path() / "rules" / "steps.cc")) << e.path().filename() << " has no rules/steps.cc";
    EXPECT_FALSE(fs::exists(e.path() / "rules.cc")) << e.path().filename() << " has a rules.cc: its sections go in rules/";
    EXPECT_TRUE(fs::is_directory(e.path() / "tests")) << e.path().filename() << " has no tests/";
    EXPECT_TRUE(fs::is_directory(e.path() / "scenarios")) << e.path().filename() << " has no scenarios/";
    // Only the ruleset's data (ruleset.yaml and the files it names) sits beside rules.*:
    // no scenario files at the top.
    for (const auto& f : fs::directory_iterator(e.path())) {
      const std::string name = f.path().filename().string();
      EXPECT_FALSE(f.is_regular_file() && f.path().extension() == ".yaml" &&
                   ReadFile(f.path()).find("\nstart:") != std::string::npos &&
                   name != "ruleset.yaml")
          << e.path().filename() << "/" << name << " looks like a scenario: it belongs in scenarios/";
    }
  }
  EXPECT_GT(rulesets, 0);
}

// Issue 38: one scenario layout. Each scenario is a folder scenarios/<name>/ holding its
// scenario.yaml and the files it names (a hex game's map.yaml and units.yaml); ruleset.yaml
// names no map or units file of its own, and the only YAML beside it is itself.
TEST(Layout, EveryRulesetKeepsEachScenarioInItsOwnFolder) {
  int scenarios = 0;
  for (const auto& e : fs::directory_iterator(kRoot / "rulesets")) {
    if (!e.is_directory()) continue;
    const std::string rs = e.path().filename().string();
    const YAML::Node root = YAML::LoadFile((e.path() / "ruleset.yaml").string());
    EXPECT_FALSE(root["map"]) << rs << ": the map belongs to a scenario folder";
    EXPECT_FALSE(root["units"]) << rs << ": the units belong to a scenario folder";
    for (const auto& f : fs::directory_iterator(e.path())) {
      EXPECT_FALSE(f.is_regular_file() && f.path().extension() == ".yaml" && f.path().filename() != "ruleset.yaml")
          << rs << "/" << f.path().filename().string() << ": data beside ruleset.yaml belongs in it or in a scenario";
    }
    for (const auto& f : fs::directory_iterator(e.path() / "scenarios")) {
      EXPECT_TRUE(f.is_directory()) << rs << "/scenarios/" << f.path().filename().string() << " is not a scenario folder";
    }
    ASSERT_TRUE(root["scenarios"] && root["scenarios"].IsMap()) << rs;
    for (const auto& kv : root["scenarios"]) {
      const std::string name = kv.first.as<std::string>();
      EXPECT_EQ(kv.second.as<std::string>(), "scenarios/" + name + "/scenario.yaml") << rs;
      const fs::path dir = e.path() / "scenarios" / name;
      ASSERT_TRUE(fs::is_regular_file(dir / "scenario.yaml")) << rs << ": " << name;
      const YAML::Node sc = YAML::LoadFile((dir / "scenario.yaml").string());
      for (const char* key : {"map", "units"}) {
        if (sc[key] && sc[key].IsScalar()) {  // a file's name (the miniatures' units are a section)
          EXPECT_TRUE(fs::is_regular_file(dir / sc[key].as<std::string>()))
              << rs << "/" << name << ": " << key << " names no file beside scenario.yaml";
        }
      }
      ++scenarios;
    }
  }
  EXPECT_GT(scenarios, 0);
}

// Issue 38: a ruleset's C++ is one file per rule section or step (rules/<section>.cc), each
// short enough to read: no .cc or .h of any ruleset folder is longer than 600 lines. Its
// tests/ are not counted (a rules test holds one TEST per rule).
TEST(Layout, NoRulesetSourceFileIsLongerThan600Lines) {
  constexpr long kMaxLines = 600;
  int files = 0;
  for (auto it = fs::recursive_directory_iterator(kRoot / "rulesets"); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "tests") {
      it.disable_recursion_pending();
      continue;
    }
    const std::string ext = it->path().extension().string();
    if (!it->is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    ++files;
    const std::string text = ReadFile(it->path());
    const long lines = std::count(text.begin(), text.end(), '\n') + (!text.empty() && text.back() != '\n' ? 1 : 0);
    EXPECT_LE(lines, kMaxLines) << fs::relative(it->path(), kRoot) << " has " << lines << " lines (at most "
                                << kMaxLines << ": split it by rule section, issue 38)";
  }
  EXPECT_GT(files, 10);
}

TEST(Layout, NoCastToARulesetBaseClass) {
  // dynamic_cast / static_cast to a Rules class (HexRules, SbRules, BgRules, MiniRules...).
  const std::regex kCast(R"((dynamic|static|reinterpret)_cast<\s*(const\s+)?(wg::)?\w*Rules\s*[*&])");
  int files = 0;
  for (const char* dir : {"libwargame", "examples", "python", "benchmarks"}) {
    for (const auto& e : fs::recursive_directory_iterator(kRoot / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
      ++files;
      const std::string text = ReadFile(e.path());
      std::smatch m;
      EXPECT_FALSE(std::regex_search(text, m, kCast))
          << fs::relative(e.path(), kRoot) << " casts to a ruleset class: " << m.str(0)
          << " (use the Rules interface or Rules::hex())";
    }
  }
  EXPECT_GT(files, 20);
}

// The classes the rulesets declare that derive from a Rules class (MiniRules, SbRules...).
std::set<std::string> RulesetRulesClasses() {
  const std::regex kDerived(R"(class\s+(\w+)\s*(?:final\s*)?:\s*public\s+(?:wg::)?\w*Rules\b)");
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "rulesets")) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    const std::string text = ReadFile(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kDerived); it != std::sregex_iterator(); ++it) {
      out.insert((*it)[1].str());
    }
  }
  return out;
}

// A ruleset's header: its rules.h by any path, or any file of its folder (folders: "a|b|c").
std::regex IncludeOfARuleset(const std::string& folders) {
  return std::regex(R"(#\s*include\s*["<]((\S*/)?rules\.h|()" + folders + R"()/\S*)[">])");
}

// typeid of a Rules object or of a ruleset's class, or a cast to one of its classes (names: "A|B").
std::regex TypeTestOf(const std::string& names) {
  return std::regex(R"(typeid\s*\([^;]*\b(\w*[Rr]ules|)" + names + R"()\b|_cast<\s*(const\s+)?(\w+::)*()" + names +
                    R"()\b)");
}

TEST(Layout, ProgramsReachARulesetOnlyThroughItsInterfaces) {
  const std::set<std::string> classes = RulesetRulesClasses();
  EXPECT_TRUE(classes.count("MiniRules")) << "the rulesets' Rules classes were not found";
  std::string names, folders;
  for (const std::string& c : classes) names += (names.empty() ? "" : "|") + c;
  for (const auto& e : fs::directory_iterator(kRoot / "rulesets")) {
    if (e.is_directory()) folders += (folders.empty() ? "" : "|") + e.path().filename().string();
  }
  const std::regex include = IncludeOfARuleset(folders), type_test = TypeTestOf(names);
  int files = 0;
  for (const char* dir : {"examples", "python"}) {
    for (const auto& e : fs::recursive_directory_iterator(kRoot / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cc" && ext != ".h" && ext != ".cpp")) continue;
      ++files;
      const std::string text = ReadFile(e.path());
      std::smatch m;
      EXPECT_FALSE(std::regex_search(text, m, include))
          << fs::relative(e.path(), kRoot) << " includes a ruleset's header: " << m.str(0)
          << " (use Rules::hex() or Rules::tabletop())";
      EXPECT_FALSE(std::regex_search(text, m, type_test))
          << fs::relative(e.path(), kRoot) << " tests a ruleset's type: " << m.str(0)
          << " (use Rules::hex() or Rules::tabletop())";
    }
  }
  EXPECT_GT(files, 20);
}

// The checks above catch what examples/wargame/web_tabletop.cc did before Rules::tabletop().
TEST(Layout, TheInterfaceCheckCatchesARulesetHeaderAndTypeid) {
  const std::regex include = IncludeOfARuleset("civil_war_miniatures|stars_and_bars");
  EXPECT_TRUE(std::regex_search(std::string("#include \"civil_war_miniatures/rules.h\""), include));
  EXPECT_TRUE(std::regex_search(std::string("#include \"rules.h\""), include));
  EXPECT_TRUE(std::regex_search(std::string("#include <stars_and_bars/sb_data.h>"), include));
  EXPECT_FALSE(std::regex_search(std::string("#include \"wargame/hex_rules.h\""), include));
  const std::regex type_test = TypeTestOf("MiniRules|SbRules");
  EXPECT_TRUE(std::regex_search(std::string("return g.rules && typeid(*g.rules) == *kMiniType;"), type_test));
  EXPECT_TRUE(std::regex_search(std::string("dynamic_cast<const cwm::MiniRules*>(r)"), type_test));
  EXPECT_TRUE(std::regex_search(std::string("static_cast<const SbRules&>(*g.rules)"), type_test));
  EXPECT_FALSE(std::regex_search(std::string("dynamic_cast<TerminalPlayer*>(p.get())"), type_test));
}

// The engines' files (issue 38): the hex engine (libwargame/src/hex/ and these) and the
// tabletop engine. Every other file of libwargame/src and libwargame/include/wargame is the core.
const std::set<std::string> kHexFiles = {"hex.h", "map.h", "pathfinder.h", "los.h", "movement.h", "hex_rules.h",
                                         "hex.cc", "map.cc", "map_loader.cc", "pathfinder.cc", "los.cc", "movement.cc"};
const std::set<std::string> kTableFiles = {"tabletop.h", "tabletop.cc"};

std::regex IncludeOfAnEngine() {
  std::string names;
  for (const auto* files : {&kHexFiles, &kTableFiles}) {
    for (const std::string& f : *files) {
      if (f.size() < 2 || f.compare(f.size() - 2, 2, ".h") != 0) continue;
      if (!names.empty()) names.append("|");
      names.append(f, 0, f.size() - 2).append(R"(\.h)");
    }
  }
  std::string pattern = R"(#\s*include\s*["<]((\S*/)?()";
  pattern.append(names).append(R"()|(\S*/)?hex/\S*|internal\.h)[">])");
  return std::regex(pattern);
}

TEST(Layout, TheCoreIncludesNoHexOrTabletopHeader) {
  const std::regex include = IncludeOfAnEngine();
  int files = 0;
  for (const char* dir : {"libwargame/src", "libwargame/include/wargame"}) {
    for (const auto& e : fs::directory_iterator(kRoot / dir)) {
      const std::string name = e.path().filename().string();
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
      if (kHexFiles.count(name) || kTableFiles.count(name)) continue;
      ++files;
      const std::string text = ReadFile(e.path());
      std::smatch m;
      EXPECT_FALSE(std::regex_search(text, m, include)) << fs::relative(e.path(), kRoot) << " is the core and includes an engine's header: "
                            << m.str(0) << " (reach the engine through board.h or a Rules hook)";
    }
  }
  EXPECT_GT(files, 40);
}

TEST(Layout, TheCoreCheckCatchesAnEngineHeader) {
  const std::regex include = IncludeOfAnEngine();
  for (const char* line : {"#include \"wargame/map.h\"", "#include \"wargame/hex_rules.h\"", "#include <wargame/tabletop.h>",
                           "#include \"wargame/pathfinder.h\"", "#  include \"hex/internal.h\""}) {
    EXPECT_TRUE(std::regex_search(std::string(line), include)) << line;
  }
  for (const char* line : {"#include \"wargame/board.h\"", "#include \"wargame/game.h\"", "#include \"wargame/playout.h\""}) {
    EXPECT_FALSE(std::regex_search(std::string(line), include)) << line;
  }
}

}  // namespace
