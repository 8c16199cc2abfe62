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
  // True for a player whose choice depends on nothing but how many actions are
  // listed (the uniform random player): a playout loop may then list cheaply
  // (Session::LegalActions(LegalActionList*)) and ask ChooseIndex, which must
  // pick what Choose would (the same draw from the same generator).
  virtual bool ChoosesByCount() const { return false; }
  // The index in [0, n) of the choice among n (> 0) listed actions; only called
  // when ChoosesByCount().
  virtual size_t ChooseIndex(size_t /*n*/) { return 0; }
};

class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(uint64_t seed) : rng_(SeedRng(seed)) {}
  std::string name() const override { return "random"; }
  Action Choose(const Game&, const State&, const std::vector<Action>& legal) override {
    return legal[ChooseIndex(legal.size())];
  }
  bool ChoosesByCount() const override { return true; }
  size_t ChooseIndex(size_t n) override { return UniformBelow(rng_, static_cast<uint32_t>(n)); }

 private:
  RngState rng_;
};

}  // namespace wg
