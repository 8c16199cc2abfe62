// Blue & Gray (SPI, 1975) standard rules and the Chattanooga exclusive rules,
// as hooks on HexRules (registered as `blue_and_gray`, scenario `chattanooga`).
//
// The standard rules are data (ruleset.yaml: terrain, movement, zoc, los, crt,
// combat, stacking, turns) plus the hooks below, each citing its rule:
//   8.3 EX (the attacker chooses the units lost: a kLosses decision,
//   `{loss: [units]}`), 8.42, 8.52 displacement (a kRetreat decision of the
//   owner for one unit of the overstacked hex), 8.6 the defender's advance (a
//   kAdvance decision of the defender, `{advance: [unit], target: [hex]}`),
//   8.7/8.72/8.73 artillery, 9.0 night, 10.0-10.4 attacker effectiveness (the
//   `ineffective` marker), 11.1 strategic movement (a kMove with value 1), 11.2
//   cavalry retreat before combat (a kChoice decision: 0 stand, 1 retreat),
//   18.12 redoubts, and the Chattanooga exclusive rules 15.12-20.12.
// Sections the hooks read (all optional, so other Blue & Gray games can omit them):
//   exclusive_rules  {union_artillery_fixed: {rule, side, kind, except_units},
//                     union_movement_quota: {rule, side, units_per_phase, bonus_units,
//                       bonus_if_controls, exempt_reinforcements_before_turn},
//                     night_movement: {rule, no_move_side, exit_ezoc_side},
//                     ferries: {rule, no_end_of_move, retreat_into_eliminates},
//                     reinforcement_deadline: {rule, turn}}
//   strategic_movement {allowed, min_distance, bonus: {kind: MPs}}
//   victory_points   {rule, awards: [{rule, side, when, event, of_side, hexes, place,
//                     unit_kinds, points}]} (events: unit_eliminated, hex_ever_controlled,
//                     hex_in_zoc, hex_controlled_at_end)
#pragma once

#include <string>
#include <vector>

#include "wargame/hex_rules.h"

namespace wg::blue_and_gray {

// Per-game state kept in State::ext (no padding).
struct BgExt {
  // Always empty. Saves of format 1-5 hashed here the attack waiting for the cavalry's
  // choice (11.2): now the action the cavalry_retreat step holds (State::held;
  // LegacyFrameState, LegacySaveStates).
  Action legacy_pending;
  // Always 0. Saves of format 1-4 hashed here what the exchange (8.3: the strength the
  // attacker must still lose), the defender's advance (8.6) and a displacement (8.52: hex + 1,
  // the retreated unit + 1) owed: now the arguments of those steps (LegacyFrameState).
  int16_t legacy_ex_owed = 0;
  uint8_t legacy_defender_advance = 0;
  uint8_t spare1 = 0;
  uint8_t control[192] = {};  // 17.15: 2 bits per hex, side + 1 of the last to have a unit there
  int16_t attacker_hexes[kMaxCombatUnits] = {};  // where the combat's attackers stood (8.6)
  int16_t legacy_displace_hex = 0;
  int16_t legacy_displace_except = 0;
};
static_assert(sizeof(BgExt) == 84 + 192 + 2 * kMaxCombatUnits);

struct VpAward {
  std::string rule;
  int side = 0;
  bool at_end = false;
  enum class Kind { kUnitEliminated, kHexEverControlled, kHexInZoc, kHexControlledAtEnd } kind{};
  int of_side = 0;
  std::vector<int> hexes;
  std::vector<int> unit_kinds;
  int points = 0;
};

struct BgConfig {
  // 16.11
  bool fixed_artillery = false;
  std::string fixed_rule = "16.11";
  int fixed_side = 0, fixed_kind = -1;
  std::vector<int> fixed_except;
  // 17.11-17.14
  bool quota = false;
  std::string quota_rule = "17.11";
  int quota_side = 0, quota_units = 11, quota_bonus = 7, quota_key_hex = -1, quota_exempt_before = 0;
  // 17.2
  std::string night_rule = "17.2";
  int night_no_move_side = -1, night_exit_side = -1;
  // 19.0
  bool ferries = false, ferry_no_end = false, ferry_retreat_eliminates = false;
  std::vector<uint8_t> is_ferry;  // per hex
  // 15.12
  int deadline_turn = 0;
  // 11.1
  bool strategic = false;
  int strategic_distance = 4;
  std::vector<int> strategic_bonus;  // per kind, MPs
  // 20.0
  std::vector<VpAward> awards;
};

// Reads the sections above (loader.cc).
BgConfig ReadConfig(const Game& game, RulesetDocument& doc);

class BgRules : public HexRules {
 public:
  BgRules(const Game& game, BgConfig config)
      : HexRules(game), cfg_(std::move(config)), ineffective_(game.MarkerIndex("ineffective")) {
    RegisterSteps();
    RegisterProcedure();
    IndexControlPlaces();
  }

  void Start(State& s, Context& ctx) const override;
  // The core's refusals cite generic keys ("movement", "combat"...): cite the rule numbers.
  Status Apply(State& s, const Action& a, Context& ctx) const override;

  // 17.15: side (0/1) controlling a hex, -1 nobody.
  int Control(const State& s, int hex) const;
  bool Ineffective(const State& s, UnitId u) const;
  bool IsArtillery(UnitId u) const;
  bool IsFixedArtillery(UnitId u) const;
  const BgConfig& config() const { return cfg_; }

 protected:
  // The turn procedure's handlers (RegisterProcedure).
  void RecoverAfterNight(State& s, Context& ctx) const;              // 10.4, as a game-turn begins
  void EliminateReinforcementsNotEntered(State& s, Context& ctx) const;  // 15.12, as the movement phase ends
  void CountEndVp(State& s, Context& ctx) const;                     // 20.12, as the game ends
  void RegisterProcedure();
  bool Movable(const State& s, UnitId u, Status* why) const override;
  // The engine's ZocOf (a defence strength: the unit's face and markers),
  // CountsForStacking (the unit's kind) and Overrunnable (none) read one unit's
  // record at most (HexRules::OccupancyBySide).
  bool OccupancyBySide() const override { return true; }
  // 19.12: no unit may end its move in a ferry hex (a fixed set of hexes).
  const uint8_t* NoMoveEnd() const override { return cfg_.ferry_no_end ? cfg_.is_ferry.data() : nullptr; }
  int AttackStrength(const State& s, UnitId u) const override;
  void OnEliminated(State& s, Context& ctx, UnitId u, int hex) const override;
  Status CheckMove(const State& s, const Action& a, Context& ctx) const override;
  void AfterMove(State& s, const Action& a, Context& ctx) const override;
  void CombatModifiers(const State& s, Context& ctx, CombatMods* mods) const override;
  void ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const override;
  bool MustAttack(const State& s, Context& ctx, UnitId u) const override;
  bool MustBeAttacked(const State& s, Context& ctx, UnitId u) const override;
  // 8.0 over the whole phase (`combat: {obligations: true}`): who may still attack
  // (8.41, 8.42, 10.0, 19.12) and what each unit can reach (8.41, 8.7, 8.71, 8.73).
  bool CanStillAttack(const State& s, UnitId u, const HexScratch* stacks) const override;
  bool InAttackReach(const State& s, UnitId u, int hex) const override;
  Status CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const override;
  void AfterCombat(State& s, Context& ctx) const override;
  // Saves of format 1-4: what the exchange, a displacement and the defender's advance owed
  // was in BgExt (legacy_*), the retreated unit of a displacement in PendingCombat
  // (legacy_current), and their steps had no arguments.
  void LegacyFrameState(const State& s, State* old) const override;
  // Saves of format 5 also hashed the attack the cavalry_retreat step holds in BgExt.
  void LegacySaveStates(const State& s, int format, std::vector<State>* out) const override;
  void MoveHeldAttackToExt(State* old) const;

 private:
  // --- Steps: the ruleset's procedures, each citing its rule (see RegisterSteps) ---------
  void RegisterSteps();
  StepKind step_displace_ = kNoStep, step_exchange_ = kNoStep, step_defender_advance_ = kNoStep;
  StepKind step_cavalry_retreat_ = kNoStep;
  void BeginBgCombat(State& s, Context& ctx) const;
  void ListBgMovement(const State& s, Context& ctx, std::vector<Action>* out) const;
  void ListBgCombat(const State& s, Context& ctx, std::vector<Action>* out) const;
  void KeepAccepted(const State& s, Context& ctx, std::vector<Action>* out) const;
  Status ApplyBgMove(State& s, const Action& a, Context& ctx) const;
  Status ApplyBgAttack(State& s, const Action& a, Context& ctx) const;
  Status EndBgCombat(State& s, const Action& a, Context& ctx) const;

  bool Night(const State& s) const;
  void SetControl(State& s, int hex, int side) const;
  void RefreshControl(State& s, Context& ctx) const;
  void SyncPlaceControl(State& s, Context& ctx) const;
  // Control() of a hex no unit stands in: the last side to occupy it (BgExt::control).
  int StoredControl(const State& s, int hex) const;
  // Lists the places SyncPlaceControl keeps and numbers their hexes (constructor).
  void IndexControlPlaces();
  bool InZocOfAdjacent(const State& s, Context& ctx, const VpAward& a, int hex) const;
  bool Exposed(const State& s, UnitId u) const;  // 8.72: suffers attacker results
  bool StackmateAttacked(const State& s, UnitId u, const HexScratch* stacks = nullptr) const;
  // `stacks`: the units of each hex as s has them (HexScratch::StacksOf), or null: a walk.
  bool HexAttackable(const State& s, int hex, int attacker_side, const HexScratch* stacks = nullptr) const;
  bool NextToSide(const State& s, int hex, int side) const;
  bool BatteryMayFireAtAll(const State& s, UnitId b) const;
  void FlagRetreat(State& s, Context& ctx, UnitId u, int length) const;
  Status CheckAttackRules(const State& s, const Action& a, Context& ctx) const;
  Status CheckBombardment(const State& s, UnitId u, const Action& a) const;
  bool CavalryMayRetreat(const State& s, Context& ctx, const Action& a) const;
  Status ApplyBgRetreat(State& s, const Action& a, Context& ctx) const;
  Status ApplyExLosses(State& s, const Action& a, Context& ctx) const;
  Status ApplyCavalryChoice(State& s, const Action& a, Context& ctx) const;
  Status ApplySpecialMove(State& s, const Action& a, Context& ctx, bool strategic) const;
  // blocked_ready: *blocked already holds StrategicBlocked for the units' side.
  MoveQuery SpecialQuery(const State& s, Context& ctx, const UnitId* units, int n, bool strategic,
                         std::vector<uint8_t>* blocked, bool blocked_ready = false) const;
  bool NightExit(const State& s, Context& ctx, UnitId u) const;
  bool StrategicEligible(const State& s, UnitId u) const;
  int NearestEnemy(const State& s, int hex, int side) const;
  void MarkNearEnemies(const State& s, int side, int distance, std::vector<uint8_t>* mask) const;
  bool DisplacementHex(const State& s, Context& ctx, int hex, int side, UnitId except, UnitId* who, int* to) const;
  bool DisplacementOk(const State& s, const ZocField& zoc, int hex, UnitId who, int to) const;
  void ListDisplacements(const State& s, Context& ctx, std::vector<Action>* out) const;
  Status ApplyDisplacement(State& s, const Action& a, Context& ctx) const;
  void ListExLosses(const State& s, std::vector<Action>* out) const;
  void ListSpecialMoves(const State& s, Context& ctx) const;  // into HexScratch::listed_runs
  void ListMultiHexAttacks(const State& s, Context& ctx, std::vector<Action>* out) const;
  void DropRepeatedAttacks(std::vector<Action>* out) const;
  bool IneffectiveIntoEzoc(const State& s, Context& ctx, UnitId u, int hex) const;
  bool DefenderMayAdvance(const State& s, Context& ctx, UnitId u, int hex) const;
  void ListDefenderAdvances(const State& s, Context& ctx, std::vector<Action>* out) const;
  int ClearedHexes(const State& s, int* out) const;
  void ListAttackerAdvances(const State& s, std::vector<Action>* out) const;
  Status ApplyAttackerAdvance(State& s, const Action& a, Context& ctx) const;
  Status ApplyDefenderAdvance(State& s, const Action& a, Context& ctx) const;

  // What CheckMove's rules read from the State but not from the move (the side,
  // night, the 17.11 quota's units moved and limit): worked out once per listing.
  struct MoveContext {
    int side = 0;
    bool night = false;
    bool quota = false;  // the side is under the movement quota (17.11)
    bool bonus = false;  // 17.14: it holds the key hex
    int moved = 0, limit = 0;
    const ZocField* zoc = nullptr;  // the side's enemy ZOCs, if fetched once for the listing
  };
  MoveContext MoveContextOf(const State& s) const;
  bool QuotaCounts(const State& s, UnitId u) const;  // 17.12
  // CheckMove's rules; `why` (if not null) gets the refusal (the listing passes null).
  bool MoveAllowed(const State& s, const Action& a, Context& ctx, const MoveContext& m, Status* why) const;
  bool MoveAllowedTo(const State& s, const UnitId* units, int num_units, ActionType type, int first, int to, Context& ctx,
                     const MoveContext& m, Status* why) const;
  // The hexes strategic movement may not enter (11.1: enemy units and hexes closer
  // than the distance to one), from the side's occupancy (RefreshOccupancy).
  void StrategicBlocked(const State& s, Context& ctx, int side, std::vector<uint8_t>* blocked) const;

  BgConfig cfg_;
  int ineffective_ = -1;  // the marker's index, looked up at load
  // 17.15: the places of the combat.control_kinds (indices below kMaxPlaces, with
  // hexes), and per map hex its slot among their hexes (-1: in none of them).
  std::vector<int> control_places_;
  std::vector<int16_t> control_slot_;
  int num_control_slots_ = 0;
};

}  // namespace wg::blue_and_gray
