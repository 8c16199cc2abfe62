// The Civil War miniatures chart as Rules hooks. Rule numbers ("2.3") are the
// line numbers RULES.md gives the chart; every event and refusal cites one.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "rules.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

constexpr double kPi = std::numbers::pi;

Event Ev(EventType t, const char* rule, const char* text, UnitId u = kNoUnit, int a = 0, int b = 0) {
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
const char* PinRule(const UnitState& us) { return us.Has(kPinnedByLivestock) ? "9.4" : "2.2"; }
int InsideFigures(const Game& g, const State& s, UnitId u);
void KeepLineConsistent(const Game& g, State& s, Context& ctx, UnitId u);

// --- Geometry -------------------------------------------------------------------

// The unit's base at c facing `facing_deg`, in line (face 1) or column (0).
Footprint FootprintIn(const Game& g, const State& s, UnitId u, Vec2 c, double facing_deg, int face) {
  const MiniData& d = D(g);
  const UnitType& t = TypeOf(g, u);
  const MiniUnit& mu = M(s).units[u];
  Footprint f;
  f.center = c;
  f.facing = facing_deg * kPi / 180.0;
  const bool line = face == 1;
  if (t.artillery) {
    const int guns = std::max(1, static_cast<int>(mu.guns));
    f.width = line ? guns * t.gun_width : t.gun_width;
    f.depth = line ? t.gun_depth : guns * t.gun_depth;
  } else {
    const int figs = mu.building != 0 ? mu.figures - mu.beside : mu.figures;  // 12.3: not the line beside
    const int stands = std::max(1, (figs + d.figures_per_stand - 1) / d.figures_per_stand);
    const int files = d.column_files;  // 1: a column is column_files stands abreast
    f.width = line ? stands * d.stand_width : std::min(files, stands) * d.stand_width;
    f.depth = line ? d.stand_depth : ((stands + files - 1) / files) * d.stand_depth;
  }
  return f;
}

// Issue 15: the listing's fast paths (FastSweepProbe, the facing table, the planned
// moves' short duplicate list, the refusals without text) are switched off while a
// StraightforwardGeometry lives on the thread: then every move is swept on its own,
// sample by sample, every frame computes its cosine and sine, as before they came.
thread_local int straightforward_depth = 0;
bool Straightforward() { return straightforward_depth > 0; }

// f.Forward() of a base facing `deg` degrees (f.facing = deg * pi / 180, as FootprintIn
// sets it): from a table for the whole degrees -360..360 that every base of the rules
// faces, filled once by the same expression (Footprint::Forward of that facing, computed
// at run time, so the same library cosine and sine give the same bits); others computed.
Vec2 ForwardOfDegrees(double deg) {
  static const std::vector<Vec2> table = [] {
    std::vector<Vec2> t;
    volatile int last = 360;  // a bound the compiler cannot see: the values come from the library at run time
    for (int k = -360; k <= last; ++k) {
      Footprint f;
      f.facing = static_cast<double>(k) * kPi / 180.0;
      t.push_back(f.Forward());
    }
    return t;
  }();
  if (deg >= -360 && deg <= 360 && !Straightforward()) {
    const int k = static_cast<int>(deg);
    if (k == deg) return table[static_cast<size_t>(k + 360)];
  }
  Footprint f;
  f.facing = deg * kPi / 180.0;
  return f.Forward();
}

// MiniRules::Allowed asks only whether an action is legal: while it does, a refusal
// carries no texts (their strings are not built; StraightforwardGeometry: they are).
thread_local int probing_depth = 0;
Status Refused(const char* rule, const char* why) {
  if (probing_depth > 0 && !Straightforward()) return Status::Refused(std::string(), std::string());
  return Status::Refused(rule, why);
}
Status Refused(const char* rule, const std::string& why) {
  if (probing_depth > 0 && !Straightforward()) return Status::Refused(std::string(), std::string());
  return Status::Refused(rule, why);
}
// The same with a text made by why() only when it is kept (a text that prints data).
template <class Why>
Status RefusedWith(const char* rule, Why&& why) {
  if (probing_depth > 0 && !Straightforward()) return Status::Refused(std::string(), std::string());
  return Status::Refused(rule, why());
}

// FootprintFrame(f) for a base facing `deg` degrees (f.facing = deg * pi / 180).
FootprintFrame FrameOf(const Footprint& f, double deg) {
  return Straightforward() ? FootprintFrame(f) : FootprintFrame(f, ForwardOfDegrees(deg));
}

// The same in the unit's own formation.
Footprint FootprintAt(const Game& g, const State& s, UnitId u, Vec2 c, double facing_deg) {
  return FootprintIn(g, s, u, c, facing_deg, s.unit(u).face);
}

// 12.3: a line of `figures` formed beside a building, centred on c, facing as the unit.
Footprint LineAt(const Game& g, const State& s, UnitId u, Vec2 c, int figures) {
  const MiniData& d = D(g);
  Footprint f;
  f.center = c;
  f.facing = M(s).units[u].facing * kPi / 180.0;
  f.width = std::max(1, (figures + d.figures_per_stand - 1) / d.figures_per_stand) * d.stand_width;
  f.depth = d.stand_depth;
  return f;
}

void PrepareTableGeometry(const Table& t, MiniData* d) {
  constexpr double kMargin = 1e-6;  // wider than the tests' kEps (1e-9): a box never cuts off a touch
  auto box = [](const std::vector<Vec2>& pts, Vec2* lo, Vec2* hi) {
    *lo = Vec2{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    *hi = *lo * -1.0;
    for (Vec2 p : pts) {
      *lo = Vec2{std::min(lo->x, p.x - kMargin), std::min(lo->y, p.y - kMargin)};
      *hi = Vec2{std::max(hi->x, p.x + kMargin), std::max(hi->y, p.y + kMargin)};
    }
  };
  d->areas.assign(t.areas.size(), AreaGeometry{});
  for (size_t i = 0; i < t.areas.size(); ++i) {
    AreaGeometry& a = d->areas[i];
    const std::string& kind = t.areas[i].kind;
    a.woods = kind == "woods";
    a.house = kind == "house";
    a.barn = kind == "barn";
    a.hill = kind == "hill";
    box(t.areas[i].polygon, &a.lo, &a.hi);
  }
  d->obstacles.assign(t.obstacles.size(), ObstacleGeometry{});
  for (size_t i = 0; i < t.obstacles.size(); ++i) {
    d->obstacles[i].fence = t.obstacles[i].kind == "fence";
    box(t.obstacles[i].points, &d->obstacles[i].lo, &d->obstacles[i].hi);
  }
}

// Whether p lies in an area of the kind (a flag of AreaGeometry).
bool InAreaOf(const Game& g, Vec2 p, bool AreaGeometry::*kind) {
  const MiniData& d = D(g);
  for (size_t i = 0; i < d.areas.size(); ++i) {
    const AreaGeometry& a = d.areas[i];
    if (a.*kind && BoxMayHold(a.lo, a.hi, p) && g.table().areas[i].Contains(p)) return true;
  }
  return false;
}

// --- Losses, officers, morale ------------------------------------------------------

void Eliminate(State& s, Context& ctx, UnitId u, const char* rule, const char* why) {
  s.unit(u).hex = kEliminated;
  s.unit(u).flags = static_cast<uint16_t>(s.unit(u).flags & ~(kRouted | kPinned));
  M(s).units[u].building = 0;
  M(s).units[u].beside = 0;
  ctx.Emit(Ev(EventType::kEliminated, rule, why, u));
}

void CheckAlive(const Game& g, State& s, Context& ctx, UnitId u, const char* rule) {
  if (!OnTable(s, u)) return;
  const MiniUnit& mu = M(s).units[u];
  if (mu.figures == 0) Eliminate(s, ctx, u, rule, TypeOf(g, u).artillery ? "no crew left" : "no men left");
}

int LoseFigures(const Game& g, State& s, Context& ctx, UnitId u, int n, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  const int lost = std::min<int>(n, mu.figures);
  if (lost <= 0) return 0;
  mu.figures = static_cast<uint8_t>(mu.figures - lost);
  ctx.Emit(Ev(EventType::kLoss, rule, "figures", u, lost));
  CheckAlive(g, s, ctx, u, rule);
  KeepLineConsistent(g, s, ctx, u);
  return lost;
}

// A stand (base): figures_per_stand men, or one gun with its crew.
int LoseStands(const Game& g, State& s, Context& ctx, UnitId u, int n, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  const UnitType& t = TypeOf(g, u);
  int lost = 0;
  for (int i = 0; i < n && mu.figures > 0; ++i) {
    if (t.artillery && mu.guns > 0) {
      --mu.guns;
      mu.figures = static_cast<uint8_t>(std::max(0, mu.figures - t.crew_per_gun));
    } else {
      mu.figures = static_cast<uint8_t>(std::max(0, mu.figures - D(g).figures_per_stand));
    }
    ++lost;
  }
  if (lost > 0) ctx.Emit(Ev(EventType::kLoss, rule, "stands", u, lost));
  CheckAlive(g, s, ctx, u, rule);
  KeepLineConsistent(g, s, ctx, u);
  return lost;
}

bool Faces(const std::vector<int>& faces, int r) { return std::find(faces.begin(), faces.end(), r) != faces.end(); }

// 4.1-4.3: one die per casualty for each attached officer; the death faces are data.
WG_RULE("4.1/4.2/4.3", OfficerCheck);
void OfficerCheck(const Game& g, State& s, Context& ctx, UnitId u, int casualties) {
  if (casualties <= 0) return;
  const MiniData& d = D(g);
  MiniUnit& mu = M(s).units[u];
  const int n = std::min(casualties, 30);
  if (mu.officers & kRegimental) {
    bool killed = false;
    for (int i = 0; i < n; ++i) killed = Faces(d.regimental_death, ctx.Roll(s, d.officer_die, "regimental officer")) || killed;
    if (killed) {
      mu.officers = static_cast<uint8_t>(mu.officers & ~kRegimental);
      ctx.Emit(Ev(EventType::kNote, "4.1", "regimental officer killed", u));
    }
  }
  if (mu.officers & kDivisional) {
    bool killed = false;
    for (int i = 0; i < n; ++i) killed = Faces(d.divisional_death, ctx.Roll(s, d.officer_die, "divisional officer")) || killed;
    if (killed) {
      mu.officers = static_cast<uint8_t>(mu.officers & ~kDivisional);
      ctx.Emit(Ev(EventType::kNote, "4.2", "divisional officer killed", u));
    }
  }
}

// 7.1-7.3. True when the unit passes.
WG_RULE("4/7.1/7.2/7.3", TestMorale);
bool TestMorale(const Game& g, State& s, Context& ctx, UnitId u, const char* why) {
  const MiniData& d = D(g);
  const MiniUnit& mu = M(s).units[u];
  if (mu.officers & kDivisional) {
    ctx.Emit(Ev(EventType::kNote, "7.1", "passes morale: divisional officer attached", u));
    return true;
  }
  const int officer = (mu.officers & kRegimental) ? d.morale_regimental : 0;  // 4.1: counts during morale tests
  const int disorg = Disorganized(g, s, u) ? d.mod_disorganized : 0;  // 12.5
  const UnitType& t = TypeOf(g, u);
  bool pass = false;
  if (t.artillery && mu.guns > 0) {
    // 7.3: one D6 per gun; passes when a die is under the remaining guns.
    const int need = mu.guns + officer + disorg;
    for (int i = 0; i < mu.guns; ++i) {
      if (ctx.Roll(s, d.battery_morale_die, why) < need) pass = true;
    }
    ctx.Emit(Ev(EventType::kNote, "7.3", pass ? "battery passes morale" : "battery fails morale", u, need));
  } else {
    const int need = Stands(g, s, u) + officer + disorg;
    const int r = ctx.Roll(s, d.morale_die, why);
    pass = r < need;
    ctx.Emit(Ev(EventType::kNote, "7.2", pass ? "passes morale" : "fails morale", u, r, need));
  }
  return pass;
}

// 7.4 / 10.1 / C.2: falls back toward its own table edge, routed until rallied.
void Retreat(const Game& g, State& s, Context& ctx, UnitId u, double inches, const char* rule);

// 7.4 with 12.5: a failed test sends the unit to the rear; if it was waiting
// outside a building, the stands inside are captured.
WG_RULE("7.4/12.5", FailMorale);
void FailMorale(const Game& g, State& s, Context& ctx, UnitId u, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  if (Disorganized(g, s, u)) {
    const int inside = InsideFigures(g, s, u);
    mu.figures = static_cast<uint8_t>(mu.figures - inside);
    Event e = Ev(EventType::kCaptured, "12.5", "stands inside the building captured", u, inside);
    e.side = static_cast<int8_t>(1 - s.unit(u).side);
    ctx.Emit(e);
    if (mu.officers != 0 && !s.unit(u).Has(kOfficerOutside)) {  // 12.4: officers inside are taken too
      mu.officers = 0;
      ctx.Emit(Ev(EventType::kNote, "12.4", "officers inside the building captured", u));
    }
    mu.building = 0;
    mu.beside = 0;
    CheckAlive(g, s, ctx, u, "12.5");
  }
  Retreat(g, s, ctx, u, D(g).retreat, rule);
}

// --- Buildings (12.x) ---------------------------------------------------------------

// Room left in the unit's building once the units listed before it are in.
WG_RULE("12.1/12.2", RoomFor);
int RoomFor(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  const TerrainArea& a = g.table().areas[mu.building - 1u];
  int used = 0;
  for (UnitId o = 0; o < u; ++o) {
    const MiniUnit& om = M(s).units[o];
    if (OnTable(s, o) && om.building == mu.building) used += om.figures - om.beside;
  }
  return std::max(0, a.capacity - used);
}

// 12.1-12.3: the figures inside; the line beside the building is not inside,
// and the figures waiting behind refill the building as it loses men.
int InsideFigures(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (mu.building == 0 || !OnTable(s, u)) return 0;
  return std::min(RoomFor(g, s, u), mu.figures - mu.beside);
}

// 12.3: the figures that do not fit in the building (in line beside it or waiting).
int Overflow(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (mu.building == 0 || !OnTable(s, u)) return 0;
  return mu.figures - std::min<int>(RoomFor(g, s, u), mu.figures);
}

int Waiting(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (mu.building == 0 || !OnTable(s, u)) return 0;
  return mu.figures - mu.beside - InsideFigures(g, s, u);
}

// 12.5: stands waiting behind the building (not those formed in line beside it).
WG_RULE("12.5", Disorganized);
bool Disorganized(const Game& g, const State& s, UnitId u) { return Waiting(g, s, u) > 0; }

bool HasLine(const State& s, UnitId u) {
  return OnTable(s, u) && M(s).units[u].building != 0 && M(s).units[u].beside > 0;
}

Footprint LineOf(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  return LineAt(g, s, u, Vec2{mu.line_x / 100.0, mu.line_y / 100.0}, mu.beside);
}

// After losses: the line never holds more figures than the unit; when only the
// line is left, it is the unit (it stands where the line stood, in line).
void KeepLineConsistent(const Game&, State& s, Context& ctx, UnitId u) {
  MiniUnit& mu = M(s).units[u];
  if (!OnTable(s, u) || mu.building == 0) {
    mu.beside = 0;
    return;
  }
  if (mu.beside > mu.figures) mu.beside = mu.figures;
  if (mu.beside > 0 && mu.beside == mu.figures) {
    mu.x = mu.line_x;
    mu.y = mu.line_y;
    mu.building = 0;
    mu.beside = 0;
    s.unit(u).face = 1;
    ctx.Emit(Ev(EventType::kNote, "12.3", "only the line beside the building is left: it is the unit", u));
  }
}

// --- Contact (C.1-C.3) ---------------------------------------------------------------

// C.1: two bases are in contact when they touch; they overlap only when each
// reaches more than kContact inches into the other.
constexpr double kContact = 0.02;
Footprint Shrunk(Footprint f) {
  f.width = std::max(0.0, f.width - 2 * kContact);
  f.depth = std::max(0.0, f.depth - 2 * kContact);
  return f;
}

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
thread_local const PositionBases* PositionBases::pinned_ = nullptr;
static_assert(std::is_trivially_destructible_v<PositionBases::Base>);

// C.1: the bases a moving base of unit u may meet on its path (PositionBases,
// without u's own). A base whose centre is farther from the path of the moving
// centre than the two radii and `slack` is left out: FootprintsOverlap's own
// first test rejects it at every point within `slack` of the path, so leaving
// it out changes no answer.
class OtherBases {
 public:
  OtherBases(const Game& g, const State& s, UnitId u, const FootprintFrame& moving, Segment path, double slack) {
    if (const PositionBases* pinned = PositionBases::For(s)) {
      Select(*pinned, u, moving, path, slack);
    } else {
      Select(PositionBases(g, s, /*pin=*/false), u, moving, path, slack);
    }
  }
  // The first unit other than `ignore` whose base the (shrunk) frame overlaps, or kNoUnit.
  UnitId FirstOverlap(const FootprintFrame& in, UnitId ignore = kNoUnit) const {
    for (int i = 0; i < count_; ++i) {
      if (unit_[i] != ignore && FootprintsOverlap(in, frame_[i])) return unit_[i];
    }
    return kNoUnit;
  }
  // How far a base of radius r centred at p is from reaching any base other
  // than `ignore` (the distance of the centres less both radii; infinite when none).
  double Clearance(Vec2 p, double r, UnitId ignore) const {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count_; ++i) {
      if (unit_[i] != ignore) best = std::min(best, std::sqrt(DistanceSquared(p, frame_[i].base.center)) - r - frame_[i].radius);
    }
    return best;
  }

 private:
  void Select(const PositionBases& all, UnitId u, const FootprintFrame& moving, Segment path, double slack) {
    for (const PositionBases::Base& b : all) {
      if (b.unit == u) continue;
      const double reach = moving.radius + b.frame.radius + slack;
      const Vec2 c = b.frame.base.center;  // farther than reach from the path's box, or from the path
      if (c.x < std::min(path.a.x, path.b.x) - reach || c.x > std::max(path.a.x, path.b.x) + reach ||
          c.y < std::min(path.a.y, path.b.y) - reach || c.y > std::max(path.a.y, path.b.y) + reach ||
          PointSegmentDistanceSquared(c, path) > reach * reach) {
        continue;
      }
      unit_[count_] = b.unit;
      new (&frame_[count_]) FootprintFrame(b.frame);
      ++count_;
    }
  }
  // Uninitialised storage: a sweep fills only the few bases near its path.
  union {
    FootprintFrame frame_[2 * kMaxMiniUnits];
  };
  UnitId unit_[2 * kMaxMiniUnits];
  int count_ = 0;
};
static_assert(std::is_trivially_destructible_v<FootprintFrame>);

// C.1: the first unit other than u and `ignore` whose base (or line beside its
// building, 12.3) f overlaps, or kNoUnit. Friends and enemies alike.
WG_RULE("C.1", Blocker);
UnitId Blocker(const Game& g, const State& s, UnitId u, const Footprint& f, UnitId ignore = kNoUnit) {
  const FootprintFrame in(Shrunk(f));
  if (const PositionBases* pinned = PositionBases::For(s)) {
    for (const PositionBases::Base& b : *pinned) {
      if (b.unit != u && b.unit != ignore && FootprintsOverlap(in, b.frame)) return b.unit;
    }
    return kNoUnit;
  }
  for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
    if (o == u || o == ignore || !OnTable(s, o)) continue;
    if (FootprintsOverlap(in, Shrunk(FootprintOf(g, s, o)))) return o;
    if (HasLine(s, o) && FootprintsOverlap(in, Shrunk(LineOf(g, s, o)))) return o;
  }
  return kNoUnit;
}

bool Overlaps(const Game& g, const State& s, UnitId u, const Footprint& f) {
  return Blocker(g, s, u, f) != kNoUnit;
}

// C.3: the buildings units of the other side than `side` hold, in unit order.
class EnemyBuildings {
 public:
  EnemyBuildings(const Game& g, const State& s, int side) : g_(g) {
    for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
      const uint8_t b = M(s).units[o].building;
      if (b != 0 && OnTable(s, o) && s.unit(o).side != side) held_[count_++] = b;
    }
  }
  // The building (area index + 1) at p held by the first such unit, or 0.
  int At(Vec2 p) const {
    for (int i = 0; i < count_; ++i) {
      const AreaGeometry& a = D(g_).areas[held_[i] - 1u];
      if (BoxMayHold(a.lo, a.hi, p) && g_.table().areas[held_[i] - 1u].Contains(p)) return held_[i];
    }
    return 0;
  }
  // How far p is from the box of every held building other than `own` (infinite when none).
  double Clearance(Vec2 p, int own) const {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count_; ++i) {
      if (held_[i] == own) continue;
      const AreaGeometry& a = D(g_).areas[held_[i] - 1u];
      const double dx = std::max({a.lo.x - p.x, 0.0, p.x - a.hi.x}), dy = std::max({a.lo.y - p.y, 0.0, p.y - a.hi.y});
      best = std::min(best, std::sqrt(dx * dx + dy * dy));
    }
    return best;
  }

 private:
  const Game& g_;
  std::array<uint8_t, kMaxMiniUnits> held_{};
  int count_ = 0;
};

// M / C.2: the distance a move of `inches` along `seg` is worth after terrain:
// woods multiply it by woods_factor, each fence crossed costs fence_cost.
WG_RULE("M/C.2", Allowance);
double Allowance(const Game& g, Segment seg, double inches) {
  const MiniData& d = D(g);
  for (size_t i = 0; i < d.areas.size(); ++i) {
    const AreaGeometry& a = d.areas[i];
    if (a.woods && BoxMayMeet(a.lo, a.hi, seg) && g.table().areas[i].Meets(seg)) {
      inches *= d.woods_factor;
      break;
    }
  }
  for (size_t i = 0; i < d.obstacles.size(); ++i) {
    const ObstacleGeometry& o = d.obstacles[i];
    if (o.fence && BoxMayMeet(o.lo, o.hi, seg) && g.table().obstacles[i].Crosses(seg)) inches -= d.fence_cost;
  }
  return std::max(0.0, inches);
}

// Where a path ended and what stopped it (C.2).
struct Path {
  Footprint end;
  double moved = 0;
  UnitId blocker = kNoUnit;  // the unit it stopped against
  UnitId start_blocker = kNoUnit;  // the unit the base stood on where it started (C.1)
  bool building = false;     // stopped at the wall of a building the enemy holds (C.3)
  bool edge = false;         // stopped at the table edge
};

// C.2: what stops a base of unit u sliding from f.center along the unit vector
// d: the other bases and the walls of the buildings the other side holds
// (except `own`, a charge target's), all computed once for the sweep.
class SweepProbe {
 public:
  SweepProbe(const Game& g, const State& s, UnitId u, const FootprintFrame& whole, Vec2 d, double room, int own)
      : origin_(whole.base.center),
        d_(d),
        own_(own),
        moving_(whole.Resized(Shrunk(whole.base).width, Shrunk(whole.base).depth)),
        // Every centre tested is within a hundredth's rounding (0.0071") of this path.
        others_(g, s, u, moving_, Segment{origin_, origin_ + d * room}, 0.05),
        walls_(g, s, s.unit(u).side) {
    // A base that already stands on another (a unit re-forming as one body as it
    // leaves its building, 12.3) may slide off it, not further onto anything else.
    start_ = others_.FirstOverlap(moving_);
  }
  UnitId start() const { return start_; }
  // Positions as the state stores them (hundredths of an inch), so the place
  // tested is the place the unit ends.
  Vec2 At(double t) const {
    const Vec2 p = origin_ + d_ * t;
    return Vec2{std::round(p.x * 100) / 100, std::round(p.y * 100) / 100};
  }
  // Whether the base stands on another (other than the start's) or in a wall at t.
  bool Blocked(double t, UnitId* who, bool* wall) {
    *who = kNoUnit;
    *wall = false;
    if (t >= clear_from_ && t < clear_to_) return false;  // nothing within reach there (below)
    const Vec2 c = At(t);
    moving_.MoveTo(c);
    *who = others_.FirstOverlap(moving_, start_);
    const int b = walls_.At(c);
    *wall = b != 0 && b != own_;
    if (*who != kNoUnit || *wall) return true;
    // Clear with room to spare: every t within `reach` of this one puts the centre
    // (rounded: 0.0071" off the path at most) farther than both radii from every
    // base and outside every wall's box, where each test above surely fails.
    const double reach = std::min(others_.Clearance(origin_ + d_ * t, moving_.radius, start_),
                                  walls_.Clearance(origin_ + d_ * t, own_)) - 0.02;
    if (reach > 0) {
      clear_from_ = t - reach;
      clear_to_ = t + reach;
    }
    return false;
  }
  // Whether the base at c still stands on the base it started on.
  bool StillOnStart(Vec2 c) {
    moving_.MoveTo(c);
    return start_ != kNoUnit && others_.FirstOverlap(moving_) == start_;
  }

 private:
  Vec2 origin_, d_;
  int own_ = 0;
  FootprintFrame moving_;
  OtherBases others_;
  EnemyBuildings walls_;
  UnitId start_ = kNoUnit;
  double clear_from_ = 0, clear_to_ = 0;  // the t known clear, [from, to)
};

// C.2: the sweep's loop, for either probe (SweepProbe, the reference; FastSweepProbe):
// quarter-inch samples, the first blocked one bisected to a hundredth, then backed off;
// a probe that knows where the next possible contact is (NextPossible) skips the
// samples before it.
WG_RULE("C.1/C.2", SweepWith);
template <class Probe>
Path SweepWith(Probe& probe, const Footprint& f, double room, Path p) {
  p.start_blocker = probe.start();
  double ok = 0;
  UnitId who = kNoUnit;
  bool wall = false;
  for (double t = std::min(0.25, room); ok < room; t = std::min(t + 0.25, room)) {
    if (!probe.Blocked(t, &who, &wall)) {
      ok = t;
      if constexpr (requires { probe.NextPossible(t); }) {
        // The samples t + 0.25 k before the next stretch that can block (and before the
        // end of the path, the last sample) are clear: go to the last of them.
        const double lim = std::min(probe.NextPossible(t), room);
        if (lim > t + 0.25) {
          double k = std::floor((lim - t) / 0.25);
          while (k > 0 && t + 0.25 * k >= lim) k -= 1;
          t += 0.25 * k;  // a multiple of 0.25, exactly as the sum of the quarters
          ok = t;
        }
      }
      continue;
    }
    double bad = t;
    for (int i = 0; i < 6; ++i) {  // bisect to a hundredth of an inch
      const double mid = (ok + bad) / 2;
      UnitId w2;
      bool b2;
      if (probe.Blocked(mid, &w2, &b2)) {
        bad = mid;
      } else {
        ok = mid;
      }
    }
    // A hundredth clear, and clear where the state stores it: on a glancing path the
    // overlap grows slowly, so rounding the point back to hundredths can undo one
    // hundredth; back off until the stored point is clear.
    UnitId w3;
    bool b3;
    do {
      ok = std::max(0.0, ok - 0.01);
    } while (ok > 0 && probe.Blocked(ok, &w3, &b3));
    p.blocker = who;
    p.building = who == kNoUnit && wall;
    p.edge = false;
    break;
  }
  p.moved = ok;
  p.end.center = ok > 0 ? probe.At(ok) : f.center;
  if (probe.StillOnStart(p.end.center)) {  // it did not get clear: it stays
    p.moved = 0;
    p.end = f;
    p.blocker = probe.start();
  }
  return p;
}

// C.2: slides f up to `inches` along dir (facing unchanged) and stops at the
// first contact with another unit's base, at the wall of a building the other
// side holds (except the building of `into`, a charge's target), or at the
// table edge. Sampled every quarter inch, then bisected to a hundredth.
// The straightforward sweep: the reference of FastSweepProbe's (StraightforwardGeometry).
Path SweepStraight(const Game& g, const State& s, UnitId u, const Footprint& f, Vec2 dir, double inches,
                   UnitId into) {
  Path p;
  p.end = f;
  const double len = dir.Length();
  if (len <= 0 || inches <= 0) return p;
  const Vec2 d = dir * (1.0 / len);
  double room = 0;
  const FootprintFrame whole(f);
  g.table().MoveFootprint(whole, d, inches, &room, &p.edge);
  SweepProbe probe(g, s, u, whole, d, room, into != kNoUnit ? M(s).units[into].building : 0);
  return SweepWith(probe, f, room, p);
}

// C.2, issue 15: SweepProbe's answers, every one of them, for fewer instructions. Before
// the sweep it finds, for each other base and each wall the path may meet, the stretch
// [lo, hi] of the path (the distance t the centre has slid) outside which the moving base
// surely does not meet it, by the separating axes of two rectangles: the moving base
// only slides (its facing and size fixed), so along each of the four edge directions of
// the two bases the gap between their shadows changes linearly with t, and where the gap
// exceeds kMargin on one axis the two are apart there (FootprintsOverlap's own
// SeparatedAlong rejects them on that axis: the centre tested, rounded to hundredths, is
// at most 0.0071" off the unrounded path). A wall (a building the other side holds) is
// met only where the centre is in its box. Blocked(t) then tests, exactly as
// SweepProbe::Blocked, only the bases and walls whose stretch holds t, in the same order
// (so the same first unit and the same first building), and NextPossible(t) says where
// the next stretch begins: the samples before it are clear without a test.
class FastSweepProbe {
 public:
  static constexpr double kMargin = 0.02;
  FastSweepProbe(const Game& g, const State& s, UnitId u, const FootprintFrame& whole, Vec2 d, double room, int own)
      : g_(g),
        origin_(whole.base.center),
        d_(d),
        own_(own),
        moving_(whole.Resized(Shrunk(whole.base).width, Shrunk(whole.base).depth)) {
    if (const PositionBases* pinned = PositionBases::For(s)) {
      Select(*pinned, u, room);
    } else {
      Select(PositionBases(g, s, /*pin=*/false), u, room);
    }
    for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {  // EnemyBuildings' order
      const uint8_t b = M(s).units[o].building;
      if (b == 0 || !OnTable(s, o) || s.unit(o).side == s.unit(u).side) continue;
      const AreaGeometry& a = D(g).areas[b - 1u];
      double lo = 0, hi = room;
      if (!Slab(origin_.x, d_.x, a.lo.x, a.hi.x, &lo, &hi) || !Slab(origin_.y, d_.y, a.lo.y, a.hi.y, &lo, &hi)) continue;
      walls_[num_walls_++] = Wall{b, lo, hi};
    }
    // SweepProbe's start: the first base the moving base stands on where it starts.
    moving_.MoveTo(origin_);
    for (int i = 0; i < num_bases_; ++i) {
      if (bases_[i].lo <= 0 && FootprintsOverlap(moving_, bases_[i].frame)) {
        start_ = bases_[i].unit;
        break;
      }
    }
  }
  UnitId start() const { return start_; }
  Vec2 At(double t) const {  // SweepProbe::At
    const Vec2 p = origin_ + d_ * t;
    return Vec2{std::round(p.x * 100) / 100, std::round(p.y * 100) / 100};
  }
  // SweepProbe::Blocked(t, who, wall).
  bool Blocked(double t, UnitId* who, bool* wall) {
    *who = kNoUnit;
    *wall = false;
    bool near = false;
    for (int i = 0; i < num_bases_ && !near; ++i) near = bases_[i].unit != start_ && bases_[i].lo <= t && t <= bases_[i].hi;
    for (int i = 0; i < num_walls_ && !near; ++i) near = walls_[i].lo <= t && t <= walls_[i].hi;
    if (!near) return false;
    const Vec2 c = At(t);
    moving_.MoveTo(c);
    for (int i = 0; i < num_bases_; ++i) {
      const Base& b = bases_[i];
      if (b.unit != start_ && b.lo <= t && t <= b.hi && FootprintsOverlap(moving_, b.frame)) {
        *who = b.unit;
        break;
      }
    }
    for (int i = 0; i < num_walls_; ++i) {  // EnemyBuildings::At: the first held building at c
      const Wall& w = walls_[i];
      if (w.lo > t || t > w.hi) continue;
      const AreaGeometry& a = D(g_).areas[w.building - 1u];
      if (BoxMayHold(a.lo, a.hi, c) && g_.table().areas[w.building - 1u].Contains(c)) {
        *wall = w.building != own_;
        break;
      }
    }
    return *who != kNoUnit || *wall;
  }
  // Where after t the next stretch that can block begins (infinite when none).
  double NextPossible(double t) const {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < num_bases_; ++i) {
      if (bases_[i].unit != start_ && bases_[i].hi >= t) best = std::min(best, bases_[i].lo);
    }
    for (int i = 0; i < num_walls_; ++i) {
      if (walls_[i].hi >= t) best = std::min(best, walls_[i].lo);
    }
    return best;
  }
  // SweepProbe::StillOnStart(c), c a point of the path.
  bool StillOnStart(Vec2 c) {
    if (start_ == kNoUnit) return false;
    moving_.MoveTo(c);
    for (int i = 0; i < num_bases_; ++i) {
      if (FootprintsOverlap(moving_, bases_[i].frame)) return bases_[i].unit == start_;
    }
    return false;
  }

 private:
  struct Base {
    UnitId unit;
    double lo, hi;
    FootprintFrame frame;
  };
  struct Wall {
    uint8_t building;
    double lo, hi;
  };
  // Narrows [lo, hi] to the t where x0 + dx t is within [a - kMargin, b + kMargin];
  // false when nowhere.
  static bool Slab(double x0, double dx, double a, double b, double* lo, double* hi) {
    if (std::abs(dx) < 1e-12) return x0 >= a - kMargin && x0 <= b + kMargin;
    double t1 = (a - kMargin - x0) / dx, t2 = (b + kMargin - x0) / dx;
    if (t1 > t2) std::swap(t1, t2);
    *lo = std::max(*lo, t1);
    *hi = std::min(*hi, t2);
    return *lo <= *hi;
  }
  // Narrows [lo, hi] to the t where the shadows of the two bases on the unit vector
  // `axis` are within kMargin of each other; false when nowhere.
  bool Axis(const FootprintFrame& b, Vec2 axis, double* lo, double* hi) const {
    const double r = std::abs(Dot(moving_.half_forward, axis)) + std::abs(Dot(moving_.half_right, axis)) +
                     std::abs(Dot(b.half_forward, axis)) + std::abs(Dot(b.half_right, axis));
    const double gap = Dot(b.base.center - origin_, axis);  // at t: gap - t (d . axis)
    return Slab(0, Dot(d_, axis), gap - r, gap + r, lo, hi);
  }
  void Select(const PositionBases& all, UnitId u, double room) {
    for (const PositionBases::Base& b : all) {
      if (b.unit == u) continue;
      // The circles first (cheap): the centre's distance off the path, and along it.
      const Vec2 rel = b.frame.base.center - origin_;
      const double reach = moving_.radius + b.frame.radius + kMargin;
      const double along = Dot(rel, d_), across = Cross(d_, rel);
      if (std::abs(across) > reach || along + reach < 0 || along - reach > room) continue;
      double lo = 0, hi = room;
      if (!Axis(b.frame, moving_.forward, &lo, &hi) || !Axis(b.frame, moving_.right, &lo, &hi) ||
          !Axis(b.frame, b.frame.forward, &lo, &hi) || !Axis(b.frame, b.frame.right, &lo, &hi)) {
        continue;
      }
      new (&bases_[num_bases_++]) Base{b.unit, lo, hi, b.frame};
    }
  }

  const Game& g_;
  Vec2 origin_, d_;
  int own_ = 0;
  FootprintFrame moving_;
  union {  // uninitialised storage: a sweep fills only the few bases its path may meet
    Base bases_[2 * kMaxMiniUnits];
  };
  int num_bases_ = 0;
  Wall walls_[kMaxMiniUnits];
  int num_walls_ = 0;
  UnitId start_ = kNoUnit;
};

// C.2: Sweep by FastSweepProbe (the same path as SweepStraight's). `whole` is the
// frame of the base, `len` the length of dir.
Path SweepFast(const Game& g, const State& s, UnitId u, const FootprintFrame& whole, Vec2 dir, double len,
               double inches, UnitId into) {
  const Footprint& f = whole.base;
  Path p;
  p.end = f;
  if (len <= 0 || inches <= 0) return p;
  const Vec2 d = dir * (1.0 / len);
  double room = 0;
  g.table().MoveFootprint(whole, d, inches, &room, &p.edge);
  FastSweepProbe probe(g, s, u, whole, d, room, into != kNoUnit ? M(s).units[into].building : 0);
  return SweepWith(probe, f, room, p);
}

// C.2: slides f up to `inches` along dir (SweepStraight; by SweepFast unless
// StraightforwardGeometry).
WG_RULE("C.1/C.2", Sweep);
Path Sweep(const Game& g, const State& s, UnitId u, const Footprint& f, Vec2 dir, double inches,
           UnitId into = kNoUnit) {
  if (Straightforward()) return SweepStraight(g, s, u, f, dir, inches, into);
  const double len = dir.Length();
  if (len <= 0 || inches <= 0) {
    Path p;
    p.end = f;
    return p;
  }
  return SweepFast(g, s, u, FootprintFrame(f), dir, len, inches, into);
}

// Why a path stopped, for events and refusals; nullptr when nothing stopped it.
const char* PathStop(const Path& p) {
  if (p.blocker != kNoUnit) return "stopped by a unit in the way";
  if (p.building) return "stopped at the wall of a building the enemy holds";
  if (p.edge) return "stopped at the table edge";
  return nullptr;
}

// Places u at a path's end and reports it (C.2: a movement event for every
// move, and a note saying what stopped it: b = the blocking unit or -1).
void PlaceAt(State& s, Context& ctx, UnitId u, const Path& p, EventType type, const char* rule,
             const char* text) {
  MiniUnit& mu = M(s).units[u];
  mu.x = H(p.end.center.x);
  mu.y = H(p.end.center.y);
  ctx.Emit(Ev(type, rule, text, u, mu.x, mu.y));
  if (const char* why = PathStop(p)) ctx.Emit(Ev(EventType::kNote, "C.2", why, u, 0, p.blocker));
}

// 7.4 / 10.1 / C.2: moves `inches` (after terrain, M) toward its own table
// edge, routed until rallied; the path stops at another unit, at a building the
// enemy holds or at the edge, and the unit stays routed where it stopped.
WG_RULE("7.4/10.1/C.2", Retreat);
void Retreat(const Game& g, State& s, Context& ctx, UnitId u, double inches, const char* rule) {
  if (!OnTable(s, u)) return;
  const MiniData& d = D(g);
  MiniUnit& mu = M(s).units[u];
  mu.building = 0;
  mu.beside = 0;  // 12.3: the line beside the building falls back with the unit, as one body
  const Footprint f = FootprintOf(g, s, u);
  const Vec2 dir = EdgeOutward(d.home[s.unit(u).side]);
  const double go = Allowance(g, Segment{f.center, f.center + dir * inches}, inches);
  const Path p = Sweep(g, s, u, f, dir, go);
  s.unit(u).flags |= kRouted;
  PlaceAt(s, ctx, u, p, EventType::kRetreat, rule, "retreats");
}

// 12.3: where `figures` of u form in line adjacent to its building: against the
// building's side wall on the unit's right (as it faces), or its left when the
// right has no room. The line faces the way the unit faces. C.1: each place is
// tested where the state stores it (line_x, line_y: to the hundredth), so a line
// clear of a unit by less than that rounding is not stored on it.
WG_RULE("12.3/C.1", PlaceLineBeside);
const char* PlaceLineBeside(const Game& g, const State& s, UnitId u, int figures, Vec2* center) {
  const TerrainArea& a = g.table().areas[M(s).units[u].building - 1u];
  Vec2 mid{0, 0};
  for (Vec2 p : a.polygon) mid = mid + p * (1.0 / static_cast<double>(a.polygon.size()));
  Footprint probe = LineAt(g, s, u, mid, figures);
  for (const double side : {1.0, -1.0}) {
    const Vec2 dir = probe.Right() * side;
    double reach = 0;
    for (Vec2 p : a.polygon) reach = std::max(reach, Dot(p - mid, dir));
    const Vec2 at = mid + dir * (reach + probe.width / 2 + 0.05);
    Footprint f = LineAt(g, s, u, Vec2{H(at.x) / 100.0, H(at.y) / 100.0}, figures);  // as LineOf reads it
    bool on_table = true;
    for (Vec2 p : f.Corners()) on_table = on_table && g.table().Contains(p);
    if (!on_table || Overlaps(g, s, u, f)) continue;
    *center = f.center;
    return nullptr;
  }
  return "no room beside the building for that line (off the table or on another unit)";
}

// --- Fire (3, 5, 6) ----------------------------------------------------------------

Footprint PartFootprint(const Game& g, const State& s, UnitId u, int part) {
  return part == kLine ? LineOf(g, s, u) : FootprintOf(g, s, u);
}

const HitBand* BandFor(const UnitType& t, double range) {
  for (const HitBand& b : t.hits) {
    if (range <= b.up_to + 1e-9) return &b;
  }
  return nullptr;
}

WG_RULE("3/12.1/12.2", FireDice);
int FireDice(const Game& g, const State& s, UnitId u, int part) {
  const MiniData& d = D(g);
  const UnitType& t = TypeOf(g, u);
  const MiniUnit& mu = M(s).units[u];
  const int per_die = d.figures_per_fire_die;  // 3 (CAL): one D6 for each figures_per_fire_die firing figures
  if (part == kLine) return HasLine(s, u) ? (mu.beside + per_die - 1) / per_die : 0;
  if (t.artillery) {
    const int manned = std::min<int>(mu.guns, mu.figures / std::max(1, t.crew_per_gun));
    return manned * t.dice_per_gun;
  }
  int figures = mu.figures;
  if (mu.building) {
    const int cap = d.areas[mu.building - 1u].barn ? d.barn_fire : d.house_fire;  // 12.1, 12.2
    figures = std::min(InsideFigures(g, s, u), cap);
  }
  return (figures + per_die - 1) / per_die;
}

// 5.x for the target part at centre c; a line beside a building (12.3) is not in it.
WG_RULE("5.1/5.2/5.3", DefenderModifier);
int DefenderModifier(const Game& g, const State& s, Vec2 from, UnitId target, int part, const char** rule) {
  const MiniData& d = D(g);
  const Vec2 c = PartFootprint(g, s, target, part).center;
  int mod = 0;
  *rule = part == kLine ? "12.3" : "3";
  if ((part == kBody && M(s).units[target].building != 0) || InAreaOf(g, c, &AreaGeometry::house) ||
      InAreaOf(g, c, &AreaGeometry::barn)) {
    mod += d.mod_building;  // 5.1
    *rule = "5.1";
  } else {
    bool cover = InAreaOf(g, c, &AreaGeometry::woods);
    const Segment line{from, c};
    for (size_t i = 0; i < d.obstacles.size(); ++i) {
      const ObstacleGeometry& o = d.obstacles[i];
      if (o.fence && BoxMayMeet(o.lo, o.hi, line) && g.table().obstacles[i].Crosses(line)) cover = true;
    }
    if (cover) {
      mod += d.mod_cover;  // 5.2
      *rule = "5.2";
    }
  }
  if (InAreaOf(g, c, &AreaGeometry::hill) && !InAreaOf(g, from, &AreaGeometry::hill)) {
    mod += d.mod_terrain;  // 5.3
    *rule = "5.3";
  }
  return mod;
}

// 6.x: `from` is the firing part's centre; tf the target part (nullptr: livestock).
WG_RULE("6.1/6.2/6.3/6.4", AttackerBonus);
int AttackerBonus(const Game& g, const State& s, UnitId firer, Vec2 from, UnitId target, const Footprint* tf) {
  const MiniData& d = D(g);
  int b = 0;
  if (target >= 0 && TypeOf(g, target).artillery) b += d.bonus_artillery;  // 6.1
  if (tf && ArcOf(*tf, from) != Arc::kFront) b += d.bonus_flank;           // 6.2
  if (M(s).units[firer].officers & kRegimental) b += d.bonus_regimental;   // 6.3
  if (M(s).units[firer].officers & kDivisional) b += d.bonus_divisional;   // 6.4
  return b;
}

// 12.1 / 12.2: occupants fire out of the front or the back: the building's
// two longer walls (the first pair for a square one). True when the line from
// inside to the aim point leaves through one of them.
WG_RULE("12.1/12.2", FiresThroughFrontOrBack);
bool FiresThroughFrontOrBack(const TerrainArea& a, Vec2 from, Vec2 aim) {
  if (a.polygon.size() != 4) return true;
  const std::vector<Vec2>& p = a.polygon;
  const double l01 = DistanceSquared(p[0], p[1]);
  const double l12 = DistanceSquared(p[1], p[2]);
  const int first = l01 >= l12 ? 0 : 1;  // walls first and first + 2
  const Segment line{from, aim};
  for (int w : {first, first + 2}) {
    if (SegmentsIntersect(line, Segment{p[static_cast<size_t>(w)], p[static_cast<size_t>((w + 1) % 4)]})) {
      return true;
    }
  }
  return false;
}

// C.5: whether the segment from a firer to its aim passes over another unit's
// base (not the firer's, not the target's): units block the line of sight.
bool UnitInTheWay(const Game& g, const State& s, UnitId firer, UnitId target, Segment line) {
  for (UnitId o = 0; o < static_cast<UnitId>(g.num_units()); ++o) {
    if (o == firer || o == target || !OnTable(s, o)) continue;
    if (SegmentMeetsFootprint(line, Shrunk(FootprintOf(g, s, o)))) return true;
    if (HasLine(s, o) && SegmentMeetsFootprint(line, Shrunk(LineOf(g, s, o)))) return true;
  }
  return false;
}

// Why a part of a unit cannot fire at a point at range `range`, or nullptr.
// `target` is the unit fired at (kNoUnit for livestock); `aim` the point of it
// nearest the firer, `centre` its centre: the line of sight may go to either.
WG_RULE("3.1/C.5", CannotFire);
const char* CannotFire(const Game& g, const State& s, UnitId u, Vec2 aim, double range, const char** rule,
                       int part = kBody, UnitId target = kNoUnit, std::optional<Vec2> centre = std::nullopt) {
  const UnitType& t = TypeOf(g, u);
  const UnitState& us = s.unit(u);
  *rule = part == kLine ? "12.3" : "3";
  if (us.Has(kRouted)) {
    *rule = "10.1";
    return "a routed unit cannot shoot until rallied";
  }
  if (us.Has(kPinned)) {
    *rule = PinRule(us);
    return "the unit cannot shoot this turn";
  }
  if (part == kLine && !HasLine(s, u)) return "no line is formed beside the building";
  const bool in_building = part == kBody && M(s).units[u].building != 0;
  if (part == kBody && us.face == 0 && !t.fire_in_column && !in_building)
    return t.artillery ? "a limbered battery cannot fire" : "a column cannot fire";
  if (in_building) {
    const TerrainArea& a = g.table().areas[M(s).units[u].building - 1u];
    if (!FiresThroughFrontOrBack(a, CenterOf(s, u), aim)) {
      *rule = a.kind == "barn" ? "12.1" : "12.2";
      return "fire goes out only of the front or the back of the building";
    }
  }
  if (FireDice(g, s, u, part) <= 0) return "no stand or manned gun can fire";
  if (!BandFor(t, range)) {
    *rule = part == kLine ? "12.3" : "3.1";
    return "the target is out of range";
  }
  const Footprint pf = PartFootprint(g, s, u, part);
  // C.5: a line (or a formation that fires in column) fires into its front arc;
  // the occupants of a building fire out of its front or back instead (12.1/12.2).
  if (!in_building && ArcOf(pf, aim, D(g).fire_arc) != Arc::kFront) {
    *rule = "C.5";
    return "the target is outside the firer's front arc";
  }
  const Vec2 from = pf.center;
  auto clear = [&](Vec2 p) {
    return g.table().LineOfSightClear(from, p) && !UnitInTheWay(g, s, u, target, Segment{from, p});
  };
  if (!clear(aim) && !(centre && clear(*centre))) {
    *rule = "C.5";
    return "no line of sight (terrain or a unit in the way)";
  }
  return nullptr;
}

// C.6: range from the firer's centre to the nearest part of the target part;
// to a unit inside a building, to the nearest part of the building.
WG_RULE("C.6", RangeToPart);
double RangeToPart(const Game& g, const State& s, Vec2 from, UnitId target, int part, const Footprint& tf,
                   Vec2* aim) {
  const MiniUnit& tu = M(s).units[target];
  if (part == kBody && tu.building != 0) {
    const TerrainArea& a = g.table().areas[tu.building - 1u];
    *aim = tf.center;
    return DistanceToPolygon(a.polygon, from);
  }
  *aim = tf.NearestPoint(from);
  return DistanceToFootprint(from, tf);
}

// Why no part of `firer` can fire at the target part, or nullptr (12.3: the
// main body and the line beside a building each fire if they can).
const char* CannotFireAt(const Game& g, const State& s, UnitId firer, UnitId target, int target_part,
                         const char** rule) {
  const Footprint tf = PartFootprint(g, s, target, target_part);
  Vec2 aim;
  const double range = RangeToPart(g, s, CenterOf(s, firer), target, target_part, tf, &aim);
  const char* why = CannotFire(g, s, firer, aim, range, rule, kBody, target, tf.center);
  if (!why || !HasLine(s, firer)) return why;
  const char* line_rule = "12.3";
  const Vec2 lc = LineOf(g, s, firer).center;
  const double lrange = RangeToPart(g, s, lc, target, target_part, tf, &aim);
  if (!CannotFire(g, s, firer, aim, lrange, &line_rule, kLine, target, tf.center)) return nullptr;
  return why;
}

// Rolls `dice` D6; returns hits.
int RollHits(const Game& g, State& s, Context& ctx, UnitId firer, int dice, int bonus, double range,
             int def_mod, const char* rule) {
  const MiniData& d = D(g);
  const HitBand* band = BandFor(TypeOf(g, firer), range);
  const int need = std::max(d.hit_floor, band->hit + def_mod - bonus);
  int hits = 0;
  if (need <= 6) {
    for (int i = 0; i < dice; ++i) {
      if (ctx.Roll(s, 6, "fire") >= need) ++hits;
    }
  }
  ctx.Emit(Ev(EventType::kCombatResult, rule, "hits", firer, hits, need));
  return hits;
}

WG_RULE("11.1", ApplyHits);
void ApplyHits(const Game& g, State& s, Context& ctx, UnitId target, int part, int hits) {
  if (hits <= 0 || !OnTable(s, target)) return;
  const UnitType& t = TypeOf(g, target);
  MiniUnit& mu = M(s).units[target];
  if (part == kLine) {  // 12.3: losses come off the line beside the building
    const int lost = std::min<int>(hits, mu.beside);
    mu.beside = static_cast<uint8_t>(mu.beside - lost);
    LoseFigures(g, s, ctx, target, lost, "12.3");
    if (OnTable(s, target)) OfficerCheck(g, s, ctx, target, lost);
    return;
  }
  if (!t.artillery) {
    // 12.3: fire at a building hits the figures inside, refilled from those
    // waiting behind it; the line beside it is not hit.
    const int lost = LoseFigures(g, s, ctx, target, std::min(hits, mu.figures - mu.beside), "3");
    if (OnTable(s, target)) OfficerCheck(g, s, ctx, target, lost);
    return;
  }
  // 11.1: a casualty per hit, then a D6 per hit (6 destroys a gun), then morale.
  const int lost = LoseFigures(g, s, ctx, target, hits, "11.1");
  for (int i = 0; i < hits && OnTable(s, target); ++i) {
    if (ctx.Roll(s, D(g).gun_hit_die, "gun hit") >= D(g).gun_destroyed_on && mu.guns > 0) {
      --mu.guns;
      ctx.Emit(Ev(EventType::kLoss, "11.1", "gun destroyed", target, 1));
    }
  }
  if (!OnTable(s, target)) return;
  OfficerCheck(g, s, ctx, target, lost);
  if (!TestMorale(g, s, ctx, target, "battery morale")) FailMorale(g, s, ctx, target, "11.1");
}

// 3: every part of the firer that can fire at the target part rolls its dice
// (12.3: the occupants of a building and the line beside it).
WG_RULE("3", Fire);
void Fire(const Game& g, State& s, Context& ctx, UnitId firer, UnitId target, int target_part = kBody) {
  const Footprint tf = PartFootprint(g, s, target, target_part);
  int hits = 0;
  for (int part = kBody; part <= kLine; ++part) {
    if (part == kLine && !HasLine(s, firer)) break;
    const Footprint pf = PartFootprint(g, s, firer, part);
    Vec2 aim;
    const double range = RangeToPart(g, s, pf.center, target, target_part, tf, &aim);
    const char* why_rule = "3";
    if (CannotFire(g, s, firer, aim, range, &why_rule, part, target, tf.center)) continue;
    const char* rule = "3";
    const int mod = DefenderModifier(g, s, pf.center, target, target_part, &rule);
    Event e = Ev(EventType::kBombard, part == kLine ? "12.3" : rule, part == kLine ? "line beside fires" : "fires",
                 firer, static_cast<int>(std::lround(range * 100)), mod);
    ctx.Emit(e);
    hits += RollHits(g, s, ctx, firer, FireDice(g, s, firer, part),
                     AttackerBonus(g, s, firer, pf.center, target, &tf), range, mod, "3");
  }
  ApplyHits(g, s, ctx, target, target_part, hits);
}

// --- Melee (8.x) ------------------------------------------------------------------

WG_RULE("6.1/6.2/6.3/6.4/8.1", MeleeBonus);
int MeleeBonus(const Game& g, const State& s, UnitId u, UnitId enemy, bool attacker, bool flank) {
  const MiniData& d = D(g);
  int b = 0;
  if (TypeOf(g, enemy).artillery) b += d.bonus_artillery;  // 6.1: artillery opponent, in melee as in fire
  if (M(s).units[u].officers & kRegimental) b += d.bonus_regimental;
  if (M(s).units[u].officers & kDivisional) b += d.bonus_divisional;
  if (Disorganized(g, s, u)) b += d.mod_disorganized;
  if (attacker && flank) b += d.bonus_flank;
  if (!attacker) {
    const char* rule = "";
    b += DefenderModifier(g, s, CenterOf(s, enemy), u, kBody, &rule);
  }
  return b;
}

void EnterBuildingIfInside(const Game& g, State& s, Context& ctx, UnitId u);

// 2.3 / C.3: the attacker moves to the position the attackee held (a path, C.2);
// into its building when it held one.
WG_RULE("2.3/C.3", Occupy);
void Occupy(const Game& g, State& s, Context& ctx, UnitId u, Vec2 old, const char* rule) {
  MiniUnit& mu = M(s).units[u];
  const uint8_t building = mu.building, beside = mu.beside;
  mu.building = 0;
  mu.beside = 0;  // it leaves any building as one body
  const Footprint f = FootprintOf(g, s, u);
  const Path p = Sweep(g, s, u, f, old - f.center, DistanceBetween(old, f.center));
  if (p.moved <= 0) {  // blocked at once: it stays as it stood (in its building, its line beside)
    mu.building = building;
    mu.beside = beside;
    if (const char* why = PathStop(p)) ctx.Emit(Ev(EventType::kNote, "C.2", why, u, 0, p.blocker));
    return;
  }
  PlaceAt(s, ctx, u, p, EventType::kAdvance, rule, "occupies the attackee's position");
  EnterBuildingIfInside(g, s, ctx, u);
}

// 8.1-8.4 (dice and halving from chart.melee). Returns the winner (kNoUnit when a tie
// left either unit with no stand, or after the last round).
WG_RULE("8.1/8.2/8.3/8.4", Melee);
UnitId Melee(const Game& g, State& s, Context& ctx, UnitId att, UnitId def, bool flank) {
  const MiniData& d = D(g);
  ctx.Emit(Ev(EventType::kNote, "8.1", "melee", att, 0, def));
  for (int round = 0; round < d.melee_max_rounds && OnTable(s, att) && OnTable(s, def); ++round) {
    const int ra = ctx.Roll(s, d.melee_die, "melee attacker") + MeleeBonus(g, s, att, def, true, flank);
    const int rd = ctx.Roll(s, d.melee_die, "melee defender") + MeleeBonus(g, s, def, att, false, flank);
    ctx.Emit(Ev(EventType::kCombatResult, "8.1", "melee", att, ra, rd));
    if (ra == rd) {  // 8.4
      const int la = LoseStands(g, s, ctx, att, d.melee_tie_loss, "8.4");
      const int ld = LoseStands(g, s, ctx, def, d.melee_tie_loss, "8.4");
      if (OnTable(s, att)) OfficerCheck(g, s, ctx, att, la);
      if (OnTable(s, def)) OfficerCheck(g, s, ctx, def, ld);
      continue;
    }
    const UnitId winner = ra > rd ? att : def;
    const UnitId loser = ra > rd ? def : att;
    const Vec2 held = CenterOf(s, def);
    const bool in_building = M(s).units[def].building != 0;
    const int ll = LoseStands(g, s, ctx, loser, ctx.Roll(s, d.melee_loss_die, "melee loser losses"), "8.2");
    const int lw = LoseStands(g, s, ctx, winner,
                              ctx.Roll(s, d.melee_loss_die, "melee winner losses") / d.melee_winner_divisor, "8.3");
    if (OnTable(s, loser)) OfficerCheck(g, s, ctx, loser, ll);
    if (OnTable(s, winner)) OfficerCheck(g, s, ctx, winner, lw);
    if (OnTable(s, loser)) Retreat(g, s, ctx, loser, d.retreat, "8.2");
    // C.3: a building is taken by charge and melee: the winning charger goes in.
    if (winner == att && in_building && OnTable(s, att)) Occupy(g, s, ctx, att, held, "C.3");
    return winner;
  }
  return kNoUnit;
}

// 8.x as a step: the melee a charge comes to (2.4), a script the charge's answer calls
// with args {attacker, defender, from the flank (6.2)}. Run when it is entered, it ends
// with the winner's side (-1: neither), and its caller goes on.
void ResumeMelee(State& s, Context& ctx) {
  const Game& g = ctx.game();
  const Step frame = *TopFrame(s);
  const UnitId winner = Melee(g, s, ctx, frame.args[0], frame.args[1], frame.args[2] != 0);
  EndStep(s, ctx, g.rules->steps(), winner == kNoUnit ? -1 : s.unit(winner).side);
}

// 2.1 / C.4: the way a base slides to meet another by the shortest path: from
// its nearest part to the other's (two bases that do not overlap are nearest at
// a corner of one and an edge of the other). Sliding that far along it brings
// the two into contact, so a charge within 8" (measured between the nearest
// parts) reaches its target in 8". The centres' line when they overlap.
Vec2 TowardNearestPart(const Footprint& f, const Footprint& tf) {
  const auto closest = [](Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double l2 = Dot(d, d);
    return l2 > 0 ? a + d * std::clamp(Dot(p - a, d) / l2, 0.0, 1.0) : a;
  };
  const auto fc = f.Corners(), tc = tf.Corners();
  double best = 1e18;
  Vec2 dir = tf.center - f.center;
  for (int k = 0; k < 2; ++k) {  // f's corners to tf's edges, then tf's corners to f's edges
    const auto& from = k == 0 ? fc : tc;
    const auto& to = k == 0 ? tc : fc;
    for (size_t i = 0; i < 4; ++i) {
      for (size_t j = 0; j < 4; ++j) {
        const Vec2 q = closest(from[i], to[j], to[(j + 1) % 4]);
        const Vec2 v = k == 0 ? q - from[i] : from[i] - q;
        const double d2 = Dot(v, v);
        if (d2 < best) {
          best = d2;
          dir = v;
        }
      }
    }
  }
  return best > 1e-12 && !FootprintsOverlap(f, tf) ? dir : tf.center - f.center;
}

// 2.1 / 2.4 / C.2: u moves up to `inches` toward the target's nearest part (the
// way the 8" of 2.1 is measured: a charge within 8" reaches contact in 8") and
// stops at contact with it, or short of it at another unit or a building the
// enemy holds. True when the two are in contact at the end.
WG_RULE("2.4/C.2", CloseIn);
bool CloseIn(const Game& g, State& s, Context& ctx, UnitId u, UnitId target, double inches, const char* text) {
  const Footprint tf = FootprintOf(g, s, target);
  if (FootprintDistance(FootprintOf(g, s, u), tf) <= kContact * 2) return true;
  MiniUnit& mu = M(s).units[u];
  const uint8_t building = mu.building, beside = mu.beside;
  mu.building = 0;  // a unit leaving its building moves as one body
  mu.beside = 0;
  const Footprint f = FootprintOf(g, s, u);
  const Path p = Sweep(g, s, u, f, TowardNearestPart(f, tf), inches, target);
  if (p.moved > 0) {
    PlaceAt(s, ctx, u, p, EventType::kAdvance, "2.4", text);
  } else {
    mu.building = building;  // it did not move: it stays where it was
    mu.beside = beside;
  }
  return FootprintDistance(FootprintOf(g, s, u), tf) <= kContact * 2;
}

// C.4: a charge needs a clear path: sliding toward the target's nearest part
// (the closing move's path, CloseIn), the charger's base meets the target before
// any other unit or a building the enemy holds.
WG_RULE("C.4", ChargePathBlocked);
const char* ChargePathBlocked(const Game& g, const State& s, UnitId u, UnitId target) {
  const Footprint f = FootprintOf(g, s, u), tf = FootprintOf(g, s, target);
  if (FootprintDistance(f, tf) <= kContact * 2) return nullptr;
  const Vec2 dir = TowardNearestPart(f, tf);
  const Path p = Sweep(g, s, u, f, dir, dir.Length() + 1, target);
  if (p.blocker == target) return nullptr;
  if (p.blocker != kNoUnit) return "no clear path to the target: another unit is in the way";
  if (p.building) return "no clear path to the target: a building the enemy holds is in the way";
  return "no clear path to the target";
}

// --- Livestock (9.x, 10.3) ---------------------------------------------------------

// Squared distance from a path to a base (0 when the path meets it).
double SegmentToFootprintSquared(Segment seg, const Footprint& f) {
  if (SegmentMeetsFootprint(seg, f)) return 0;
  const auto c = f.Corners();
  double best = 1e18;
  for (size_t i = 0; i < 4; ++i)
    best = std::min(best, SegmentSegmentDistanceSquared(seg, Segment{c[i], c[(i + 1) % 4]}));
  return best;
}

WG_RULE("9.4/10.3", LivestockPasses);
void LivestockPasses(const Game& g, State& s, Context& ctx, Segment path) {
  const MiniData& d = D(g);
  const double radius2 = (d.dinner_radius + 1e-9) * (d.dinner_radius + 1e-9);
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (!OnTable(s, u)) continue;
    double dist2 = SegmentToFootprintSquared(path, FootprintOf(g, s, u));
    if (HasLine(s, u)) dist2 = std::min(dist2, SegmentToFootprintSquared(path, LineOf(g, s, u)));  // 12.3
    if (dist2 <= 0) {  // 9.4: overrun
      ctx.Emit(Ev(EventType::kNote, "9.4", "overrun by livestock", u));
      if (TestMorale(g, s, ctx, u, "overrun morale")) {
        s.unit(u).flags |= kPinned | kPinnedByLivestock;
        ctx.Emit(Ev(EventType::kNote, "9.4", "cannot move or shoot this turn", u));
      } else {
        FailMorale(g, s, ctx, u, "9.4");
      }
    } else if (dist2 <= radius2) {  // 10.3
      const uint8_t off = M(s).units[u].officers;
      if (off & kDivisional) {
        ctx.Emit(Ev(EventType::kNote, "10.3", "men go hungry: divisional officer present", u));
        continue;
      }
      const int need = (off & kRegimental) ? d.dinner_roll_officer : d.dinner_roll;
      const int r = ctx.Roll(s, d.dinner_die, "dinner");
      if (r >= need) {
        const int men = ctx.Roll(s, d.dinner_men_die, "men chasing dinner");
        ctx.Emit(Ev(EventType::kNote, "10.3", "men chase the livestock for dinner", u, men));
        LoseFigures(g, s, ctx, u, men, "10.3");
      }
    }
  }
}

void MoveHerd(const Game& g, State& s, Context& ctx, int h, Vec2 dir, double inches, const char* rule) {
  Herd& herd = M(s).herds[h];
  const Vec2 from = HerdPos(herd);
  const Move m = g.table().MoveAlong(from, dir, inches);
  herd.x = H(m.position.x);
  herd.y = H(m.position.y);
  herd.penned = 0;
  ctx.Emit(Ev(EventType::kNote, rule, h < 4 ? "cows move" : "pigs move", kNoUnit, herd.x, herd.y));
  LivestockPasses(g, s, ctx, Segment{from, m.position});
}

// 9.2: pigs on their "closest unit" face run 2D6" at the closest unit in line of sight.
WG_RULE("9.2", HerdAtClosestUnit);
void HerdAtClosestUnit(const Game& g, State& s, Context& ctx, int h, double dist) {
  MiniState& m = M(s);
  const Vec2 p = HerdPos(m.herds[h]);
  UnitId best = kNoUnit;
  double bd = 1e18;
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (!OnTable(s, u)) continue;
    const double dd = DistanceSquared(p, CenterOf(s, u));
    if (dd < bd && g.table().LineOfSightClear(p, CenterOf(s, u))) bd = dd, best = u;
  }
  if (best == kNoUnit) return;
  const Move mv = g.table().MoveToward(p, CenterOf(s, best), dist);
  m.herds[h].x = H(mv.position.x);
  m.herds[h].y = H(mv.position.y);
  ctx.Emit(Ev(EventType::kNote, "9.2", "pigs run at the closest unit", best, m.herds[h].x, m.herds[h].y));
  LivestockPasses(g, s, ctx, Segment{p, mv.position});
}

// 9.1 / 9.2: one card for a kind (first = 0 cows, 4 pigs); the direction
// table, its die and the 2D6 of movement are data (chart.livestock).
WG_RULE("9.1/9.2", LivestockCard);
void LivestockCard(const Game& g, State& s, Context& ctx, int first) {
  const MiniData& d = D(g);
  MiniState& m = M(s);
  const bool pigs = first == 4;
  const char* rule = pigs ? "9.2" : "9.1";
  int alive = 0;
  for (int h = first; h < first + 4; ++h) alive += m.herds[h].alive;
  if (alive == 0) return;
  if (pigs && m.herds[first].alive && m.herds[first].penned) {
    if (s.turn >= d.pig_auto_turn) {
      ctx.Emit(Ev(EventType::kNote, "9.2", "pigs escape their pen (third turn)"));
    } else if (ctx.Roll(s, d.herd_direction_die, "pigs escape") >= d.pig_escape_roll) {
      ctx.Emit(Ev(EventType::kNote, "9.2", "pigs escape their pen"));
    } else {
      ctx.Emit(Ev(EventType::kNote, "9.2", "pigs stay in their pen"));
      return;
    }
    m.herds[first].penned = 0;
  }
  const std::vector<HerdFace>& table = pigs ? d.pig_faces : d.cow_faces;
  const int dir = ctx.Roll(s, d.herd_direction_die, pigs ? "pig direction" : "cow direction");
  const HerdFace face = dir >= 1 && dir <= static_cast<int>(table.size()) ? table[dir - 1u] : HerdFace{};
  if (face.move == HerdMove::kStay) {
    ctx.Emit(Ev(EventType::kNote, rule, pigs ? "pigs do not move" : "cows do not move"));
    return;
  }
  const double dist = ctx.RollSum(s, d.herd_move_dice, d.herd_move_die, pigs ? "pig movement" : "cow movement");
  if (face.move == HerdMove::kDirection) {
    for (int h = first; h < first + 4; ++h) {
      if (m.herds[h].alive) MoveHerd(g, s, ctx, h, face.dir, dist, rule);
    }
  } else if (face.move == HerdMove::kScatter) {
    if (alive == 1) {  // the herd splits into four groups
      int src = first;
      while (!m.herds[src].alive) ++src;
      const Herd base = m.herds[src];
      for (int h = first; h < first + 4; ++h) m.herds[h] = base;
    }
    for (int h = first; h < first + 4; ++h) {
      const Vec2 v = d.scatter.size() == 4 ? d.scatter[static_cast<size_t>(h - first)] : Vec2{0, 0};
      if (m.herds[h].alive) MoveHerd(g, s, ctx, h, v, dist, rule);
    }
  } else {  // kClosestUnit
    for (int h = first; h < first + 4; ++h) {
      if (m.herds[h].alive) HerdAtClosestUnit(g, s, ctx, h, dist);
    }
  }
}

// --- Turn and deck (T.1) -------------------------------------------------------------

bool SideHasUnits(const Game& g, const State& s, int side) {
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (OnTable(s, u) && s.unit(u).side == side) return true;
  }
  return false;
}

WG_RULE("V", EndGame);
void EndGame(const Game& g, State& s, Context& ctx) {
  const MiniData& d = D(g);
  int vp[2] = {0, 0};
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    const UnitInfo& info = d.info[static_cast<size_t>(u)];
    const MiniUnit& mu = M(s).units[u];
    const int lost_figs = info.start_figures - (OnTable(s, u) ? mu.figures : 0);
    const int lost_guns = info.start_guns - (OnTable(s, u) ? mu.guns : 0);
    vp[1 - s.unit(u).side] += lost_figs * d.vp_figure + lost_guns * d.vp_gun;
  }
  for (size_t a = 0; a < g.table().areas.size(); ++a) {
    if (!IsBuilding(g.table().areas[a])) continue;
    int holder = -1;
    for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
      if (!OnTable(s, u) || M(s).units[u].building != a + 1) continue;
      holder = holder == -1 || holder == s.unit(u).side ? s.unit(u).side : -2;
    }
    if (holder >= 0) vp[holder] += d.vp_building;
  }
  for (int side = 0; side < 2; ++side) {
    s.vp[side] = static_cast<int16_t>(vp[side]);
    Event e =
        Ev(EventType::kVictoryPoints, "V", "casualties inflicted and buildings held", kNoUnit, vp[side]);
    e.side = static_cast<int8_t>(side);
    ctx.Emit(e);
  }
  s.game_over = 1;
  ClearSteps(s);
  s.winner = static_cast<int8_t>(vp[0] > vp[1] ? 0 : vp[1] > vp[0] ? 1 : -1);
  Event e = Ev(EventType::kGameEnd, "V", s.winner < 0 ? "draw" : "victory");
  e.side = s.winner;
  ctx.Emit(e);
}

WG_RULE("T.1", NewDeck);
void NewDeck(const Game& g, State& s) {
  MiniState& m = M(s);
  int n = 0;
  const bool cows = m.herds[0].alive + m.herds[1].alive + m.herds[2].alive + m.herds[3].alive;
  const bool pigs = m.herds[4].alive + m.herds[5].alive + m.herds[6].alive + m.herds[7].alive;
  auto present = [&](int card) {
    return card == kCowCard ? cows : card == kPigCard ? pigs : OnTable(s, static_cast<UnitId>(card));
  };
  for (int card : D(g).deck_order) {
    if (present(card)) m.deck[n++] = static_cast<uint8_t>(card);
  }
  if (D(g).shuffle) {  // Fisher-Yates with the game's seeded generator
    for (int i = n - 1; i > 0; --i) {
      const int j = static_cast<int>(UniformBelow(s.rng, static_cast<uint32_t>(i + 1)));
      std::swap(m.deck[i], m.deck[j]);
    }
  }
  m.deck_size = static_cast<uint8_t>(n);
  m.deck_pos = 0;
}

// Draws cards until a unit must act (or the game ends): its activation step (T.1,
// the only one on the stack; args[0] the unit) for its side.
WG_RULE("T.1", DrawNext);
void DrawNext(const Game& g, State& s, Context& ctx) {
  MiniState& m = M(s);
  PopStepsTo(s, g.rules->steps(), 0);  // no card is up
  for (int guard = 0; guard < 10000; ++guard) {
    if (!SideHasUnits(g, s, 0) || !SideHasUnits(g, s, 1)) {
      EndGame(g, s, ctx);
      return;
    }
    if (m.deck_pos >= m.deck_size) {
      if (s.turn >= g.turns.num_turns()) {
        EndGame(g, s, ctx);
        return;
      }
      ++s.turn;
      for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
        s.unit(u).flags = static_cast<uint16_t>(
            s.unit(u).flags & ~(kPinned | kPinnedByLivestock | kFormationChanged | kMovedNow | kActivated));
      }
      ctx.Emit(Ev(EventType::kTurnStart, "T.1", "", kNoUnit, s.turn));
      NewDeck(g, s);
      continue;
    }
    const uint8_t card = m.deck[m.deck_pos++];
    if (card == kCowCard) {
      ctx.Emit(Ev(EventType::kNote, "T.1", "cow card"));
      LivestockCard(g, s, ctx, 0);
    } else if (card == kPigCard) {
      ctx.Emit(Ev(EventType::kNote, "T.1", "pig card"));
      LivestockCard(g, s, ctx, 4);
    } else if (OnTable(s, card)) {
      s.unit(card).flags |= kActivated;
      s.phasing_side = s.unit(card).side;
      PushStep(s, g.rules->steps(), kActivationStep, s.unit(card).side, {card});
      ctx.Emit(Ev(EventType::kNote, "T.1", "card: unit activates", card));
      return;
    }
  }
}

void EndActivation(const Game& g, State& s, Context& ctx) {
  MiniState& m = M(s);
  const uint8_t active = ActiveCard(s);
  if (active != kNone) {
    s.unit(active).flags = static_cast<uint16_t>(s.unit(active).flags & ~(kMovedNow | kDesignated));
    m.units[active].arranged = 0;
  }
  DrawNext(g, s, ctx);
}

// --- Movement (1, M) -------------------------------------------------------------------

// Computes where a move toward `dest` ends. Returns the refusal text or nullptr.
WG_RULE("M/C.1/C.3", PlanMove);
const char* PlanMove(const Game& g, const State& s, UnitId u, Vec2 dest, Footprint* out, const char** rule) {
  const UnitType& t = TypeOf(g, u);
  const UnitState& us = s.unit(u);
  *rule = "M";
  if (us.Has(kRouted)) {
    *rule = "10.1";
    return "a routed unit cannot move until rallied";
  }
  if (us.Has(kPinned)) {
    *rule = PinRule(us);
    return "the unit cannot move this turn";
  }
  if (us.Has(kMovedNow)) return "the unit has already moved in this activation";
  double rate = us.face == 1 ? t.move_line : t.move_column;
  if (rate <= 0) return "cannot move in this formation (unlimbered artillery must limber)";
  const Table& table = g.table();
  const Vec2 c = CenterOf(s, u);
  const Vec2 delta = dest - c;
  const double want = delta.Length();
  if (want < 0.01) return "the destination is where the unit stands";
  if (!table.Contains(dest)) return "the destination is off the table";
  rate = Allowance(g, Segment{c, c + delta * (std::min(want, rate) / want)}, rate);
  if (rate <= 0.01) return "not enough movement to cross the fence";
  const double facing = std::round(std::atan2(delta.y, delta.x) * 180.0 / kPi);
  // 12.3: a unit leaving its building moves as one body (its line beside rejoins it).
  Footprint f = FootprintAt(g, s, u, c, facing);
  if (M(s).units[u].building != 0) {
    State whole = s;
    M(whole).units[u].building = 0;
    M(whole).units[u].beside = 0;
    f = FootprintAt(g, whole, u, c, facing);
  }
  const FootprintFrame frame = FrameOf(f, facing);  // its corners are f.Corners(), term by term
  for (Vec2 p : Straightforward() ? f.Corners() : frame.Corners()) {
    if (!table.Contains(p)) return "the unit cannot wheel there: it would leave the table";
  }
  *rule = "C.1";
  const double go = std::min(want, rate);
  // want >= 0.01 and go > 0.01: it tests the start. The sweep's direction is delta, of length want.
  const Path p = Straightforward() ? SweepStraight(g, s, u, f, delta, go, kNoUnit)
                                   : SweepFast(g, s, u, frame, delta, want, go, kNoUnit);
  if (p.start_blocker != kNoUnit) return "the unit cannot wheel there: it would stand on another unit";
  if (p.blocker != kNoUnit && p.moved < go - 0.01)
    return "units may not move through or onto other units (friends do not interpenetrate)";
  *rule = "C.3";
  if (p.building) return "a building the enemy holds is entered only by charge and melee";
  *rule = "M";
  *out = p.end;
  return nullptr;
}

WG_RULE("12.1/12.2", EnterBuildingIfInside);
void EnterBuildingIfInside(const Game& g, State& s, Context& ctx, UnitId u) {
  MiniUnit& mu = M(s).units[u];
  mu.building = 0;
  mu.beside = 0;  // 12.3: a unit entering (or leaving) a building re-forms as one body
  s.unit(u).flags = static_cast<uint16_t>(s.unit(u).flags & ~kOfficerOutside);
  if (TypeOf(g, u).artillery) return;
  const Vec2 c = CenterOf(s, u);
  for (size_t a = 0; a < g.table().areas.size(); ++a) {
    if (IsBuilding(g.table().areas[a]) && g.table().areas[a].Contains(c)) {
      mu.building = static_cast<uint8_t>(a + 1);
      ctx.Emit(Ev(EventType::kNote, g.table().areas[a].kind == "barn" ? "12.1" : "12.2", "occupies a building",
                  u, InsideFigures(g, s, u), mu.figures - InsideFigures(g, s, u)));
    }
  }
}

// --- The rules -------------------------------------------------------------------------

// A facing toward direction v in whole degrees, 0 east, counterclockwise, in
// (-180, 180]: one number for each facing (so -180 and 180 are not two actions).
int FacingDegrees(Vec2 v) {
  const int deg = static_cast<int>(std::lround(std::atan2(v.y, v.x) * 180.0 / kPi));
  return deg <= -180 ? deg + 360 : deg;
}

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
    AppendRuleMarks(wg_rule_marks_ruleset, out);
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

bool IsActive(const Action& a, UnitId u, int i) { return a.num_units > i && a.units[static_cast<size_t>(i)] == u; }

// The action's i-th unit, kNoUnit if there is none or it is out of range.
UnitId UnitArg(const Game& g, const Action& a, int i) {
  if (a.num_units <= i) return kNoUnit;
  const UnitId o = a.units[static_cast<size_t>(i)];
  return o >= 0 && o < static_cast<UnitId>(g.num_units()) ? o : kNoUnit;
}

// 2.4: the charged unit answers (stand and fire, or countercharge): the charge_response
// step's handler of a choice. A charge that ends in contact calls the melee step (8.x),
// whose end ends the charger's activation (charge_response's resume); one that does not
// ends it here.
WG_RULE("2.4", AnswerCharge);
Status AnswerCharge(State& s, const Action& a, Context& ctx) {
  if (a.value < 0 || a.value > 1) {
    return Refused("2.4", "the charged unit must choose: 0 stand and fire, 1 countercharge");
  }
  const Game& g = ctx.game();
  const MiniData& d = D(g);
  const PendingCharge charge = PendingChargeOf(s);
  const UnitId att = charge.charger, def = charge.target;
  Event e =
      Ev(EventType::kChoice, "2.4", a.value ? "countercharge" : "stand, fire, then melee", def, a.value);
  e.side = static_cast<int8_t>(s.unit(def).side);
  ctx.Emit(e);
  bool contact = false;
  if (a.value == 0) {
    const char* rule = "";
    if (!CannotFireAt(g, s, def, att, kBody, &rule)) {
      Fire(g, s, ctx, def, att);
    } else {
      ctx.Emit(Ev(EventType::kNote, "2.4", "the charged unit cannot fire", def));
    }
    if (OnTable(s, att) && !s.unit(att).Has(kRouted)) contact = CloseIn(g, s, ctx, att, def, d.charge_range, "charges home");
  } else {
    CloseIn(g, s, ctx, def, att, d.countercharge_move, "countercharges");
    CloseIn(g, s, ctx, att, def, d.countercharge_move, "charges");
    contact = CloseIn(g, s, ctx, att, def, d.charge_range, "charges home");  // close any gap left to contact
  }
  if (OnTable(s, att) && OnTable(s, def) && !s.unit(att).Has(kRouted)) {
    if (contact) {
      CallStep(s, ctx, g.rules->steps(), kMeleeStep, s.unit(att).side,
               {static_cast<int16_t>(att), static_cast<int16_t>(def), static_cast<int16_t>(charge.flank)});
      return Status::Ok();
    }
    ctx.Emit(Ev(EventType::kNote, "C.2", "the charge is stopped short of its target: no melee", att, 0, def));
  }
  EndActivation(g, s, ctx);  // the charger's (its step under this one); the next card clears both
  return Status::Ok();
}

// 1: a change of formation (column or line).
WG_RULE("1", CheckFormation);
Status CheckFormation(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1) return Refused("T.1", "only the activated unit may act");
  if (a.value != 0 && a.value != 1) return Refused("1", "formation is 0 (column) or 1 (line)");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit must rally first");
  if (us.Has(kFormationChanged)) return Refused("1", "formation may change only once per turn");
  if (a.value == us.face) return Refused("1", "the unit is already in that formation");
  // The base in the new formation (the check writes nothing unless it applies).
  const Footprint f = FootprintIn(g, s, u, CenterOf(s, u), m.units[u].facing, a.value);
  bool ok = true;
  for (Vec2 p : f.Corners()) ok = ok && g.table().Contains(p);
  const bool crowded = ok && Blocker(g, s, u, f) != kNoUnit;
  if (!ok || crowded) {
    return crowded ? Refused("C.1", "no room for that formation: it would stand on another unit")
                   : Refused("1", "no room on the table for that formation");
  }
  if (!apply) return Status::Ok();
  us.face = static_cast<uint8_t>(a.value);
  us.flags |= kFormationChanged;
  ctx.Emit(Ev(EventType::kModeChange, "1", a.value ? "line" : "column", u, a.value));
  return Status::Ok();
}

// M: a move of the activated unit.
Status CheckMoveAction(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1) return Refused("T.1", "only the activated unit may act");
  Footprint f;
  const char* rule = "M";
  const char* why = PlanMove(g, s, u, Vec2{a.value / 100.0, a.value2 / 100.0}, &f, &rule);
  if (why) return Refused(rule, why);
  if (!apply) return Status::Ok();
  MiniUnit& mu = m.units[u];
  mu.x = H(f.center.x);
  mu.y = H(f.center.y);
  mu.facing = static_cast<int16_t>(std::lround(f.facing * 180.0 / kPi));
  us.flags |= kMovedNow;
  ctx.Emit(Ev(EventType::kMove, "M", "moves", u, mu.x, mu.y));
  EnterBuildingIfInside(g, s, ctx, u);
  return Status::Ok();
}

// custom kFace, M: the unit wheels to a facing.
Status CheckFace(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1)
    return Refused("T.1", "only the activated unit may act");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit cannot move until rallied");
  if (us.Has(kPinned)) return Refused(PinRule(us), "the unit cannot move this turn");
  if (us.Has(kMovedNow)) return Refused("M", "facing counts as the unit's move");
  const Footprint f = FootprintAt(g, s, u, CenterOf(s, u), a.value2);
  for (Vec2 p : f.Corners()) {
    if (!g.table().Contains(p))
      return Refused("M", "the unit cannot wheel there: it would leave the table");
  }
  if (Blocker(g, s, u, f) != kNoUnit)
    return Refused("C.1", "the unit cannot wheel there: it would stand on another unit");
  if (HasLine(s, u)) {  // 12.3: the line beside the building wheels in place with it
    Footprint l = LineOf(g, s, u);
    l.facing = a.value2 * kPi / 180.0;
    for (Vec2 p : l.Corners()) {
      if (!g.table().Contains(p))
        return Refused("12.3", "the line beside the building cannot wheel there: off the table");
    }
    if (Blocker(g, s, u, l) != kNoUnit)
      return Refused("C.1", "the line beside the building cannot wheel there: it would stand on another unit");
  }
  if (!apply) return Status::Ok();
  m.units[u].facing = static_cast<int16_t>(((a.value2 % 360) + 360) % 360);
  us.flags |= kMovedNow;
  ctx.Emit(Ev(EventType::kMove, "M", "faces", u, m.units[u].facing));
  return Status::Ok();
}

// custom kRally, 10.1: a routed unit rallies.
WG_RULE("10.1", CheckRally);
Status CheckRally(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0)) return Refused("T.1", "only the activated unit may act");
  if (!us.Has(kRouted)) return Refused("10.1", "only a routed unit rallies");
  if (!apply) return Status::Ok();
  if (TestMorale(g, s, ctx, u, "rally")) {
    us.flags = static_cast<uint16_t>(us.flags & ~kRouted);
    ctx.Emit(Ev(EventType::kRecover, "10.1", "rallied", u));
  } else {
    Retreat(g, s, ctx, u, d.retreat, "10.1");
  }
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// custom kManGuns, 11.2: crew man a depleted battery.
WG_RULE("11.2", CheckManGuns);
Status CheckManGuns(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  const UnitId o = UnitArg(g, a, 1);
  if (!IsActive(a, u, 0) || o == kNoUnit)
    return Refused("11.2", "{custom: 3, units: [crew, battery]}");
  const UnitType& t = TypeOf(g, u);
  if (!t.artillery || !TypeOf(g, o).artillery)
    return Refused("11.2", "only gun crews man batteries");
  if (us.Has(kRouted)) return Refused("11.2", "crews must be rallied first");
  if (!OnTable(s, o) || s.unit(o).side != us.side || o == u)
    return Refused("11.2", "not a friendly battery");
  const int spare = m.units[u].figures - m.units[u].guns * t.crew_per_gun;
  const int need = m.units[o].guns * TypeOf(g, o).crew_per_gun - m.units[o].figures;
  if (spare <= 0) return Refused("11.2", "no crew without a gun");
  if (need <= 0) return Refused("11.2", "that battery is not depleted");
  if (FootprintDistance(FootprintOf(g, s, u), FootprintOf(g, s, o)) > t.move_column) {
    return Refused("11.2", "the battery is beyond one move");
  }
  if (!apply) return Status::Ok();
  const int n = std::min(spare, need);
  m.units[u].figures = static_cast<uint8_t>(m.units[u].figures - n);
  m.units[o].figures = static_cast<uint8_t>(m.units[o].figures + n);
  ctx.Emit(Ev(EventType::kNote, "11.2", "crew man a depleted battery", o, n));
  CheckAlive(g, s, ctx, u, "11.2");
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// custom kOfficerPlace, 12.4: the officers' place in a building.
WG_RULE("12.4", CheckOfficerPlace);
Status CheckOfficerPlace(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1)
    return Refused("T.1", "only the activated unit may act");
  if (m.units[u].building == 0 || m.units[u].officers == 0) {
    return Refused("12.4", "only a unit with officers in a building designates where they are");
  }
  if (a.value2 != 0 && a.value2 != 1) return Refused("12.4", "value2: 0 inside, 1 outside");
  if (us.Has(kDesignated))
    return Refused("12.4", "officers are designated once per activation");
  if (!apply) return Status::Ok();
  us.flags |= kDesignated;
  if (a.value2) {
    us.flags |= kOfficerOutside;
  } else {
    us.flags = static_cast<uint16_t>(us.flags & ~kOfficerOutside);
  }
  ctx.Emit(Ev(EventType::kNote, "12.4", a.value2 ? "officers wait outside" : "officers inside", u));
  return Status::Ok();
}

// custom kFormBeside, 12.3: the figures that do not fit form a line beside the building.
WG_RULE("12.3", CheckFormBeside);
Status CheckFormBeside(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0) || a.num_units != 1)
    return Refused("T.1", "only the activated unit may act");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit must rally first");
  if (us.Has(kPinned)) return Refused(PinRule(us), "the unit cannot move this turn");
  MiniUnit& mu = m.units[u];
  if (mu.building == 0)
    return Refused("12.3", "only a unit occupying a building places the figures that do not fit");
  const int over = Overflow(g, s, u);
  if (over <= 0) return Refused("12.3", "every figure of the unit fits in the building");
  const int max_stands = (over + d.figures_per_stand - 1) / d.figures_per_stand;
  if (a.value2 < 0 || a.value2 > max_stands) {
    return Refused("12.3", "value2: the stands formed in line beside the building, 0 to " +
                                       std::to_string(max_stands));
  }
  if (mu.arranged) return Refused("12.3", "the figures outside are placed once per activation");
  const int figs = std::min(a.value2 * d.figures_per_stand, over);
  if (figs >= mu.figures)  // the building is full of other units: nobody of this one is inside
    return Refused("12.3", "the whole unit would stand outside the building: move it instead");
  Vec2 c{mu.line_x / 100.0, mu.line_y / 100.0};
  if (figs > 0) {
    if (const char* why = PlaceLineBeside(g, s, u, figs, &c)) return Refused("12.3", why);
  }
  {  // C.1: the main body grows when figures come back from the line
    State after = s;
    M(after).units[u].beside = static_cast<uint8_t>(figs);
    if (Blocker(g, after, u, FootprintOf(g, after, u)) != kNoUnit)
      return Refused("C.1", "the main body would stand on another unit");
  }
  if (!apply) return Status::Ok();
  mu.beside = static_cast<uint8_t>(figs);
  mu.line_x = H(c.x);
  mu.line_y = H(c.y);
  mu.arranged = 1;
  ctx.Emit(Ev(EventType::kNote, "12.3",
              figs > 0 ? "figures outside form in line beside the building" : "figures outside wait behind",
              u, figs, Waiting(g, s, u)));
  return Status::Ok();
}

// 3: fire at an enemy unit, its line beside a building (12.3) or livestock (9.3).
WG_RULE("3/9.3", CheckFire);
Status CheckFire(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!IsActive(a, u, 0)) return Refused("T.1", "only the activated unit may act");
  const char* rule = "3";
  if (a.num_units == 1 && a.value >= kHerdTarget && a.value < kHerdTarget + kNumHerds) {  // 9.3
    const int h = a.value - kHerdTarget;
    if (!m.herds[h].alive) return Refused("9.3", "no livestock there");
    const Vec2 p = HerdPos(m.herds[h]);
    const double range = DistanceBetween(CenterOf(s, u), p);
    if (const char* why = CannotFire(g, s, u, p, range, &rule)) return Refused(rule, why);
    if (!apply) return Status::Ok();
    const int hits = RollHits(g, s, ctx, u, FireDice(g, s, u, kBody),
                              AttackerBonus(g, s, u, CenterOf(s, u), kNoUnit, nullptr), range, 0, "3");
    if (hits > 0) {
      m.herds[h].alive = 0;
      ctx.Emit(Ev(EventType::kNote, "9.3", "livestock shot", u, h));
    }
    EndActivation(g, s, ctx);
    return Status::Ok();
  }
  const UnitId t = UnitArg(g, a, 1);
  if (a.num_units != 2 || t == kNoUnit) return Refused("3", "{bombard: [firer, target]}");
  if (!OnTable(s, t) || s.unit(t).side == us.side)
    return Refused("3", "the target must be an enemy unit on the table");
  if (a.value != kBody && a.value != kAtLineBeside)
    return Refused("3", "value: 0 the unit, 1 its line beside a building (12.3)");
  if (a.value == kAtLineBeside && !HasLine(s, t))
    return Refused("12.3", "the target has no line formed beside a building");
  if (const char* why = CannotFireAt(g, s, u, t, a.value, &rule)) return Refused(rule, why);
  if (!apply) return Status::Ok();
  Fire(g, s, ctx, u, t, a.value);
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// 2: a charge; the attackee answers in the charge_response step (2.4).
WG_RULE("2.1/2.2/2.3", CheckCharge);
Status CheckCharge(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  const UnitId t = UnitArg(g, a, 1);
  if (!IsActive(a, u, 0) || a.num_units != 2 || t == kNoUnit)
    return Refused("2", "{attack: [charger, target]}");
  if (!OnTable(s, t) || s.unit(t).side == us.side)
    return Refused("2", "the target must be an enemy unit");
  if (us.Has(kRouted)) return Refused("10.1", "a routed unit cannot charge until rallied");
  if (us.Has(kPinned)) return Refused(PinRule(us), "the unit cannot move this turn");
  if (us.Has(kMovedNow))
    return Refused("2.1", "a charge is the unit's move: it has already moved");
  if (TypeOf(g, u).artillery) return Refused("2", "artillery does not charge");
  const Footprint uf = FootprintOf(g, s, u), tf = FootprintOf(g, s, t);
  // Centres farther apart than both radii and the range: the bases are surely
  // farther apart than the range (the same refusal, without the exact distance).
  const double reach = uf.Radius() + tf.Radius() + d.charge_range + 1e-6;
  const double dist = DistanceSquared(uf.center, tf.center) > reach * reach ? reach : FootprintDistance(uf, tf);
  if (dist > d.charge_range + 1e-9) {
    return RefusedWith("2.1", [range = d.charge_range] {  // chart.charge_range (8")
      char why[64];
      std::snprintf(why, sizeof(why), "charges must be within %g\" of the chosen target", range);
      return std::string(why);
    });
  }
  if (const char* why = ChargePathBlocked(g, s, u, t)) return Refused("C.4", why);
  if (!apply) return Status::Ok();
  ctx.Emit(Ev(EventType::kAttack, "2.1", "charges", u, static_cast<int>(std::lround(dist * 100)), t));
  us.flags |= kMovedNow;
  if (!TestMorale(g, s, ctx, u, "charge: attacker")) {  // 2.2
    us.flags |= kPinned;
    ctx.Emit(Ev(EventType::kNote, "2.2", "charge fails: cannot move or shoot", u));
    EndActivation(g, s, ctx);
    return Status::Ok();
  }
  if (!TestMorale(g, s, ctx, t, "charge: attackee")) {  // 2.3
    const Vec2 old = CenterOf(s, t);
    if (Disorganized(g, s, t)) {
      FailMorale(g, s, ctx, t, "2.3");
    } else {
      Retreat(g, s, ctx, t, d.retreat, "2.3");
    }
    const int lost = LoseStands(g, s, ctx, t, 1, "2.3");
    if (OnTable(s, t)) OfficerCheck(g, s, ctx, t, lost);  // 4.1/4.2: it was attacked and took losses
    Occupy(g, s, ctx, u, old, "2.3");
    EndActivation(g, s, ctx);
    return Status::Ok();
  }
  const int16_t flank = ArcOf(FootprintOf(g, s, t), CenterOf(s, u)) != Arc::kFront ? 1 : 0;  // 6.2
  PushStep(s, g.rules->steps(), kChargeResponseStep, s.unit(t).side, {u, t, flank});  // 2.4
  return Status::Ok();
}

// T.1 / 10.1: the activated unit's player ends its activation; a routed unit that did
// not rally keeps falling back.
WG_RULE("10.1", CheckEndActivation);
Status CheckEndActivation(const ActionCheck& check) {
  auto& [g, d, s, m, a, ctx, apply, u, us] = check;
  if (!apply) return Status::Ok();
  if (us.Has(kRouted)) Retreat(g, s, ctx, u, d.retreat, "10.1");  // not rallied: keeps going
  EndActivation(g, s, ctx);
  return Status::Ok();
}

// 10.2: no merge exists; a recombination is refused.
WG_RULE("10.2", CheckRecombine);
Status CheckRecombine(const ActionCheck&) {
  return Refused("10.2", "fragments of infantry units cannot be consolidated");
}

// T.2: the actions of the activated unit, one function each (a custom action's code,
// Action::value, has its own). The activation step registers one handler per action
// type from this table (StepDef::On; custom actions: one handler that finds the code's
// function here), and listing checks a candidate with the same function without
// applying it (MiniRules::Allowed).
using ActivationCheck = Status (*)(const ActionCheck&);
constexpr int kAnyCode = -1;
struct ActivationAction {
  ActionType type;
  int code;  // a custom action's code (Action::value); kAnyCode for the other types
  ActivationCheck check;
};
constexpr ActivationAction kActivationActions[] = {
    {ActionType::kEndPhase, kAnyCode, CheckEndActivation},
    {ActionType::kRecombine, kAnyCode, CheckRecombine},
    {ActionType::kChangeMode, kAnyCode, CheckFormation},
    {ActionType::kMove, kAnyCode, CheckMoveAction},
    {ActionType::kBombard, kAnyCode, CheckFire},
    {ActionType::kAttack, kAnyCode, CheckCharge},
    {ActionType::kCustom, kRally, CheckRally},
    {ActionType::kCustom, kFace, CheckFace},
    {ActionType::kCustom, kManGuns, CheckManGuns},
    {ActionType::kCustom, kOfficerPlace, CheckOfficerPlace},
    {ActionType::kCustom, kFormBeside, CheckFormBeside},
};

// T.2: the table's entry for `a` (its type, and a custom action's code), or nullptr.
WG_RULE("T.2", ActivationActionFor);
const ActivationAction* ActivationActionFor(const Action& a) {
  for (const ActivationAction& x : kActivationActions) {
    if (x.type == a.type && (x.code == kAnyCode || x.code == a.value)) return &x;
  }
  return nullptr;
}

// T.1: an action of the activated unit (the activation step's args[0]) by its
// function: checked, and applied when `apply`.
Status RunActivationAction(const ActivationAction& x, State& s, const Action& a, Context& ctx, bool apply) {
  const uint8_t active = ActiveCard(s);
  if (active == kNone) return Refused("T.1", "no unit is activated");
  const Game& g = ctx.game();
  const UnitId u = active;
  return x.check({g, D(g), s, M(s), a, ctx, apply, u, s.unit(u)});
}

// T.2: a custom action goes to its code's function (1 rally, 2 face, 3 man guns,
// 4 officers' place, 5 line beside a building).
Status ApplyCustomAction(State& s, const Action& a, Context& ctx) {
  const ActivationAction* x = ActivationActionFor(a);
  if (x == nullptr) {
    return Refused("T.2",
                   "unknown custom code (1 rally, 2 face, 3 man guns, 4 officers' place, 5 line beside a building)");
  }
  return RunActivationAction(*x, s, a, ctx, true);
}

void MiniRules::RegisterSteps() {
  StepDef act = NewStep("activation", "T.1", DecisionType::kMovement);
  act.list = [this](const State& s, Context& ctx, std::vector<Action>* out) { ListActivation(s, ctx, out); };
  for (const ActivationAction& x : kActivationActions) {  // one handler per action type (T.2)
    if (x.type == ActionType::kCustom) continue;
    act.On(x.type, [p = &x](State& s, const Action& a, Context& ctx) { return RunActivationAction(*p, s, a, ctx, true); });
  }
  act.On(ActionType::kCustom, ApplyCustomAction);
  act.prompt = [this](const State& s) {
    const uint8_t active = ActiveCard(s);
    if (active == kNone) return std::string(DecisionPrompt(DecisionType::kMovement));
    const std::string who = game_ ? game_->UnitLabel(active) : std::to_string(active);
    return "activation of " + who +
           (s.unit(active).Has(kRouted) ? ": rally or end (10.1)" : ": formation, move, face, fire, charge, man guns or end");
  };
  const StepKind activation = steps_.Register(std::move(act));
  StepDef charge = NewStep("charge_response", "2.4", DecisionType::kChoice);
  charge.list = [](const State&, Context&, std::vector<Action>* out) {
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
    out->push_back(Action::Of(ActionType::kChoice).Value(1));
  };
  charge.On(ActionType::kChoice, AnswerCharge);
  // The melee it called (8.x) has ended: so has the charger's activation (its step under this one).
  charge.resume = [](State& s, Context& ctx, int) { EndActivation(ctx.game(), s, ctx); };
  charge.prompt = [](const State&) { return std::string("charged: 0 = stand, fire, then melee; 1 = countercharge (2.4)"); };
  const StepKind response = steps_.Register(std::move(charge));
  StepDef melee = NewStep("melee", "8.1", DecisionType::kNone);
  melee.resume = [](State& s, Context& ctx, int) { ResumeMelee(s, ctx); };
  const StepKind melee_kind = steps_.Register(std::move(melee));
  // The kinds rules.h reads.
  assert(activation == kActivationStep && response == kChargeResponseStep && melee_kind == kMeleeStep);
  (void)activation;
  (void)response;
  (void)melee_kind;
}

bool MiniRules::Allowed(const State& s, const Action& a, const Game& g) const {
  const ActivationAction* x = ActivationActionFor(a);
  if (x == nullptr) return false;
  Context probe(g, nullptr, nullptr, nullptr);
  ++probing_depth;
  const bool ok = RunActivationAction(*x, const_cast<State&>(s), a, probe, false).ok();
  --probing_depth;
  return ok;
}

// --- What a player sees: --json ------------------------------------------------------------

std::string JsonQuote(const std::string& in) {
  std::string out = "\"";
  for (char c : in) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      out += b;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

const char* Bool(bool b) { return b ? "true" : "false"; }

// Every unit's figures, stands, guns, officers, formation, facing, position and
// markers, its building occupancy (12.x), and the livestock.
WG_RULE("T.3", MiniRules::StateJson);
std::string MiniRules::StateJson(const State& s) const {
  if (!game_) return "";
  const Game& g = *game_;
  const MiniState& m = M(s);
  std::string o = "{\"units\": [";
  char b[160];
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    const MiniUnit& mu = m.units[u];
    const UnitState& us = s.unit(u);
    const bool on = OnTable(s, u);
    o += u ? ",\n    " : "\n    ";
    o += "{\"id\": " + JsonQuote(g.units[static_cast<size_t>(u)].id) +
         ", \"name\": " + JsonQuote(g.units[static_cast<size_t>(u)].name) + ", \"on_table\": " + Bool(on);
    std::snprintf(b, sizeof b, ", \"x\": %.2f, \"y\": %.2f, \"facing\": %d", mu.x / 100.0, mu.y / 100.0,
                  ((mu.facing % 360) + 360) % 360);
    o += b;
    o += std::string(", \"formation\": ") + (TypeOf(g, u).artillery ? (us.face ? "\"unlimbered\"" : "\"limbered\"")
                                                                     : (us.face ? "\"line\"" : "\"column\""));
    o += ", \"figures\": " + std::to_string(on ? mu.figures : 0) + ", \"stands\": " + std::to_string(on ? Stands(g, s, u) : 0) +
         ", \"guns\": " + std::to_string(on ? mu.guns : 0);
    o += std::string(", \"officers\": [") + ((mu.officers & kRegimental) ? "\"regimental\"" : "") +
         ((mu.officers & kRegimental) && (mu.officers & kDivisional) ? ", " : "") +
         ((mu.officers & kDivisional) ? "\"divisional\"" : "") + "]";
    o += std::string(", \"routed\": ") + Bool(us.Has(kRouted)) + ", \"pinned\": " + Bool(us.Has(kPinned)) +
         ", \"disorganized\": " + Bool(on && Disorganized(g, s, u)) + ", \"activated\": " + Bool(us.Has(kActivated));
    if (on && mu.building != 0) {
      o += ", \"building\": {\"name\": " + JsonQuote(g.table().areas[mu.building - 1u].name) +
           ", \"inside\": " + std::to_string(InsideFigures(g, s, u)) + ", \"line_beside\": " + std::to_string(mu.beside) +
           ", \"waiting\": " + std::to_string(Waiting(g, s, u)) +
           ", \"officers_outside\": " + Bool(us.Has(kOfficerOutside)) + "}";
    } else {
      o += ", \"building\": null";
    }
    o += "}";
  }
  o += "\n  ], \"livestock\": [";
  bool first = true;
  for (int h = 0; h < kNumHerds; ++h) {
    const Herd& herd = m.herds[h];
    if (!herd.alive) continue;
    std::snprintf(b, sizeof b, "%s{\"kind\": \"%s\", \"group\": %d, \"x\": %.2f, \"y\": %.2f, \"penned\": %s}",
                  first ? "\n    " : ",\n    ", h < 4 ? "cows" : "pigs", h % 4, herd.x / 100.0, herd.y / 100.0,
                  Bool(herd.penned != 0));
    o += b;
    first = false;
  }
  o += first ? "]" : "\n  ]";
  const uint8_t active = ActiveCard(s);
  const PendingCharge charge = PendingChargeOf(s);
  o += ", \"active\": " + (active != kNone ? JsonQuote(g.units[active].id) : std::string("null"));
  o += ", \"charge\": " + (charge.charger != kNone ? "{\"charger\": " + JsonQuote(g.units[charge.charger].id) +
                                                    ", \"target\": " + JsonQuote(g.units[charge.target].id) + "}"
                                              : std::string("null"));
  return o + "}";
}

// Readable lines for the events whose generic text speaks of hexes.
std::string MiniRules::DescribeEvent(const Event& e) const {
  if (!game_) return "";
  const Game& g = *game_;
  const std::string who = e.unit >= 0 && e.unit < g.num_units() ? g.UnitLabel(e.unit) : "";
  const std::string text = e.text ? e.text : "";
  char buf[160];
  std::string body;
  switch (e.type) {
    case EventType::kMove:
    case EventType::kRetreat:
    case EventType::kAdvance:
      if (text == "faces") {
        std::snprintf(buf, sizeof buf, "%s faces %d degrees", who.c_str(), e.a);
      } else {
        std::snprintf(buf, sizeof buf, "%s %s to %.2f, %.2f in", who.c_str(), text.c_str(), e.a / 100.0,
                      e.b / 100.0);
      }
      body = buf;
      break;
    case EventType::kLoss:
      body = who + " loses " + std::to_string(e.a) + " " + text;
      break;
    case EventType::kEliminated:
      body = who + " eliminated (" + text + ")";
      break;
    case EventType::kCaptured:
      body = who + ": " + std::to_string(e.a) + " figures captured";
      break;
    case EventType::kModeChange:
      body = who + " forms " + text;
      break;
    case EventType::kRecover:
      body = who + " " + text;
      break;
    case EventType::kAttack:
      std::snprintf(buf, sizeof buf, "%s charges %s (%.2f in away)", who.c_str(),
                    e.b >= 0 && e.b < g.num_units() ? g.UnitLabel(static_cast<UnitId>(e.b)).c_str() : "?",
                    e.a / 100.0);
      body = buf;
      break;
    case EventType::kBombard:
      std::snprintf(buf, sizeof buf, "%s fires at %.2f in (defender modifier %+d)", who.c_str(), e.a / 100.0,
                    e.b);
      body = buf;
      break;
    case EventType::kCombatResult:
      if (text == "melee") {
        std::snprintf(buf, sizeof buf, "melee: attacker %d, defender %d", e.a, e.b);
      } else {
        std::snprintf(buf, sizeof buf, "%s: %d hits (a D6 of %d or more)", who.c_str(), e.a, e.b);
      }
      body = buf;
      break;
    case EventType::kNote:
      body = who.empty() ? text : who + ": " + text;
      if (text == "cows move" || text == "pigs move" || text == "pigs run at the closest unit") {
        std::snprintf(buf, sizeof buf, " to %.2f, %.2f in", e.a / 100.0, e.b / 100.0);
        body += buf;
      } else if (e.a != 0 || e.b != 0) {
        body += " (" + std::to_string(e.a) + (e.b != 0 ? ", " + std::to_string(e.b) : "") + ")";
      }
      break;
    default:
      return "";
  }
  return std::string(e.rule) + ": " + body;
}

std::string XmlEscape(const std::string& in) {
  std::string out;
  for (char c : in) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// --- What a player sees: the SVG ---------------------------------------------------------

// Drawing on the table to scale: 10 px an inch, north up, a margin for the
// inch marks and a legend to the right.
struct Canvas {
  static constexpr double kPx = 10, kMargin = 34, kLegend = 260;
  double depth = 0;
  std::string o;
  char buf[512];
  double X(double x) const { return kMargin + x * kPx; }
  double Y(double y) const { return kMargin + (depth - y) * kPx; }
  void Poly(const char* tag, const std::vector<Vec2>& pts, const std::string& style, const std::string& title = "") {
    o += std::string("<") + tag + " " + style + " points=\"";
    for (Vec2 p : pts) {
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ", X(p.x), Y(p.y));
      o += buf;
    }
    o += title.empty() ? "\"/>\n" : "\"><title>" + XmlEscape(title) + "</title></" + tag + ">\n";
  }
  void Text(double px, double py, const std::string& text, const char* style) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" %s>", px, py, style);
    o += buf + XmlEscape(text) + "</text>\n";
  }
};

const char* TerrainFill(const std::string& kind) {
  return kind == "woods" ? "#5f8f4a" : kind == "hill" ? "#c9b98a" : kind == "pen" ? "#b89a70"
         : kind == "barn" ? "#9b3b2f" : kind == "house" ? "#e8e0d0" : "#aaaaaa";
}
const char* SideFill(int side) { return side == 0 ? "#3355aa" : "#8a8a8a"; }

// Inch marks on the four edges (every inch, longer and numbered every 6") and a 12" scale bar.
void DrawRuler(Canvas& c, const Table& t) {
  for (int i = 0; i <= static_cast<int>(t.width); ++i) {
    const double len = i % 6 == 0 ? 8 : 4;
    std::snprintf(c.buf, sizeof c.buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  c.X(i), c.Y(t.depth), c.X(i), c.Y(t.depth) - len, c.X(i), c.Y(0), c.X(i), c.Y(0) + len);
    c.o += c.buf;
    if (i % 6 == 0) c.Text(c.X(i) - 4, c.Y(t.depth) - 11, std::to_string(i), "font-size=\"8\"");
  }
  for (int j = 0; j <= static_cast<int>(t.depth); ++j) {
    const double len = j % 6 == 0 ? 8 : 4;
    std::snprintf(c.buf, sizeof c.buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  c.X(0), c.Y(j), c.X(0) - len, c.Y(j), c.X(t.width), c.Y(j), c.X(t.width) + len, c.Y(j));
    c.o += c.buf;
    if (j % 6 == 0) c.Text(c.X(0) - 28, c.Y(j) + 3, std::to_string(j), "font-size=\"8\"");
  }
  const double y = c.Y(0) + 22;
  std::snprintf(c.buf, sizeof c.buf,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"5\" fill=\"black\"/>"
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"5\" fill=\"white\" stroke=\"black\"/>\n",
                c.X(0), y, 6 * Canvas::kPx, c.X(6), y, 6 * Canvas::kPx);
  c.o += c.buf;
  c.Text(c.X(12) + 6, y + 6, "12 inches (inch marks on every edge)", "font-size=\"9\"");
}

struct Box {
  double x0, y0, x1, y1;
  bool Meets(const Box& b) const { return x0 < b.x1 && b.x0 < x1 && y0 < b.y1 && b.y0 < y1; }
};

// Areas and fences, under the units.
void DrawTerrain(Canvas& c, const Table& t) {
  for (const TerrainArea& a : t.areas) {
    c.Poly("polygon", a.polygon, std::string("fill=\"") + TerrainFill(a.kind) + "\" stroke=\"#333\"", a.name);
  }
  for (const LineObstacle& l : t.obstacles) {
    c.Poly("polyline", l.points, "fill=\"none\" stroke=\"#6b4b2a\" stroke-width=\"3\" stroke-dasharray=\"6,3\"", l.name);
  }
}

// The first of the candidate boxes (w x h, each given by its top-left corner)
// that meets nothing in `taken`, else the first.
Box FirstFree(const std::vector<Box>& taken, const std::vector<Vec2>& corners, double w, double h) {
  for (Vec2 p : corners) {
    const Box b{p.x, p.y, p.x + w, p.y + h};
    if (std::none_of(taken.begin(), taken.end(), [&](const Box& o) { return o.Meets(b); })) return b;
  }
  return Box{corners[0].x, corners[0].y, corners[0].x + w, corners[0].y + h};
}

// Each area's and fence's name, over the units and beside them: at the area's
// middle unless a base (or a label placed before) is there, else just above,
// below, left or right of the area (the labels' boxes go to `taken`).
void DrawTerrainLabels(Canvas& c, const Table& t, std::vector<Box>* taken) {
  for (const TerrainArea& a : t.areas) {
    Vec2 mid{0, 0};
    Box bb{1e9, 1e9, -1e9, -1e9};
    for (Vec2 p : a.polygon) {
      mid = mid + p * (1.0 / static_cast<double>(a.polygon.size()));
      bb = {std::min(bb.x0, c.X(p.x)), std::min(bb.y0, c.Y(p.y)), std::max(bb.x1, c.X(p.x)), std::max(bb.y1, c.Y(p.y))};
    }
    const double w = 5.0 * static_cast<double>(a.name.size()), h = 10, cx = c.X(mid.x) - w / 2;
    const Box l = FirstFree(*taken,
                            {{cx, c.Y(mid.y) - 6}, {cx, bb.y0 - h - 1}, {cx, bb.y1 + 1},
                             {bb.x0 - w - 2, c.Y(mid.y) - 6}, {bb.x1 + 2, c.Y(mid.y) - 6}},
                            w, h);
    c.Text(l.x0, l.y1 - 2, a.name, "font-size=\"9\" font-style=\"italic\" fill=\"#222\"");
    taken->push_back(l);
  }
  for (const LineObstacle& l : t.obstacles) {
    const Vec2 mid = (l.points[0] + l.points[1]) * 0.5;
    const double w = 4.5 * static_cast<double>(l.name.size()), h = 9, x = c.X(mid.x), y = c.Y(mid.y);
    const Box b = FirstFree(*taken, {{x + 4, y - 12}, {x - w - 4, y - 12}, {x + 4, y + 3}, {x - w - 4, y + 3}}, w, h);
    c.Text(b.x0, b.y1 - 1, l.name, "font-size=\"8\" font-style=\"italic\" fill=\"#6b4b2a\"");
    taken->push_back(b);
  }
}

// A label beside a point that overlaps no label placed before it: the first
// free spot of a ring of candidates (right, left, above, below, then further out).
Box PlaceLabel(const std::vector<Box>& taken, double px, double py, double w, double h) {
  const Box best{px + 8, py - 4 - h, px + 8 + w, py - 4};
  for (int ring = 0; ring < 6; ++ring) {
    const double r = 12.0 * ring;
    const double steps[][2] = {{8 + r, 4}, {-8 - w - r, 4}, {-w / 2, -8 - r}, {-w / 2, h + 8 + r},
                               {8 + r, 4 + h + r / 2}, {8 + r, 4 - h - r / 2}, {-8 - w - r, 4 + h + r / 2},
                               {-8 - w - r, 4 - h - r / 2}};
    for (const auto& st : steps) {
      const Box b{px + st[0], py + st[1] - h, px + st[0] + w, py + st[1]};
      bool free = true;
      for (const Box& o : taken) free = free && !o.Meets(b);
      if (free) return b;
    }
  }
  return best;
}

void DrawLegend(Canvas& c, const Game& g, double x, double table_top) {
  double y = table_top + 4;
  c.Text(x, y, "Legend", "font-size=\"11\" font-weight=\"bold\"");
  auto row = [&](const std::string& swatch, const std::string& text) {
    y += 16;
    c.o += swatch;
    c.Text(x + 22, y + 4, text, "font-size=\"9\"");
  };
  char b[256];
  for (int side = 0; side < 2 && side < static_cast<int>(g.sides.size()); ++side) {
    std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"7\" fill=\"%s\" stroke=\"black\"/>", x,
                  y + 16 - 3, SideFill(side));
    row(b, g.sides[static_cast<size_t>(side)].name + " unit (base to scale; tick = facing)");
  }
  std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"7\" fill=\"#888\" stroke=\"black\" stroke-dasharray=\"2,2\"/>", x, y + 13);
  row(b, "line formed beside a building (12.3)");
  const struct { const char* letter; const char* colour; const char* text; } marks[] = {
      {"R", "#d62828", "routed (10.1)"}, {"P", "#f77f00", "pinned: no move or fire (2.2, 9.4)"},
      {"D", "#7b2cbf", "disorganized (12.5)"}, {"W", "#555555", "stands waiting behind a building (12.3)"}};
  for (const auto& mk : marks) {
    std::snprintf(b, sizeof b,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"7\" "
                  "fill=\"white\">%s</text>", x + 8, y + 16, mk.colour, x + 5.5, y + 18.5, mk.letter);
    row(b, mk.text);
  }
  row("", "label: name, stands (guns), officers r/d");
  std::snprintf(b, sizeof b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#5a3d1e\"/>", x + 8, y + 16);
  row(b, "cows (9.1)");
  std::snprintf(b, sizeof b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#f2a0b0\"/>", x + 8, y + 16);
  row(b, "pigs (9.2)");
  for (const char* kind : {"house", "barn", "pen", "woods", "hill"}) {
    std::snprintf(b, sizeof b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"9\" fill=\"%s\" stroke=\"#333\"/>", x,
                  y + 12, TerrainFill(kind));
    row(b, std::string(kind) + (std::string(kind) == "hill" ? " (ridge: terrain advantage)" : ""));
  }
  std::snprintf(b, sizeof b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#6b4b2a\" stroke-width=\"3\" stroke-dasharray=\"6,3\"/>",
                x, y + 16, x + 16, y + 16);
  row(b, "fence");
}

// The unit's base, its facing tick, its 12.3 line, and the markers; returns the base's screen box.
Box DrawUnit(Canvas& c, const Game& g, const State& s, UnitId u) {
  const Footprint f = FootprintOf(g, s, u);
  const auto corners = f.Corners();
  const std::string name = g.units[static_cast<size_t>(u)].name;
  c.Poly("polygon", {corners.begin(), corners.end()},
         std::string("fill=\"") + SideFill(s.unit(u).side) + "\" stroke=\"black\"", name);
  Footprint line;
  if (LineBesideOf(g, s, u, &line)) {
    const auto lc = line.Corners();
    c.Poly("polygon", {lc.begin(), lc.end()},
           std::string("fill=\"") + SideFill(s.unit(u).side) + "\" stroke=\"black\" stroke-dasharray=\"2,2\"",
           name + " (line beside)");
  }
  const Vec2 mid = (corners[0] + corners[1]) * 0.5, tip = mid + f.Forward() * 0.8;
  std::snprintf(c.buf, sizeof c.buf, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"2\"/>\n",
                c.X(mid.x), c.Y(mid.y), c.X(tip.x), c.Y(tip.y));
  c.o += c.buf;
  Box box{1e9, 1e9, -1e9, -1e9};
  std::vector<Vec2> pts(corners.begin(), corners.end());
  if (LineBesideOf(g, s, u, &line)) {  // the line beside the building is part of what a label must not cover
    const auto lc = line.Corners();
    pts.insert(pts.end(), lc.begin(), lc.end());
  }
  for (Vec2 p : pts) {
    box = {std::min(box.x0, c.X(p.x)), std::min(box.y0, c.Y(p.y)), std::max(box.x1, c.X(p.x)), std::max(box.y1, c.Y(p.y))};
  }
  const UnitState& us = s.unit(u);
  const struct { bool on; const char* letter; const char* colour; } marks[] = {
      {us.Has(kRouted), "R", "#d62828"}, {us.Has(kPinned), "P", "#f77f00"},
      {Disorganized(g, s, u), "D", "#7b2cbf"}, {WaitingOf(g, s, u) > 0, "W", "#555555"}};
  double mx = box.x0;
  for (const auto& mk : marks) {
    if (!mk.on) continue;
    std::snprintf(c.buf, sizeof c.buf,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"white\"/><text x=\"%.1f\" y=\"%.1f\" "
                  "font-size=\"7\" fill=\"white\">%s</text>\n", mx, box.y0 - 6, mk.colour, mx - 2.5, box.y0 - 3.5, mk.letter);
    c.o += c.buf;
    mx += 11;
  }
  return box;
}

WG_RULE("T.4", MiniRules::RenderSvg);
bool MiniRules::RenderSvg(const State& s, std::string* svg) const {
  if (!game_) return false;
  const Game& g = *game_;
  Canvas c;
  c.depth = g.table().depth;
  const double w = Canvas::kMargin * 2 + g.table().width * Canvas::kPx + Canvas::kLegend;
  const double h = Canvas::kMargin * 2 + g.table().depth * Canvas::kPx + 20;
  std::snprintf(c.buf, sizeof c.buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\">\n"
                "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n"
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#d8e4b0\" stroke=\"black\"/>\n",
                w, h, w, h, c.X(0), c.Y(g.table().depth), g.table().width * Canvas::kPx, g.table().depth * Canvas::kPx);
  c.o = c.buf;
  DrawRuler(c, g.table());
  // Labels stay on the table: around it are the inch marks, and the legend's column.
  const double x0 = c.X(0), x1 = c.X(g.table().width), y0 = c.Y(g.table().depth), y1 = c.Y(0);
  std::vector<Box> taken = {Box{x1 + 16, -1e9, 1e9, 1e9}, Box{-1e9, -1e9, x0, 1e9}, Box{-1e9, -1e9, 1e9, y0},
                            Box{-1e9, y1, 1e9, 1e9}};
  DrawTerrain(c, g.table());
  std::vector<std::pair<UnitId, Box>> bases;
  for (UnitId u = 0; u < static_cast<UnitId>(g.num_units()); ++u) {
    if (OnTable(s, u)) bases.emplace_back(u, DrawUnit(c, g, s, u));
  }
  for (const auto& [u, b] : bases) taken.push_back(b);  // labels never cover a base
  for (const Herd& herd : M(s).herds) {  // nor a herd's marker
    if (herd.alive) taken.push_back(Box{c.X(herd.x / 100.0) - 6, c.Y(herd.y / 100.0) - 6, c.X(herd.x / 100.0) + 6, c.Y(herd.y / 100.0) + 6});
  }
  DrawTerrainLabels(c, g.table(), &taken);
  for (const auto& [u, b] : bases) {
    const MiniUnit& mu = M(s).units[u];
    std::string label = g.units[static_cast<size_t>(u)].name + " " + std::to_string(Stands(g, s, u)) +
                        (TypeOf(g, u).artillery ? " guns" : " st") + ((mu.officers & kRegimental) ? " r" : "") +
                        ((mu.officers & kDivisional) ? " d" : "");
    const double tw = 5.6 * static_cast<double>(label.size()), th = 9;  // bold 9 px: about 5.6 px a character
    const Box l = PlaceLabel(taken, b.x1, (b.y0 + b.y1) / 2, tw, th);
    taken.push_back(l);
    const double lx = std::clamp((b.x0 + b.x1) / 2, l.x0, l.x1), ly = std::clamp((b.y0 + b.y1) / 2, l.y0, l.y1);
    if (!l.Meets(Box{b.x0 - 14, b.y0 - 14, b.x1 + 14, b.y1 + 14})) {  // far from its base: a leader line
      std::snprintf(c.buf, sizeof c.buf, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" stroke-width=\"0.6\"/>\n",
                    lx, ly, (b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2);
      c.o += c.buf;
    }
    c.Text(l.x0, l.y1 - 1, label, "font-size=\"9\" font-weight=\"bold\"");
  }
  for (int hd = 0; hd < kNumHerds; ++hd) {
    const Herd& herd = M(s).herds[hd];
    if (!herd.alive) continue;
    const double px = c.X(herd.x / 100.0), py = c.Y(herd.y / 100.0);
    std::snprintf(c.buf, sizeof c.buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"black\"><title>%s</title></circle>\n",
                  px, py, hd < 4 ? "#5a3d1e" : "#f2a0b0", hd < 4 ? "cows" : "pigs");
    c.o += c.buf;
    const std::string label = std::string(hd < 4 ? "cows" : "pigs") + (herd.penned ? " (penned)" : "");
    const Box l = PlaceLabel(taken, px, py, 5.0 * static_cast<double>(label.size()), 8);
    taken.push_back(l);
    c.Text(l.x0, l.y1 - 1, label, "font-size=\"8\" font-style=\"italic\"");
  }
  DrawLegend(c, g, c.X(g.table().width) + 22, c.Y(g.table().depth));
  *svg = c.o + "</svg>\n";
  return true;
}

// Every die of the chart (ruleset.yaml `chart:`) and the fire D6 (3).
int MiniRules::MaxDieFaces() const {
  if (!game_) return 6;
  const MiniData& d = D(*game_);
  return std::max({6, d.morale_die, d.battery_morale_die, d.officer_die, d.melee_die, d.melee_loss_die, d.dinner_die,
                   d.dinner_men_die, d.herd_direction_die, d.herd_move_die, d.gun_hit_die});
}

// Format 1 and 2 saves hashed the card that was up and the pending charge in
// MiniState (now `legacy`, always 0), and steps without arguments: the older code
// left the charger, target and unit as the steps say (kNone when none), and the
// flank of the last charge made, which no step keeps: the State with each of the two.
void MiniRules::LegacySaveStates(const State& s, int format, std::vector<State>* out) const {
  if (format > 2) return;
  const PendingCharge c = PendingChargeOf(s);
  for (uint8_t flank = 0; flank <= 1; ++flank) {
    out->push_back(s);
    for (int i = 0; i < out->back().steps.depth; ++i) {
      for (int16_t& arg : out->back().steps.items[i].args) arg = 0;
    }
    MiniState& m = M(out->back());
    m.legacy[0] = ActiveCard(s);
    m.legacy[1] = c.charger;
    m.legacy[2] = c.target;
    m.legacy[3] = flank;
  }
}

std::unique_ptr<Rules> MakeMiniRules(const Game* game) {
  auto r = std::make_unique<MiniRules>();
  r->set_game(game);
  return r;
}

Vec2 CenterOf(const State& s, UnitId u) { return {M(s).units[u].x / 100.0, M(s).units[u].y / 100.0}; }

StraightforwardGeometry::StraightforwardGeometry() { ++straightforward_depth; }
StraightforwardGeometry::~StraightforwardGeometry() { --straightforward_depth; }

int Stands(const Game& g, const State& s, UnitId u) {
  const MiniUnit& mu = M(s).units[u];
  if (TypeOf(g, u).artillery && mu.guns > 0) return mu.guns;
  const int fps = D(g).figures_per_stand;
  return (mu.figures + fps - 1) / fps;
}

Footprint FootprintOf(const Game& g, const State& s, UnitId u) {
  return FootprintAt(g, s, u, CenterOf(s, u), M(s).units[u].facing);
}

bool LineBesideOf(const Game& g, const State& s, UnitId u, Footprint* out) {
  if (!HasLine(s, u)) return false;
  *out = LineOf(g, s, u);
  return true;
}

int InsideOf(const Game& g, const State& s, UnitId u) { return InsideFigures(g, s, u); }
int WaitingOf(const Game& g, const State& s, UnitId u) { return Waiting(g, s, u); }

}  // namespace wg::civil_war_miniatures
