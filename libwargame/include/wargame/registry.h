// The ruleset registry, after OpenSpiel's REGISTER_SPIEL_GAME.
//
// A ruleset registers a factory under its name with WG_REGISTER_RULESET in an
// anonymous namespace of its hooks file; the library (and the `wargame`
// program) then makes games from strings:
//   auto game = wg::LoadGame("stars_and_bars(scenario=perryville,optional=12.1+12.6)");
// Rulesets are built as CMake OBJECT libraries so the registrar is linked in.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wargame/error.h"
#include "wargame/game.h"

namespace wg {

struct RulesetInfo {
  std::string name;   // "stars_and_bars"
  std::string title;  // "Stars and Bars (Perryville, 8 October 1862)"
  std::string folder; // data folder: a name looked up on the search path (usually == name), or absolute
};

using RulesetFactory = std::function<Result<std::shared_ptr<const Game>>(const GameParams&)>;

class RulesetRegistry {
 public:
  static RulesetRegistry& Get();
  void Register(const RulesetInfo& info, RulesetFactory factory);
  std::vector<RulesetInfo> List() const;
  const RulesetInfo* Find(const std::string& name) const;
  Result<std::shared_ptr<const Game>> Make(const GameParams& params) const;

 private:
  Result<std::shared_ptr<const Game>> MakeUnguarded(const GameParams& params) const;
  struct Entry {
    RulesetInfo info;
    RulesetFactory factory;
  };
  std::vector<Entry> entries_;
};

struct RulesetRegistrar {
  RulesetRegistrar(const RulesetInfo& info, RulesetFactory factory) {
    RulesetRegistry::Get().Register(info, std::move(factory));
  }
};

// The error of a ruleset whose factory or rules builder returned no game or no rules
// object without reporting an error (RulesetRegistry::Make, LoadHexGame refuse it).
Error NoRulesError(const std::string& ruleset);

// "name" or "name(key=value,...)".
Result<std::shared_ptr<const Game>> LoadGame(const std::string& spec);

// The loader of a data-only ruleset (a folder with a ruleset.yaml and no C++
// hooks, found where no registered name matches): the hex engine sets its
// standard hex-game flow (hex/loader.cc) when it is linked; without one such a
// folder is an unknown ruleset. Returns true (for a static initialiser).
using DataOnlyRulesetLoader =
    std::function<Result<std::shared_ptr<const Game>>(const std::string& folder, const GameParams& params)>;
bool SetDataOnlyRulesetLoader(DataOnlyRulesetLoader loader);

// --- Where rulesets' data is found ------------------------------------------------
// A ruleset's folder (RulesetInfo::folder, or the name given to LoadGame for a
// data-only ruleset) is looked up in these roots, in order; the first
// <root>/<folder>/ruleset.yaml wins:
//   1. folders added with AddRulesetSearchPath, the last added first (the
//      installed package's Wargame::rulesets adds <prefix>/share/wargame/rulesets;
//      the Python module adds the same next to itself);
//   2. the folders of the environment variable WARGAME_RULESET_PATH, separated by ':';
//   3. <program>/../share/wargame/rulesets, next to the running program (the
//      installed `wargame`);
//   4. RulesetsRoot(): WARGAME_RULESETS, the source tree, the configured install prefix.
// An absolute folder is used as it is. Paths may be added from any thread;
// a game already loaded keeps the folder it was loaded from.
void AddRulesetSearchPath(const std::string& root);
std::vector<std::string> RulesetSearchPath();
// The data folder of a ruleset: the first <root>/<folder> with a ruleset.yaml,
// else RulesetsRoot()/<folder> (whose loading then reports the missing file).
std::string FindRulesetFolder(const std::string& folder);

// Scenario names listed in a ruleset folder's ruleset.yaml (for `wargame list`).
std::vector<std::string> ListScenarios(const RulesetInfo& info);

}  // namespace wg

#define WG_REGISTER_RULESET_CONCAT2(a, b) a##b
#define WG_REGISTER_RULESET_CONCAT(a, b) WG_REGISTER_RULESET_CONCAT2(a, b)
#define WG_REGISTER_RULESET(info, factory) \
  static ::wg::RulesetRegistrar WG_REGISTER_RULESET_CONCAT(wg_registrar_, __LINE__)(info, factory)
