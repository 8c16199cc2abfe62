// Batch play for the Python module: many games on threads, results as arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wargame/game.h"

namespace wgpy {

struct SimulateOptions {
  int games = 1;
  uint64_t seed = 1;       // game i uses seed + i (dice and players)
  int threads = 0;         // 0: the hardware's threads
  std::string players[2] = {"random", "random"};  // random | ai
  long max_actions = 50000;
};

// One row per game.
struct SimulateResult {
  std::vector<int8_t> winner;     // side index, -1 draw or unfinished
  std::vector<uint8_t> finished;  // 1 if the game ended within max_actions
  std::vector<int32_t> actions;   // actions applied
  std::vector<int32_t> turns;     // the turn the game ended in
  std::vector<int32_t> vp;        // games x 2, victory points of each side
  std::vector<uint64_t> hash;     // HashState of the final state
};

// Plays every game; `players` must be "random" or "ai" (checked by the caller).
SimulateResult Simulate(const std::shared_ptr<const wg::Game>& game, const SimulateOptions& options);

}  // namespace wgpy
