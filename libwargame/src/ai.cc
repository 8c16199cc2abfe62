#include "wargame/ai.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "wargame/hex_rules.h"

namespace wg {

namespace {

const HexRules* AsHex(const Game& game) { return dynamic_cast<const HexRules*>(game.rules.get()); }

bool IsFollowup(DecisionType d) {
  return d == DecisionType::kLosses || d == DecisionType::kStandOrRetreat || d == DecisionType::kRetreat ||
         d == DecisionType::kAdvance;
}

}  // namespace

int UnitStrength(const Game& game, const State& s, UnitId u) {
  if (!s.unit(u).OnMap() && s.unit(u).hex != kNotYetEntered) return 0;
  int attr = 0;
  if (const HexRules* h = AsHex(game); h && h->data().attack >= 0) attr = h->data().attack;
  if (attr >= static_cast<int>(game.attributes.size())) return 0;
  return game.Current(s, u, attr);
}

AiPlayer::AiPlayer(std::shared_ptr<const Game> game, uint64_t seed, AiOptions options)
    : game_(std::move(game)), options_(options), rng_(SeedRng(seed ^ 0xA15EEDULL)) {
  scratch_ = game_->rules->NewScratch();
  std::vector<std::string> kinds = {"objective"};
  if (const HexRules* h = AsHex(*game_)) {
    attack_attr_ = h->data().attack >= 0 ? h->data().attack : 0;
    defense_attr_ = h->data().defense;
    if (!h->data().control_kinds.empty()) kinds = h->data().control_kinds;
  }
  if (attack_attr_ >= static_cast<int>(game_->attributes.size())) attack_attr_ = -1;
  if (defense_attr_ == attack_attr_) defense_attr_ = -1;
  for (size_t p = 0; p < game_->map.places.size(); ++p) {
    if (std::find(kinds.begin(), kinds.end(), game_->map.places[p].kind) != kinds.end()) {
      objective_places_.push_back(static_cast<int>(p));
    }
  }
  enemy_attack_.assign(static_cast<size_t>(std::max(0, game_->map.size())), 0);
  enemy_here_.assign(enemy_attack_.size(), 0);
}

double AiPlayer::Value(const State& s, UnitId u) const {
  double v = 0;
  if (attack_attr_ >= 0) v += game_->Current(s, u, attack_attr_);
  if (defense_attr_ >= 0) v += game_->Current(s, u, defense_attr_);
  if (attack_attr_ < 0 && defense_attr_ < 0) v = 1;
  return v + 0.5;  // even a unit with no values is worth something
}

double AiPlayer::Evaluation(const State& s, int side) const {
  const Game& g = *game_;
  const int opp = 1 - side;
  double score = options_.vp_weight * (s.vp[side] - s.vp[opp]);
  if (s.game_over) {
    if (s.winner == side) score += 1000;
    if (s.winner == opp) score -= 1000;
  }
  score += g.rules->Evaluate(s, side);

  const int nh = g.map.size();
  auto& enemy_attack = enemy_attack_;
  auto& enemy_here = enemy_here_;
  std::fill(enemy_attack.begin(), enemy_attack.end(), 0);
  std::fill(enemy_here.begin(), enemy_here.end(), 0);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.hex == kWithdrawn) continue;
    const double sign = us.side == side ? 1.0 : -1.0;
    if (us.hex == kEliminated) {
      score -= sign * options_.eliminated_penalty;
      continue;
    }
    score += sign * options_.material_weight * Value(s, u);
    if (us.OnMap() && us.side != side && us.hex < nh) {
      enemy_here[static_cast<size_t>(us.hex)] = 1;
      const int a = attack_attr_ >= 0 ? g.Current(s, u, attack_attr_) : 1;
      const int32_t* nb = g.map.grid.Neighbors(us.hex);
      for (int d = 0; d < 6; ++d) {
        if (nb[d] >= 0) enemy_attack[static_cast<size_t>(nb[d])] = static_cast<int16_t>(enemy_attack[static_cast<size_t>(nb[d])] + a);
      }
    }
  }
  // Places: control, and targets for the approach term.
  for (int p : objective_places_) {
    if (p >= kMaxPlaces) continue;
    if (s.place_control[p] == side + 1) score += options_.control_weight;
    if (s.place_control[p] == opp + 1) score -= options_.control_weight;
  }
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap() || us.hex >= nh) continue;
    // Approach: nearest enemy unit or objective hex not held.
    int best = 1 << 20;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitState& e = s.units[static_cast<size_t>(j)];
      if (e.side == side || !e.OnMap() || e.hex >= nh) continue;
      best = std::min(best, g.map.grid.DistanceIdx(us.hex, e.hex));
    }
    for (int p : objective_places_) {
      if (p < kMaxPlaces && s.place_control[p] == side + 1) continue;
      for (int h : g.map.places[static_cast<size_t>(p)].hexes) best = std::min(best, g.map.grid.DistanceIdx(us.hex, h));
    }
    if (best < (1 << 20)) score -= options_.approach_weight * best;
    // Threat: enemies around could attack it at 3-1 or better.
    const int ea = enemy_attack[static_cast<size_t>(us.hex)];
    if (ea > 0) {
      const int def = defense_attr_ >= 0 ? g.Current(s, u, defense_attr_)
                                         : (attack_attr_ >= 0 ? g.Current(s, u, attack_attr_) : 1);
      if (ea >= 3 * std::max(1, def)) score -= options_.threat_weight * Value(s, u);
    }
  }
  return score;
}

void AiPlayer::PlayFollowups(State& s, DiceStream* dice) {
  const Game& g = *game_;
  for (int k = 0; k < options_.max_followups && !s.game_over && IsFollowup(s.decision); ++k) {
    Context ctx(g, dice, nullptr, scratch_.get());
    g.rules->LegalActions(s, ctx, &followups_);
    if (followups_.empty()) return;
    // The first listed option that applies.
    bool applied = false;
    for (const Action& a : followups_) {
      State copy;
      std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
      Context c2(g, dice, nullptr, scratch_.get());
      if (g.rules->Apply(copy, a, c2).ok()) {
        std::memcpy(static_cast<void*>(&s), &copy, sizeof(State));
        applied = true;
        break;
      }
    }
    if (!applied) return;
  }
}

double AiPlayer::Score(const State& s, const Action& a, int side) {
  const Game& g = *game_;
  constexpr double kRefused = -std::numeric_limits<double>::infinity();
  State work;
  // First pass: dice from a seeded stream; if a die was rolled, score the
  // exact expectation over its faces instead.
  RngState rng = rng_;
  NextU64(rng_);
  std::memcpy(static_cast<void*>(&work), &s, sizeof(State));
  int sides = 0;
  {
    DiceStream dice(&rng);
    Context ctx(g, &dice, nullptr, scratch_.get());
    if (!g.rules->Apply(work, a, ctx).ok() || ctx.missing_die()) return kRefused;
    if (dice.record().empty()) {
      PlayFollowups(work, &dice);
      return Evaluation(work, side);
    }
    sides = dice.record().front().sides;
  }
  if (sides < 2 || sides > 20) {
    State w2;
    std::memcpy(static_cast<void*>(&w2), &work, sizeof(State));
    DiceStream dice(&rng);
    PlayFollowups(w2, &dice);
    return Evaluation(w2, side);
  }
  double total = 0;
  int n = 0;
  for (int v = 1; v <= sides; ++v) {
    std::memcpy(static_cast<void*>(&work), &s, sizeof(State));
    RngState r2 = rng;
    DiceStream dice(&r2);
    dice.Supply(v);
    Context ctx(g, &dice, nullptr, scratch_.get());
    if (!g.rules->Apply(work, a, ctx).ok() || ctx.missing_die()) continue;
    PlayFollowups(work, &dice);
    total += Evaluation(work, side);
    ++n;
  }
  return n ? total / n : kRefused;
}

Action AiPlayer::Choose(const Game&, const State& state, const std::vector<Action>& legal) {
  if (legal.size() == 1) return legal[0];
  const int side = state.decision_side;
  order_.clear();
  const int cap = std::max(1, options_.max_candidates);
  if (static_cast<int>(legal.size()) <= cap) {
    for (size_t i = 0; i < legal.size(); ++i) order_.push_back(static_cast<int>(i));
  } else {
    // Every non-move action, then a sample of the moves.
    std::vector<int> moves;
    for (size_t i = 0; i < legal.size(); ++i) {
      const ActionType t = legal[i].type;
      if (t == ActionType::kMove || t == ActionType::kEnter) {
        moves.push_back(static_cast<int>(i));
      } else {
        order_.push_back(static_cast<int>(i));
      }
    }
    const int room = std::max(0, cap - static_cast<int>(order_.size()));
    for (int k = 0; k < room && k < static_cast<int>(moves.size()); ++k) {
      const uint32_t j = k + UniformBelow(rng_, static_cast<uint32_t>(moves.size() - static_cast<size_t>(k)));
      std::swap(moves[static_cast<size_t>(k)], moves[j]);
      order_.push_back(moves[static_cast<size_t>(k)]);
    }
  }
  int best = order_.front();
  double best_score = -std::numeric_limits<double>::infinity();
  for (int i : order_) {
    const Action& a = legal[static_cast<size_t>(i)];
    if (a.type == ActionType::kConcede) continue;
    // A small bias toward ending a phase breaks ties with aimless moves.
    const double sc = Score(state, a, side) + (a.type == ActionType::kEndPhase ? 0.01 : 0.0);
    if (sc > best_score) {
      best_score = sc;
      best = i;
    }
  }
  return legal[static_cast<size_t>(best)];
}

}  // namespace wg
