// Players: what chooses an action when the engine asks a side for a decision.
// RandomPlayer picks uniformly among the listed legal actions (the
// conformance harness and `wargame simulate --players random` use it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "wargame/dice.h"
#include "wargame/game.h"

namespace wg {

class Session;

class Player {
 public:
  virtual ~Player() = default;
  virtual std::string name() const = 0;
  // Chooses one of `legal` (non-empty) for the state's deciding side.
  virtual Action Choose(const Game& game, const State& state, const std::vector<Action>& legal) = 0;
};

class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(SeedRng(seed)) {}
  std::string name() const override { return "random"; }
  Action Choose(const Game&, const State&, const std::vector<Action>& legal) override {
    return legal[UniformBelow(rng_, static_cast<uint32_t>(legal.size()))];
  }

 private:
  RngState rng_;
};

}  // namespace wg
