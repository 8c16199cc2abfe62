// Civil War miniatures: contact and what stops a base on its path (C.1-C.3), placing a unit where
// a path ends, retreats. The class MiniRules and the helpers the files share: internal.h.
#include "internal.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>

#include "wargame/rule_mark.h"

WG_RULE_MARKS("civil_war_miniatures");  // the WG_RULE marks below: the rules each function implements

namespace wg::civil_war_miniatures {

// --- Contact (C.1-C.3) ---------------------------------------------------------------

Footprint Shrunk(Footprint f) {
  f.width = std::max(0.0, f.width - 2 * kContact);
  f.depth = std::max(0.0, f.depth - 2 * kContact);
  return f;
}

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
UnitId Blocker(const Game& g, const State& s, UnitId u, const Footprint& f, UnitId ignore) {
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
           UnitId into) {
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

}  // namespace wg::civil_war_miniatures
