// Rule traceability: for each numbered rule of a ruleset, what implements it and
// what tests it (`wargame rules GAME` prints this).
//
// Two sources, joined by rule number:
//   - the ruleset's RULES.md, the table a ruleset author keeps: one row per rule
//     with what it says, how it is implemented, the tests, the reading chosen;
//   - the engine itself: Rules::RuleSources lists what the loaded game registers
//     under each rule number (the hex engine's generic rules named in
//     `rule_numbers:`, steps and hooks a ruleset declares).
#pragma once

#include <string>
#include <vector>

#include "wargame/error.h"

namespace wg {

class Game;

// Something the loaded game implements a rule with.
struct RuleSource {
  std::string rule;  // "7.1"
  std::string kind;  // "data" (a YAML key), "step" (a procedure of the sequence of play), "hook"
  std::string name;  // "rule_numbers.zoc", "combat", "SbRules::MustAttack"
  std::string where; // "rulesets/stars_and_bars/ruleset.yaml:54": where it is registered or read ("" unknown)
};

// `path` from its source tree's top ("rulesets/stars_and_bars/rules/combat.cc"): the part from
// the last "rulesets/", "libwargame/", "examples/" or "tests/" folder on (else as given).
std::string SourceRelative(std::string_view path);

// One row of a RULES.md table.
struct RulesRow {
  int line = 0;                    // 1-based line in RULES.md
  std::vector<std::string> cells;  // the row's cells, trimmed
  std::string rule;                // the first cell: "7.5.2", "T.1", ...
  std::string what, how, reading;  // the columns by their header names (empty if none)
  bool has_test_column = false;    // the table has a test column
  std::string tests_cell;          // the test column as written
  std::vector<std::string> tests;  // the test names it cites (CitedTests)
};

// Reads every table of a RULES.md file (rows below a header row; "---" rows skipped).
// Columns are found by their header: "rule", "what", "how", "test", "reading".
Result<std::vector<RulesRow>> ReadRulesTable(const std::string& path);

// Test names a cell cites: `Suite.Name`, or a bare name starting with Rule_,
// outside parentheses (which hold notes).
std::vector<std::string> CitedTests(const std::string& cell);

struct RuleIndexEntry {
  std::string rule;
  RulesRow row;                     // from RULES.md (row.line 0: the rule is not in RULES.md)
  std::vector<RuleSource> sources;  // from the loaded game
};

// RULES.md of the game's folder joined with game.rules->RuleSources(), in RULES.md's
// order, then the rule numbers only the engine knows (an error for the caller to show:
// a rule the engine cites that RULES.md does not list).
Result<std::vector<RuleIndexEntry>> RuleIndex(const Game& game);

}  // namespace wg
