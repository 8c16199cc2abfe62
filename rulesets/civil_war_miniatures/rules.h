// Civil War tabletop miniatures, played by the Confederate quick-reference
// chart (rulesets/civil_war_miniatures/RULES.md numbers its lines).
//
// Not a hex game: units stand on a table measured in inches (tabletop.h).
// Positions, facings, figures, guns, officers and the line a unit forms
// beside its building (12.3) live in MiniState (the State's ext block) as
// integers: hundredths of an inch, facing in whole
// degrees counterclockwise from east. Everything immutable (the table, unit
// types, printed chart values and calibrated values) is MiniData.
//
// YAML read by the loader:
//   ruleset.yaml: name, title, provenance, sides [{id, name}], chart {printed
//     numbers}, calibration {provenance, figures_per_stand, figures_per_fire_die,
//     column_files, stand_width, stand_depth, fence_cost, woods_factor, hit_floor},
//     unit_types {infantry|artillery: {kind, provenance, move {column, line}, crew_per_gun,
//     dice_per_gun, gun_width, gun_depth, fire_in_column, hits [{up_to, hit}]}},
//     scenarios {name: file}, default_scenario.
//   (chart also: morale {die, battery_die, regimental}, officers {die, regimental_death,
//     divisional_death}, melee {die, loss_die, winner_divisor, tie_loss, max_rounds}, dinner {die,
//     men_die}, livestock {direction_die, move_dice, move_die, cows [6 faces], pigs [6 faces],
//     scatter [4 headings]}, gun_hit_die, fire_arc; a face is N/E/.../NW, stay, scatter or
//     closest_unit)
//   scenario file: title, provenance, turns, start_turn, shuffle, deck (card order, unshuffled:
//     unit ids, cows, pigs; default: units listed, then cows, then pigs), table {tabletop.h keys},
//     livestock {cows: [x, y], pigs: [x, y]}, units [{id, name, side, type,
//     figures, guns, at [x, y], facing, formation, officers, routed, pinned}],
//     victory {figure, gun, building}.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "wargame/game.h"
#include "wargame/tabletop.h"

namespace wg::civil_war_miniatures {

inline constexpr int kMaxMiniUnits = 24;
inline constexpr int kNumHerds = 8;  // 0-3 cow groups, 4-7 pig groups
inline constexpr int kMaxDeck = kMaxMiniUnits + 2;
inline constexpr uint8_t kCowCard = 200;
inline constexpr uint8_t kPigCard = 201;
inline constexpr uint8_t kNone = 0xFF;

// Officers attached to a unit (MiniUnit::officers bits).
inline constexpr uint8_t kRegimental = 1;
inline constexpr uint8_t kDivisional = 2;

// Ruleset unit flags (UnitState::flags).
inline constexpr uint16_t kRouted = 1u << 8;              // retreating until rallied (7.4, 10.1)
inline constexpr uint16_t kPinned = 1u << 9;              // cannot move or shoot this turn (2.2, 9.4)
inline constexpr uint16_t kFormationChanged = 1u << 10;   // changed formation this turn (1)
inline constexpr uint16_t kMovedNow = 1u << 11;           // moved in this activation
inline constexpr uint16_t kActivated = 1u << 12;          // its card came up this turn
inline constexpr uint16_t kPinnedByLivestock = 1u << 13;  // kPinned came from an overrun (9.4)
inline constexpr uint16_t kOfficerOutside = 1u << 14;     // 12.4: officers wait outside the building
inline constexpr uint16_t kDesignated = 1u << 15;         // 12.4: designated in this activation

// kCustom action codes (Action::value).
inline constexpr int kRally = 1;         // {custom: 1, units: [u]}
inline constexpr int kFace = 2;          // {custom: 2, units: [u], value2: degrees}
inline constexpr int kManGuns = 3;       // {custom: 3, units: [crew, battery]}
inline constexpr int kOfficerPlace = 4;  // {custom: 4, units: [u], value2: 0 inside | 1 outside}
inline constexpr int kFormBeside = 5;    // {custom: 5, units: [u], value2: stands} (12.3)
// Fire at the line a unit formed beside its building (12.3): {bombard: [u, target], value: 1}.
inline constexpr int kAtLineBeside = 1;
// Fire at livestock: {bombard: [u], value: 100 + herd}.
inline constexpr int kHerdTarget = 100;

struct MiniUnit {
  int16_t x = 0, y = 0;  // centre, hundredths of an inch
  int16_t facing = 0;    // degrees counterclockwise from east
  uint8_t figures = 0;   // men (infantry) or crew (artillery)
  uint8_t guns = 0;      // artillery only
  uint8_t officers = 0;  // kRegimental | kDivisional
  uint8_t building = 0;  // table area index + 1 when occupying a building
  int16_t line_x = 0, line_y = 0;  // 12.3: centre of the line beside the building, hundredths
  // 12.3: of the figures that do not fit in the building, how many the owner
  // formed in line beside it (the rest wait behind). 0 unless `building`.
  uint8_t beside = 0;
  uint8_t arranged = 0;  // 12.3: the split was chosen in this activation
};
static_assert(sizeof(MiniUnit) == 16);

struct Herd {
  int16_t x = 0, y = 0;
  uint8_t alive = 0;
  uint8_t penned = 0;
};

struct MiniState {
  MiniUnit units[kMaxMiniUnits];
  Herd herds[kNumHerds];
  uint8_t deck[kMaxDeck];
  uint8_t deck_size = 0;
  uint8_t deck_pos = 0;
  // Always 0. Saves of format 1 and 2 hashed here the unit whose card was up and
  // the pending charge (charger, target, from the flank), which are now the
  // arguments of the activation and charge_response steps (ActiveCard, PendingChargeOf);
  // LegacySaveStates puts them back to check such a save's hash.
  uint8_t legacy[4] = {};
  uint8_t pad[4] = {};
};
static_assert(std::is_trivially_copyable_v<MiniState> && sizeof(MiniState) <= kStateExtBytes);

struct HitBand {
  double up_to = 0;  // inches
  int hit = 6;       // a D6 of at least this hits
};

struct UnitType {
  std::string id;
  bool artillery = false;
  double move_column = 0, move_line = 0;
  int crew_per_gun = 0;
  int dice_per_gun = 1;
  double gun_width = 1.5, gun_depth = 2;
  bool fire_in_column = false;
  std::vector<HitBand> hits;
};

struct UnitInfo {
  int type = 0;
  int start_figures = 0;
  int start_guns = 0;
};

// 9.1 / 9.2: what a face of the livestock direction die does.
enum class HerdMove : uint8_t { kDirection, kStay, kScatter, kClosestUnit };
struct HerdFace {
  HerdMove move = HerdMove::kStay;
  Vec2 dir;  // kDirection: the unit vector of the heading rolled
};

// What the rules ask of a table area or obstacle, computed once when the game
// loads (PrepareTableGeometry): its kind as flags instead of strings, and its
// bounding box, so the hot path (C.2 sweeps, M allowances, 5.x modifiers)
// compares no strings and skips what a segment or point cannot meet.
struct AreaGeometry {
  bool woods = false, house = false, barn = false, hill = false;
  Vec2 lo, hi;  // the bounding box, widened by a millionth of an inch
  bool building() const { return house || barn; }
};
struct ObstacleGeometry {
  bool fence = false;
  Vec2 lo, hi;
};
// The box [lo, hi] can hold p / meet the segment s (else it surely does not).
inline bool BoxMayHold(Vec2 lo, Vec2 hi, Vec2 p) { return p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y; }
inline bool BoxMayMeet(Vec2 lo, Vec2 hi, Segment s) {
  return std::max(s.a.x, s.b.x) >= lo.x && std::min(s.a.x, s.b.x) <= hi.x && std::max(s.a.y, s.b.y) >= lo.y &&
         std::min(s.a.y, s.b.y) <= hi.y;
}

struct MiniData : RulesetData {
  // The table is the Game's (Game::table()), beside this data; its areas' and
  // obstacles' kinds and boxes, by index (PrepareTableGeometry).
  std::vector<AreaGeometry> areas;
  std::vector<ObstacleGeometry> obstacles;
  std::vector<UnitType> types;
  std::vector<UnitInfo> info;  // per unit
  Edge home[2] = {Edge::kWest, Edge::kEast};
  // Printed on the chart.
  double charge_range = 8, retreat = 12, countercharge_move = 4, dinner_radius = 6;
  int dinner_roll = 15, dinner_roll_officer = 20, pig_escape_roll = 6, pig_auto_turn = 3;
  int gun_destroyed_on = 6;
  int mod_building = 2, mod_cover = 1, mod_terrain = 1, mod_disorganized = -2;
  int bonus_artillery = 1, bonus_flank = 2, bonus_regimental = 1, bonus_divisional = 2;
  int house_fire = 5, barn_fire = 10;
  // Chart mechanics as data (chart: morale, officers, melee, dinner, livestock).
  int morale_die = 20, battery_morale_die = 6;  // 7.2: 1 D20; 7.3: 1 D6 a gun
  int morale_regimental = 1;                    // 4.1: "counts during morale tests"
  std::vector<int> regimental_death = {1, 6}, divisional_death = {6};  // 4.1, 4.2 (the officer's D6)
  int officer_die = 6;
  int melee_die = 6, melee_loss_die = 6, melee_winner_divisor = 2, melee_tie_loss = 1;  // 8.1-8.4
  int melee_max_rounds = 50;
  int dinner_die = 20, dinner_men_die = 6;  // 10.3
  int herd_direction_die = 6, herd_move_dice = 2, herd_move_die = 6;  // 9.1: 1 D6, 2D6"
  std::vector<HerdFace> cow_faces, pig_faces;  // by face - 1 (9.1, 9.2)
  std::vector<Vec2> scatter;                    // 9.1: the groups' diagonals, NE, NW, SE, SW
  int gun_hit_die = 6;                          // 11.1
  double fire_arc = 45;                         // C.5: degrees beyond the front corners
  // Calibrated.
  int figures_per_stand = 2;     // a stand (base): the unit of morale (7.2), melee losses (8.x), 2.3
  int figures_per_fire_die = 4;  // 3: one D6 for each this many firing figures (rounded up)
  int column_files = 4;          // 1: stands abreast in a column
  double stand_width = 0.5, stand_depth = 0.75, fence_cost = 2, woods_factor = 0.5;
  int hit_floor = 2;
  // Scenario.
  bool shuffle = true;
  std::vector<int> deck_order;  // the cards before shuffling: unit indices, kCowCard, kPigCard
  int vp_figure = 1, vp_gun = 3, vp_building = 10;
  Vec2 cows, pigs;
  bool has_cows = false, has_pigs = false;
  MiniState start;            // positions, figures, guns, officers, herds at set-up
  uint32_t start_routed = 0;  // bit per unit: starts routed (rule tests)
  uint32_t start_pinned = 0;  // bit per unit: starts pinned for the first turn
  int start_turn = 1;
};

// Fills d->areas and d->obstacles from the table (the loader calls it once).
void PrepareTableGeometry(const Table& t, MiniData* d);

// Loads the ruleset folder's ruleset.yaml and a scenario file (absolute, or
// relative to the folder). Tests use it with their own small scenarios.
Result<std::shared_ptr<const Game>> LoadMiniGame(const std::string& folder, const std::string& scenario_file,
                                                 const GameParams& params);

// Geometry and counts for tests and tools.
// The unit's main body (in a building: the figures not formed beside it).
Footprint FootprintOf(const Game& g, const State& s, UnitId u);
// 12.3: the line formed beside the building; false when the unit has none.
bool LineBesideOf(const Game& g, const State& s, UnitId u, Footprint* out);
// 12.3: figures inside the building, in line beside it, and waiting behind it.
int InsideOf(const Game& g, const State& s, UnitId u);
int WaitingOf(const Game& g, const State& s, UnitId u);
int Stands(const Game& g, const State& s, UnitId u);
Vec2 CenterOf(const State& s, UnitId u);

// --- Shared by the rules (rules/) and the computer player (ai.cc) ------------------------------

inline const MiniData& D(const Game& g) { return g.Data<MiniData>(); }
inline MiniState& M(State& s) { return Ext<MiniState>(s); }
inline const MiniState& M(const State& s) { return Ext<MiniState>(s); }
inline const UnitType& TypeOf(const Game& g, UnitId u) {
  const MiniData& d = D(g);
  return d.types[static_cast<size_t>(d.info[static_cast<size_t>(u)].type)];
}
inline bool OnTable(const State& s, UnitId u) { return s.unit(u).OnTable(); }

// The tabletop's steps (registered in this order by MiniRules): a unit card's
// activation (T.1, args[0] the unit, at the bottom of the stack), the charged
// unit's answer (2.4, on top of it: args charger, target, from the flank) and the
// melee the charge comes to (8.x, a script the answer calls: args attacker,
// defender, from the flank; it ends with the winner's side, -1 for neither).
inline constexpr StepKind kActivationStep = 1;
inline constexpr StepKind kChargeResponseStep = 2;
inline constexpr StepKind kMeleeStep = 3;
// T.1: the unit whose card is up (kNone between cards and once the game is over).
inline uint8_t ActiveCard(const State& s) {
  return s.steps.depth > 0 && s.steps.items[0].kind == kActivationStep ? static_cast<uint8_t>(s.steps.items[0].args[0])
                                                                       : kNone;
}
// 2.4: a charge waiting for its target's answer (charger kNone: none).
struct PendingCharge {
  uint8_t charger = kNone, target = kNone;
  bool flank = false;  // 6.2: from the target's flank or rear
};
inline PendingCharge PendingChargeOf(const State& s) {
  PendingCharge c;
  if (TopKind(s) == kChargeResponseStep) {
    const Step& st = s.steps.items[s.steps.depth - 1];
    c.charger = static_cast<uint8_t>(st.args[0]);
    c.target = static_cast<uint8_t>(st.args[1]);
    c.flank = st.args[2] != 0;
  }
  return c;
}
inline int16_t H(double inches) { return static_cast<int16_t>(std::lround(inches * 100.0)); }
inline Vec2 HerdPos(const Herd& h) { return {h.x / 100.0, h.y / 100.0}; }

// A unit fires and is fired at in parts: kBody (its main body; in a building,
// the figures inside) and kLine (12.3: the figures formed in line beside it).
inline constexpr int kBody = 0;
inline constexpr int kLine = 1;

inline bool IsBuilding(const TerrainArea& a) { return a.kind == "house" || a.kind == "barn"; }
// 12.5: stands waiting behind the building (not those formed in line beside it).
bool Disorganized(const Game& g, const State& s, UnitId u);
const HitBand* BandFor(const UnitType& t, double range);
int FireDice(const Game& g, const State& s, UnitId u, int part);
// C.6: range from `from` to the nearest part of the target part (to its building when inside one).
double RangeToPart(const Game& g, const State& s, Vec2 from, UnitId target, int part, const Footprint& tf,
                   Vec2* aim);
// Why no part of `firer` can fire at the target part, or nullptr.
const char* CannotFireAt(const Game& g, const State& s, UnitId firer, UnitId target, int target_part,
                         const char** rule);
int DefenderModifier(const Game& g, const State& s, Vec2 from, UnitId target, int part, const char** rule);  // 5.x
int AttackerBonus(const Game& g, const State& s, UnitId firer, Vec2 from, UnitId target, const Footprint* tf);  // 6.x
int MeleeBonus(const Game& g, const State& s, UnitId u, UnitId enemy, bool attacker, bool flank);  // 8.1
const char* ChargePathBlocked(const Game& g, const State& s, UnitId u, UnitId target);  // C.4, nullptr when clear
// A facing toward v in whole degrees, 0 east, counterclockwise, in (-180, 180].
int FacingDegrees(Vec2 v);

// Issue 15, for tests: while one lives, this thread's listing and play use the
// straightforward code the fast paths replaced (each move swept from the unit's
// centre on its own, sample by sample; every frame's cosine and sine computed; the
// planned moves compared with the whole listing; refusals with their texts). The
// fast paths give the same listings and the same play; tests/playout_speed_test.cc
// compares the two at every decision of seeded random games.
class StraightforwardGeometry {
 public:
  StraightforwardGeometry();
  ~StraightforwardGeometry();
  StraightforwardGeometry(const StraightforwardGeometry&) = delete;
  StraightforwardGeometry& operator=(const StraightforwardGeometry&) = delete;
};

// The tabletop queries Rules::tabletop() answers (queries.cc).
std::unique_ptr<TabletopQueries> MakeMiniTabletop(const Game& game);

// The computer player (ai.cc): the evaluation MiniRules::Evaluate returns, and
// the planned moves MiniRules::LegalActions lists; `legal` checks an action
// without applying it.
double EvaluatePosition(const Game& g, const State& s, int side);
void AppendPlannedMoves(const Game& g, const State& s, const std::function<bool(const Action&)>& legal,
                        std::vector<Action>* out);

}  // namespace wg::civil_war_miniatures
