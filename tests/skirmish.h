// Registers the tiny test ruleset "skirmish" (tests/data/rulesets/skirmish):
// pure data on the standard HexRules flow, no hooks. Include it in exactly
// one source file of a test program.
#pragma once

#include "wargame/hex_rules.h"
#include "wargame/registry.h"

namespace wg::testing {

inline Result<std::shared_ptr<const Game>> MakeSkirmish(const GameParams& params) {
  return LoadHexGame(std::string(WG_TEST_DATA_DIR) + "/rulesets/skirmish", params, {},
                     [](const Game& g, RulesetDocument&, ErrorList*) -> std::unique_ptr<Rules> {
                       return std::make_unique<HexRules>(g);
                     });
}

WG_REGISTER_RULESET((RulesetInfo{"skirmish", "Skirmish (test ruleset)", "skirmish"}), MakeSkirmish);

}  // namespace wg::testing
