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
  std::string folder; // data folder, relative to RulesetsRoot() (usually == name)
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

// "name" or "name(key=value,...)".
Result<std::shared_ptr<const Game>> LoadGame(const std::string& spec);

// Scenario names listed in a ruleset folder's ruleset.yaml (for `wargame list`).
std::vector<std::string> ListScenarios(const RulesetInfo& info);

}  // namespace wg

#define WG_REGISTER_RULESET_CONCAT2(a, b) a##b
#define WG_REGISTER_RULESET_CONCAT(a, b) WG_REGISTER_RULESET_CONCAT2(a, b)
#define WG_REGISTER_RULESET(info, factory) \
  static ::wg::RulesetRegistrar WG_REGISTER_RULESET_CONCAT(wg_registrar_, __LINE__)(info, factory)
