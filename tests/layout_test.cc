// The shape of the source tree that issue 11 asks for, checked on the files themselves:
// - every ruleset folder has the same layout (ruleset.yaml, rules.h, rules.cc, RULES.md,
//   DATA.md, CMakeLists.txt, tests/; scenarios in scenarios/), so a ruleset author finds
//   the same thing in the same place in each;
// - the programs around the engine (libwargame/, examples/, python/, benchmarks/) talk to
//   interfaces (Rules, and Rules::hex()'s HexQueries), never dynamic_cast to the class a
//   ruleset derives from.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

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
    for (const char* f : {"ruleset.yaml", "rules.h", "rules.cc", "RULES.md", "DATA.md", "CMakeLists.txt"}) {
      EXPECT_TRUE(fs::is_regular_file(e.path() / f)) << e.path().filename() << " has no " << f;
    }
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
  EXPECT_EQ(rulesets, 3);
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

}  // namespace
