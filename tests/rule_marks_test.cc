// Issue 37: rules traced by registration. What `wargame rules` says implements a rule
// comes from the engine: the steps (NewStep), the data keys whose line names the rule
// (`key: value  # 7.5.1`), the `rule_numbers:` keys and the marks of the functions that
// implement a rule (WG_RULE / WG_RULE_KEY, wargame/rule_mark.h). These tests hold the
// three rulesets to it:
//   - every rule RULES.md lists as implemented has at least one such entry (a header, one
//     for itself or a sub-rule);
//   - every mark sits above the function it names;
//   - RULES.md's "how" column names only data keys the ruleset reads, steps that register
//     and hooks that are marked (with the row's rule);
//   - a data-only ruleset without a RULES.md is indexed from registration alone.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "wargame/registry.h"
#include "wargame/rule_index.h"
#include "wargame/rule_mark.h"
#include "wargame/yaml_reader.h"

namespace wg {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A rule of a header's section: "7.0" (section 7) carries 7.1 and 7.1.2, "2.2.1" carries
// 2.2.1.1, "8.4" carries 8.41 (Blue & Gray numbers sub-rules by another digit).
bool IsSubRule(const std::string& rule, std::string section) {
  const bool whole = section.size() > 2 && section.compare(section.size() - 2, 2, ".0") == 0;
  if (whole) section.resize(section.size() - 2);
  if (rule.size() <= section.size() || rule.compare(0, section.size(), section) != 0) return false;
  const char next = rule[section.size()];
  return next == '.' || (!whole && section.find('.') != std::string::npos && std::isdigit(static_cast<unsigned char>(next)));
}

struct Coverage {
  int implemented = 0, covered = 0;  // numbered rules RULES.md lists as implemented
  int rows = 0, rows_covered = 0;    // every row, numbered or not ("App. CRT", "AI")
  std::vector<std::string> missing;  // numbered, implemented, nothing registered
};

Coverage CoverageOf(const std::vector<RuleIndexEntry>& index) {
  Coverage c;
  for (const RuleIndexEntry& e : index) {
    if (e.row.line == 0) continue;
    bool any = !e.sources.empty();
    const std::string why = UnregisteredReason(e.row);
    if (why == "header") {  // carried by its sub-rules
      for (const RuleIndexEntry& sub : index) any = any || (IsSubRule(sub.rule, e.rule) && !sub.sources.empty());
    }
    ++c.rows;
    if (any) ++c.rows_covered;
    if (!IsNumberedRule(e.rule) || (!why.empty() && why != "header")) continue;
    ++c.implemented;
    if (any) {
      ++c.covered;
    } else {
      c.missing.push_back(e.rule);
    }
  }
  return c;
}

// Implemented rules whose only implementing function is one its owner is rewriting and will
// register himself (issue 37: the turn hooks become steps). Listed so that the gap is seen;
// the test fails when one is registered, to take it off this list.
const std::map<std::string, std::set<std::string>> kPendingRegistration = {};

TEST(RuleMarks, EveryImplementedRuleHasARegisteredEntry) {
  int games = 0;
  for (const RulesetInfo& info : RulesetRegistry::Get().List()) {
    auto game = LoadGame(info.name);
    ASSERT_TRUE(game.ok()) << info.name << ": " << game.errors().ToString();
    auto index = RuleIndex(**game);
    ASSERT_TRUE(index.ok()) << info.name << ": " << index.errors().ToString();
    ++games;
    const Coverage c = CoverageOf(*index);
    std::cout << info.name << ": " << c.covered << " of " << c.implemented
              << " implemented numbered rules have an entry derived from registration (" << c.rows_covered << " of "
              << c.rows << " rows)\n";
    std::string missing;
    const auto pending = kPendingRegistration.find(info.name);
    std::set<std::string> still;
    for (const std::string& r : c.missing) {
      if (pending != kPendingRegistration.end() && pending->second.count(r)) {
        still.insert(r);
      } else {
        missing += " " + r;
      }
    }
    if (pending != kPendingRegistration.end()) {
      for (const std::string& r : pending->second) {
        EXPECT_TRUE(still.count(r)) << info.name << ": " << r << " is registered now: take it off kPendingRegistration";
      }
    }
    EXPECT_TRUE(missing.empty()) << info.name << ": implemented rules with no step, data key, rule_numbers key or "
                                   << "mark:" << missing;
  }
  EXPECT_GE(games, 3);
}

// A mark names the function on the line below it (a template's: the line after).
TEST(RuleMarks, EachMarkSitsAboveTheFunctionItNames) {
  int marks = 0;
  for (const RuleMark* m = RuleMarks(); m; m = m->next) {
    ++marks;
    const std::string where = RuleMarkWhere(*m);
    const std::string file = where.substr(0, where.rfind(':'));
    std::ifstream in(fs::path(WG_SOURCE_DIR) / file);
    ASSERT_TRUE(in) << where << ": cannot read " << file;
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    ASSERT_GE(m->line, 2) << where;
    ASSERT_LE(static_cast<size_t>(m->line), lines.size()) << where;
    EXPECT_NE(lines[static_cast<size_t>(m->line) - 2].find("WG_RULE"), std::string::npos) << where;
    std::string name = m->name;
    if (name.rfind("::") != std::string::npos) name = name.substr(name.rfind("::") + 2);
    const std::regex defines("\\b" + name + "\\(");
    bool found = false;
    for (size_t k = static_cast<size_t>(m->line) - 1; k < lines.size() && k < static_cast<size_t>(m->line) + 1; ++k) {
      found = found || std::regex_search(lines[k], defines);
    }
    EXPECT_TRUE(found) << where << ": the mark of " << m->name << " is not above its definition";
    EXPECT_TRUE(m->rule && *m->rule) << where;
  }
  EXPECT_GT(marks, 100);
}

// The core's marks name `rule_numbers:` keys, so each ruleset lists them under its own
// numbers: the hex engine's retreat check is 7.5.1 in Stars and Bars and 8.5 in Blue & Gray.
TEST(RuleMarks, CoreMarksAttachThroughEachRulesetsRuleNumbers) {
  for (const auto& [ruleset, rule] : std::map<std::string, std::string>{{"stars_and_bars", "7.5.1"}, {"blue_and_gray", "8.5"}}) {
    auto game = LoadGame(ruleset);
    ASSERT_TRUE(game.ok()) << game.errors().ToString();
    std::vector<RuleSource> sources;
    (*game)->rules->RuleSources(&sources);
    bool core = false, own = false;
    for (const RuleSource& s : sources) {
      core = core || (s.rule == rule && s.kind == "hook" && s.name == "HexRules::CheckRetreat" &&
                      s.where.rfind("libwargame/src/hex/retreat.cc:", 0) == 0);
      own = own || (s.kind == "hook" && s.where.rfind("rulesets/" + ruleset + "/", 0) == 0);
    }
    EXPECT_TRUE(core) << ruleset;
    EXPECT_TRUE(own) << ruleset;
  }
}

// `wargame rules stars_and_bars --rule 7.5.1`: the retreat step, the data key and the
// functions, each with its file and line.
TEST(RuleMarks, StarsAndBars751IsTheRetreatStepItsDataKeyAndItsFunctions) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  auto index = RuleIndex(**game);
  ASSERT_TRUE(index.ok()) << index.errors().ToString();
  std::set<std::string> seen;
  for (const RuleIndexEntry& e : *index) {
    if (e.rule != "7.5.1") continue;
    for (const RuleSource& s : e.sources) {
      if (s.kind != "data" || s.name == "combat.retreat_hexes") {
        EXPECT_NE(s.where.find(':'), std::string::npos) << s.kind << " " << s.name << " has no file:line";
      }
      seen.insert(s.kind + " " + s.name);
    }
  }
  EXPECT_TRUE(seen.count("step retreat"));
  EXPECT_TRUE(seen.count("data combat.retreat_hexes"));
  EXPECT_TRUE(seen.count("hook SbRules::CheckRetreat"));
  EXPECT_TRUE(seen.count("hook HexRules::CheckRetreat"));
}

// A ruleset made of data only, with no RULES.md (tests/data/rulesets/skirmish, copied so
// the test does not depend on the folder having none): `wargame rules` lists what the
// hex engine registers, under the keys the data does not number.
TEST(RuleMarks, ADataOnlyRulesetWithoutRulesMdIsIndexedFromRegistration) {
  const fs::path dir = fs::temp_directory_path() / ("wg_rule_marks_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(fs::path(WG_TEST_DATA_DIR) / "rulesets/skirmish", dir, fs::copy_options::recursive);
  fs::remove(dir / "RULES.md");
  auto game = LoadGame(dir.string());
  ASSERT_TRUE(game.ok()) << game.errors().ToString();
  auto index = RuleIndex(**game);
  fs::remove_all(dir);
  ASSERT_TRUE(index.ok()) << index.errors().ToString();
  std::set<std::string> seen;
  for (const RuleIndexEntry& e : *index) {
    EXPECT_EQ(e.row.line, 0) << e.rule;
    EXPECT_FALSE(e.sources.empty()) << e.rule;
    for (const RuleSource& s : e.sources) seen.insert(e.rule + " " + s.kind + " " + s.name);
  }
  EXPECT_TRUE(seen.count("retreat hook HexRules::CheckRetreat")) << seen.size();
  EXPECT_TRUE(seen.count("combat step combat")) << seen.size();
  for (const std::string& s : seen) EXPECT_EQ(s.find("SbRules::"), std::string::npos) << s;
}

// --- RULES.md's "how" column against what registers ----------------------------------------

// What a ruleset registers and reads, for CheckHowColumn.
struct Registered {
  std::set<std::string> steps;     // step names
  std::set<std::string> hooks;     // marked functions, by their name and their last part
  std::map<std::string, std::set<std::string>> hook_rules;  // the same: the rules they are marked with
  std::set<std::string> keys;      // key paths the loaders accept or read
  std::string yaml;                // the ruleset's YAML files, as text
  // Functions the ruleset's .cc files define at namespace scope (a name RULES.md cites that
  // is not one of them is the core's, or a member defined in its class body: not marked).
  std::set<std::string> defined;
};

// Functions RULES.md names whose marks their owner adds (issue 37: the turn hooks and the
// rolls made inside actions are being rewritten as steps; their author registers them).
const std::set<std::string> kNotYetMarked = {};

// The members of a step RULES.md may name beside it ("step `combat` (`applies`: ...)").
const std::set<std::string> kStepMembers = {"applies", "begin", "resume", "list", "apply", "prompt", "resolve"};

// A data name RULES.md cites is a key the loaders accept or read whose last part the
// ruleset's files write as a key ("retreat_hexes" for `combat.retreat_hexes: 2`), or a value
// they write (`stay`, a face of the livestock table; `bombard`, an attribute).
bool KeyRead(const Registered& reg, const std::string& key) {
  std::string rx;
  for (char c : key) rx += c == '*' ? std::string("[^.]+") : c == '.' ? std::string("\\.") : std::string(1, c);
  const std::regex anywhere("(^|\\.)" + rx + "($|\\.)");
  bool accepted = false;
  for (const std::string& k : reg.keys) accepted = accepted || std::regex_search(k, anywhere);
  const std::string last = key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1);
  if (last == "*") return accepted;
  if (accepted && reg.yaml.find(last + ":") != std::string::npos) return true;
  return std::regex_search(reg.yaml, std::regex("\\b" + last + "\\b(?!:)"));
}

// Whether the function `name` is marked with `rule`, a rule of its section or its section
// ("7.5" for a mark of 7.5.1: a header's row names what its sub-rules' rows name).
bool MarkedFor(const Registered& reg, const std::string& name, const std::string& rule) {
  const auto it = reg.hook_rules.find(name);
  if (it == reg.hook_rules.end()) return false;
  for (const std::string& r : it->second) {
    if (r == rule || IsSubRule(r, rule) || IsSubRule(rule, r)) return true;
  }
  return false;
}

// Each `name` of a row's "how" cell, by the word before it: "hook(s)" a function that is
// marked, "step(s)" / "script" a step, "data" a key the ruleset reads. Other names (core
// functions, action types, values) are not checked.
std::vector<std::string> CheckHowColumn(const std::vector<RulesRow>& rows, const Registered& reg) {
  static const std::regex kWord(R"(\b(hooks?|steps?|script|data)\b)");
  static const std::regex kFunction(R"(^[A-Z]\w*$)");
  static const std::regex kStep(R"(^[a-z_]+$)");
  static const std::regex kKey(R"(^[a-z_][a-z0-9_]*(\.[a-z0-9_*]+)*)");
  std::vector<std::string> problems;
  for (const RulesRow& row : rows) {
    const std::string& how = row.how;
    std::string kind;
    size_t at = 0;
    while (true) {
      const size_t open = how.find('`', at);
      if (open == std::string::npos) break;
      const size_t close = how.find('`', open + 1);
      if (close == std::string::npos) break;
      // The last keyword before the name, within its clause (after the last ';').
      const std::string before = how.substr(0, open);
      const size_t clause = before.find_last_of(';');
      const std::string text = before.substr(clause == std::string::npos ? 0 : clause + 1);
      kind.clear();
      for (std::sregex_iterator it(text.begin(), text.end(), kWord), end; it != end; ++it) kind = (*it)[1];
      const std::string name = how.substr(open + 1, close - open - 1);
      at = close + 1;
      const std::string where = "RULES.md:" + std::to_string(row.line) + ": " + row.rule + ": ";
      if ((kind == "hook" || kind == "hooks") && std::regex_match(name, kFunction)) {
        if (!reg.hooks.count(name) && !kNotYetMarked.count(name) && reg.defined.count(name)) {
          problems.push_back(where + "hook `" + name + "` is not marked (WG_RULE)");
        } else if (reg.hooks.count(name) && !MarkedFor(reg, name, row.rule)) {
          problems.push_back(where + "hook `" + name + "` is marked, but not with " + row.rule);
        }
      } else if ((kind == "step" || kind == "steps" || kind == "script") && std::regex_match(name, kStep) &&
                 !kStepMembers.count(name)) {
        if (!reg.steps.count(name)) problems.push_back(where + "step `" + name + "` never registers");
      } else if (kind == "data" && name.find(".yaml") == std::string::npos && name.find(".md") == std::string::npos) {
        std::smatch m;
        if (std::regex_search(name, m, kKey) && m.position(0) == 0 && !KeyRead(reg, m.str(0))) {
          problems.push_back(where + "data key `" + m.str(0) + "` is never read");
        }
      }
    }
  }
  return problems;
}

Registered RegisteredBy(const Game& game, const std::set<std::string>& accepted) {
  Registered reg;
  std::vector<RuleSource> sources;
  game.rules->RuleSources(&sources);
  for (const RuleSource& s : sources) {
    if (s.kind == "step") reg.steps.insert(s.name);
    if (s.kind == "hook") {
      reg.hooks.insert(s.name);
      reg.hook_rules[s.name].insert(s.rule);
      if (s.name.rfind("::") != std::string::npos) {
        reg.hooks.insert(s.name.substr(s.name.rfind("::") + 2));
        reg.hook_rules[s.name.substr(s.name.rfind("::") + 2)].insert(s.rule);
      }
    }
  }
  for (int k = 1; k < game.rules->steps().size(); ++k) reg.steps.insert(game.rules->steps().Def(static_cast<StepKind>(k)).name);
  reg.keys = accepted;
  for (const DataRule& d : game.data_rules) reg.keys.insert(d.key);
  static const std::regex kDefinition(R"((?:^|\n)[A-Za-z][^;{}\n]*?\b(?:\w+::)?(\w+)\()");
  for (const auto& e : fs::recursive_directory_iterator(game.folder)) {
    if (e.path().extension() == ".yaml") reg.yaml += Slurp(e.path());
    if (e.path().extension() != ".cc" || e.path().string().find("/tests/") != std::string::npos) continue;
    const std::string text = Slurp(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), kDefinition), end; it != end; ++it) reg.defined.insert((*it)[1]);
  }
  return reg;
}

TEST(RuleMarks, RulesMdNamesOnlyDataKeysStepsAndHooksThatRegister) {
  int games = 0;
  for (const RulesetInfo& info : RulesetRegistry::Get().List()) {
    YamlReader::RecordAcceptedKeys(true);
    auto game = LoadGame(info.name);
    YamlReader::RecordAcceptedKeys(false);
    ASSERT_TRUE(game.ok()) << info.name << ": " << game.errors().ToString();
    auto rows = ReadRulesTable((*game)->folder + "/RULES.md");
    if (!rows.ok()) continue;
    ++games;
    const std::vector<std::string> problems = CheckHowColumn(*rows, RegisteredBy(**game, YamlReader::AcceptedKeys()));
    std::string all;
    for (const std::string& p : problems) all += "  rulesets/" + info.name + "/" + p + "\n";
    EXPECT_TRUE(problems.empty()) << problems.size() << " problems:\n" << all;
  }
  EXPECT_GE(games, 3);
}

// The checkers themselves, on made-up rows.
TEST(RuleMarks, TheCheckersFindWhatDoesNotRegister) {
  Registered reg;
  reg.steps = {"retreat"};
  reg.hooks = {"SbRules::CheckRetreat", "CheckRetreat"};
  reg.defined = {"CheckRetreat", "Missing"};
  reg.hook_rules = {{"CheckRetreat", {"7.5.1"}}, {"SbRules::CheckRetreat", {"7.5.1"}}};
  reg.keys = {"combat.retreat_hexes", "movement.paths.road"};
  reg.yaml = "combat:\n  retreat_hexes: 2\nmovement:\n  paths:\n    road: {cost: 1}\n";
  std::vector<RulesRow> rows(1);
  rows[0].line = 9;
  rows[0].rule = "7.5.1";
  rows[0].how = "data (`retreat_hexes: 2`, `paths.road`, `retreat_length`) + step `retreat`, `advance`; hooks "
                "`CheckRetreat`, `Missing` (`kDestroy`), `CoreFunction`";
  rows.push_back(rows[0]);
  rows[1].rule = "6.2";  // CheckRetreat is marked with 7.5.1 only
  rows[1].how = "hook `CheckRetreat`";
  const std::vector<std::string> p = CheckHowColumn(rows, reg);
  ASSERT_EQ(p.size(), 4u) << (p.empty() ? "" : p[0]);
  EXPECT_NE(p[0].find("`retreat_length` is never read"), std::string::npos) << p[0];
  EXPECT_NE(p[1].find("`advance` never registers"), std::string::npos) << p[1];
  EXPECT_NE(p[2].find("`Missing` is not marked"), std::string::npos) << p[2];
  EXPECT_NE(p[3].find("`CheckRetreat` is marked, but not with 6.2"), std::string::npos) << p[3];

  // Coverage: a header is covered by a sub-rule; an unimplemented rule needs nothing.
  std::vector<RuleIndexEntry> index(4);
  const char* rules[] = {"7.0", "7.1", "7.2", "8.0"};
  const char* hows[] = {"header (carried by 7.1, 7.2)", "hook", "hook", "not implemented"};
  for (size_t i = 0; i < index.size(); ++i) {
    index[i].rule = rules[i];
    index[i].row.line = static_cast<int>(i) + 1;
    index[i].row.rule = rules[i];
    index[i].row.how = hows[i];
    index[i].row.cells = {rules[i], "", hows[i]};
  }
  index[1].sources.push_back(RuleSource{"7.1", "hook", "F", "f.cc:1"});
  const Coverage c = CoverageOf(index);
  EXPECT_EQ(c.implemented, 3);
  EXPECT_EQ(c.covered, 2);
  EXPECT_EQ(c.missing, std::vector<std::string>{"7.2"});
}

}  // namespace
}  // namespace wg
