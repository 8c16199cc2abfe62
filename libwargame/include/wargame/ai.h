// AiPlayer: a generic heuristic computer opponent for any ruleset.
//
// One-ply greedy search: for each legal action (sampled down to a cap when
// there are many), it copies the State (a memcpy), applies the action through
// the ruleset with a Context that has no event sink, plays the forced
// follow-ups of a combat (losses, retreats, advance) with the first listed
// option, and scores the result from the deciding side's point of view. An
// action that rolls dice is scored by its exact expectation over the first
// die (every face supplied in turn; later dice come from a seeded stream).
//
// The evaluation (Evaluation()) weighs: the victory-point difference, the
// material of both sides (current attack + defense values, so losses and
// disruption count; eliminated units count nothing and a little extra),
// control of the tracked places (objectives), the distance of the side's
// units to the nearest enemy or uncontrolled objective (move toward the
// fight), and engagements: for every hex adjacent to the other side's units,
// the expected gain of attacking it at the odds those units would get (good
// odds 2-1 and better gain a share of the defender's value; odds below 1-1
// cost a share of the attackers' value when combat is mandatory). A ruleset may add its own knowledge
// through Rules::Evaluate(state, side). Attacks at poor odds lose material in
// expectation and are avoided unless mandatory; attacks at good odds gain.
//
// Deterministic: the same seed and the same positions give the same choices.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wargame/dice.h"
#include "wargame/game.h"
#include "wargame/players.h"

namespace wg {

// What the computer player's generic evaluation asks of the board engine a game is
// played on (Rules::ai_features; the hex engine's: hex/ai_features.cc): the terms
// its data sets, and the board's geometry in the evaluation's own terms. A game
// whose engine has none (a tabletop) is evaluated without board terms.
class AiBoardFeatures {
 public:
  virtual ~AiBoardFeatures() = default;
  struct Terms {
    int attack = -1, defense = -1;  // the combat attributes, -1: none given
    std::vector<std::string> control_kinds;  // the kinds of place whose control counts; empty: "objective"
    bool mandatory = false;                  // combat is mandatory
    bool eliminate_over_stacking = false;    // units over the stacking limit are eliminated at the checkpoint
    int stacking_limit = 2;                  // units that count, per position
    // The board's adjacency: six entries per position (-1: off the board), or empty.
    const int32_t* adjacency = nullptr;
  };
  virtual Terms TermsOf(const Game& game) const = 0;
  // The attack attribute (UnitStrength), -1: none given.
  virtual int AttackAttribute(const Game& game) const = 0;
  // A position's coordinates, for NearestDistance.
  virtual void Coordinates(const Game& game, int position, int* q, int* r) const = 0;
  // The least distance from `position` to the positions at coordinates (q[k], r[k]),
  // k < n; `none` when n is 0.
  virtual int NearestDistance(const Game& game, int position, const int* q, const int* r, int n, int none) const = 0;
  // The units of `side` that count for stacking in `position`, as the rules count them.
  virtual int StackingCountOf(const Game& game, const State& s, int position, int side) const = 0;
};

struct AiOptions {
  int max_candidates = 160;  // actions evaluated per decision (moves are sampled beyond this)
  int max_followups = 16;    // forced follow-up decisions played out after an action
  double vp_weight = 8.0;
  double material_weight = 1.0;
  double eliminated_penalty = 4.0;  // per unit eliminated, on top of its lost material
  double control_weight = 1.0;
  double approach_weight = 0.15;    // per hex of distance to the nearest enemy/objective
  double engagement_weight = 1.0;   // adjacent enemies: expected gain/loss of attacks by odds
  double stacking_weight = 1.0;     // units over the stacking limit (eliminated at the checkpoint)
  // Lookahead: the best `lookahead` actions by one-ply score (those that roll
  // no dice) are each followed by a greedy playout of the rest of the side's
  // turn (candidates capped at `playout_candidates`, at most `playout_steps`
  // decisions), and the one whose playout ends best is chosen. 0 disables it.
  int lookahead = 4;
  int playout_candidates = 24;
  int playout_steps = 24;
  // Work cap per decision, in rule applications (listing the legal actions
  // counts one per unit in the game): the playouts share what the one-ply
  // scoring leaves. Bounds the time per decision on big maps.
  int budget = 2000;
};

// The combat strength of a unit now: its current attack value (0 when not in
// play). The board engine's attack attribute (AiBoardFeatures: a hex game's
// `combat: attack:`), else attribute 0.
int UnitStrength(const Game& game, const State& s, UnitId u);

class AiPlayer : public Player {
 public:
  AiPlayer(std::shared_ptr<const Game> game, uint64_t seed, AiOptions options = {});
  std::string name() const override { return "ai"; }
  Action Choose(const Game& game, const State& state, const std::vector<Action>& legal) override;

  // The static evaluation of a state for `side` (higher is better).
  double Evaluation(const State& s, int side) const;
  // The score of one action (expected evaluation after it); -inf if refused.
  double Score(const State& s, const Action& a, int side);

 private:
  // Game::Current(s, u, attr) of the attack (defense) attribute, from the
  // markers that reduce it (listed once, in the constructor).
  int CurrentAttack(const State& s, UnitId u) const { return CurrentOf(s, u, attack_attr_, attack_reducers_); }
  int CurrentDefense(const State& s, UnitId u) const { return CurrentOf(s, u, defense_attr_, defense_reducers_); }
  int CurrentOf(const State& s, UnitId u, int attr, const std::vector<int>& reducers) const;
  // Zeroes the per-hex cells the last Evaluation wrote (not the whole map).
  void ClearCells() const;
  // The approach term's distance per hex of occupied_ holding the side's units:
  // to the nearest enemy unit or objective hex not held, in near_.
  void NearestTargets(const State& s, int side) const;
  // Evaluation's terms, each added to *score in a fixed order: the units'
  // material (and the per-hex cells: returns whether a hex is over the stacking
  // limit), the excess over it, the engagements of adjacent hexes.
  bool TallyUnits(const State& s, int side, double* score) const;
  void StackingTerm(const State& s, int side, double* score) const;
  void EngagementTerm(double* score) const;
  // Some unit of relative side sd (0: the evaluating side) is next to `hex`.
  bool Reached(int sd, int hex, size_t words) const {
    return (reach_bits_[static_cast<size_t>(sd) * words + (static_cast<size_t>(hex) >> 6)] >> (hex & 63)) & 1;
  }
  void PlayFollowups(State& s, DiceStream* dice);
  // Points dice_ at rng with an empty queue and record.
  void ResetDice(RngState* rng);
  // The index into `legal` of the best action by one-ply score, at most `cap`
  // candidates; fills scores_ (score per considered index) when `keep`.
  int Greedy(const State& s, const std::vector<Action>& legal, int cap, bool keep);
  // Plays the rest of `side`'s turn greedily from s; returns the evaluation.
  // Stops when work_ reaches until_work.
  double Playout(State& s, int side, uint64_t seed, long until_work);

  std::shared_ptr<const Game> game_;
  AiOptions options_;
  RngState rng_;
  std::unique_ptr<Scratch> scratch_;
  int attack_attr_ = 0, defense_attr_ = -1;
  std::vector<int> objective_places_;  // indices into the board's places
  std::vector<Action> followups_;      // reused buffer
  std::vector<int> order_;             // reused buffer
  std::vector<int> moves_;             // reused buffer
  DiceStream dice_;                    // reused dice for evaluations
  std::vector<std::pair<double, int>> scores_;  // (score, index) of the last Greedy
  std::vector<Action> playout_legal_;  // reused buffer
  long work_ = 0;                      // rule applications this decision
  bool mandatory_ = false;             // combat is mandatory (the board engine's data)
  // Per (side relative to the evaluating one, hex): attack, defense, value (reused).
  mutable std::vector<double> att_, def_, val_;
  mutable std::vector<int> count_;     // units per (relative side, hex)
  mutable std::vector<int> occupied_;  // hexes holding units in the last Evaluation (sorted)
  mutable std::vector<uint64_t> occupied_bits_;  // one bit per hex, set while tallying
  mutable std::vector<uint64_t> reach_bits_;     // per relative side, the hexes next to its units
  mutable std::vector<int> near_;      // per hex: NearestTargets' distance
  mutable std::vector<int> target_q_, target_r_;  // NearestTargets' enemy and objective hexes
  std::vector<int> attack_reducers_, defense_reducers_;  // marker indices, one per `reduces` entry
  // The board engine's features (nullptr on a tabletop) and what they say of this game.
  const AiBoardFeatures* board_ = nullptr;
  AiBoardFeatures::Terms terms_;
};

}  // namespace wg
