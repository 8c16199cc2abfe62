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

std::vector<std::string> SplitRow(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool code = false;
  for (size_t i = 1; i < line.size(); ++i) {  // skip the leading '|'
    const char c = line[i];
    if (c == '`') code = !code;
    if (c == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (c == '|' && !code) {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  return cells;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Test names a cell cites: `Suite.Name` or a bare name that starts with Rule_ (the
// convention), outside parentheses (which hold notes).
std::vector<std::string> CitedTests(const std::string& cell) {
  std::string text;
  int depth = 0;
  for (char c : cell) {
    if (c == '(') ++depth;
    if (depth == 0 && c != '`') text += c;
    if (c == ')' && depth > 0) --depth;
  }
  static const std::regex kName(R"(\b([A-Z]\w*\.\w+|Rule_\w+)\b)");
  std::vector<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), kName), end; it != end; ++it) names.push_back((*it)[1]);
  return names;
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
  std::ifstream in(folder / "RULES.md");
  std::string line;
  int number = 0, test_col = -1;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("|", 0) != 0) {
      test_col = line.empty() ? test_col : -1;  // a table ends at a non-table line
      continue;
    }
    const std::vector<std::string> cells = SplitRow(line);
    if (test_col < 0) {  // a header row: find its test column
      for (size_t i = 0; i < cells.size(); ++i) {
        if (Lower(cells[i]).find("test") != std::string::npos) test_col = static_cast<int>(i);
      }
      if (test_col < 0) test_col = -2;  // a table without a test column
      continue;
    }
    if (test_col == -2 || line.find("---") != std::string::npos) continue;
    if (static_cast<size_t>(test_col) >= cells.size()) continue;
    ++r.rows;
    const std::string where = "RULES.md:" + std::to_string(number) + ": ";
    const std::vector<std::string> cited = CitedTests(cells[static_cast<size_t>(test_col)]);
    // A section header's row points at the rows of its sub-rules ("see 2.5.1-2.5.9", "see rows
    // below"); a rule that is not implemented says so. Every other row names a test.
    const std::string test_cell = Lower(cells[static_cast<size_t>(test_col)]);
    const bool pointer = test_cell.find("see ") != std::string::npos;
    if (cited.empty() && !pointer && Lower(line).find("not implemented") == std::string::npos) {
      r.problems.push_back(where + "a rule row without a test (a header row says \"see <sub-rules>\"; an "
                                   "unimplemented rule says \"not implemented\")");
    }
    for (const std::string& t : cited) {
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
