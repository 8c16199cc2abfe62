// Rule traceability: every ruleset's RULES.md names, for each rule row, the tests that
// check it, and every test it names exists (a TEST / TEST_F / TEST_P in that ruleset's
// tests/ or in the core tests/, not DISABLED_). A row with no test is a section header
// that points at its sub-rules ("see 7.5.1-7.5.3") or says the rule is not implemented. This test reads the files as a ruleset author writes them, so a
// renamed or deleted test, or a new row without a test, fails here.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "wargame/rule_index.h"

namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "Suite.Name" and "Name" of every test defined in the .cc files under `dir`.
void CollectTests(const fs::path& dir, std::set<std::string>* out) {
  if (!fs::is_directory(dir)) return;
  static const std::regex kTest(R"(\bTEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\))");
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".cc") continue;
    const std::string text = ReadFile(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), kTest), end; it != end; ++it) {
      const std::string suite = (*it)[1], name = (*it)[2];
      if (name.rfind("DISABLED_", 0) == 0 || suite.rfind("DISABLED_", 0) == 0) continue;
      out->insert(suite + "." + name);
      out->insert(name);
    }
  }
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct RulesFile {
  std::string ruleset;
  int rows = 0;
  std::vector<std::string> problems;
};

RulesFile Check(const fs::path& folder, const std::set<std::string>& core_tests) {
  RulesFile r;
  r.ruleset = folder.filename().string();
  std::set<std::string> tests = core_tests;
  CollectTests(folder / "tests", &tests);
  // The rows as wg::ReadRulesTable reads them (the parser `wargame rules` uses).
  auto rows = wg::ReadRulesTable((folder / "RULES.md").string());
  if (!rows.ok()) {
    r.problems.push_back(rows.errors().ToString());
    return r;
  }
  for (const wg::RulesRow& row : *rows) {
    if (!row.has_test_column) continue;
    ++r.rows;
    const std::string where = "RULES.md:" + std::to_string(row.line) + ": ";
    // A section header's row points at the rows of its sub-rules ("see 2.5.1-2.5.9", "see rows
    // below"); a rule that is not implemented says so. Every other row names a test.
    const bool pointer = Lower(row.tests_cell).find("see ") != std::string::npos;
    bool unimplemented = false;
    for (const std::string& c : row.cells) unimplemented = unimplemented || Lower(c).find("not implemented") != std::string::npos;
    if (row.tests.empty() && !pointer && !unimplemented) {
      r.problems.push_back(where + "a rule row without a test (a header row says \"see <sub-rules>\"; an "
                                   "unimplemented rule says \"not implemented\")");
    }
    for (const std::string& t : row.tests) {
      if (!tests.count(t)) r.problems.push_back(where + "names a test that does not exist: " + t);
    }
  }
  return r;
}

TEST(RulesMd, EveryRowNamesTestsThatExist) {
  const fs::path src(WG_SOURCE_DIR);
  std::set<std::string> core;
  CollectTests(src / "tests", &core);
  int files = 0;
  for (const auto& e : fs::directory_iterator(src / "rulesets")) {
    if (!fs::exists(e.path() / "RULES.md")) continue;
    ++files;
    const RulesFile r = Check(e.path(), core);
    EXPECT_GT(r.rows, 5) << r.ruleset << ": RULES.md has no rule table";
    std::string all;
    for (const std::string& p : r.problems) all += "  rulesets/" + r.ruleset + "/" + p + "\n";
    EXPECT_TRUE(r.problems.empty()) << r.problems.size() << " problems:\n" << all;
  }
  EXPECT_GE(files, 3);
}

// The checker itself: a made-up ruleset whose RULES.md has every kind of row.
TEST(RulesMd, CheckerFindsMissingAndUnknownTests) {
  const fs::path dir = fs::temp_directory_path() / ("wg_rules_md_" + std::to_string(::getpid()));
  fs::create_directories(dir / "tests");
  std::ofstream(dir / "tests" / "rules_test.cc") << "TEST(Rules, Rule_1_1_Exists) {}\n"
                                                    "TEST(Rules, DISABLED_Rule_1_2_Off) {}\n";
  std::ofstream(dir / "RULES.md") << "# x\n\n| rule | how | test |\n|---|---|---|\n"
                                     "| 1.0 | header | see 1.1-1.3 |\n"
                                     "| 1.1 | hook | Rules.Rule_1_1_Exists (on a placed position) |\n"
                                     "| 1.2 | hook | Rule_1_2_Off |\n"
                                     "| 1.3 | hook | Rule_1_3_Missing, Rule_1_1_Exists |\n"
                                     "| 1.4 | hook | |\n"
                                     "| 1.5 | not implemented | |\n";
  const RulesFile r = Check(dir, {});
  fs::remove_all(dir);
  EXPECT_EQ(r.rows, 6);
  ASSERT_EQ(r.problems.size(), 3u);
  EXPECT_NE(r.problems[0].find("Rule_1_2_Off"), std::string::npos);     // disabled
  EXPECT_NE(r.problems[1].find("Rule_1_3_Missing"), std::string::npos);  // does not exist
  EXPECT_NE(r.problems[2].find("without a test"), std::string::npos);    // 1.4
}

}  // namespace
