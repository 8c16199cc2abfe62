#include "wargame/ai.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace wg {

namespace {

bool IsFollowup(DecisionType d) {
  return d == DecisionType::kLosses || d == DecisionType::kStandOrRetreat || d == DecisionType::kRetreat ||
         d == DecisionType::kAdvance;
}

}  // namespace

int UnitStrength(const Game& game, const State& s, UnitId u) {
  if (!s.unit(u).InPlay() && s.unit(u).hex != kNotYetEntered) return 0;
  int attr = 0;
  if (const AiBoardFeatures* f = game.rules->ai_features()) attr = std::max(0, f->AttackAttribute(game));
  if (attr >= static_cast<int>(game.attributes.size())) return 0;
  return game.Current(s, u, attr);
}

AiPlayer::AiPlayer(std::shared_ptr<const Game> game, uint64_t seed, AiOptions options)
    : game_(std::move(game)), options_(options), rng_(SeedRng(seed ^ 0xA15EEDULL)) {
  scratch_ = game_->rules->NewScratch();
  std::vector<std::string> kinds = {"objective"};
  board_ = game_->rules->ai_features();
  if (board_ != nullptr) {
    terms_ = board_->TermsOf(*game_);
    attack_attr_ = terms_.attack >= 0 ? terms_.attack : 0;
    defense_attr_ = terms_.defense;
    if (!terms_.control_kinds.empty()) kinds = terms_.control_kinds;
    mandatory_ = terms_.mandatory;
  }
  if (attack_attr_ >= static_cast<int>(game_->attributes.size())) attack_attr_ = -1;
  if (defense_attr_ == attack_attr_) defense_attr_ = -1;
  for (size_t p = 0; p < game_->places().size(); ++p) {
    if (std::find(kinds.begin(), kinds.end(), game_->places()[p].kind) != kinds.end()) {
      objective_places_.push_back(static_cast<int>(p));
    }
  }
  // The markers that reduce an attribute, once per `reduces` entry (Game::Reduction).
  auto reducers = [this](int attr) {
    std::vector<int> out;
    for (size_t m = 0; m < game_->markers.size(); ++m) {
      for (int a : game_->markers[m].reduces) {
        if (a == attr && attr >= 0) out.push_back(static_cast<int>(m));
      }
    }
    return out;
  };
  attack_reducers_ = reducers(attack_attr_);
  defense_reducers_ = reducers(defense_attr_);
  // Per position of an indexed board (none without the engine's features, as on a table).
  const int positions = board_ != nullptr ? game_->num_positions() : 0;
  occupied_bits_.assign((static_cast<size_t>(std::max(0, positions)) + 63) / 64, 0);
  reach_bits_.assign(2 * occupied_bits_.size(), 0);
  near_.assign(static_cast<size_t>(std::max(0, positions)), 0);
  const size_t cells = 2 * static_cast<size_t>(std::max(0, positions));
  att_.assign(cells, 0.0);
  def_.assign(cells, 0.0);
  val_.assign(cells, 0.0);
  count_.assign(cells, 0);
}

int AiPlayer::CurrentOf(const State& s, UnitId u, int attr, const std::vector<int>& reducers) const {
  // As Game::Current: the printed value of the face minus the reducing markers, not below 0.
  const UnitDef& d = game_->units[static_cast<size_t>(u)];
  const UnitState& us = s.unit(u);
  int r = 0;
  for (int m : reducers) r += us.markers[m];
  return std::max(0, (us.face == 1 && d.has_back ? d.back : d.front)[attr] - r);
}

namespace {

// Expected gain of an attack at attack/defense ratio r, as a fraction of the
// defender's value (r >= 2) or, negative, of the attackers' value (r < 1).
double GainAt(double r, double defender_value, double attacker_value, bool trapped) {
  // A defender with nowhere to retreat loses everything to a retreat result.
  const double extra = trapped && r >= 1.0 ? 0.3 * defender_value : 0.0;
  if (r >= 2.0) return extra + 0.15 * (std::min(r, 5.0) - 1.0) * defender_value;
  if (r >= 1.0) return extra;
  if (r < 1.0) return -0.4 * (1.0 - r) * attacker_value;
  return 0.0;
}

}  // namespace

void AiPlayer::ClearCells() const {
  const size_t nh = near_.size();
  for (int h : occupied_) {
    for (size_t c : {static_cast<size_t>(h), nh + static_cast<size_t>(h)}) {
      att_[c] = def_[c] = val_[c] = 0.0;
      count_[c] = 0;
    }
  }
  occupied_.clear();
}

void AiPlayer::NearestTargets(const State& s, int side) const {
  const Game& g = *game_;
  const size_t nh = near_.size();
  // The targets: the hexes of the other side's units, then the hexes of the
  // objectives the side does not hold (a min over them: the order is free).
  target_q_.clear();
  target_r_.clear();
  if (board_ == nullptr) return;  // no indexed board: no unit stands on a position
  auto add = [this, &g](int h) {
    int q = 0, r = 0;
    board_->Coordinates(g, h, &q, &r);
    target_q_.push_back(q);
    target_r_.push_back(r);
  };
  for (int h : occupied_) {
    if (count_[nh + static_cast<size_t>(h)] > 0) add(h);
  }
  for (int p : objective_places_) {
    if (p < kMaxPlaces && s.place_control[p] == side + 1) continue;
    for (int h : g.places()[static_cast<size_t>(p)].hexes) add(h);
  }
  // Once per hex of the side's units (a stack shares its distance).
  const int n = static_cast<int>(target_q_.size());
  const int* tq = target_q_.data();
  const int* tr = target_r_.data();
  for (int h : occupied_) {
    if (count_[static_cast<size_t>(h)] == 0) continue;
    near_[static_cast<size_t>(h)] = board_->NearestDistance(g, h, tq, tr, n, 1 << 20);
  }
}

// The evaluation touches only the hexes that hold units (occupied_, sorted) and
// their neighbours, never the whole map; every term is added to the score in
// the same order as a loop over every hex and every unit would add it, so the
// result is the same double to the last bit (the AI's choices do not change).
double AiPlayer::Evaluation(const State& s, int side) const {
  const Game& g = *game_;
  const int opp = 1 - side;
  double score = options_.vp_weight * (s.vp[side] - s.vp[opp]);
  if (s.game_over) {
    if (s.winner == side) score += 1000;
    if (s.winner == opp) score -= 1000;
  }
  score += g.rules->Evaluate(s, side);
  const bool crowded = TallyUnits(s, side, &score);
  // Over the stacking limit: when the excess is eliminated at the checkpoint,
  // each excess unit is lost (valued at the hex's average unit).
  if (crowded && board_ != nullptr && terms_.eliminate_over_stacking) {
    StackingTerm(s, side, &score);
  }
  // Places: control, and targets for the approach term.
  for (int p : objective_places_) {
    if (p >= kMaxPlaces) continue;
    if (s.place_control[p] == side + 1) score += options_.control_weight;
    if (s.place_control[p] == opp + 1) score -= options_.control_weight;
  }
  EngagementTerm(&score);
  // Approach: each of my units toward the nearest enemy or objective not held.
  NearestTargets(s, side);
  const int nh = static_cast<int>(near_.size());
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& us = s.units[static_cast<size_t>(i)];
    if (us.side != side || !us.OnMap() || us.hex >= nh) continue;
    const int best = near_[static_cast<size_t>(us.hex)];
    if (best < (1 << 20)) score -= options_.approach_weight * best;
  }
  return score;
}

bool AiPlayer::TallyUnits(const State& s, int side, double* score) const {
  const int nh = static_cast<int>(near_.size());
  const int limit = terms_.stacking_limit;
  ClearCells();
  std::fill(reach_bits_.begin(), reach_bits_.end(), 0);
  bool crowded = false;  // some hex holds more units of a side than the stacking limit
  auto at = [nh](int sd, int hex) { return static_cast<size_t>(sd * nh + hex); };
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.hex == kWithdrawn) continue;
    const double sign = us.side == side ? 1.0 : -1.0;
    if (us.hex == kEliminated) {
      *score -= sign * options_.eliminated_penalty;
      continue;
    }
    // Material: current attack + defense (1 when the game has neither), + 0.5.
    const int a = attack_attr_ >= 0 ? CurrentAttack(s, u) : 1;
    const int d = defense_attr_ >= 0 ? CurrentDefense(s, u) : a;
    double value = 0;
    if (attack_attr_ >= 0) value += a;
    if (defense_attr_ >= 0) value += d;
    if (attack_attr_ < 0 && defense_attr_ < 0) value = 1;
    value += 0.5;  // even a unit with no values is worth something
    *score += sign * options_.material_weight * value;
    if (!us.OnMap() || us.hex >= nh) continue;
    // Per hex and side: attack, defense and value of the units there.
    const int sd = us.side == side ? 0 : 1;
    occupied_bits_[static_cast<size_t>(us.hex) >> 6] |= uint64_t{1} << (us.hex & 63);
    att_[at(sd, us.hex)] += a;
    def_[at(sd, us.hex)] += d;
    val_[at(sd, us.hex)] += value;
    if (++count_[at(sd, us.hex)] > limit) crowded = true;
    // The hexes next to the side's units (its reach, for the engagement term).
    const int32_t* nb = terms_.adjacency + static_cast<size_t>(us.hex) * 6;
    uint64_t* reach = reach_bits_.data() + static_cast<size_t>(sd) * occupied_bits_.size();
    for (int k = 0; k < 6; ++k) {
      if (nb[k] >= 0) reach[static_cast<size_t>(nb[k]) >> 6] |= uint64_t{1} << (nb[k] & 63);
    }
  }
  // The occupied hexes in increasing order, from the bits (cleared for the next call).
  for (size_t w = 0; w < occupied_bits_.size(); ++w) {
    for (uint64_t bits = occupied_bits_[w]; bits != 0; bits &= bits - 1) {
      occupied_.push_back(static_cast<int>(w * 64) + std::countr_zero(bits));
    }
    occupied_bits_[w] = 0;
  }
  return crowded;
}

void AiPlayer::StackingTerm(const State& s, int side, double* score) const {
  const int nh = static_cast<int>(near_.size());
  const int limit = terms_.stacking_limit;
  for (int h : occupied_) {
    for (int sd = 0; sd < 2; ++sd) {
      const size_t c = static_cast<size_t>(sd * nh + h);
      const int n = count_[c];
      if (n <= limit) continue;
      const int real_side = sd == 0 ? side : 1 - side;
      const int excess = board_->StackingCountOf(*game_, s, h, real_side) - limit;
      if (excess <= 0) continue;
      const double loss = excess * (val_[c] / n + options_.eliminated_penalty);
      *score += (sd == 0 ? -1.0 : 1.0) * options_.stacking_weight * loss;
    }
  }
}

void AiPlayer::EngagementTerm(double* score) const {
  const int nh = static_cast<int>(near_.size());
  const size_t words = occupied_bits_.size();
  auto at = [nh](int sd, int hex) { return static_cast<size_t>(sd * nh + hex); };
  for (int h : occupied_) {
    for (int sd = 0; sd < 2; ++sd) {
      if (val_[at(sd, h)] <= 0) continue;
      // Engagement: the other side's units adjacent to this hex could attack it.
      double adj_att = 0, adj_val = 0;
      const int32_t* nb = terms_.adjacency + static_cast<size_t>(h) * 6;
      for (int d = 0; d < 6; ++d) {
        if (nb[d] < 0) continue;
        adj_att += att_[at(1 - sd, nb[d])];
        adj_val += val_[at(1 - sd, nb[d])];
      }
      if (adj_att <= 0) continue;
      const double r = adj_att / std::max(1.0, def_[at(sd, h)]);
      bool trapped = true;  // no neighbour free of the other side and its reach
      for (int d = 0; d < 6 && trapped; ++d) {
        trapped = !(nb[d] >= 0 && val_[at(1 - sd, nb[d])] <= 0 && !Reached(1 - sd, nb[d], words));
      }
      const double gain = GainAt(r, val_[at(sd, h)], adj_val, trapped);
      // sd == 0: my hex, the enemy's gain is my loss; a forced poor attack on
      // me (mandatory combat) is my gain only when combat is mandatory.
      if (sd == 1) {
        *score += options_.engagement_weight * gain;
      } else if (gain > 0 || mandatory_) {
        *score -= options_.engagement_weight * gain * (gain > 0 ? 1.0 : 0.5);
      }
    }
  }
}

void AiPlayer::PlayFollowups(State& s, DiceStream* dice) {
  const Game& g = *game_;
  for (int k = 0; k < options_.max_followups && !s.game_over && IsFollowup(s.decision); ++k) {
    Context ctx(g, dice, nullptr, scratch_.get());
    g.rules->LegalActions(s, ctx, &followups_);
    work_ += 1 + s.num_units / 8;
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

void AiPlayer::ResetDice(RngState* rng) {
  if (dice_.queued() > 0) dice_ = DiceStream(rng);
  dice_.set_rng(rng);
  dice_.ClearRecord();
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
  ++work_;
  int sides = 0;
  // The dice stream is reused (no allocation per evaluation): it holds no
  // supplied value between calls and its record is cleared each time.
  {
    ResetDice(&rng);
    Context ctx(g, &dice_, nullptr, scratch_.get());
    if (!g.rules->Apply(work, a, ctx).ok() || ctx.missing_die()) return kRefused;
    if (dice_.record().empty()) {
      PlayFollowups(work, &dice_);
      return Evaluation(work, side);
    }
    sides = dice_.record().front().sides;
  }
  if (sides < 2 || sides > 20) {
    PlayFollowups(work, &dice_);
    return Evaluation(work, side);
  }
  double total = 0;
  int n = 0;
  for (int v = 1; v <= sides; ++v) {
    ++work_;
    std::memcpy(static_cast<void*>(&work), &s, sizeof(State));
    RngState r2 = rng;
    ResetDice(&r2);
    dice_.Supply(v);
    Context ctx(g, &dice_, nullptr, scratch_.get());
    const bool ok = g.rules->Apply(work, a, ctx).ok() && !ctx.missing_die();
    if (!ok) {
      ResetDice(&r2);  // drops the value if it was not used
      continue;
    }
    PlayFollowups(work, &dice_);
    total += Evaluation(work, side);
    ++n;
  }
  return n ? total / n : kRefused;
}

int AiPlayer::Greedy(const State& state, const std::vector<Action>& legal, int cap, bool keep) {
  const int side = state.decision_side;
  order_.clear();
  cap = std::max(1, cap);
  if (static_cast<int>(legal.size()) <= cap) {
    for (size_t i = 0; i < legal.size(); ++i) order_.push_back(static_cast<int>(i));
  } else {
    // Every action that is not a move, then a sample of the moves.
    std::vector<int>& moves = moves_;
    moves.clear();
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
      const uint32_t j = static_cast<uint32_t>(k) +
                         UniformBelow(rng_, static_cast<uint32_t>(moves.size() - static_cast<size_t>(k)));
      std::swap(moves[static_cast<size_t>(k)], moves[j]);
      order_.push_back(moves[static_cast<size_t>(k)]);
    }
  }
  if (keep) scores_.clear();
  int best = order_.front();
  double best_score = -std::numeric_limits<double>::infinity();
  for (int i : order_) {
    const Action& a = legal[static_cast<size_t>(i)];
    if (a.type == ActionType::kConcede) continue;
    // A small bias toward ending a phase breaks ties with aimless moves.
    const double sc = Score(state, a, side) + (a.type == ActionType::kEndPhase ? 0.01 : 0.0);
    if (keep) scores_.emplace_back(sc, i);
    if (sc > best_score) {
      best_score = sc;
      best = i;
    }
  }
  return best;
}

double AiPlayer::Playout(State& s, int side, uint64_t seed, long until_work) {
  const Game& g = *game_;
  RngState rng = SeedRng(seed);
  for (int step = 0; step < options_.playout_steps && !s.game_over && work_ < until_work; ++step) {
    const bool mine = s.decision_side == side;
    if (!mine && !IsFollowup(s.decision)) break;
    Context lc(g, nullptr, nullptr, scratch_.get());
    g.rules->LegalActions(s, lc, &playout_legal_);
    work_ += s.num_units;
    if (playout_legal_.empty()) break;
    const std::vector<Action>& legal = playout_legal_;  // Greedy and Score never list into it
    const int pick = mine ? Greedy(s, legal, options_.playout_candidates, false) : 0;
    ResetDice(&rng);
    Context ctx(g, &dice_, nullptr, scratch_.get());
    State copy;
    std::memcpy(static_cast<void*>(&copy), &s, sizeof(State));
    if (!g.rules->Apply(copy, legal[static_cast<size_t>(pick)], ctx).ok()) break;
    std::memcpy(static_cast<void*>(&s), &copy, sizeof(State));
  }
  return Evaluation(s, side);
}

Action AiPlayer::Choose(const Game&, const State& state, const std::vector<Action>& legal) {
  if (legal.size() == 1) return legal[0];
  const int side = state.decision_side;
  work_ = 0;
  const int best = Greedy(state, legal, options_.max_candidates, true);
  const bool main_decision = state.decision == DecisionType::kMovement || state.decision == DecisionType::kCombat ||
                             state.decision == DecisionType::kBombard;
  if (options_.lookahead <= 0 || !main_decision || scores_.size() < 2) return legal[static_cast<size_t>(best)];
  // Look ahead from the best few actions that roll no dice (an attack's
  // expectation is already exact one ply deep).
  std::vector<std::pair<double, int>> top = scores_;
  std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  const uint64_t seed = NextU64(rng_);
  int pick = best;
  double pick_score = -std::numeric_limits<double>::infinity();
  int tried = 0;
  const long share = (options_.budget - work_) / std::max(1, options_.lookahead);
  if (share < 8) return legal[static_cast<size_t>(best)];
  for (const auto& [sc, i] : top) {
    if (tried >= options_.lookahead) break;
    if (sc == -std::numeric_limits<double>::infinity()) break;
    const Action& a = legal[static_cast<size_t>(i)];
    State work;
    std::memcpy(static_cast<void*>(&work), &state, sizeof(State));
    DiceStream dice;  // supplied-only and empty: an action that rolls is skipped
    Context ctx(*game_, &dice, nullptr, scratch_.get());
    if (!game_->rules->Apply(work, a, ctx).ok() || ctx.missing_die()) continue;
    ++tried;
    const double v = Playout(work, side, seed, work_ + share);
    if (v > pick_score) {
      pick_score = v;
      pick = i;
    }
  }
  // An attack whose expectation beats every playout is still taken.
  if (legal[static_cast<size_t>(best)].type != legal[static_cast<size_t>(pick)].type) {
    double best_one_ply = -std::numeric_limits<double>::infinity();
    for (const auto& [sc, i] : scores_) {
      if (i == best) best_one_ply = sc;
    }
    if (best_one_ply > pick_score) return legal[static_cast<size_t>(best)];
  }
  return legal[static_cast<size_t>(pick)];
}

}  // namespace wg
