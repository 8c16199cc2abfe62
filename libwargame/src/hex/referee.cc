// The referee and the analysis check of the hex engine (declared in hex_rules.h):
// moved out of the core's conformance harness (conformance.cc), which knows no board.
#include <cstdlib>
#include <cstring>
#include <map>

#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/conformance.h"
#include "wargame/hex_rules.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "wargame/session.h"

namespace wg {

// --- The referee -------------------------------------------------------------------
//
// Everything below reads the State, the map and the ruleset's data only: no
// Rules query, so a bug in the enforcing code cannot hide itself.

namespace {

struct Referee {
  const Game& g;
  const HexGameData& d;
  const RefereeHooks& h;
  ErrorList* out;
  std::string where;

  int Attack(const State& s, UnitId u) const { return h.attack ? h.attack(g, s, u) : g.Current(s, u, d.attack); }
  int Defense(const State& s, UnitId u) const { return h.defense ? h.defense(g, s, u) : g.Current(s, u, d.defense); }
  ZocKind Zoc(const State& s, UnitId u) const {
    if (h.zoc) return h.zoc(g, s, u);
    return Defense(s, u) > 0 ? ZocKind::kSix : ZocKind::kNone;
  }
  bool MayAttack(const State& s, UnitId u) const {
    if (h.may_attack) return h.may_attack(g, s, u);
    return !s.unit(u).Has(kUnitAttacked) && Attack(s, u) > 0;
  }
  bool Counts(const State& s, UnitId u) const {
    if (h.counts_for_stacking) return h.counts_for_stacking(g, s, u);
    return g.kinds[static_cast<size_t>(g.units[static_cast<size_t>(u)].kind)].counts_for_stacking;
  }
  void Fail(const std::string& what) const { out->Add(Error{"", 0, 0, where, what, "referee"}); }

  // Does unit `from`'s ZOC reach the adjacent hex `to` (6.1: not across blocking hexsides)?
  bool ZocReaches(const State& s, UnitId from, int to) const {
    const int hex = s.unit(from).hex;
    const ZocKind k = Zoc(s, from);
    if (k == ZocKind::kNone) return false;
    if (hex == to) return true;
    if (k != ZocKind::kSix) return false;
    for (int dir = 0; dir < 6; ++dir) {
      if (g.hex_board().map.grid.NeighborIndex(hex, dir) != to) continue;
      const FeatureMask side = g.hex_board().map.Side(hex, dir);
      if ((side & d.zoc.blocked_by) && !(side & d.zoc.unblocked_by)) return false;
      return !(g.hex_board().map.terrain[static_cast<size_t>(to)] & d.zoc.not_into);
    }
    return false;
  }
  bool Adjacent(int a, int b) const { return g.hex_board().map.grid.DistanceIdx(a, b) == 1; }
  bool Reaches(const State& s, UnitId u, int hex) const {
    return h.reaches ? h.reaches(g, s, u, hex) : Adjacent(s.unit(u).hex, hex);
  }
  // A hex holding units of `side`, none of them attacked this phase.
  bool Attackable(const State& s, int hex, int side) const {
    bool any = false;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& e = s.units[static_cast<size_t>(i)];
      if (e.hex != hex || e.side != side) continue;
      if (e.Has(kUnitDefended)) return false;
      any = true;
    }
    return any;
  }

  // 7.1 / 8.0: u (phasing) is in an enemy ZOC and has not attacked; `possible`: an
  // enemy hex it reaches can still be attacked.
  bool OwesAttack(const State& s, UnitId u, bool* possible) const {
    const UnitState& us = s.unit(u);
    *possible = false;
    if (!us.OnMap() || us.side != s.phasing_side || !MayAttack(s, u)) return false;
    bool in_ezoc = false;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitState& e = s.units[static_cast<size_t>(j)];
      if (!e.OnMap() || e.side == us.side) continue;
      in_ezoc = in_ezoc || (Adjacent(e.hex, us.hex) && ZocReaches(s, static_cast<UnitId>(j), us.hex));
      *possible = *possible || (Reaches(s, u, e.hex) && Attackable(s, e.hex, e.side));
    }
    return in_ezoc;
  }
  // e (non-phasing) is in a friendly ZOC and was not attacked; `possible`: its hex
  // can be attacked and a phasing unit that reaches it may still attack.
  bool OwedAttack(const State& s, UnitId e, bool* possible) const {
    const UnitState& es = s.unit(e);
    *possible = false;
    if (!es.OnMap() || es.side == s.phasing_side || es.Has(kUnitDefended)) return false;
    bool controlled = false, attacker = false;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitId f = static_cast<UnitId>(i);
      const UnitState& fs = s.unit(f);
      if (!fs.OnMap() || fs.side != s.phasing_side) continue;
      if (Adjacent(fs.hex, es.hex)) {
        controlled = controlled || ((!h.obliges || h.obliges(g, s, f)) && ZocReaches(s, f, es.hex));
      }
      attacker = attacker || (Reaches(s, f, es.hex) && MayAttack(s, f));
    }
    *possible = attacker && Attackable(s, es.hex, es.side);
    return controlled;
  }

  // At the end of the combat phase: no obligation that could still be met.
  void CombatOwed(const State& s) const {
    for (int i = 0; i < s.num_units; ++i) {
      const UnitId u = static_cast<UnitId>(i);
      bool possible = false;
      if (OwesAttack(s, u, &possible) && possible) {
        Fail(g.UnitLabel(u) + " was in an enemy zone of control and did not attack, though it could");
      }
      if (OwedAttack(s, u, &possible) && possible) {
        Fail(g.UnitLabel(u) + " in " + g.HexLabel(s.unit(u).hex) +
             " was in a friendly zone of control and was not attacked, though it could be");
      }
    }
  }

  // Is u adjacent to every hex the declaration attacks? (It could have joined, were the
  // attack not already as large as one action holds.)
  bool AdjacentToAllDefended(const State& before, const State& after, UnitId u) const {
    for (int i = 0; i < before.num_units; ++i) {
      const UnitState& e = before.units[static_cast<size_t>(i)];
      if (e.OnMap() && after.units[static_cast<size_t>(i)].Has(kUnitDefended) && !e.Has(kUnitDefended) &&
          !Adjacent(e.hex, before.unit(u).hex)) {
        return false;
      }
    }
    return true;
  }

  // A declaration (the units and hexes `after` marks attacked, from `before`): every
  // obligation that could be met before is met by it or can still be met.
  void Declaration(const State& before, const State& after) const {
    State view;
    std::memcpy(static_cast<void*>(&view), &before, sizeof(State));
    int attackers = 0;
    for (int i = 0; i < before.num_units; ++i) {
      const uint16_t marks = after.units[static_cast<size_t>(i)].flags & (kUnitAttacked | kUnitDefended);
      if ((marks & kUnitAttacked) && !before.units[static_cast<size_t>(i)].Has(kUnitAttacked)) ++attackers;
      view.units[static_cast<size_t>(i)].flags |= marks;
    }
    for (int i = 0; i < before.num_units; ++i) {
      const UnitId u = static_cast<UnitId>(i);
      bool was = false, now = false;
      if (OwesAttack(before, u, &was) && was && OwesAttack(view, u, &now) && !now &&
          !(attackers >= kMaxActionUnits && AdjacentToAllDefended(before, after, u))) {
        Fail("an attack left " + g.UnitLabel(u) + ", in an enemy zone of control, no attack it could still make");
      }
      if (OwedAttack(before, u, &was) && was && OwedAttack(view, u, &now) && !now) {
        Fail("an attack left " + g.UnitLabel(u) + ", in a friendly zone of control, with no unit able to attack it");
      }
    }
  }

  void Stacking(const State& s) const {
    std::vector<int> count(static_cast<size_t>(2 * g.hex_board().map.size()), 0);
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (!u.OnMap() || u.hex >= g.hex_board().map.size() || u.side > 1 || !Counts(s, static_cast<UnitId>(i))) continue;
      if (++count[static_cast<size_t>(u.side * g.hex_board().map.size() + u.hex)] == g.hex_board().stacking.limit + 1) {
        Fail("over the stacking limit in " + g.HexLabel(u.hex) + " at the end of the phase");
      }
    }
  }

  void Places(const State& s) const {
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      for (int j = i + 1; j < s.num_units && u.OnMap(); ++j) {
        if (s.units[static_cast<size_t>(j)].hex == u.hex && s.units[static_cast<size_t>(j)].side != u.side) {
          Fail("units of both sides in " + g.HexLabel(u.hex));
        }
      }
    }
  }
};

}  // namespace

void RefereePhaseEnd(const Game& game, const RefereeHooks& hooks, const State& last, const State& next,
                     ErrorList* out) {
  const HexQueries* rules = game.rules->hex();
  if (rules == nullptr) return;  // a tabletop game: no hex phases to referee
  const HexGameData& d = rules->hex_data();
  Referee r{game, d, hooks, out,
            "turn " + std::to_string(last.turn) + " " + game.sides[last.phasing_side].name + " " +
                game.turns.phases[last.phase]};
  const bool combat = last.phase == d.phase_combat, movement = last.phase == d.phase_movement;
  if (combat && d.mandatory) r.CombatOwed(last);
  const DecisionType k = last.decision;
  if (!next.game_over && (k == DecisionType::kLosses || k == DecisionType::kStandOrRetreat ||
                          k == DecisionType::kRetreat || k == DecisionType::kAdvance)) {
    r.Fail("the phase ended in the middle of a combat (" + game.rules->DescribeDecision(last) + ")");
  }
  if ((combat || movement) && !next.game_over) r.Stacking(next);
  r.Places(next);
  if (hooks.extra) hooks.extra(game, last, next, out);
}

void RefereeDeclaration(const Game& game, const RefereeHooks& hooks, const State& before, const State& after,
                        ErrorList* out) {
  const HexQueries* rules = game.rules->hex();
  if (rules == nullptr || !rules->hex_data().mandatory || before.phase != rules->hex_data().phase_combat) return;
  Referee r{game, rules->hex_data(), hooks, out,
            "turn " + std::to_string(before.turn) + " " + game.sides[before.phasing_side].name + " combat"};
  r.Declaration(before, after);
}

namespace {

// Did an action of the combat phase declare an attack (new units marked attacked)?
bool Declared(const State& before, const State& after) {
  if (before.phase != after.phase || before.turn != after.turn || before.player_turn != after.player_turn) return false;
  for (int i = 0; i < before.num_units; ++i) {
    if (after.units[static_cast<size_t>(i)].Has(kUnitAttacked) && !before.units[static_cast<size_t>(i)].Has(kUnitAttacked)) {
      return true;
    }
  }
  return false;
}

std::unique_ptr<Player> MakeRefereePlayer(const std::string& kind, const std::shared_ptr<const Game>& game,
                                          uint64_t seed) {
  if (kind == "ai") return std::make_unique<AiPlayer>(game, seed);
  return std::make_unique<RandomPlayer>(seed);
}

bool PhaseChanged(const State& a, const State& b) {
  return a.turn != b.turn || a.player_turn != b.player_turn || a.phase != b.phase || a.game_over != b.game_over;
}

}  // namespace

RefereeReport RunReferee(const std::string& spec, const RefereeOptions& opt) {
  RefereeReport report;
  auto game = LoadGame(spec);
  if (!game.ok()) {
    report.violations.Append(game.errors());
    return report;
  }
  const std::string players = opt.players;
  const size_t comma = players.find(',');
  const std::string kinds[2] = {players.substr(0, comma), comma == std::string::npos ? players : players.substr(comma + 1)};
  for (int g = 0; g < opt.games && report.violations.size() < 20; ++g) {
    const uint64_t seed = opt.seed + static_cast<uint64_t>(g);
    Session s(*game, seed);
    std::unique_ptr<Player> player[2] = {MakeRefereePlayer(kinds[0], *game, seed * 7919 + 1),
                                         MakeRefereePlayer(kinds[1], *game, seed * 7919 + 2)};
    State last;
    long n = 0;
    const auto where = [&] { return "game " + std::to_string(g) + " (seed " + std::to_string(seed) + ") action " + std::to_string(n); };
    while (!s.over() && n < opt.max_actions) {
      const std::vector<Action> legal = s.LegalActions();
      if (legal.empty()) {
        report.violations.Add(Error{"", 0, 0, where(), "stuck: no legal action but the game is not over (" + s.DescribeDecision() + ")", "referee"});
        break;
      }
      std::memcpy(static_cast<void*>(&last), &s.state(), sizeof(State));
      const Action a = player[s.state().decision_side & 1]->Choose(s.game(), s.state(), legal);
      const Status st = s.Apply(a);
      ++n;
      if (!st.ok()) {
        report.violations.Add(Error{"", 0, 0, where(), "a listed legal action was refused: " + st.ToString(), "referee"});
        break;
      }
      ErrorList v;
      if (Declared(last, s.state())) RefereeDeclaration(s.game(), opt.hooks, last, s.state(), &v);
      if (PhaseChanged(last, s.state())) {
        RefereePhaseEnd(s.game(), opt.hooks, last, s.state(), &v);
        ++report.phases_checked;
      }
      for (const Error& e : v.errors()) {
        report.violations.Add(Error{"", 0, 0, where() + ", " + e.path, e.message, "referee"});
      }
    }
    report.actions += n;
    if (s.over()) {
      ++report.games_finished;
    } else if (n >= opt.max_actions) {
      report.violations.Add(Error{"", 0, 0, where(), "the game did not end within " + std::to_string(opt.max_actions) + " actions", "referee"});
    }
  }
  return report;
}

ErrorList RefereeShard(const std::string& spec, const RefereeHooks& hooks, const std::string& players, int games,
                       uint64_t seed, long min_phases_per_game) {
  RefereeOptions opt;
  opt.games = ScaledGameCount(games);
  opt.seed = seed;
  opt.players = players;
  opt.hooks = hooks;
  const RefereeReport r = RunReferee(spec, opt);
  ErrorList out = r.violations;
  if (r.games_finished != opt.games) {
    out.Add(Error{"", 0, 0, "", std::to_string(r.games_finished) + " of " + std::to_string(opt.games) + " games finished", "referee"});
  }
  if (r.phases_checked <= min_phases_per_game * opt.games) {
    out.Add(Error{"", 0, 0, "", "only " + std::to_string(r.phases_checked) + " phases checked in " +
                                    std::to_string(opt.games) + " games", "referee"});
  }
  return out;
}

namespace {

struct CombatEvents : EventSink {
  const Event* attack = nullptr;
  Event attack_event, result_event;
  bool has_attack = false, has_result = false;
  std::vector<UnitId> eliminated;
  void OnEvent(const Event& e) override {
    if (e.type == EventType::kAttack && !has_attack) {
      attack_event = e;
      has_attack = true;
    } else if (e.type == EventType::kCombatResult && !has_result) {
      result_event = e;
      has_result = true;
    } else if (e.type == EventType::kEliminated) {
      eliminated.push_back(e.unit);
    }
  }
};

// One attack: the analysis against the applied result of every die face.
void CheckOneAttack(const HexQueries& rules, Session& s, const Action& a, AnalysisCheckReport* r) {
  const Game& g = s.game();
  const CombatTable& crt = rules.hex_data().crt;
  Context ctx(g, nullptr, nullptr, &s.scratch());
  const AttackAnalysis an = rules.AnalyzeAttack(s.state(), ctx, a);
  const std::string what = "turn " + std::to_string(s.state().turn) + " " + ActionToText(g, a) + ": ";
  auto fail = [&](const std::string& m) { r->mismatches.Add(Error{"", 0, 0, "", what + m, "analysis"}); };
  if (!an.status.ok()) return fail("a listed attack is refused by the analysis: " + an.status.ToString());
  if (crt.die.count != 1) return;
  ++r->attacks;
  std::map<std::string, uint64_t> applied, expected;
  const int sides = crt.die.sides;
  for (int v = 1; v <= sides; ++v) {
    State copy;
    std::memcpy(static_cast<void*>(&copy), &s.state(), sizeof(State));
    DiceStream dice;
    dice.Supply(v);
    CombatEvents ev;
    Context c2(g, &dice, &ev, &s.scratch());
    const Status st = g.rules->Apply(copy, a, c2);
    if (!st.ok() || c2.missing_die()) return fail("applying it with die " + std::to_string(v) + " failed: " + st.ToString());
    ++r->faces;
    const bool rolled = !dice.record().empty();
    if (!an.automatic.empty()) {
      ++r->automatic;
      if (rolled || ev.has_result) fail("the analysis says \"" + an.automatic + "\" but play rolled the die");
      for (int i = 0; i < an.plan.num_defenders; ++i) {
        if (copy.unit(an.plan.defenders[i]).OnMap()) fail("the analysis says \"" + an.automatic + "\" but a defender survived");
      }
      return;
    }
    if (!ev.has_result) {
      if (rolled) return fail("play rolled the die and gave no result");
      ++r->deferred;
      return;
    }
    if (!ev.has_attack || ev.attack_event.a != an.plan.attack || ev.attack_event.b != an.plan.modified_defense ||
        std::string(ev.attack_event.text ? ev.attack_event.text : "") != rules.ColumnLabel(an.plan.column)) {
      return fail("play's attack (" + std::to_string(ev.attack_event.a) + " against " + std::to_string(ev.attack_event.b) +
                  ", " + (ev.attack_event.text ? ev.attack_event.text : "") + ") is not the analysis' (" +
                  std::to_string(an.plan.attack) + " against " + std::to_string(an.plan.modified_defense) + ", " +
                  rules.ColumnLabel(an.plan.column) + ")");
    }
    const std::string result = ev.result_event.text ? ev.result_event.text : "";
    if (!rolled) {  // no die for this column (below the lowest): the same for every face
      applied[result] += static_cast<uint64_t>(sides);
      break;
    }
    applied[result] += 1;
  }
  for (const CrtOutcome& o : an.outcomes) {
    if (o.result != nullptr) expected[o.result->text] += o.numerator * static_cast<uint64_t>(sides) / o.denominator;
  }
  if (applied != expected) {
    std::string a_text, e_text;
    for (const auto& [k, n] : applied) a_text += " " + k + " x" + std::to_string(n);
    for (const auto& [k, n] : expected) e_text += " " + k + " x" + std::to_string(n);
    fail("results over the faces:" + a_text + "; the analysis:" + e_text);
  }
}

}  // namespace

AnalysisCheckReport CheckAnalysisAgainstPlay(const std::string& spec, int games, uint64_t seed, int per_decision) {
  AnalysisCheckReport report;
  auto game = LoadGame(spec);
  if (!game.ok()) {
    report.mismatches.Append(game.errors());
    return report;
  }
  const HexQueries* rules = (*game)->rules->hex();
  if (rules == nullptr) return report;
  for (int g = 0; g < games && report.mismatches.size() < 20; ++g) {
    Session s(*game, seed + static_cast<uint64_t>(g));
    RandomPlayer player((seed + static_cast<uint64_t>(g)) * 31 + 5);
    for (long n = 0; !s.over() && n < 50000; ++n) {
      const std::vector<Action> legal = s.LegalActions();
      if (legal.empty()) break;
      if (s.state().decision == DecisionType::kCombat) {
        int checked = 0;
        // A spread of the listed attacks: every k-th.
        const size_t step = std::max<size_t>(1, legal.size() / static_cast<size_t>(std::max(1, per_decision)));
        for (size_t i = 0; i < legal.size() && checked < per_decision; i += step) {
          if (legal[i].type != ActionType::kAttack) continue;
          CheckOneAttack(*rules, s, legal[i], &report);
          ++checked;
        }
      }
      if (!s.Apply(player.Choose(s.game(), s.state(), legal)).ok()) break;
    }
  }
  return report;
}

}  // namespace wg
