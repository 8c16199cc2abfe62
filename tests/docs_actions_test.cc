// Every action example in docs/*.md and README.md is one the program reads (issue 41:
// docs/scripting.md showed `convert` with `amount:`, which the program refuses).
//
// The examples are found without a list kept here:
//  - inline code spans that are one action map: `{move: [harris], path: ["2303"]}`
//    (a span opening with `{` whose first key is an action name);
//  - in fenced blocks, YAML list items that are actions (`- {attack: ...}`, `- end`),
//    the actions of a game's printed log (`[T1 combat] Union: {advance: []}`) and
//    `action: "{...}"` values of a save.
// Each must parse (ParseActionText) for one of the games the docs show: Stars and Bars
// (with its optional choices), Blue & Gray's Chattanooga, the tabletop miniatures, the test
// ruleset skirmish. The scripts the docs show are run: docs/scripting.md's skirmish script
// with its dice, and its save's actions on Stars and Bars.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "skirmish.h"
#include "wargame/action_text.h"
#include "wargame/registry.h"
#include "wargame/session.h"

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

struct Example {
  std::string file;
  int line = 0;
  std::string text;
  bool in_block = false;
  std::string block;  // the fenced block's text (for the scripts)
  bool refused = false;  // shown as refused: in a paragraph saying "... is refused"
};

bool IsActionName(const std::string& word) {
  for (int t = 0; t < kNumActionTypes; ++t) {
    if (word == ActionTypeName(static_cast<ActionType>(t))) return true;
  }
  return false;
}

// `{key: ...}` whose first key is an action name (or a bare end / stand / concede).
bool LooksLikeAction(const std::string& text) {
  if (text == "end" || text == "stand" || text == "concede") return true;
  static const std::regex first_key(R"(^\{\s*([a-z_]+)\s*:)");
  std::smatch m;
  return std::regex_search(text, m, first_key) && IsActionName(m[1].str());
}

void InlineExamples(const std::string& file, int line_no, const std::string& line, bool refused,
                    std::vector<Example>* out) {
  static const std::regex span("`([^`]+)`");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), span); it != std::sregex_iterator(); ++it) {
    const std::string t = (*it)[1].str();
    if (!t.empty() && t.front() == '{' && t.back() == '}' && LooksLikeAction(t)) {
      out->push_back(Example{file, line_no, t, false, "", refused});
    }
  }
}

// Whether the paragraph holding lines[i] (up to blank lines) says an example "is refused".
bool ParagraphSaysRefused(const std::vector<std::string>& lines, size_t i) {
  size_t a = i, b = i;
  while (a > 0 && !lines[a - 1].empty()) --a;
  while (b + 1 < lines.size() && !lines[b + 1].empty()) ++b;
  std::string text;
  for (size_t k = a; k <= b; ++k) text += lines[k] + " ";
  static const std::regex refused(R"(\)\s+is\s+refused)");
  return std::regex_search(text, refused);
}

void BlockExamples(const std::string& file, int line_no, const std::string& line, const std::string& block,
                   std::vector<Example>* out) {
  static const std::regex item(R"(^\s*-\s+(\{.*\}|end|stand|concede)\s*(#.*)?$)");
  static const std::regex logged(R"(^\[T\d+ [a-z_]+\] [A-Za-z ]+: (.+)$)");
  static const std::regex saved(R"re(^\s*action:\s*"(\{.*\})"\s*$)re");
  std::smatch m;
  if (std::regex_match(line, m, item) || std::regex_match(line, m, logged) || std::regex_match(line, m, saved)) {
    if (LooksLikeAction(m[1].str())) out->push_back({file, line_no, m[1].str(), true, block});
  }
}

std::vector<Example> Examples() {
  std::vector<fs::path> files = {kSource / "README.md"};
  for (const auto& e : fs::directory_iterator(kSource / "docs")) {
    if (e.path().extension() == ".md") files.push_back(e.path());
  }
  std::vector<Example> out;
  for (const fs::path& f : files) {
    std::istringstream in(Slurp(f));
    const std::string name = f.lexically_relative(kSource).string();
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    bool fenced = false;
    std::string block;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind("```", 0) == 0) {
        fenced = !fenced;
        block.clear();
        for (size_t j = i + 1; fenced && j < lines.size() && lines[j].rfind("```", 0) != 0; ++j) block += lines[j] + "\n";
        continue;
      }
      if (fenced) {
        BlockExamples(name, static_cast<int>(i + 1), lines[i], block, &out);
      } else {
        InlineExamples(name, static_cast<int>(i + 1), lines[i], ParagraphSaysRefused(lines, i), &out);
      }
    }
  }
  return out;
}

std::vector<std::shared_ptr<const Game>> Games() {
  std::vector<std::shared_ptr<const Game>> games;
  for (const char* spec : {"stars_and_bars(optional=12.1+12.2+12.3+12.4+12.5+12.6)",
                           "blue_and_gray(scenario=chattanooga)", "civil_war_miniatures", "skirmish"}) {
    auto g = LoadGame(spec);
    EXPECT_TRUE(g.ok()) << spec << ": " << (g.ok() ? "" : g.errors().ToString());
    if (g.ok()) games.push_back(*g);
  }
  return games;
}

TEST(DocsActions, EveryActionExampleParses) {
  const std::vector<Example> examples = Examples();
  const auto games = Games();
  EXPECT_GT(examples.size(), 30u);  // the action table of docs/scripting.md alone has more than 20
  for (const Example& e : examples) {
    std::string why;
    bool parsed = false;
    for (const auto& g : games) {
      auto a = ParseActionText(*g, e.text);
      if (a.ok()) {
        parsed = true;
        break;
      }
      why += "\n  " + g->params.ruleset + ": " + a.errors().ToString();
    }
    if (e.refused) {
      EXPECT_FALSE(parsed) << e.file << ":" << e.line << ": " << e.text << " is shown refused but is read";
    } else {
      EXPECT_TRUE(parsed) << e.file << ":" << e.line << ": " << e.text << " is read by no game:" << why;
    }
  }
}

TEST(DocsActions, ConvertTakesValue) {
  // docs/scripting.md's convert row, checked by name: the program reads value:, not amount:.
  auto g = LoadGame("stars_and_bars");
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(ParseActionText(**g, "{convert: [harris], value: 1}").ok());
  EXPECT_FALSE(ParseActionText(**g, "{convert: [harris], amount: 1}").ok());
}

// The scripts the docs show are accepted where shown.
TEST(DocsActions, TheScriptsRun) {
  const std::vector<Example> examples = Examples();
  std::vector<std::string> skirmish, save;
  for (const Example& e : examples) {
    if (e.file != "docs/scripting.md" || !e.in_block) continue;
    if (e.block.find("# skirmish") != std::string::npos) skirmish.push_back(e.text);
    if (e.block.find("format: 6") != std::string::npos) save.push_back(e.text);
  }
  ASSERT_EQ(skirmish.size(), 5u);
  ASSERT_EQ(save.size(), 2u);
  // `wargame play tests/data/rulesets/skirmish --script my.yaml --dice 4`
  auto sk = LoadGame("skirmish");
  ASSERT_TRUE(sk.ok());
  Session s(*sk, 1);
  s.SupplyDice({4});
  for (const std::string& t : skirmish) {
    auto a = ParseActionText(**sk, t);
    ASSERT_TRUE(a.ok()) << t;
    const Status st = s.Apply(*a);
    EXPECT_TRUE(st.ok()) << t << ": " << (st.ok() ? "" : st.error().ToString());
  }
  // The save's game: "stars_and_bars(scenario=perryville,auto=setup+capture)".
  auto sb = LoadGame("stars_and_bars(scenario=perryville,auto=setup+capture)");
  ASSERT_TRUE(sb.ok());
  Session p(*sb, 1);
  for (const std::string& t : save) {
    auto a = ParseActionText(**sb, t);
    ASSERT_TRUE(a.ok()) << t;
    const Status st = p.Apply(*a);
    EXPECT_TRUE(st.ok()) << t << ": " << (st.ok() ? "" : st.error().ToString());
  }
}

}  // namespace
}  // namespace wg
