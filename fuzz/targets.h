// The fuzz targets of libwargame (fuzz/README.md). Each takes one input and
// returns "" or the property the input broke; a crash, a sanitizer report or a
// non-empty answer is a finding. The libFuzzer programs (fuzz_*.cc, built with
// clang and -DWG_FUZZ=ON) and the regression test (regressions_test.cc, a
// normal GoogleTest program that `make test` runs) call the same functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace wg::fuzz {

// A game spec: parses, prints back identically, loads or reports an error.
std::string GameSpec(const uint8_t* data, size_t size);
// The first byte picks a mid-game session of some ruleset; the rest is one
// action, as script text (first byte even) or as the raw bytes of an Action
// (odd). A refused action changes neither the state nor the log; an accepted
// one prints and parses back to itself and undoes exactly.
std::string ActionText(const uint8_t* data, size_t size);
// A save file: loads or reports an error; a loaded save saves and reloads to
// the same state.
std::string SaveFile(const uint8_t* data, size_t size);
// The first byte picks one file of one ruleset folder (ruleset.yaml, map,
// units, a scenario...), the rest replaces it; the game loads or reports an
// error, and a loaded game plays random moves with its invariants holding.
std::string RulesetFile(const uint8_t* data, size_t size);
// The first byte picks a ruleset, the rest is a scenario file for it.
std::string ScenarioFile(const uint8_t* data, size_t size);

// `wargame serve`'s network input (net_target.cc; built with the examples):
// the first byte picks an HTTP request for the server's parser and router, or
// a message to WebGame::Handle on a game in progress.
std::string NetRequest(const uint8_t* data, size_t size);
void PrepareNet();

// The target named "game_spec", "action_text", "save", "ruleset", "scenario",
// "net" (when built with the examples: WG_FUZZ_NET), or nullptr.
using Target = std::string (*)(const uint8_t*, size_t);
Target FindTarget(const std::string& name);
// Builds what a target shares between inputs (the sandbox, the sessions), so
// that libFuzzer does not time the set-up against the first input.
void Prepare(const std::string& name);

}  // namespace wg::fuzz
