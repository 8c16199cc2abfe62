// Civil War miniatures: what the files of rules/ (one per rule section or step) share beyond
// rules.h: the class MiniRules, the helpers one file defines and others call.
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <type_traits>

#include "../rules.h"
#include "wargame/rule_mark.h"

namespace wg::civil_war_miniatures {

constexpr double kPi = std::numbers::pi;

inline Event Ev(EventType t, const char* rule, const char* text, UnitId u = kNoUnit, int a = 0, int b = 0) {
  Event e;
  e.type = t;
  e.rule = rule;
  e.text = text;
  e.unit = u;
  e.a = a;
  e.b = b;
  return e;
}

bool Disorganized(const Game& g, const State& s, UnitId u);
inline const char* PinRule(const UnitState& us) { return us.Has(kPinnedByLivestock) ? "9.4" : "2.2"; }
int InsideFigures(const Game& g, const State& s, UnitId u);
void KeepLineConsistent(const Game& g, State& s, Context& ctx, UnitId u);

// MiniRules::Allowed asks only whether an action is legal: while it does (geometry.cc).
extern thread_local int probing_depth;

// Where a path ended and what stopped it (C.2).
struct Path {
  Footprint end;
  double moved = 0;
  UnitId blocker = kNoUnit;  // the unit it stopped against
  UnitId start_blocker = kNoUnit;  // the unit the base stood on where it started (C.1)
  bool building = false;     // stopped at the wall of a building the enemy holds (C.3)
  bool edge = false;         // stopped at the table edge
};

// geometry.cc
Footprint FootprintIn(const Game& g, const State& s, UnitId u, Vec2 c, double facing_deg, int face);
bool Straightforward();
Status Refused(const char* rule, const char* why);
Status Refused(const char* rule, const std::string& why);
FootprintFrame FrameOf(const Footprint& f, double deg);
Footprint FootprintAt(const Game& g, const State& s, UnitId u, Vec2 c, double facing_deg);
Footprint LineAt(const Game& g, const State& s, UnitId u, Vec2 c, int figures);
bool InAreaOf(const Game& g, Vec2 p, bool AreaGeometry::*kind);

// morale.cc
void CheckAlive(const Game& g, State& s, Context& ctx, UnitId u, const char* rule);
int LoseFigures(const Game& g, State& s, Context& ctx, UnitId u, int n, const char* rule);
int LoseStands(const Game& g, State& s, Context& ctx, UnitId u, int n, const char* rule);
void OfficerCheck(const Game& g, State& s, Context& ctx, UnitId u, int casualties);
bool TestMorale(const Game& g, State& s, Context& ctx, UnitId u, const char* why);
void FailMorale(const Game& g, State& s, Context& ctx, UnitId u, const char* rule);

// buildings.cc
int Overflow(const Game& g, const State& s, UnitId u);
int Waiting(const Game& g, const State& s, UnitId u);
bool HasLine(const State& s, UnitId u);
Footprint LineOf(const Game& g, const State& s, UnitId u);
void EnterBuildingIfInside(const Game& g, State& s, Context& ctx, UnitId u);

// contact.cc
Footprint Shrunk(Footprint f);
UnitId Blocker(const Game& g, const State& s, UnitId u, const Footprint& f, UnitId ignore = kNoUnit);
double Allowance(const Game& g, Segment seg, double inches);
Path SweepStraight(const Game& g, const State& s, UnitId u, const Footprint& f, Vec2 dir, double inches,
                   UnitId into);
Path SweepFast(const Game& g, const State& s, UnitId u, const FootprintFrame& whole, Vec2 dir, double len,
               double inches, UnitId into);
Path Sweep(const Game& g, const State& s, UnitId u, const Footprint& f, Vec2 dir, double inches,
           UnitId into = kNoUnit);
const char* PathStop(const Path& p);
void PlaceAt(State& s, Context& ctx, UnitId u, const Path& p, EventType type, const char* rule,
             const char* text);
void Retreat(const Game& g, State& s, Context& ctx, UnitId u, double inches, const char* rule);
const char* PlaceLineBeside(const Game& g, const State& s, UnitId u, int figures, Vec2* center);

// fire.cc
const char* CannotFire(const Game& g, const State& s, UnitId u, Vec2 aim, double range, const char** rule,
                       int part = kBody, UnitId target = kNoUnit, std::optional<Vec2> centre = std::nullopt);
int RollHits(const Game& g, State& s, Context& ctx, UnitId firer, int dice, int bonus, double range,
             int def_mod, const char* rule);
void Fire(const Game& g, State& s, Context& ctx, UnitId firer, UnitId target, int target_part = kBody);

// melee.cc
void Occupy(const Game& g, State& s, Context& ctx, UnitId u, Vec2 old, const char* rule);
void ResumeMelee(State& s, Context& ctx);
bool CloseIn(const Game& g, State& s, Context& ctx, UnitId u, UnitId target, double inches, const char* text);

// livestock.cc
void LivestockCard(const Game& g, State& s, Context& ctx, int first);

// turn.cc
void NewDeck(const Game& g, State& s);
void DrawNext(const Game& g, State& s, Context& ctx);
void EndActivation(const Game& g, State& s, Context& ctx);

// movement.cc
const char* PlanMove(const Game& g, const State& s, UnitId u, Vec2 dest, Footprint* out, const char** rule);

// C.1: two bases are in contact when they touch; they overlap only when each
// reaches more than kContact inches into the other.
constexpr double kContact = 0.02;

// C.1: the bases of every unit on the table in one position, in unit order
// (each main body, then its line beside its building, 12.3), shrunk by the
// contact margin (both bases inset: the test is symmetric, A on B exactly when
// B on A), each with its frame computed once. ListActivation pins one for the
// position it lists while it lists (it never writes it: MiniRules::Allowed), and
// every C.1 test made on that very State object meanwhile reads it (For).
class PositionBases {
 public:
  struct Base {
    UnitId unit;
    FootprintFrame frame;
  };
  // Computes the bases; `pin`: the tests on `s` read them until this is destroyed.
  PositionBases(const Game& g, const State& s, bool pin) : state_(&s) {
    for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
      if (!OnTable(s, o)) continue;
      const double deg = M(s).units[o].facing;  // the main body and its line face as the unit
      new (&bases_[count_++]) Base{o, FrameOf(Shrunk(FootprintOf(g, s, o)), deg)};
      if (HasLine(s, o)) new (&bases_[count_++]) Base{o, FrameOf(Shrunk(LineOf(g, s, o)), deg)};
    }
    if (pin) {
      prev_ = pinned_;
      pinned_ = this;
    }
  }
  ~PositionBases() {
    if (pinned_ == this) pinned_ = prev_;
  }
  PositionBases(const PositionBases&) = delete;
  PositionBases& operator=(const PositionBases&) = delete;
  // The bases pinned for this State object, or nullptr.
  static const PositionBases* For(const State& s) {
    for (const PositionBases* p = pinned_; p; p = p->prev_) {
      if (p->state_ == &s) return p;
    }
    return nullptr;
  }
  const Base* begin() const { return bases_; }
  const Base* end() const { return bases_ + count_; }

 private:
  static thread_local const PositionBases* pinned_;
  const State* state_;
  const PositionBases* prev_ = nullptr;
  union {  // uninitialised storage: a position fills only its units' bases
    Base bases_[2 * kMaxMiniUnits];
  };
  int count_ = 0;
};

class MiniRules : public Rules {
 public:
  MiniRules() { RegisterSteps(); }

  // The steps of the tabletop, each citing its rule: a unit card's activation (T.1; one
  // handler per action of the activated unit, kActivationActions), the charged unit's
  // answer (2.4) and the melee a charge comes to (8.x, a script).
  void RegisterSteps();

  void Start(State& s, Context& ctx) const override {
    const Game& g = ctx.game();
    const MiniData& d = D(g);
    M(s) = d.start;
    for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
      if (d.start_routed & (1u << u)) s.unit(u).flags |= kRouted;
      if (d.start_pinned & (1u << u)) s.unit(u).flags |= kPinned;
      if (OnTable(s, u)) EnterBuildingIfInside(g, s, ctx, u);  // 12.x: set up inside
    }
    s.turn = static_cast<int16_t>(d.start_turn);  // --scenario FILE may start later (start_turn)
    ctx.Emit(Ev(EventType::kTurnStart, "T.1", "", kNoUnit, s.turn));
    NewDeck(g, s);
    DrawNext(g, s, ctx);
  }

  void LegalActions(const State& s, Context& ctx, std::vector<Action>* out) const override {
    if (s.game_over) return;
    ListStep(steps_, s, ctx, out);
  }

  // The steps, then the functions of this ruleset marked with the rules they implement (WG_RULE).
  void RuleSources(std::vector<RuleSource>* out) const override {
    Rules::RuleSources(out);
    AppendRuleMarks("civil_war_miniatures", out);  // its WG_RULE_MARKS
  }

  // Every action of the activated unit (T.1): each candidate checked by its function (Allowed).
  void ListActivation(const State& s, Context& ctx, std::vector<Action>* out) const {
    const Game& g = ctx.game();
    if (ActiveCard(s) == kNone) return;
    const UnitId u = ActiveCard(s);
    const PositionBases pin(g, s, /*pin=*/true);  // every candidate's C.1 tests read it
    out->push_back(Action::EndPhase());
    auto try_add = [&](const Action& a) {
      if (Allowed(s, a, g)) out->push_back(a);
    };
    if (s.unit(u).Has(kRouted)) {
      Action a = Action::Of(ActionType::kCustom).Value(kRally);
      a.AddUnit(u);
      out->push_back(a);
      return;
    }
    Action fm = Action::Of(ActionType::kChangeMode).AddUnit(u);
    fm.value = 1 - s.unit(u).face;
    try_add(fm);
    const Vec2 c = CenterOf(s, u);
    const UnitType& t = TypeOf(g, u);
    const double rate = std::max(t.move_column, t.move_line);
    for (int h = 0; h < kNumHeadings; ++h) {
      const Vec2 dest = g.table().Clamp(c + HeadingVector(static_cast<Heading>(h)) * rate);
      Action mv = Action::Of(ActionType::kMove).AddUnit(u);
      mv.value = H(dest.x);
      mv.value2 = H(dest.y);
      try_add(mv);
    }
    for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
      if (!OnTable(s, o) || s.unit(o).side == s.unit(u).side) continue;
      Action f = Action::Of(ActionType::kBombard).AddUnit(u).AddUnit(o);
      try_add(f);
      if (HasLine(s, o)) try_add(Action::Of(ActionType::kBombard).AddUnit(u).AddUnit(o).Value(kAtLineBeside));
      Action ch = Action::Of(ActionType::kAttack).AddUnit(u).AddUnit(o);
      try_add(ch);
      Action face = Action::Of(ActionType::kCustom).Value(kFace).AddUnit(u);
      const Vec2 dv = CenterOf(s, o) - c;
      face.value2 = FacingDegrees(dv);
      if (o == 0 || s.unit(o).side != s.unit(static_cast<UnitId>(o - 1)).side) try_add(face);
    }
    const int over = Overflow(g, s, u);  // 12.3
    const int fps = D(g).figures_per_stand;
    for (int stands = 0; over > 0 && stands <= (over + fps - 1) / fps; ++stands) {
      Action b = Action::Of(ActionType::kCustom).Value(kFormBeside).AddUnit(u);
      b.value2 = stands;
      try_add(b);
    }
    for (int place = 0; place < 2; ++place) {
      Action o = Action::Of(ActionType::kCustom).Value(kOfficerPlace).AddUnit(u);
      o.value2 = place;
      try_add(o);
    }
    for (int h = 0; h < kNumHerds; ++h) {
      Action f = Action::Of(ActionType::kBombard).AddUnit(u);
      f.value = kHerdTarget + h;
      try_add(f);
    }
    for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
      Action man = Action::Of(ActionType::kCustom).Value(kManGuns).AddUnit(u).AddUnit(o);
      if (o != u && TypeOf(g, o).artillery) try_add(man);
    }
    AppendPlannedMoves(s, ctx, out);
  }

  Status Apply(State& s, const Action& a, Context& ctx) const override {
    if (s.game_over) return Refused("V", "the game is over");
    return ApplyStep(*this, steps_, s, a, ctx, "T.2");
  }

  // Units on the table stand on it with men left, guns never grow, the active
  // unit is on the table, and a pending charge names two units on the table.
  void CheckInvariants(const State& s, ErrorList* out) const override {
    if (!game_) return;
    const Game& g = *game_;
    const MiniData& d = D(g);
    const MiniState& m = M(s);
    auto fail = [&](const std::string& msg) {
      Error e;
      e.message = msg;
      out->Add(e);
    };
    for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
      if (!OnTable(s, u)) continue;
      const MiniUnit& mu = m.units[u];
      if (mu.figures == 0) fail(g.units[static_cast<size_t>(u)].id + " is on the table with no figures");
      if (!g.table().Contains(CenterOf(s, u))) fail(g.units[static_cast<size_t>(u)].id + " is off the table");
      if (mu.guns > d.info[static_cast<size_t>(u)].start_guns)
        fail(g.units[static_cast<size_t>(u)].id + " gained guns");
      if (mu.building > g.table().areas.size())
        fail(g.units[static_cast<size_t>(u)].id + " in a building that does not exist");
      if (mu.beside > 0 && (mu.building == 0 || mu.beside >= mu.figures))
        fail(g.units[static_cast<size_t>(u)].id + " has a line beside a building it does not hold (12.3)");
      if (mu.beside > 0 && !g.table().Contains(Vec2{mu.line_x / 100.0, mu.line_y / 100.0}))
        fail(g.units[static_cast<size_t>(u)].id + "'s line beside its building is off the table");
    }
    // C.1: no base stands on another (touching by the contact margin is contact, not overlap);
    // units sharing a building are inside it together.
    for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
      if (!OnTable(s, u)) continue;
      const UnitId o = Blocker(g, s, u, FootprintOf(g, s, u));
      if (o != kNoUnit && o > u && !(m.units[u].building != 0 && m.units[u].building == m.units[o].building)) {
        fail(g.units[static_cast<size_t>(u)].id + " stands on " + g.units[static_cast<size_t>(o)].id + " (C.1)");
      }
    }
    const uint8_t active = ActiveCard(s);
    const PendingCharge charge = PendingChargeOf(s);
    if (!s.game_over && active != kNone && !OnTable(s, active))
      fail("the activated unit is not on the table");
    if (!s.game_over && active == kNone) fail("nobody has a decision");
    if (charge.charger != kNone && (!OnTable(s, charge.charger) || !OnTable(s, charge.target))) {
      fail("a pending charge names a unit off the table");
    }
    if (m.deck_pos > m.deck_size || m.deck_size > kMaxDeck) fail("the deck is inconsistent");
  }

  std::string PositionText(const State& s, UnitId u) const override {
    if (!OnTable(s, u)) return s.unit(u).hex == kEliminated ? "eliminated" : "withdrawn";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f, %.2f in", M(s).units[u].x / 100.0, M(s).units[u].y / 100.0);
    return buf;
  }

  bool RenderSvg(const State& s, std::string* svg) const override;
  double Evaluate(const State& s, int side) const override { return game_ ? EvaluatePosition(*game_, s, side) : 0; }
  int MaxDieFaces() const override;
  std::string StateJson(const State& s) const override;
  void LegacySaveStates(const State& s, int format, std::vector<State>* out) const override;
  // The planned moves (ai.cc), each checked as LegalActions checks an action.
  // A planned move is not listed twice (ai.cc compares it with every action listed
  // before it): only a move or a facing (custom kFace) can be one of the planned
  // moves, which are moves and facings, so they are compared with the moves and
  // facings listed so far only, then appended in their order (StraightforwardGeometry:
  // with the whole listing).
  void AppendPlannedMoves(const State& s, Context& ctx, std::vector<Action>* out) const {
    // One captured pointer: std::function keeps it in place (no allocation).
    const struct {
      const MiniRules* rules;
      const State* s;
      const Game* g;
    } probe{this, &s, &ctx.game()};
    const auto legal = [p = &probe](const Action& a) { return p->rules->Allowed(*p->s, a, *p->g); };
    if (Straightforward()) {
      civil_war_miniatures::AppendPlannedMoves(ctx.game(), s, legal, out);
      return;
    }
    thread_local std::vector<Action> listed;  // reused: no allocation once grown
    listed.clear();
    for (const Action& a : *out) {
      if (a.type == ActionType::kMove || (a.type == ActionType::kCustom && a.value == kFace)) listed.push_back(a);
    }
    const size_t before = listed.size();
    civil_war_miniatures::AppendPlannedMoves(ctx.game(), s, legal, &listed);
    out->insert(out->end(), listed.begin() + static_cast<std::ptrdiff_t>(before), listed.end());
  }
  // Casualty reports (simulate): figures plus guns.
  int Strength(const State& s, UnitId u) const override {
    return OnTable(s, u) ? M(s).units[u].figures + M(s).units[u].guns : 0;
  }
  std::string DescribeEvent(const Event& e) const override;
  void set_game(const Game* g) {
    game_ = g;
    tabletop_ = g ? MakeMiniTabletop(*g) : nullptr;
  }
  const TabletopQueries* tabletop() const override { return tabletop_.get(); }

  // Whether the activated unit may take `a` (LegalActions): its function in the
  // activation's table (kActivationActions) checks it without applying it. That check
  // reads the state and writes nothing (every Check* returns before its first write
  // unless it applies; conformance_test's ListingLeavesTheStateAsItWas checks it over
  // whole games), so it runs on `s` itself, without a copy.
  bool Allowed(const State& s, const Action& a, const Game& g) const;

 private:
  const Game* game_ = nullptr;  // RenderSvg has no Game argument; set by the loader
  std::unique_ptr<TabletopQueries> tabletop_;  // queries.cc
};

// What the function of an action of the activated unit `u` gets (kActivationActions):
// each checks one kind of action and, when `apply`, applies it (T.2: the action vocabulary).
struct ActionCheck {
  const Game& g;
  const MiniData& d;
  State& s;
  MiniState& m;
  const Action& a;
  Context& ctx;
  bool apply;
  UnitId u;
  UnitState& us;
};

// actions.cc
Status AnswerCharge(State& s, const Action& a, Context& ctx);
Status CheckFormation(const ActionCheck& check);
Status CheckMoveAction(const ActionCheck& check);
Status CheckFace(const ActionCheck& check);
Status CheckRally(const ActionCheck& check);
Status CheckManGuns(const ActionCheck& check);
Status CheckOfficerPlace(const ActionCheck& check);
Status CheckFormBeside(const ActionCheck& check);
Status CheckFire(const ActionCheck& check);
Status CheckCharge(const ActionCheck& check);
Status CheckEndActivation(const ActionCheck& check);
Status CheckRecombine(const ActionCheck&);

// The same with a text made by why() only when it is kept (a text that prints data).
template <class Why>
Status RefusedWith(const char* rule, Why&& why) {
  if (probing_depth > 0 && !Straightforward()) return Status::Refused(std::string(), std::string());
  return Status::Refused(rule, why());
}

}  // namespace wg::civil_war_miniatures
