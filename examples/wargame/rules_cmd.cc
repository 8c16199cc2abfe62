// `wargame rules GAME [--rule R]`: each rule number of a ruleset with what it says,
// how it is implemented (RULES.md), what the loaded game registers under it (YAML
// keys, steps, hooks: Rules::RuleSources) and the tests that check it.
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "wargame/rule_index.h"
#include "wargame/rule_mark.h"

namespace wg::cli {

namespace po = boost::program_options;

namespace {

// "7.1" matches 7.1, 7.1.2...; "7" matches 7, 7.1...; a non-numbered id matches itself.
bool RuleMatches(const std::string& rule, const std::string& filter) {
  if (filter.empty() || rule == filter) return true;
  return rule.size() > filter.size() && rule.compare(0, filter.size(), filter) == 0 && rule[filter.size()] == '.';
}

void PrintEntry(const RuleIndexEntry& e, bool has_rules_md) {
  std::cout << e.rule;
  if (!e.row.what.empty()) std::cout << "  " << e.row.what;
  std::cout << "\n";
  if (e.row.line == 0 && has_rules_md) std::cout << "    (cited by the engine, not listed in RULES.md)\n";
  if (!e.row.how.empty()) std::cout << "    how:     " << e.row.how << "\n";
  // A rule nothing registers under: what RULES.md says of it (not implemented, a header...).
  if (e.row.line > 0 && e.sources.empty()) {
    const std::string why = UnregisteredReason(e.row);
    std::cout << "    status:  " << (why.empty() ? "nothing registered under this rule" : why) << "\n";
  }
  // Each kind of source under its label ("turn": a handler of the turn procedure).
  static const std::pair<const char*, const char*> kKinds[] = {
      {"data", "data"}, {"step", "step"}, {"procedure", "turn"}, {"hook", "hook"}};
  for (const auto& [kind, label] : kKinds) {
    std::string names;
    for (const RuleSource& s : e.sources) {
      if (s.kind == kind) names += (names.empty() ? "" : ", ") + s.name + (s.where.empty() ? "" : " (" + s.where + ")");
    }
    if (!names.empty()) std::cout << "    " << label << ":" << std::string(8 - std::string(label).size(), ' ') << names << "\n";
  }
  if (!e.row.tests.empty()) {
    std::cout << "    tests:   ";
    for (size_t i = 0; i < e.row.tests.size(); ++i) std::cout << (i ? ", " : "") << e.row.tests[i];
    std::cout << "\n";
  } else if (e.row.line > 0) {
    std::cout << "    tests:   " << (e.row.tests_cell.empty() ? "(none)" : e.row.tests_cell) << "\n";
  }
  if (!e.row.reading.empty()) std::cout << "    reading: " << e.row.reading << "\n";
}

}  // namespace

int CmdRules(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("game", po::value<std::string>(), "GAME: ruleset name or folder")(
      "rule", po::value<std::string>()->default_value(""), "only this rule and its sub-rules (7.5 shows 7.5.1...)");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  if (int rc = ParseOptions(argc, argv, desc, pos, &vm, "wargame", "usage: wargame rules GAME [--rule R]"); rc >= 0) {
    return rc;
  }
  if (!vm.count("game")) {
    std::cerr << "wargame rules: GAME is required\n";
    return kExitUsage;
  }
  auto spec = GameSpec(vm["game"].as<std::string>(), "", "");
  if (!spec.ok()) {
    PrintErrors(spec.errors());
    return kExitUsage;
  }
  auto game = LoadGameSpec(*spec);
  if (!game.ok()) {
    PrintErrors(game.errors());
    return kExitError;
  }
  std::error_code ec;
  const bool has_rules_md = std::filesystem::exists((*game)->folder + "/RULES.md", ec);
  auto index = RuleIndex(**game);
  if (!index.ok()) {
    PrintErrors(index.errors());
    return kExitError;
  }
  const std::string filter = vm["rule"].as<std::string>();
  int shown = 0, untracked = 0;
  std::cout << (*game)->title << ": the rules ("
            << (has_rules_md ? (*game)->folder + "/RULES.md" : "no RULES.md: what the engine registers") << ")\n";
  for (const RuleIndexEntry& e : *index) {
    if (e.row.line == 0) ++untracked;
    if (!RuleMatches(e.rule, filter)) continue;
    PrintEntry(e, has_rules_md);
    ++shown;
  }
  if (shown == 0) {
    std::cerr << "wargame rules: no rule " << filter << " in " << (*game)->params.ruleset << "\n";
    return kExitError;
  }
  // A rule number the engine cites that RULES.md does not list is a hole in the traceability
  // (a data-only ruleset without a RULES.md has only what the engine registers).
  return untracked > 0 && has_rules_md ? kExitError : kExitOk;
}

}  // namespace wg::cli
