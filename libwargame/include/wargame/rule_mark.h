// Rule marks: the C++ that implements a numbered rule says so where it is written,
// after GoogleTest's TEST registration. A mark is a namespace-scope object on its own
// line directly above the function it marks; its constructor links it into a list when
// the program loads (static initialisation), so `wargame rules` lists it without
// playing a game, and an action costs nothing more.
//
//   WG_RULE_MARKS("stars_and_bars");   // once per file: the ruleset its marks belong to
//   ...
//   WG_RULE("7.5.1", SbRules::CheckRetreat);
//   Status SbRules::CheckRetreat(const State& s, ...) const {
//
// The mark records the rule, the function's name as written and where the function
// begins: the file and the line below the mark. A function that implements several
// rules names them all in its one mark, as a step does ("7.5.1/6.2").
//
// The core engine implements generic rules whose numbers are each ruleset's: a core
// mark names keys of `rule_numbers:` (kRuleKeys, hex_rules.h; checked when it compiles),
// and a hex game lists it under the numbers its data gives those keys (a game without
// the key lists it under the key itself, as its refusals cite it):
//
//   WG_RULE_KEY("retreat", HexRules::CheckRetreat);
//   WG_RULE_KEY("zoc/zoc_leave/infiltration", Pathfinder::CheckPath);
//
// Rules::RuleSources lists the marks of the loaded game as RuleSource{rule, "hook",
// name, "file:line"} (HexRules: the ruleset's marks and the core marks by key), and
// `wargame rules` prints them beside the steps and data keys: "hook: SbRules::CheckRetreat
// (rulesets/stars_and_bars/rules/combat.cc:429)".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "wargame/rule_index.h"

namespace wg {

struct RuleMark {
  // `ruleset`: the registered name whose marks these are; nullptr for a core mark, whose
  // `rule` holds keys of `rule_numbers:` ("zoc/zoc_leave") instead of rule numbers.
  RuleMark(const char* ruleset, const char* rule, const char* name, const char* file, int line);
  const char* ruleset;
  const char* rule;
  const char* name;
  const char* file;
  int line;
  const RuleMark* next;  // the mark registered before this one
};

// Appends one RuleSource per rule of `rules` ("8.0/7.8", "4.1,4.2": a step or a mark
// that applies several rules).
void SplitRules(std::string_view rules, std::string_view kind, const std::string& name, const std::string& where,
                std::vector<RuleSource>* out);

// Every mark the program holds, the last registered first (nullptr: none).
const RuleMark* RuleMarks();

// The marks of `ruleset` as RuleSources of kind "hook" (RULES.md's word for the
// ruleset's C++).
void AppendRuleMarks(std::string_view ruleset, std::vector<RuleSource>* out);

// Why a RULES.md row needs no registered entry of its own: "not implemented" (a row
// that says so, or "not applicable"), "no rule content" ("nothing to implement"), "an
// example (its test shows it)" (implemented as "test": an example the rules work through),
// "header" (a section carried by its sub-rules: "header (carried by 7.1-7.8)", or no
// implementation and a test cell "see 2.1-2.5"); "" for a rule the code implements.
std::string UnregisteredReason(const RulesRow& row);

// A rule id that is a number ("7.5.1", "12", "T.1", "C.4"; not "App. CRT", "AI", "—").
bool IsNumberedRule(std::string_view rule);

// Whether every key of "zoc/zoc_leave" is one of `known` (WG_RULE_KEY's compile-time check
// against kRuleKeys).
template <size_t N>
constexpr bool RuleKeysKnown(std::string_view keys, const char* const (&known)[N]) {
  size_t b = 0;
  while (b <= keys.size()) {
    const size_t e = keys.find('/', b) == std::string_view::npos ? keys.size() : keys.find('/', b);
    bool found = false;
    for (const char* k : known) found = found || keys.substr(b, e - b) == std::string_view(k);
    if (!found) return false;
    b = e + 1;
  }
  return true;
}

// "file:line" of a mark, from the source tree's top (SourceRelative).
std::string RuleMarkWhere(const RuleMark& m);

}  // namespace wg

#define WG_RULE_MARK_CONCAT2(a, b) a##b
#define WG_RULE_MARK_CONCAT(a, b) WG_RULE_MARK_CONCAT2(a, b)

// The ruleset the marks of this file belong to (its RulesetInfo::name).
#define WG_RULE_MARKS(ruleset_name) \
  namespace { [[maybe_unused]] constexpr const char* wg_rule_marks_ruleset = ruleset_name; }  \
  static_assert(true, "")

// `rule` ("7.5.1", several: "7.5.1/6.2") is implemented by `function`
// (SbRules::CheckRetreat), whose definition begins on the line below.
#define WG_RULE(rule, function)                                                                   \
  [[maybe_unused]] static const ::wg::RuleMark WG_RULE_MARK_CONCAT(wg_rule_mark_, __LINE__)( \
      wg_rule_marks_ruleset, rule, #function, __FILE__, __LINE__ + 1)

// The core's generic rules `keys` ("retreat", "zoc/zoc_leave": keys of `rule_numbers:`)
// are implemented by `function`, whose definition begins on the line below.
#define WG_RULE_KEY(keys, function)                                                               \
  static_assert(::wg::RuleKeysKnown(keys, ::wg::kRuleKeys), "WG_RULE_KEY: not a rule_numbers key"); \
  [[maybe_unused]] static const ::wg::RuleMark WG_RULE_MARK_CONCAT(wg_rule_mark_, __LINE__)(      \
      nullptr, keys, #function, __FILE__, __LINE__ + 1)
