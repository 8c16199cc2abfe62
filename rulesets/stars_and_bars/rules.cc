// Stars and Bars hooks: every rule the data cannot say, each citing its rule
// number. See rules.h for the per-game state and RULES.md for the map from
// rule sections to hooks and tests.
#include "rules.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "wargame/registry.h"
#include "wargame/rule_mark.h"

WG_RULE_MARKS("stars_and_bars");  // the WG_RULE marks below: the rules each function implements

namespace wg::stars_and_bars {
namespace {

HexScratch& Hs(Context& ctx) { return static_cast<HexScratch&>(ctx.scratch()); }

// final: the hooks it calls on itself (DefenseStrength, CountsForStacking, ...) are
// direct calls the compiler may inline (issue 15: they run per unit per listing).
class SbRules final : public HexRules {
 public:
  SbRules(const Game& game, RulesetDocument& doc, ErrorList* errors) : HexRules(game) {
    candidate_bits_ = true;  // 5.3 and 6.2's path facts, per cached move (CandidateBits)
    kind_infantry_ = game.KindIndex("infantry");
    kind_cavalry_ = game.KindIndex("cavalry");
    kind_artillery_ = game.KindIndex("artillery");
    kind_supply_ = game.KindIndex("supply");
    kind_hq_ = game.KindIndex("hq");
    attr_bombard_ = game.AttributeIndex("bombard");
    pl_ = game.MarkerIndex("permanent_loss");
    dis_ = game.MarkerIndex("disruption");
    woods_ = game.hex_board().map.TerrainId("woods");
    stone_wall_ = game.hex_board().map.TerrainId("stone_wall");
    slope_ = game.hex_board().map.FeatureBit("slope");
    river_ = game.hex_board().map.FeatureBit("river");
    creek_ = game.hex_board().map.FeatureBit("creek");
    bridge_ford_ = game.hex_board().map.FeatureBit("bridge") | game.hex_board().map.FeatureBit("ford");
    road_trail_ = game.hex_board().map.FeatureBit("road") | game.hex_board().map.FeatureBit("trail");
    buell_ = static_cast<UnitId>(game.UnitIndex("buell_hq"));
    bragg_ = static_cast<UnitId>(game.UnitIndex("bragg_hq"));
    gilbert_ = static_cast<UnitId>(game.UnitIndex("gilbert_hq"));
    liddell_ = static_cast<UnitId>(game.UnitIndex("liddell"));
    liddell_reg_ = static_cast<UnitId>(game.UnitIndex("liddell_reg"));
    cav_2nd_ = static_cast<UnitId>(game.UnitIndex("cav_2nd"));
    SbData d = LoadSbData(game, data(), doc, errors);
    battery_parent_ = std::move(d.battery_parent);
    army_hq_hex_[0] = d.army_hq_hex[0];
    army_hq_hex_[1] = d.army_hq_hex[1];
    objective_place_ = d.objective_place;
    for (int i = 0; i < game.num_units(); ++i) corps_.push_back(static_cast<int8_t>(CorpsOf(static_cast<UnitId>(i))));
    // Each unit's kind, and its base defence on either face (DefenseStrength runs per
    // unit per listing: MarkOverrunnable, ZocOf, 6.2's tests).
    for (int i = 0; i < game.num_units(); ++i) kind_.push_back(game.units[static_cast<size_t>(i)].kind);
    for (int i = 0; i < game.num_units(); ++i) {
      for (const bool face1 : {false, true}) base_defense_.push_back(static_cast<int16_t>(BaseDefenseOn(static_cast<UnitId>(i), face1)));
      // Game::Printed of the attack strength on either face (AttackStrength).
      const UnitDef& d = game.units[static_cast<size_t>(i)];
      printed_attack_.push_back(d.front[data().attack]);
      printed_attack_.push_back((d.has_back ? d.back : d.front)[data().attack]);
      printed_ma_.push_back(static_cast<int16_t>(d.front[data().movement_attribute]));  // Allowance: per unit per listing
    }
    map_ = &game.hex_board().map;  // the game's board is fixed
    map_size_ = map_->size();
    option_12_2_ = game.OptionOn("12.2");  // the game's options are fixed before its rules are made
    option_setup_ = !game.Automated("setup");      // 3.0: the owners choose their batteries' set-up modes
    option_capture_ = !game.Automated("capture");  // 5.8: the capturer declares the capture, or not
    // Game::Reduction of the attack strength: each marker once per `reduces` entry naming it.
    for (size_t m = 0; m < game.markers.size(); ++m) {
      for (int a : game.markers[m].reduces) {
        if (a == data().attack) attack_reducers_.push_back(static_cast<int>(m));
      }
    }
    // 10.1: each unit's size read once (the listing asks it of every unit pair).
    for (int i = 0; i < game.num_units(); ++i) {
      const UnitDef& d = game.units[static_cast<size_t>(i)];
      const bool infantry = d.kind == kind_infantry_;
      unit_size_.push_back(static_cast<uint8_t>(!infantry ? 0 : d.size == "regiment" ? 1 : d.size == "brigade" ? 2 : 0));
      if (d.entry_place >= 0) entering_.push_back(static_cast<UnitId>(i));  // 5.7's candidates
      if (d.kind == kind_cavalry_) cavalry_.push_back(static_cast<UnitId>(i));      // 7.8's
      if (d.kind == kind_artillery_) artillery_.push_back(static_cast<UnitId>(i));  // 8.0's
      if (unit_size_.back() == 1) regiments_.push_back(static_cast<UnitId>(i));
    }
    // 3.0: the batteries in the order their owners set them up (the Union's first, then in unit order).
    for (int side : {0, 1}) {
      for (const UnitId u : artillery_) {
        if (game.units[static_cast<size_t>(u)].side == side) setup_order_.push_back(u);
      }
    }
    RegisterSteps();
    RegisterProcedure();
  }

  void Start(State& s, Context& ctx) const override;
  // 5.8 (unless auto=capture): after each action, the captures it owes are asked.
  Status Apply(State& s, const Action& a, Context& ctx) const override;
  void FinishSteps() override;
  void LegacyFrameState(const State& s, State* old) const override;
  void LegacySaveStates(const State& s, int format, std::vector<State>* out) const override;
  // The `ai` player's ruleset knowledge (see the block at the end of this file).
  double Evaluate(const State& s, int side) const override;

 protected:
  // The turn procedure's handlers (RegisterProcedure).
  void EliminateUnsupportedBombardment(State& s, Context& ctx) const;  // 8.1.F, as the combat phase ends
  void CountEndVp(State& s, Context& ctx) const;                       // 11.1, as the game ends
  void WithersDeclinedDraw(State& s, Context& ctx) const;              // 12.3, once the game is over
  int MovementAllowance(const State& s, UnitId u) const override;
  int Allowance(const State& s, UnitId u, bool forced_march) const;
  int ReinforcementTurn(const State& s, UnitId u) const override;
  bool Movable(const State& s, UnitId u, Status* why) const override;
  ZocKind ZocOf(const State& s, UnitId u) const override;
  bool CountsForStacking(const State& s, UnitId u) const override;
  int AttackStrength(const State& s, UnitId u) const override;
  // Defined here to be inlined (MarkOverrunnable, ZocOf and the listing ask it per unit).
  int DefenseStrength(const State& s, UnitId u) const override { return std::max(0, BaseDefense(s, u) - Losses(s, u)); }
  bool Overrunnable(const State& s, int hex, int moving_side) const override;
  // ZocOf and CountsForStacking read the unit's own record (its face and markers,
  // through DefenseStrength) and, for 12.2's free battery, its parent's hex and side
  // when the parent is on its side; MarkOverrunnable reads the other side's units'
  // hexes and defence strengths. Nothing else of the State (HexRules::OccupancyBySide).
  bool OccupancyBySide() const override { return true; }
  void MarkOverrunnable(const State& s, int moving_side, const std::vector<uint8_t>& enemy, std::span<const UnitId> others,
                        std::vector<uint8_t>* overrun) const override;
  void OnOverrun(State& s, Context& ctx, int hex, int moving_side) const override;
  Status ApplyModeChange(State& s, const Action& a, Context& ctx) const override;
  bool ModeChangeAllowed(const State& s, const Action& a, Context& ctx, Status* why) const;
  void OnEliminated(State& s, Context& ctx, UnitId u, int hex) const override;
  Status CheckMove(const State& s, const Action& a, Context& ctx) const override;
  // What CheckMove needs to know about the moving units (not the path).
  struct MoveFacts {
    bool artillery = false, any_attack = false, any_normal = false;
    int initiative_limit[kMaxActionUnits] = {};  // 12.4.1: hexes the unit may move (0: not restricted)
    // Per map hex: holds a unit of the phasing side with a defence strength (6.2's
    // "joining a normal unit"), built once by the listing; null: scan the units.
    const uint8_t* normal_friend = nullptr;
    // The phasing side's enemy ZOCs, if fetched once by the listing; null: fetched per call.
    const ZocField* zoc = nullptr;
  };
  MoveFacts MoveFactsOf(const State& s, const Action& a) const;
  const uint8_t* NormalFriends(const State& s, Context& ctx) const;
  // The phasing side's units on the map, in unit order: the scratch's list
  // (HexScratch::GatheredUnits), or found here and written to `room` (kMaxUnits).
  std::span<const UnitId> PhasingUnitsOnMap(const State& s, Context& ctx, UnitId* room) const;
  // `path_bits`: the move's CandidateBits (a listed single-unit move whose bits were
  // computed from this State's occupancy), or -1: the path is examined here.
  bool MoveAllowed(const State& s, const Action& a, Context& ctx, const MoveFacts& f, Status* why,
                   int path_bits = -1) const;
  // Bits of CandidateBits.
  static constexpr uint8_t kPathWoodsExit = 1;   // 5.3: leaves a woods hex off a road or trail (an artillery move)
  static constexpr uint8_t kPathEnemyHex = 2;    // 6.2: enters an enemy-occupied hex
  static constexpr uint8_t kPathOffMap = 4;      // a hex off the map: the bits do not decide
  static constexpr uint8_t kPathOver1 = 8;       // enters more than one hex (12.4.1's limit of 1)
  static constexpr uint8_t kPathOver2 = 16;      // enters more than two hexes (12.4.1's limit of 2)
  uint8_t CandidateBits(const MoveQuery& q, UnitId u, const Action& a) const override;
  bool StepwiseCandidateBits() const override { return true; }
  // The default loop (FillStepCandidateBitsOf) with this final class's hooks: called directly, inlined
  // (HexRules is a friend so that the loop may call them).
  friend class HexRules;
  void FillStepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, const HexScratch::UnitMoves& c,
                             uint8_t* bits) const override;
  uint8_t StepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, uint8_t pred_bits, int from, int to,
                            int num_hexes) const override;
  Status CheckAttack(const State& s, const Action& a, Context& ctx) const override;
  void CombatModifiers(const State& s, Context& ctx, CombatMods* mods) const override;
  void ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const override;
  bool MustAttack(const State& s, Context& ctx, UnitId u) const override;
  bool MustBeAttacked(const State& s, Context& ctx, UnitId u) const override;
  const char* AutomaticAttack(const State& s, const AttackPlan& plan) const override;
  bool VacatedForAdvance(const State& s, int hex) const override;
  int CurrentValue(const Game& game, const State& s, UnitId u, int attribute) const override;
  Status CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const override;
  void AfterCombat(State& s, Context& ctx) const override;

 private:
  const UnitDef& Def(UnitId u) const { return game_.units[static_cast<size_t>(u)]; }
  bool IsKind(UnitId u, int k) const { return kind_[static_cast<size_t>(u)] == k; }  // Def(u).kind, read at load
  bool IsArtillery(UnitId u) const { return IsKind(u, kind_artillery_); }
  bool IsHq(UnitId u) const { return IsKind(u, kind_hq_); }
  bool IsSupply(UnitId u) const { return IsKind(u, kind_supply_); }
  // An infantry regiment / brigade (10.1), from unit_size_ (read at load).
  bool IsRegiment(UnitId u) const { return unit_size_[static_cast<size_t>(u)] == 1; }
  bool IsBrigade(UnitId u) const { return unit_size_[static_cast<size_t>(u)] == 2; }
  bool Unlimbered(const State& s, UnitId u) const { return IsArtillery(u) && s.unit(u).face == 1; }
  int Losses(const State& s, UnitId u) const { return s.unit(u).markers[pl_] + s.unit(u).markers[dis_]; }
  // 7.4 / 8.4: the strength losses are taken from (DS, or BS of unlimbered artillery).
  // Read from base_defense_ (worked out at load by BaseDefenseOn for both faces).
  int BaseDefense(const State& s, UnitId u) const {
    return base_defense_[2 * static_cast<size_t>(u) + (s.unit(u).face == 1 ? 1 : 0)];
  }
  // BaseDefense of a unit showing face 1 (unlimbered, or its back) or not.
  int BaseDefenseOn(UnitId u, bool face1) const {
    const UnitDef& d = Def(u);
    if (d.kind == kind_artillery_) return face1 ? d.back[attr_bombard_] : 0;  // Unlimbered
    return (face1 && d.has_back ? d.back : d.front)[data().defense];          // Game::Printed
  }
  int Bombard(const State& s, UnitId u) const {
    return Unlimbered(s, u) ? std::max(0, Def(u).back[attr_bombard_] - Losses(s, u)) : 0;
  }
  // 7.4: eliminated when losses exceed the DS; 8.4: artillery with any permanent loss,
  // or disrupted while limbered.
  bool ShouldDie(const State& s, UnitId u) const {
    if (IsArtillery(u) && (s.unit(u).markers[pl_] > 0 || (!Unlimbered(s, u) && s.unit(u).markers[dis_] > 0))) return true;
    return Losses(s, u) > BaseDefense(s, u);
  }
  bool FreeBattery(const State& s, UnitId u) const {
    const int p = battery_parent_[static_cast<size_t>(u)];
    return option_12_2_ && p >= 0 && s.unit(u).OnMap() && s.unit(static_cast<UnitId>(p)).hex == s.unit(u).hex &&
           s.unit(static_cast<UnitId>(p)).side == s.unit(u).side;
  }
  bool InForce(const State& s, UnitId u, int k) const {
    const PendingCombat& c = s.combat;
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      if ((k == 0 ? c.attackers[i] : c.defenders[i]) == u) return true;
    }
    return false;
  }
  int ForceSide(const State& s, int k) const { return k == 0 ? s.phasing_side : 1 - s.phasing_side; }
  bool LossEligible(const State& s, UnitId u, int k, bool stand) const;
  void CheckDeath(State& s, Context& ctx, UnitId u, const char* rule) const;
  // 7.3-7.5.2: a combat result's script (combat_result) and what its callees end with.
  struct ForceOwed {
    int e = 0, d = 0;     // CRT permanent losses and disruption still owed (7.3)
    int retreat = 0;      // the result's retreat: 0 none, 1 W, 2 R
    int stand = 0;        // 0 undecided, 1 stood, 2 retreats (7.5.2)
    int stand_d = 0;      // Stand disruption still owed
  };
  static constexpr int kLossTaken = 0x4000, kDisruptionTaken = 0x100, kStood = 0x1000, kRetreats = 0x2000;
  static ForceOwed Owed(const Step& f, int k);
  static void SetOwed(Step& f, int k, const ForceOwed& o);
  void ResumeCombatResult(State& s, Context& ctx, int result) const;
  void SettleForce(State& s, Context& ctx, int k) const;
  void ListLosses(const State& s, std::vector<Action>* out) const;
  Status ApplyLoss(State& s, const Action& a, Context& ctx) const;
  Status ApplyStand(State& s, const Action& a, Context& ctx) const;
  void NextChoice(State& s, Context& ctx) const;
  SbChoice PendingChoice(const State& s) const;
  Status ApplyChoice(State& s, const Action& a, Context& ctx) const;
  Status CheckBombard(const State& s, const Action& a, int* strength) const;
  bool CavalryRetreatDeclared(const State& s, int side) const;
  bool BombardStrength(const State& s, const Action& a, int target, int* strength, Status* why) const;
  Status ApplyBombard(State& s, const Action& a, Context& ctx) const;
  void ListBombards(const State& s, Context& ctx, std::vector<Action>* out) const;
  int BombardTargets(const State& s, HexScratch& hs, int16_t* targets, Hex* at) const;
  Status CheckCavalryRetreat(const State& s, Context& ctx, const Action& a) const;
  bool CavalryMayRetreat(const State& s, UnitId u, Status* why) const;
  Status ApplyCavalryRetreat(State& s, const Action& a, Context& ctx) const;
  void ListCavalryRetreats(const State& s, Context& ctx, std::vector<Action>* out) const;
  void ListCavalryRetreatPaths(const State& s, Context& ctx, size_t first, std::vector<Action>* out) const;
  // 7.5.1 / 7.8: zero-AS units of `from` that go along a retreat by `u` on `path`.
  void RetreatCompanions(State& s, Context& ctx, UnitId u, int from, const int16_t* path, int n, bool in_combat) const;
  bool CavAdvanced(const State& s, UnitId u) const;
  // 7.6 / 5.8: the advancing unit may enter `to` at all (terrain it may not enter by
  // movement is closed to it: a convoy only along a road or trail).
  Status MayAdvanceInto(const State& s, UnitId u, int to) const;
  Status ApplyZeroStrengthAttack(State& s, const Action& a, Context& ctx, const AttackPlan& plan) const;
  Status CheckReorganize(const State& s, Context& ctx, const Action& a, int* column) const;
  Status ApplyReorganize(State& s, const Action& a, Context& ctx) const;
  void ListReorganize(const State& s, Context& ctx, std::vector<Action>* out) const;
  Status CheckDetach(const State& s, const Action& a) const;
  Status CheckRecombine(const State& s, const Action& a) const;
  bool CheckDetachAllowed(const State& s, const Action& a, Status* why) const;
  bool RegimentAvailable(const State& s, UnitId r) const;
  bool BrigadeMayActOnRegiment(const State& s, const Action& a, const char* rule, const char* acts, const char* may,
                               Status* why) const;
  bool CheckRecombineAllowed(const State& s, const Action& a, Status* why) const;
  bool HqServes(UnitId hq, UnitId u) const;
  bool ReinforcementCanEnter(const State& s, Context& ctx) const;
  void Capture(State& s, Context& ctx, UnitId convoy, int hex, int side) const;
  // 5.8: the convoy, eliminated with units of `side` in `hex`: the capture is asked of `side`
  // at the end of the action (AskCaptures), or, with auto=capture, declared at once.
  void OfferCapture(State& s, Context& ctx, UnitId convoy, int hex, int side) const;
  void AskCaptures(State& s) const;
  void ListCapture(const State& s, std::vector<Action>* out) const;
  Status ApplyCapture(State& s, const Action& a, Context& ctx) const;
  // 3.0 (unless auto=setup): the next battery on the map to set up after `after` (kNoUnit: the first).
  UnitId NextSetupBattery(const State& s, UnitId after) const;
  void ListSetup(const State& s, std::vector<Action>* out) const;
  Status ApplySetup(State& s, const Action& a, Context& ctx) const;
  // The start once the set-up is done: 11.1's first occupants, then the first phase.
  void BeginPlay(State& s, Context& ctx) const;
  void RaidCheck(State& s, Context& ctx, const Action& a) const;
  int CorpsNumber(UnitId u) const;  // from corps_ (read at load)
  int CorpsOf(UnitId u) const;      // from the unit's `corps:` text
  bool InitiativeAffects(const State& s, UnitId u) const;
  // 5.5: the side with an overstacked hex (-1 none), and whether u may be removed first.
  int OverstackedSide(const State& s) const;
  bool StackingVictim(const State& s, UnitId u) const;
  Status BeginStackingCheck(State& s, Context& ctx) const;
  // 5.3: artillery leaves a woods hex only along a road or trail.
  bool LeavesWoodsOffPath(int from, const int16_t* path, int n) const;
  void Withdraw(State& s, UnitId u) const { s.unit(u).hex = kWithdrawn; }

  // --- Steps: the ruleset's procedures, each citing its rule (see RegisterSteps) ---------
  void RegisterSteps();
  void RegisterProcedure();
  StepKind step_reorg_ = kNoStep, step_losses_ = kNoStep, step_stand_ = kNoStep, step_stacking_ = kNoStep;
  StepKind step_combat_result_ = kNoStep;  // a script: registered last (FinishSteps)
  StepKind step_choice_ = kNoStep, step_untrained_ = kNoStep;
  StepKind step_bombard_fire_ = kNoStep, step_bombard_roll_ = kNoStep, step_cav_withdrawal_ = kNoStep;
  StepKind step_reorg_roll_ = kNoStep, step_initiative_ = kNoStep;  // chance steps (FinishSteps)
  StepKind step_setup_ = kNoStep, step_capture_ = kNoStep;  // 3.0, 5.8 (not asked with auto=setup, auto=capture)
  // Movement phase (5.0, 10.0, 12.4, 12.6).
  void BeginSbMovement(State& s, Context& ctx) const;
  void ListSbMovement(const State& s, Context& ctx, std::vector<Action>* out) const;
  void ListMovementExtras(const State& s, Context& ctx, std::vector<Action>* out) const;
  bool FilterMoves(const State& s, Context& ctx) const;  // on HexScratch::listed_runs
  Status ApplyDestroyConvoy(State& s, const Action& a, Context& ctx) const;
  Status EndSbMovement(State& s, Context& ctx) const;
  Status ApplySbMove(State& s, const Action& a, Context& ctx) const;
  Status ApplyDetach(State& s, const Action& a, Context& ctx) const;
  Status ApplyRecombine(State& s, const Action& a, Context& ctx) const;
  Status ApplyConvert(State& s, const Action& a, Context& ctx) const;
  // Combat phase (7.0-7.8).
  void BeginSbCombat(State& s, Context& ctx) const;
  Status ApplySbAttack(State& s, const Action& a, Context& ctx) const;
  Status EndSbCombat(State& s, Context& ctx) const;
  Status ApplyLossStep(State& s, const Action& a, Context& ctx) const;
  Status ApplyStandStep(State& s, const Action& a, Context& ctx) const;
  Status ApplySbRetreat(State& s, const Action& a, Context& ctx) const;
  void ListSbAdvance(const State& s, Context& ctx, std::vector<Action>* out) const;
  Status ApplySbAdvance(State& s, const Action& a, Context& ctx) const;
  Status ApplyCavalryAdvance(State& s, const Action& attackers, const Action& a, Context& ctx) const;
  void BeginSbAdvance(State& s, Context& ctx) const;
  int NextUntrainedAdvance(const State& s, int from) const;
  void ResolveUntrainedAdvance(State& s, Context& ctx, int roll) const;
  // Reorganization (9.0), bombardment (8.0, 7.8), stacking (5.5), start-of-turn choices (12.3, 12.6).
  void BeginReorganization(State& s, Context& ctx) const;
  void BeginBombardment(State& s, Context& ctx, bool defensive) const;
  void ListBombardStep(const State& s, Context& ctx, std::vector<Action>* out) const;
  // The dice rolled by bombardment (8.2), cavalry withdrawal (7.8), reorganization (9.0) and
  // the Union initiative (12.4.1): chance steps (FinishSteps).
  void ResumeBombardmentFire(State& s, Context& ctx) const;
  void ResolveBombardmentRoll(State& s, Context& ctx, int roll) const;
  void ResolveCavalryWithdrawal(State& s, Context& ctx, int roll) const;
  void ResolveReorganization(State& s, Context& ctx, int roll) const;
  void ResolveUnionInitiative(State& s, Context& ctx, int roll) const;
  void RegisterChanceSteps();
  void ListStackingStep(const State& s, std::vector<Action>* out) const;
  Status ApplyStackingStep(State& s, const Action& a, Context& ctx) const;
  // 11.1: the victory points `side` would score if the game ended now.
  int EndVp(const State& s, int side) const;

  int kind_infantry_, kind_cavalry_, kind_artillery_, kind_supply_, kind_hq_;
  int attr_bombard_, pl_, dis_, woods_, stone_wall_;
  FeatureMask slope_, river_, creek_, bridge_ford_, road_trail_;
  UnitId buell_, bragg_, gilbert_, liddell_, liddell_reg_, cav_2nd_;
  std::vector<int> battery_parent_;
  std::vector<int8_t> corps_;  // CorpsNumber per unit
  std::vector<uint8_t> unit_size_;  // per unit: 1 an infantry regiment, 2 an infantry brigade, else 0
  std::vector<UnitId> entering_;     // the units whose definition has an entry place (5.7)
  std::vector<UnitId> regiments_;    // the infantry regiments (IsRegiment), in unit order (10.1, 10.2)
  std::vector<UnitId> cavalry_, artillery_;  // the cavalry and artillery units, in unit order (7.8, 8.0)
  std::vector<int> kind_;               // per unit: Def(u).kind
  std::vector<int16_t> base_defense_;   // per unit and face (2u: not face 1, 2u + 1: face 1): BaseDefenseOn
  std::vector<int16_t> printed_ma_;     // per unit: the printed movement allowance (front face), for Allowance
  std::vector<int16_t> printed_attack_; // per unit and face, the same way: Game::Printed of the attack
  const Map* map_ = nullptr;  // game_.hex_board().map, and its size (read per candidate step)
  int map_size_ = 0;
  bool option_12_2_ = false;          // game_.OptionOn("12.2"), read at load (FreeBattery runs per unit per listing)
  bool option_setup_ = true, option_capture_ = true;  // 3.0, 5.8 asked: off with auto=setup, auto=capture
  std::vector<UnitId> setup_order_;  // 3.0: the batteries, the Union's first, in unit order
  std::vector<int> attack_reducers_;  // the markers that reduce the attack strength (Game::Reduction), read at load
  int army_hq_hex_[2] = {-1, -1};
  int objective_place_ = -1;
};

// --- Strengths, ZOC, stacking (2.5, 6.0, 6.2, 7.4, 8.4, 5.5, 12.2) -------------------

WG_RULE("2.5.1/2.2.1.3/6.2/8.1", SbRules::AttackStrength);
int SbRules::AttackStrength(const State& s, UnitId u) const {
  if (DefenseStrength(s, u) <= 0) return 0;  // 6.2: zero-strength units have AS 0
  if (IsArtillery(u)) {
    // 8.1: BS used as AS when adjacent, unless it bombarded this player-turn.
    if (s.unit(u).Has(kUnitBombarded) && s.unit(u).side == s.phasing_side) return 0;
    return Bombard(s, u);
  }
  // game_.Current(s, u, attack), with its reducing markers read at load.
  int reduction = 0;
  for (int m : attack_reducers_) reduction += s.unit(u).markers[static_cast<size_t>(m)];
  return std::max(0, printed_attack_[2 * static_cast<size_t>(u) + (s.unit(u).face == 1 ? 1 : 0)] - reduction);
}

WG_RULE("6.1/6.2", SbRules::ZocOf);
ZocKind SbRules::ZocOf(const State& s, UnitId u) const {
  if (DefenseStrength(s, u) <= 0) return ZocKind::kNone;                 // 6.2
  if (IsArtillery(u) || IsSupply(u)) return ZocKind::kOwnHex;             // 6.1
  return ZocKind::kSix;
}

WG_RULE("2.2.1.5/5.5/12.2", SbRules::CountsForStacking);
bool SbRules::CountsForStacking(const State& s, UnitId u) const {
  if (IsHq(u)) return false;            // 5.5
  if (FreeBattery(s, u)) return false;  // 12.2
  return true;
}

// --- Movement (5.1-5.8, 6.1, 6.2, 12.4, 12.6) --------------------------------------

WG_RULE("2.5.3/7.4.3/12.6", SbRules::MovementAllowance);
int SbRules::MovementAllowance(const State& s, UnitId u) const {
  return Allowance(s, u, Ext<SbExt>(s).forced_march_active != 0);
}

// The allowance with or without the 12.6 forced march (nothing else reads it).
WG_RULE("2.5.3/5.3/7.4.3/12.6", SbRules::Allowance);
int SbRules::Allowance(const State& s, UnitId u, bool forced_march) const {
  const UnitState& us = s.unit(u);
  int ma = printed_ma_[static_cast<size_t>(u)];  // Def(u).front[data().movement_attribute]
  if (us.markers[dis_] > 0) --ma;  // 7.4.3
  if (forced_march && us.side == 1 && IsKind(u, kind_infantry_) && !us.Has(kSbStartedInEzoc)) {
    ma *= 2;  // 12.6
  }
  int half = 2 * std::max(0, ma);
  if (IsArtillery(u)) half -= us.spare;  // 5.3: MPs spent changing mode
  return std::max(0, half);
}

WG_RULE("12.3", SbRules::ReinforcementTurn);
int SbRules::ReinforcementTurn(const State& s, UnitId u) const {
  // 12.3 / TRT note: the 2nd Cavalry comes with Sill's Division when it is received.
  if (u == cav_2nd_ && Ext<SbExt>(s).sill == 1) return std::min(9, Def(u).reinforcement_turn);
  return Def(u).reinforcement_turn;
}

WG_RULE("5.3/5.6", SbRules::Movable);
bool SbRules::Movable(const State& s, UnitId u, Status* why) const {
  if (!s.unit(u).Has(kUnitReleased)) {
    if (why) *why = Status::Refused("5.6", game_.UnitLabel(u) + " is not released yet");
    return false;
  }
  if (Unlimbered(s, u)) {
    if (why) *why = Status::Refused("5.3", game_.UnitLabel(u) + " is unlimbered and may not move");
    return false;
  }
  return true;
}

int SbRules::CorpsNumber(UnitId u) const {
  if (static_cast<size_t>(u) < corps_.size()) return corps_[static_cast<size_t>(u)];
  return CorpsOf(u);
}

WG_RULE("2.2.2.3", SbRules::CorpsOf);
int SbRules::CorpsOf(UnitId u) const {
  const std::string& c = Def(u).corps;
  return c == "I" ? 1 : c == "II" ? 2 : c == "III" ? 3 : 0;
}

WG_RULE("12.4.1", SbRules::InitiativeAffects);
bool SbRules::InitiativeAffects(const State& s, UnitId u) const {
  const int corps = Ext<SbExt>(s).initiative_corps;
  if (corps == 0 || s.unit(u).side != 0 || CorpsNumber(u) != corps) return false;
  return !(IsKind(u, kind_cavalry_) || IsSupply(u) || IsRegiment(u));  // 12.4.1
}

WG_RULE("5.3", SbRules::LeavesWoodsOffPath);
bool SbRules::LeavesWoodsOffPath(int from, const int16_t* path, int n) const {
  const FeatureMask paths = road_trail_;  // looked up once at load
  const Map& map = *map_;
  int prev = from;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    if (prev >= 0 && h >= 0 && map.HasTerrain(prev, woods_)) {
      const int dir = DirectionTo(map.grid.HexAt(prev), map.grid.HexAt(h));
      if (dir >= 0 && !(map.Side(prev, dir) & paths)) return true;
    }
    prev = h;
  }
  return false;
}

WG_RULE("5.3/5.7/6.2/12.4.1/12.6", SbRules::CheckMove);
Status SbRules::CheckMove(const State& s, const Action& a, Context& ctx) const {
  Status why;
  MoveAllowed(s, a, ctx, MoveFactsOf(s, a), &why);
  return why;
}

SbRules::MoveFacts SbRules::MoveFactsOf(const State& s, const Action& a) const {
  MoveFacts f;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (IsArtillery(u)) f.artillery = true;
    if (AttackStrength(s, u) > 0) f.any_attack = true;
    if (DefenseStrength(s, u) > 0) f.any_normal = true;
    if (InitiativeAffects(s, u)) f.initiative_limit[i] = (s.unit(u).Has(kSbStartedWithHq) || IsHq(u)) ? 2 : 1;
  }
  return f;
}

// CheckMove's rules, with the facts about the moving units (MoveFactsOf: the same
// for every destination of a unit); `why` (if not null) gets the refusal. The
// listing passes null, so a refused destination formats no message.
WG_RULE("5.3/5.7/6.2/12.4.1/12.6", SbRules::MoveAllowed);
bool SbRules::MoveAllowed(const State& s, const Action& a, Context& ctx, const MoveFacts& f, Status* why,
                          int path_bits) const {
  auto refuse = [why](const char* rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  if (path_bits >= 0 && (path_bits & kPathOffMap)) path_bits = -1;
  if (path_bits >= 0) {
    // The listing's one-unit move: the path facts were worked out when it was cached.
    if (f.artillery && a.type == ActionType::kMove && (path_bits & kPathWoodsExit)) {
      return refuse("5.3", [] { return "artillery may leave a woods hex only along a road or trail"; });
    }
  } else if (f.artillery && a.type == ActionType::kMove) {
    for (int i = 0; i < a.num_units; ++i) {
      const UnitId u = a.units[static_cast<size_t>(i)];
      if (IsArtillery(u) && LeavesWoodsOffPath(s.unit(u).hex, a.hexes.data(), a.num_hexes)) {
        return refuse("5.3", [] { return "artillery may leave a woods hex only along a road or trail"; });
      }
    }
  }
  const bool any_attack = f.any_attack, any_normal = f.any_normal;
  const int side = s.phasing_side;
  const int to = a.hexes[static_cast<size_t>(a.num_hexes - 1)];
  if (!any_attack && path_bits >= 0) {
    if (path_bits & kPathEnemyHex) {
      return refuse("6.2", [] { return "units without an attack strength may never enter an enemy-occupied hex"; });
    }
  } else if (!any_attack) {
    // EnemyIn per path hex, read from the (cached) occupancy map for map hexes.
    RefreshEnemyOccupancy(s, ctx, side);
    const std::vector<uint8_t>& enemy = Hs(ctx).enemy;
    const int map_size = game_.hex_board().map.size();
    for (int k = 0; k < a.num_hexes; ++k) {
      const int h = a.hexes[static_cast<size_t>(k)];
      const bool occupied = (h >= 0 && h < map_size) ? enemy[static_cast<size_t>(h)] != 0 : EnemyIn(s, h, side);
      if (occupied) {
        return refuse("6.2", [] { return "units without an attack strength may never enter an enemy-occupied hex"; });
      }
    }
  }
  // 12.4.1: the restricted corps moves one hex (two if it began stacked with an HQ).
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    const int limit = f.initiative_limit[i];
    if (limit == 0) continue;
    if (a.num_hexes > limit) {  // an entering unit counts its first hex (5.7)
      return refuse("12.4.1", [&] {
        return game_.UnitLabel(u) + "'s corps lacks initiative this turn: at most " + std::to_string(limit) + " hex" +
               (limit > 1 ? "es" : "");
      });
    }
  }
  const bool fm = Ext<SbExt>(s).forced_march_active != 0;
  if (!any_normal || fm) {
    const ZocField& zoc = f.zoc != nullptr ? *f.zoc : EnemyZoc(s, ctx, side);
    if (!any_normal && zoc.InEzoc(to)) {
      // 6.2: a zero-strength unit enters an EZOC only with or joining a normal unit.
      bool joins = false;
      if (f.normal_friend != nullptr && to >= 0 && to < game_.hex_board().map.size()) {
        joins = f.normal_friend[static_cast<size_t>(to)] != 0;
      } else {
        for (int i = 0; i < s.num_units && !joins; ++i) {
          const UnitState& o = s.units[static_cast<size_t>(i)];
          joins = o.hex == to && o.side == side && DefenseStrength(s, static_cast<UnitId>(i)) > 0;
        }
      }
      if (!joins) return refuse("6.2", [] { return "a zero-strength unit may not enter an enemy zone of control alone"; });
    }
    if (fm && zoc.InEzoc(to)) {
      for (int i = 0; i < a.num_units; ++i) {
        const UnitId u = a.units[static_cast<size_t>(i)];
        if (s.unit(u).side != 1 || !IsKind(u, kind_infantry_)) continue;
        // 12.6: a unit ending in an EZOC may not have used the doubled allowance: the
        // move's query with the allowances as if the march were off (the forced march
        // changes nothing else the query reads: occupancy and ZOCs do not depend on it).
        MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
        q.allowance = 1 << 20;
        for (int j = 0; j < a.num_units; ++j) q.allowance = std::min(q.allowance, Allowance(s, a.units[static_cast<size_t>(j)], false));
        if (a.type == ActionType::kEnter) {
          const Place& p = game_.hex_board().map.places[static_cast<size_t>(Def(u).entry_place)];
          q.EnterFrom(p.hexes);
        }
        int path[kMaxActionHexes];
        std::copy(a.hexes.begin(), a.hexes.begin() + a.num_hexes, path);
        if (!Hs(ctx).pathfinder.CheckPath(q, std::span<const int>(path, static_cast<size_t>(a.num_hexes)), data().move_labels).ok) {
          return refuse("12.6", [] { return "force-marching units may not end their move in an enemy zone of control"; });
        }
        break;
      }
    }
  }
  return true;
}

// MoveAllowed's path facts of a cached candidate (a function of the query and the
// path: the start hex, the map, the query's enemy array).
WG_RULE("5.3/6.2/12.4.1", SbRules::CandidateBits);
uint8_t SbRules::CandidateBits(const MoveQuery& q, UnitId u, const Action& a) const {
  uint8_t bits = 0;
  const int map_size = map_size_;
  for (int k = 0; k < a.num_hexes; ++k) {
    const int h = a.hexes[static_cast<size_t>(k)];
    if (h < 0 || h >= map_size || q.enemy == nullptr) return kPathOffMap;
    if (q.enemy[h]) bits |= kPathEnemyHex;  // 6.2
  }
  if (a.type == ActionType::kMove && IsArtillery(u) && LeavesWoodsOffPath(q.start, a.hexes.data(), a.num_hexes)) {
    bits |= kPathWoodsExit;  // 5.3
  }
  if (a.num_hexes > 1) bits |= kPathOver1;  // 12.4.1
  if (a.num_hexes > 2) bits |= kPathOver2;
  return bits;
}

// CandidateBits of a path extended by the step from -> to: a hex off the map decides
// nothing (kPathOffMap alone, absorbing); 6.2's enemy hex, 5.3's woods exit by this
// step, 12.4.1's lengths.
WG_RULE("5.3/6.2/12.4.1", SbRules::StepCandidateBits);
uint8_t SbRules::StepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, uint8_t pred_bits, int from, int to,
                                   int num_hexes) const {
  if (pred_bits & kPathOffMap) return kPathOffMap;
  if (to < 0 || to >= map_size_ || q.enemy == nullptr) return kPathOffMap;
  uint8_t bits = pred_bits;
  if (q.enemy[to]) bits |= kPathEnemyHex;  // 6.2
  if (type == ActionType::kMove && IsArtillery(u) && !(bits & kPathWoodsExit)) {
    const int16_t step = static_cast<int16_t>(to);
    if (LeavesWoodsOffPath(from, &step, 1)) bits |= kPathWoodsExit;  // 5.3
  }
  if (num_hexes > 1) bits |= kPathOver1;  // 12.4.1
  if (num_hexes > 2) bits |= kPathOver2;
  return bits;
}

// StepCandidateBits of every linked candidate of a fill (CandidateBits of each root),
// with what does not change from one candidate to the next read once: the query's
// enemy array, whether the woods rule (5.3) concerns the move.
void SbRules::FillStepCandidateBits(const MoveQuery& q, UnitId u, ActionType type, const HexScratch::UnitMoves& c,
                                    uint8_t* bits) const {
  const int32_t* link = c.link.data();
  const int16_t* ends = c.ends.data();
  const uint8_t* lengths = c.lengths.data();
  const size_t n = c.size();
  const uint8_t* enemy = q.enemy;
  const auto map_size = static_cast<unsigned>(map_size_);
  const bool woods = type == ActionType::kMove && IsArtillery(u);
  for (size_t i = 0; i < n; ++i) {
    const int32_t f = link[i];
    if (f < 0) {
      bits[i] = CandidateBits(q, u, c.roots[static_cast<size_t>(-1 - f)]);
      continue;
    }
    const uint8_t pred = bits[f];
    const int to = ends[i];
    // A hex off the map, or no enemy array, decides nothing (kPathOffMap alone,
    // absorbing); never so for a searched path, so tested once, last.
    if ((pred & kPathOffMap) || static_cast<unsigned>(to) >= map_size || enemy == nullptr) [[unlikely]] {
      bits[i] = kPathOffMap;
      continue;
    }
    const uint8_t length = lengths[i];
    uint8_t b = static_cast<uint8_t>(pred | (enemy[to] != 0 ? kPathEnemyHex : 0) |  // 6.2
                                     (length > 1 ? kPathOver1 : 0) | (length > 2 ? kPathOver2 : 0));  // 12.4.1
    if (woods && !(b & kPathWoodsExit)) {
      const int16_t step = static_cast<int16_t>(to);
      if (LeavesWoodsOffPath(ends[f], &step, 1)) b |= kPathWoodsExit;  // 5.3
    }
    bits[i] = b;
  }
}

WG_RULE("6.2", SbRules::Overrunnable);
bool SbRules::Overrunnable(const State& s, int hex, int moving_side) const {
  // 6.2: a hex held only by zero-strength units may be entered and passed through.
  bool any = false;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.hex != hex || u.side == moving_side) continue;
    if (DefenseStrength(s, static_cast<UnitId>(i)) > 0) return false;
    any = true;
  }
  return any;
}

// Overrunnable for every enemy hex in one pass over the other side's units (not one per
// hex): a hex is overrunnable if it holds units of the other side and none has a defence
// strength.
void SbRules::MarkOverrunnable(const State& s, int, const std::vector<uint8_t>& enemy, std::span<const UnitId> others,
                               std::vector<uint8_t>* overrun) const {
  std::vector<uint8_t>& o = *overrun;  // 1: only zero-strength units so far; 2: a normal unit
  const size_t n = enemy.size();
  int16_t hexes[kMaxUnits];  // the hexes of the other side's units, for the second pass
  int num_hexes = 0;
  for (const UnitId i : others) {  // on the map, not of the moving side, in unit order
    const UnitState& u = s.unit(i);
    if (static_cast<size_t>(u.hex) >= n) continue;
    hexes[num_hexes++] = u.hex;
    if (!enemy[static_cast<size_t>(u.hex)]) continue;
    uint8_t& m = o[static_cast<size_t>(u.hex)];
    m = DefenseStrength(s, i) > 0 ? 2 : (m == 2 ? 2 : 1);
  }
  // Only the enemy units' hexes were marked (the rest are 0 already).
  for (int k = 0; k < num_hexes; ++k) {
    uint8_t& m = o[static_cast<size_t>(hexes[k])];
    m = m == 1 ? 1 : 0;
  }
}

WG_RULE("5.8/6.2/7.6", SbRules::OnOverrun);
void SbRules::OnOverrun(State& s, Context& ctx, int hex, int moving_side) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).hex != hex || s.unit(u).side == moving_side) continue;
    if (IsSupply(u)) {
      OfferCapture(s, ctx, u, hex, moving_side);  // 5.8: capture / recapture
    } else {
      if (s.decision == DecisionType::kAdvance) {
        Eliminate(s, ctx, u, "7.6", "enemy HQ alone in the hex eliminated by the advance");
      } else {
        Eliminate(s, ctx, u, "6.2", "zero-strength unit overrun");
      }
    }
  }
}

WG_RULE("2.2.1.4/2.5.8/5.8", SbRules::Capture);
void SbRules::Capture(State& s, Context& ctx, UnitId u, int hex, int side) const {
  UnitState& us = s.unit(u);
  us.hex = static_cast<int16_t>(hex);
  us.side = static_cast<uint8_t>(side);
  us.face = side == Def(u).side ? 0 : 1;
  us.markers[pl_] = 0;
  us.markers[dis_] = 0;
  us.flags |= kUnitReleased;
  Event e;
  e.type = EventType::kCaptured;
  e.side = static_cast<int8_t>(side);
  e.unit = u;
  e.hex = static_cast<int16_t>(hex);
  e.rule = "5.8";
  e.text = us.face ? "captured" : "recaptured";
  ctx.Emit(e);
}

WG_RULE("5.8", SbRules::OfferCapture);
void SbRules::OfferCapture(State& s, Context& ctx, UnitId u, int hex, int side) const {
  if (!option_capture_) return Capture(s, ctx, u, hex, side);
  SbExt& x = Ext<SbExt>(s);
  for (const auto& p : x.pending_capture) {
    if (p[0] == u + 1) return;  // already owed (eliminated by an overrun in a combat's retreat or advance)
  }
  // 5.8: "results in the supply convoy's elimination": an overrun convoy is eliminated first.
  if (s.unit(u).OnMap()) {
    Eliminate(s, ctx, u, "5.8", "overrun");
    // Owed once: not again by AfterCombat when the combat it was overrun in ends.
    int kept = 0;
    for (int i = 0; i < x.num_convoys; ++i) {
      if (x.convoy_unit[i] == u) continue;
      x.convoy_unit[kept] = x.convoy_unit[i];
      x.convoy_hex[kept++] = x.convoy_hex[i];
    }
    for (int i = kept; i < x.num_convoys; ++i) x.convoy_unit[i] = x.convoy_hex[i] = 0;
    x.num_convoys = static_cast<uint8_t>(kept);
  }
  for (auto& p : x.pending_capture) {
    if (p[0] != 0) continue;
    p[0] = static_cast<int16_t>(u + 1);
    p[1] = static_cast<int16_t>(hex);
    return;
  }
  Capture(s, ctx, u, hex, side);  // a third convoy in one action (none in the game's set-up): captured
}

// Pushes the capture steps owed (5.8), the first owed on top; not over a chance step (the
// resolve of the chance steps asks them, FinishSteps) nor once the game is over.
void SbRules::AskCaptures(State& s) const {
  SbExt& x = Ext<SbExt>(s);
  if (x.pending_capture[0][0] == 0 || s.game_over || PendingChance(steps_, s) != nullptr) return;
  for (int i = 1; i >= 0; --i) {
    auto& p = x.pending_capture[i];
    if (p[0] == 0) continue;
    const UnitId u = static_cast<UnitId>(p[0] - 1);
    PushStep(s, steps_, step_capture_, 1 - s.unit(u).side, {u, p[1]});
    p[0] = p[1] = 0;
  }
}

Status SbRules::Apply(State& s, const Action& a, Context& ctx) const {
  const Status st = HexRules::Apply(s, a, ctx);
  if (option_capture_ && st.ok()) AskCaptures(s);
  return st;
}

// After the core's steps: the combat result's script (registered last, so the kinds saved
// States hold keep their numbers). The chance steps' outcomes may owe captures (5.8: a convoy
// eliminated in the combat the die resolved): asked when the outcome is applied, also by a
// caller that stops at chance.
void SbRules::FinishSteps() {
  HexRules::FinishSteps();
  StepDef r = NewStep("combat_result", "7.3", DecisionType::kNone);
  r.resume = [this](State& s, Context& ctx, int result) { ResumeCombatResult(s, ctx, result); };
  step_combat_result_ = steps_.Register(std::move(r));
  RegisterChanceSteps();
  if (!option_capture_) return;
  for (const StepKind k : {step_combat_roll_, step_untrained_, step_bombard_roll_, step_cav_withdrawal_, step_reorg_roll_,
                           step_initiative_}) {
    StepDef d = steps_.Def(k);
    d.resolve = [this, resolve = d.resolve](State& s, Context& ctx, int value) {
      resolve(s, ctx, value);
      AskCaptures(s);
    };
    steps_.Register(std::move(d));
  }
}

// The dice rolled inside actions, each a chance step (a search enumerates its outcomes; a
// referee is asked for the die exactly there), registered after every other step so that
// the kinds saves hold keep their numbers.
void SbRules::RegisterChanceSteps() {
  StepDef f = NewStep("bombardment_fire", "8.2", DecisionType::kNone);
  f.resume = [this](State& s, Context& ctx, int) { ResumeBombardmentFire(s, ctx); };
  step_bombard_fire_ = steps_.Register(std::move(f));
  struct Die {
    const char* name;
    const char* rule;
    DecisionType decision;
    const char* label;
    void (SbRules::*resolve)(State&, Context&, int) const;
    StepKind* kind;
  };
  const Die dice[] = {
      {"bombardment_roll", "8.2", DecisionType::kBombard, "bombardment", &SbRules::ResolveBombardmentRoll, &step_bombard_roll_},
      {"cavalry_withdrawal_roll", "7.8", DecisionType::kBombard, "cavalry withdrawal", &SbRules::ResolveCavalryWithdrawal,
       &step_cav_withdrawal_},
      {"reorganization_roll", "9.0", DecisionType::kChoice, "reorganization", &SbRules::ResolveReorganization,
       &step_reorg_roll_},
      {"union_initiative_roll", "12.4.1", DecisionType::kMovement, "Union initiative", &SbRules::ResolveUnionInitiative,
       &step_initiative_},
  };
  for (const Die& d : dice) {
    StepDef c = NewStep(d.name, d.rule, d.decision);
    c.chance = ChanceDef{6, 1, d.label};
    c.prompt = [text = std::string("roll a d6: ") + d.label + " (" + d.rule + ")"](const State&) { return text; };
    c.resolve = [this, fn = d.resolve](State& s, Context& ctx, int roll) { (this->*fn)(s, ctx, roll); };
    *d.kind = steps_.Register(std::move(c));
  }
}

// Saves of format 1-4: what the combat_result script owes was in SbExt (legacy_*), and its
// losses and stand_or_retreat steps had no arguments.
void SbRules::LegacyFrameState(const State& s, State* old) const {
  HexRules::LegacyFrameState(s, old);
  for (int i = 0; i < old->steps.depth; ++i) {
    Step& st = old->steps.items[i];
    if (st.kind == step_losses_ || st.kind == step_stand_) st = Step{st.kind, st.side, st.rule, {}};
  }
  const Step* f = FindFrame(s, step_combat_result_);
  if (f == nullptr) return;
  SbExt& x = Ext<SbExt>(*old);
  for (int k = 0; k < 2; ++k) {
    const ForceOwed o = Owed(*f, k);
    x.legacy_loss_e[k] = static_cast<uint8_t>(o.e);
    x.legacy_loss_d[k] = static_cast<uint8_t>(o.d);
    x.legacy_stand_d[k] = static_cast<uint8_t>(o.stand_d);
    x.legacy_retreat[k] = static_cast<uint8_t>(o.retreat);
    x.legacy_stand[k] = static_cast<uint8_t>(o.stand);
  }
}

// Out of a combat result's script, the older code still held the last result's retreat and
// Stand decision (its losses were all taken or forgiven): the State with each pair they may
// have been per force ({0, 0} no retreat; a W or R result: stood or retreated).
void SbRules::LegacySaveStates(const State& s, int format, std::vector<State>* out) const {
  if (format >= 5) return;
  const size_t first = out->size();
  HexRules::LegacySaveStates(s, format, out);
  if (FindFrame(s, step_combat_result_) != nullptr) return;
  static constexpr uint8_t kPairs[5][2] = {{0, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}};
  const size_t forms = out->size();
  for (size_t i = first; i < forms; ++i) {
    for (const auto& a : kPairs) {
      for (const auto& d : kPairs) {
        if (a[0] == 0 && d[0] == 0) continue;  // the form itself
        State v = (*out)[i];
        SbExt& x = Ext<SbExt>(v);
        x.legacy_retreat[0] = a[0];
        x.legacy_stand[0] = a[1];
        x.legacy_retreat[1] = d[0];
        x.legacy_stand[1] = d[1];
        out->push_back(v);
      }
    }
  }
}

// 5.8: capture (the default, offered first) or leave the convoy eliminated.
void SbRules::ListCapture(const State&, std::vector<Action>* out) const {
  out->push_back(Action::Of(ActionType::kChoice).Value(1));
  out->push_back(Action::Of(ActionType::kChoice).Value(0));
}

WG_RULE("5.8", SbRules::ApplyCapture);
Status SbRules::ApplyCapture(State& s, const Action& a, Context& ctx) const {
  const Step* top = TopStep(s);
  if (a.type != ActionType::kChoice || (a.value != 0 && a.value != 1) || top == nullptr) {
    return Status::Refused("5.8", "declare the convoy captured ({choose: 1}) or leave it eliminated ({choose: 0})");
  }
  const UnitId u = static_cast<UnitId>(top->args[0]);
  const int hex = top->args[1];
  const int side = s.decision_side;
  PopStep(s, steps_);
  if (a.value == 1) {
    Capture(s, ctx, u, hex, side);
  } else {
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(side);
    e.unit = u;
    e.hex = static_cast<int16_t>(hex);
    e.rule = "5.8";
    e.text = "not to declare the convoy captured (it stays eliminated)";
    ctx.Emit(e);
  }
  return Status::Ok();
}

// --- Set-up (3.0) ------------------------------------------------------------------------------

UnitId SbRules::NextSetupBattery(const State& s, UnitId after) const {
  auto it = setup_order_.begin();
  if (after != kNoUnit) {
    it = std::find(setup_order_.begin(), setup_order_.end(), after);
    if (it != setup_order_.end()) ++it;
  }
  for (; it != setup_order_.end(); ++it) {
    if (*it < s.num_units && s.unit(*it).OnMap()) return *it;
  }
  return kNoUnit;
}

// The battery of the set-up step: the scenario's mode first (the default), then the other.
WG_RULE("3.0", SbRules::ListSetup);
void SbRules::ListSetup(const State& s, std::vector<Action>* out) const {
  const Step* top = TopStep(s);
  if (top == nullptr) return;
  const UnitId b = static_cast<UnitId>(top->args[0]);
  const int face = s.unit(b).face;
  out->push_back(Action::Of(ActionType::kChangeMode).AddUnit(b).Value(face));
  out->push_back(Action::Of(ActionType::kChangeMode).AddUnit(b).Value(1 - face));
}

WG_RULE("3.0", SbRules::ApplySetup);
Status SbRules::ApplySetup(State& s, const Action& a, Context& ctx) const {
  const Step* top = TopStep(s);
  if (top == nullptr) return Status::Refused("3.0", "no battery to set up");
  const UnitId b = static_cast<UnitId>(top->args[0]);
  if (a.type != ActionType::kChangeMode || a.num_units != 1 || a.units[0] != b || (a.value != 0 && a.value != 1)) {
    return Status::Refused("3.0", "set up " + game_.UnitLabel(b) + " first: {mode: [" + Def(b).id +
                                      "], value: 0} limbered or {mode: [" + Def(b).id + "], value: 1} unlimbered");
  }
  UnitState& us = s.unit(b);
  us.face = static_cast<uint8_t>(a.value);
  Event e;
  e.type = EventType::kModeChange;
  e.side = static_cast<int8_t>(us.side);
  e.unit = b;
  e.hex = us.hex;
  e.a = us.face;
  e.rule = "3.0";
  e.text = us.face ? "unlimbered at set-up" : "limbered at set-up";  // "... changes mode to unlimbered at set-up"
  ctx.Emit(e);
  const UnitId next = NextSetupBattery(s, b);
  if (next != kNoUnit) {
    ReplaceStep(s, steps_, step_setup_, s.unit(next).side, {next});
    return Status::Ok();
  }
  PopStep(s, steps_);
  BeginPlay(s, ctx);
  return Status::Ok();
}

// 5.3: may the artillery unit of `a` change mode now? `why` (if not null) gets the
// refusal; the listing passes null (no State copy, no message).
WG_RULE("5.3/5.6/7.4.3", SbRules::ModeChangeAllowed);
bool SbRules::ModeChangeAllowed(const State& s, const Action& a, Context& ctx, Status* why) const {
  auto refuse = [why](const char* rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  if (a.num_units != 1) return refuse("5.3", [] { return "change the mode of one artillery unit"; });
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units || !IsArtillery(u)) return refuse("5.3", [] { return "only artillery changes mode"; });
  const UnitState& us = s.unit(u);
  if (us.side != s.phasing_side || !us.OnMap()) {
    return refuse("5.3", [&] { return game_.UnitLabel(u) + " is not a phasing unit on the map"; });
  }
  if (!us.Has(kUnitReleased)) return refuse("5.6", [] { return "unreleased artillery may not change mode"; });
  if (us.markers[dis_] > 0) return refuse("7.4.3", [] { return "disrupted artillery cannot change mode"; });
  const int left = 2 * Def(u).front[data().movement_attribute] - us.spare;
  if (left < 4) return refuse("5.3", [&] { return "changing mode costs 2 MPs and " + game_.UnitLabel(u) + " has fewer left"; });
  if (InEnemyZoc(s, ctx, us.side, us.hex)) {
    bool covered = false;
    for (int i = 0; i < s.num_units && !covered; ++i) {
      const UnitState& f = s.units[static_cast<size_t>(i)];
      covered = f.hex == us.hex && f.side == us.side && !IsArtillery(static_cast<UnitId>(i));
    }
    if (!covered) {
      return refuse("5.3", [] { return "in an enemy zone of control artillery must be stacked with a non-artillery unit to change mode"; });
    }
  }
  return true;
}

WG_RULE("5.3/7.4.3", SbRules::ApplyModeChange);
Status SbRules::ApplyModeChange(State& s, const Action& a, Context& ctx) const {
  {
    Status why;
    if (!ModeChangeAllowed(s, a, ctx, &why)) return why;
  }
  const UnitId u = a.units[0];
  UnitState& us = s.unit(u);
  us.face ^= 1;
  us.spare = static_cast<int16_t>(us.spare + 4);
  Event e;
  e.type = EventType::kModeChange;
  e.unit = u;
  e.hex = us.hex;
  e.a = us.face;
  e.rule = "5.3";
  e.text = us.face ? "unlimbered" : "limbered";
  ctx.Emit(e);
  return Status::Ok();
}

WG_RULE("5.7", SbRules::ReinforcementCanEnter);
bool SbRules::ReinforcementCanEnter(const State& s, Context& ctx) const {
  // 5.7: reinforcements must enter on their turn (or the first possible phase after).
  HexScratch& hs = Hs(ctx);
  for (const UnitId u : entering_) {  // the units with an entry place, in unit order
    if (u >= s.num_units) break;
    const UnitDef& d = Def(u);
    if (s.unit(u).side != s.phasing_side || s.unit(u).hex != kNotYetEntered) continue;
    if (ReinforcementTurn(s, u) == 0 || ReinforcementTurn(s, u) > s.turn) continue;
    const Place& place = game_.hex_board().map.places[static_cast<size_t>(d.entry_place)];
    MoveQuery q = BuildQuery(s, ctx, &u, 1);
    q.EnterFrom(place.hexes);
    const Reachable& r = hs.pathfinder.Search(q);
    // Every entry path the search found (built before any check: a check may search
    // again), in the order of the reached hexes; into a reused buffer, no allocation.
    std::vector<Action>& entries = hs.ruleset_actions;
    entries.clear();
    for (int h : r.hexes()) {
      if (r.CanEnd(h)) AppendPathAction(r, ActionType::kEnter, u, q.start, h, &entries);
    }
    // An entry counts only if the ruleset's own checks (12.4, zero-strength
    // units and enemy zones, ...) accept it, as the listed entries are.
    if (entries.empty()) continue;
    const MoveFacts facts = MoveFactsOf(s, entries.front());  // the unit's facts, not the path's
    for (const Action& a : entries) {
      if (MoveAllowed(s, a, ctx, facts, nullptr)) return true;  // CheckMove's rules, no message
    }
  }
  return false;
}

WG_RULE("11.1", SbRules::RaidCheck);
void SbRules::RaidCheck(State& s, Context& ctx, const Action& a) const {
  // 11.1: 2 VPs, once, for moving a (non-zero-strength) unit through the enemy army HQ.
  const int side = s.phasing_side;
  const int target = army_hq_hex_[1 - side];
  if (s.once_awarded & (1ull << side)) return;
  for (int k = 0; k < a.num_hexes; ++k) {
    if (a.hexes[static_cast<size_t>(k)] == target) {
      s.once_awarded |= 1ull << side;
      AwardVp(s, ctx, side, 2, "11.1", "raid through the enemy army HQ");
      return;
    }
  }
}

// --- Combat (7.1-7.8, 8.4) ------------------------------------------------------------

WG_RULE("8.1", SbRules::CheckAttack);
Status SbRules::CheckAttack(const State& s, const Action& a, Context&) const {
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (IsArtillery(u) && s.unit(u).Has(kUnitBombarded)) {
      return Status::Refused("8.1", game_.UnitLabel(u) + " bombarded this player-turn and may not also attack");
    }
  }
  return Status::Ok();
}

WG_RULE("7.1", SbRules::MustAttack);
bool SbRules::MustAttack(const State& s, Context& ctx, UnitId u) const {
  if (IsArtillery(u) && s.unit(u).Has(kUnitBombarded)) return false;  // 7.1 exception, 8.1
  return HexRules::MustAttack(s, ctx, u);
}

bool SbRules::CavAdvanced(const State& s, UnitId u) const {
  const SbExt& x = Ext<SbExt>(s);
  for (int i = 0; i < x.num_cav_advanced && i < 8; ++i) {
    if (x.cav_advanced[i] == u) return true;
  }
  return false;
}

WG_RULE("7.1/7.8", SbRules::MustBeAttacked);
bool SbRules::MustBeAttacked(const State& s, Context& ctx, UnitId u) const {
  if (Ext<SbExt>(s).num_cav_advanced == 0) return HexRules::MustBeAttacked(s, ctx, u);
  // 7.8: units that advanced after a cavalry retreat before combat "cannot then create
  // new combat situations": their ZOC obliges no attack.
  const UnitState& us = s.unit(u);
  if (!us.OnMap()) return false;
  const ZocRules& z = data().zoc;
  if (game_.hex_board().map.terrain[static_cast<size_t>(us.hex)] & z.not_into) return false;
  for (int d = 0; d < 6; ++d) {
    const int nb = game_.hex_board().map.grid.NeighborIndex(us.hex, d);
    const FeatureMask side = game_.hex_board().map.Side(us.hex, d);
    if (nb < 0 || ((side & z.blocked_by) && !(side & z.unblocked_by))) continue;
    for (int i = 0; i < s.num_units; ++i) {
      const UnitId f = static_cast<UnitId>(i);
      if (s.unit(f).hex == nb && s.unit(f).side != us.side && !CavAdvanced(s, f) && ZocOf(s, f) == ZocKind::kSix) return true;
    }
  }
  return false;
}

WG_RULE("7.1", SbRules::AutomaticAttack);
const char* SbRules::AutomaticAttack(const State&, const AttackPlan& plan) const {
  // 7.1: "If alone, it is automatically eliminated if attacked by any unit with an AS greater than zero."
  return plan.defense == 0 ? "7.1: zero-strength unit attacked alone is eliminated (no die roll)" : nullptr;
}

WG_RULE("7.6", SbRules::VacatedForAdvance);
bool SbRules::VacatedForAdvance(const State& s, int hex) const {
  // 7.6: "HQs by themselves do not prevent advance after combat"; any other unit does.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).hex == hex && (!IsHq(u) || s.unit(u).side == s.phasing_side)) return false;
  }
  return true;
}

WG_RULE("6.2", SbRules::CurrentValue);
int SbRules::CurrentValue(const Game& g, const State& s, UnitId u, int attribute) const {
  if (attribute == data().attack) return AttackStrength(s, u);    // 6.2, 8.1, 8.4
  if (attribute == data().defense) return DefenseStrength(s, u);  // 7.4, 8.4
  if (attribute == attr_bombard_) return Bombard(s, u);           // 7.4.3, 8.4
  if (attribute == data().movement_attribute) {
    return std::max(0, g.Printed(s, u, attribute) - (s.unit(u).markers[dis_] > 0 ? 1 : 0));  // 7.4.3
  }
  return HexRules::CurrentValue(g, s, u, attribute);
}

WG_RULE("7.1/7.6", SbRules::ApplyZeroStrengthAttack);
Status SbRules::ApplyZeroStrengthAttack(State& s, const Action& a, Context& ctx, const AttackPlan& plan) const {
  SbExt& x = Ext<SbExt>(s);
  FillCombat(s, a, plan.defenders, plan.num_defenders);
  for (int i = 0; i < a.num_units; ++i) s.unit(a.units[static_cast<size_t>(i)]).flags |= kUnitAttacked;
  x.num_convoys = 0;
  x.advance_rolled = 0;
  ++s.combat_count;
  if (x.first_combat_turn == 0) x.first_combat_turn = s.turn;  // 12.4.1
  for (int i = 0; i < plan.num_defenders; ++i) {
    const UnitId d = plan.defenders[i];
    s.unit(d).flags |= kUnitDefended;
    Eliminate(s, ctx, d, "7.1", "zero-strength unit attacked alone");
  }
  // 7.6: the attackers may advance into the emptied hex (a convoy is then captured, 5.8).
  FollowUpCombat(s, ctx);
  return Status::Ok();
}

WG_RULE("7.7/7.7.1/7.7.2/7.7.3/7.7.4/8.4", SbRules::CombatModifiers);
void SbRules::CombatModifiers(const State& s, Context&, CombatMods* mods) const {
  const PendingCombat& c = s.combat;
  const auto& grid = game_.hex_board().map.grid;
  bool all_up = true, all_river = true, all_creek = true;
  for (int i = 0; i < c.num_attackers; ++i) {
    const int from = s.unit(c.attackers[i]).hex;
    bool up = true, river = true, creek = true, any = false;
    for (int k = 0; k < c.num_defender_hexes; ++k) {
      const int to = c.defender_hexes[k];
      for (int d = 0; d < 6; ++d) {
        if (grid.NeighborIndex(from, d) != to) continue;
        any = true;
        up = up && (game_.hex_board().map.Toward(from, d) & slope_);
        const FeatureMask side = game_.hex_board().map.Side(from, d);
        river = river && (side & river_);
        creek = creek && (side & creek_);
      }
    }
    all_up = all_up && any && up;
    all_river = all_river && any && river;
    all_creek = all_creek && any && creek;
  }
  if (all_up || all_river) {
    // 7.7.2 / 7.7.3: doubled, never more than doubled; 8.4: artillery is never doubled.
    const char* why = all_up ? "7.7.2: defender doubled (all attackers upslope)" : "7.7.3: defender doubled (all attackers across a river)";
    int arty = 0, others = 0;
    for (int i = 0; i < c.num_defenders; ++i) {
      (IsArtillery(c.defenders[i]) ? arty : others) += DefenseStrength(s, c.defenders[i]);
    }
    if (arty == 0) {
      mods->Multiply(2, why);
    } else {
      mods->defense_bonus += others;
      mods->Note("8.4: defender doubled except its artillery");
    }
  }
  if (all_creek) mods->Drm(-1, "7.7.4: -1 DRM (all attackers across a creek)");
  bool cover = c.num_defender_hexes > 0;
  for (int k = 0; k < c.num_defender_hexes; ++k) {
    const int h = c.defender_hexes[k];
    cover = cover && (game_.hex_board().map.HasTerrain(h, woods_) || game_.hex_board().map.HasTerrain(h, stone_wall_));
  }
  if (cover) mods->Drm(-1, "7.7.1/TEC: -1 DRM (defender in woods or the stone wall)");
}

WG_RULE("7.2.1/7.3", SbRules::ApplyCombatResult);
void SbRules::ApplyCombatResult(State& s, Context& ctx, const CombatResult& r) const {
  SbExt& x = Ext<SbExt>(s);
  PendingCombat& c = s.combat;
  if (x.first_combat_turn == 0) x.first_combat_turn = s.turn;  // 12.4.1
  ForceOwed owed[2] = {};
  x.num_convoys = 0;
  x.advance_rolled = 0;
  for (int i = 0; i < c.num_defenders; ++i) {
    UnitState& d = s.unit(c.defenders[i]);
    if (!d.Has(kUnitReleased)) d.flags |= kSbReleaseNext;  // 5.6
  }
  for (int k = 0; k < 2; ++k) {
    const auto& toks = r.two_sided ? (k == 0 ? r.attacker : r.defender) : (k == 0 ? r.tokens : r.defender);
    for (const auto& t : toks) {
      if (t.code == "AE" && k == 0) {
        for (int i = 0; i < c.num_attackers; ++i) Eliminate(s, ctx, c.attackers[i], "7.2.1", "odds below 1-4");
      } else if (t.code == "E") {
        owed[k].e += t.number;
      } else if (t.code == "D") {
        owed[k].d += t.number;
      } else if (t.code == "W") {
        owed[k].retreat = std::max(owed[k].retreat, 1);
      } else if (t.code == "R") {
        owed[k].retreat = 2;
      }
    }
  }
  // 7.5.1: units with an AS retreat first; zero-AS units then go with them.
  auto normal_first = [&](UnitId* units, int n) {
    std::stable_partition(units, units + n, [&](UnitId u) { return AttackStrength(s, u) > 0; });
  };
  normal_first(c.attackers, c.num_attackers);
  normal_first(c.defenders, c.num_defenders);
  // 7.3-7.5.2: the result's script, called over the combat's follow-up (which then does
  // the retreats it owes and the advance).
  Step frame;
  for (int k = 0; k < 2; ++k) SetOwed(frame, k, owed[k]);
  CallStep(s, ctx, steps_, step_combat_result_, s.phasing_side,
           {frame.args[0], frame.args[1], frame.args[2], frame.args[3]});
}

WG_RULE("7.3/7.5.2", SbRules::LossEligible);
bool SbRules::LossEligible(const State& s, UnitId u, int k, bool stand) const {
  if (!s.unit(u).OnMap() || !InForce(s, u, k)) return false;
  if (stand && !Def(u).trained) return false;  // 7.5.2: untrained units take no Stand losses
  if (IsHq(u)) {
    // 7.3: HQs last.
    const PendingCombat& c = s.combat;
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      const UnitId v = k == 0 ? c.attackers[i] : c.defenders[i];
      if (s.unit(v).OnMap() && !IsHq(v)) return false;
    }
  }
  return true;
}

void SbRules::CheckDeath(State& s, Context& ctx, UnitId u, const char* rule) const {
  if (s.unit(u).OnMap() && ShouldDie(s, u)) Eliminate(s, ctx, u, rule, "losses exceed its strength");
}

// After all losses of a force: zero-strength units share the fate of their stack (7.1).
WG_RULE("7.1", SbRules::SettleForce);
void SbRules::SettleForce(State& s, Context& ctx, int k) const {
  const PendingCombat& c = s.combat;
  const int n = k == 0 ? c.num_attackers : c.num_defenders;
  bool normal_left = false;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    normal_left = normal_left || (s.unit(u).OnMap() && DefenseStrength(s, u) > 0);
  }
  if (normal_left) return;
  bool any_lost = false;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    any_lost = any_lost || !s.unit(u).OnMap();  // a unit of the stack was eliminated
  }
  if (!any_lost) return;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    if (s.unit(u).OnMap()) Eliminate(s, ctx, u, "7.1", "zero-strength unit shares the fate of its stack");
  }
}

// The combat_result script's frame: per force k (0 the attacker, 1 the defender), the CRT
// losses still owed in args[k] (permanent | disruption << 8, 7.3) and its retreat in
// args[2 + k] (the result's 0 none / 1 W / 2 R | stand: 0 undecided, 1 stood, 2 retreats
// << 4 | the Stand disruption still owed << 8, 7.5.2).
SbRules::ForceOwed SbRules::Owed(const Step& f, int k) {
  ForceOwed o;
  o.e = f.args[k] & 0xFF;
  o.d = (f.args[k] >> 8) & 0x7F;
  o.retreat = f.args[2 + k] & 0xF;
  o.stand = (f.args[2 + k] >> 4) & 0xF;
  o.stand_d = (f.args[2 + k] >> 8) & 0x7F;
  return o;
}

void SbRules::SetOwed(Step& f, int k, const ForceOwed& o) {
  f.args[k] = static_cast<int16_t>(std::clamp(o.e, 0, 0xFF) | std::clamp(o.d, 0, 0x7F) << 8);
  f.args[2 + k] = static_cast<int16_t>(o.retreat | o.stand << 4 | std::clamp(o.stand_d, 0, 0x7F) << 8);
}

// The script on top, entered (kEntered) or resumed with what its callee ended with: a loss
// taken (kLossTaken), a Stand (kStood) or a retreat (kRetreats) chosen.
WG_RULE("7.3/7.5.2", SbRules::ResumeCombatResult);
void SbRules::ResumeCombatResult(State& s, Context& ctx, int result) const {
  Step& f = *TopFrame(s);
  if (result != kEntered) {
    const int k = (result >> 9) & 1;
    ForceOwed o = Owed(f, k);
    if (result & kLossTaken) {
      const int amount = result & 0xFF;
      if (!(result & kDisruptionTaken)) {
        o.e -= amount;
      } else if (o.e || o.d) {
        o.d -= amount;
      } else {
        o.stand_d -= amount;
      }
    } else if (result & kStood) {
      o.stand = 1;
      o.stand_d = result & 0xFF;
    } else if (result & kRetreats) {
      o.stand = 2;
    }
    SetOwed(f, k, o);
  }
  auto any_eligible = [&](int k, bool stand) {
    const PendingCombat& c = s.combat;
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      if (LossEligible(s, k == 0 ? c.attackers[i] : c.defenders[i], k, stand)) return true;
    }
    return false;
  };
  // 1. CRT losses, defender first (7.3), then each side's retreat-or-stand (7.5.2).
  for (int k : {1, 0}) {
    ForceOwed o = Owed(f, k);
    if ((o.e || o.d) && !any_eligible(k, false)) {
      o.e = o.d = 0;
      SetOwed(f, k, o);
    }
    if (o.e || o.d) {
      CallStep(s, ctx, steps_, step_losses_, ForceSide(s, k),
               {static_cast<int16_t>(k), static_cast<int16_t>(o.e), static_cast<int16_t>(o.d), 0});
      return;
    }
  }
  // Zero-strength units left without normal units share their fate (7.1).
  SettleForce(s, ctx, 1);
  SettleForce(s, ctx, 0);
  for (int k : {1, 0}) {
    ForceOwed o = Owed(f, k);
    if (!o.retreat || o.stand == 2) continue;
    if (o.stand == 0) {
      // Only a force with trained units may Stand (7.5.2.C/E).
      if (!any_eligible(k, true)) {
        o.stand = 2;
        SetOwed(f, k, o);
        continue;
      }
      CallStep(s, ctx, steps_, step_stand_, ForceSide(s, k), {static_cast<int16_t>(k), static_cast<int16_t>(o.retreat)});
      return;
    }
    if (o.stand_d && !any_eligible(k, true)) {
      // Trained units could not absorb it all: the rest must retreat (7.5.2.C).
      o.stand_d = 0;
      o.stand = 2;
      SetOwed(f, k, o);
      continue;
    }
    if (o.stand_d) {
      CallStep(s, ctx, steps_, step_losses_, ForceSide(s, k),
               {static_cast<int16_t>(k), 0, 0, static_cast<int16_t>(o.stand_d)});
      return;
    }
  }
  SettleForce(s, ctx, 1);
  SettleForce(s, ctx, 0);
  for (int k : {1, 0}) {
    const ForceOwed o = Owed(f, k);
    if (o.retreat && o.stand == 2) BeginRetreats(s, ctx, k == 0, data().retreat_hexes);  // 7.5.1
  }
  EndStep(s, ctx, steps_);  // the combat's follow-up resumes
}

// The losses step's arguments: {force k, permanent losses owed, disruption owed, Stand
// disruption owed} (a Stand's losses when the CRT's are 0, 7.5.2).
void SbRules::ListLosses(const State& s, std::vector<Action>* out) const {
  const Step& top = *TopStep(s);
  const int k = top.args[0];
  const int e = top.args[1], d = top.args[2];
  const bool stand = !(e || d);
  const PendingCombat& c = s.combat;
  const int n = k == 0 ? c.num_attackers : c.num_defenders;
  for (int i = 0; i < n; ++i) {
    const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
    if (!LossEligible(s, u, k, stand)) continue;
    for (int m : {pl_, dis_}) {
      if (!stand && ((m == pl_ && !e) || (m == dis_ && !d))) continue;
      if (stand && m == pl_) continue;
      Action a = Action::Of(ActionType::kLoss);
      a.AddUnit(u);
      a.value = 1;
      a.value2 = m;
      out->push_back(a);
    }
  }
}

// One loss taken; the step ends with it (its caller counts what is still owed).
WG_RULE("7.3/7.4", SbRules::ApplyLoss);
Status SbRules::ApplyLoss(State& s, const Action& a, Context& ctx) const {
  const Step& top = *TopStep(s);
  const int k = top.args[0];
  const int e = top.args[1], d = top.args[2], stand_d = top.args[3];
  const bool stand = !(e || d);
  if (a.num_units != 1 || a.value < 1) return Status::Refused("7.3", "assign a positive loss to one unit");
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units || !InForce(s, u, k)) return Status::Refused("7.3", "losses go to units of this combat");
  if (!LossEligible(s, u, k, stand)) {
    if (IsHq(u)) return Status::Refused("7.3", "HQs may not take losses until every other unit in the combat is eliminated");
    if (stand && !Def(u).trained) return Status::Refused("7.5.2", "untrained units may not take Stand losses");
    return Status::Refused("7.3", game_.UnitLabel(u) + " cannot take this loss");
  }
  const int m = a.value2;
  int owed = 0;
  if (m == pl_ && !stand) owed = e;
  if (m == dis_) owed = stand ? stand_d : d;
  if (owed == 0) return Status::Refused("7.3", "no such loss is owed");
  const int room = BaseDefense(s, u) + 1 - Losses(s, u);
  const int amount = std::min(a.value, std::max(1, room));
  if (a.value > owed) return Status::Refused("7.3", "only " + std::to_string(owed) + " owed");
  if (a.value > std::max(1, room)) return Status::Refused("7.4", game_.UnitLabel(u) + " can absorb only " + std::to_string(std::max(1, room)));
  AddMarker(s, ctx, u, m, amount, stand ? "7.5.2" : "7.3");
  CheckDeath(s, ctx, u, "7.4");
  EndStep(s, ctx, steps_, kLossTaken | k << 9 | (m == dis_ ? kDisruptionTaken : 0) | amount);
  return Status::Ok();
}

// The stand_or_retreat step's arguments: {force k, the result's retreat (1 W, 2 R)}. It ends
// with the Stand and its extra disruption, or the retreat.
WG_RULE("7.5.2", SbRules::ApplyStand);
Status SbRules::ApplyStand(State& s, const Action& a, Context& ctx) const {
  const Step& top = *TopStep(s);
  const int k = top.args[0];
  if (a.type == ActionType::kStand) {
    int extra = top.args[1] == 2 ? 2 : 1;  // 7.5.2.B
    const PendingCombat& c = s.combat;
    bool wall = false;  // 7.5.2.D: one less in the stone wall hex
    const int n = k == 0 ? c.num_attackers : c.num_defenders;
    for (int i = 0; i < n; ++i) {
      const UnitId u = k == 0 ? c.attackers[i] : c.defenders[i];
      wall = wall || (s.unit(u).OnMap() && game_.hex_board().map.HasTerrain(s.unit(u).hex, stone_wall_));
    }
    if (wall) --extra;
    Event e;
    e.type = EventType::kChoice;
    e.side = static_cast<int8_t>(s.decision_side);
    e.a = extra;
    e.rule = wall ? "7.5.2.D" : "7.5.2";
    e.text = "Stand";
    ctx.Emit(e);
    EndStep(s, ctx, steps_, kStood | k << 9 | extra);
  } else {
    EndStep(s, ctx, steps_, kRetreats | k << 9);
  }
  return Status::Ok();
}

WG_RULE("5.3/6.2/7.5.1", SbRules::CheckRetreat);
Status SbRules::CheckRetreat(const State& s, Context& ctx, UnitId u, const int16_t* path, int n, int length) const {
  auto refuse = [&](const char* rule, const char* message) { return RefuseUnlessQuiet(Hs(ctx), rule, [=] { return std::string(message); }); };
  if (Unlimbered(s, u)) return refuse("7.5.1", "unlimbered artillery may never retreat");
  if (AttackStrength(s, u) <= 0) {
    // 6.2: only a unit with an AS retreats through a hex held by enemy zero-strength units.
    // EnemyIn of a map hex read from the occupancy arrays (cached; the core's check below
    // reads them too), not by a walk of the units.
    const int side = s.unit(u).side;
    RefreshEnemyOccupancy(s, ctx, side);
    const std::vector<uint8_t>& enemy = Hs(ctx).enemy;
    for (int i = 0; i < n; ++i) {
      const int h = path[i];
      if (h >= 0 && (h < map_size_ ? enemy[static_cast<size_t>(h)] != 0 : EnemyIn(s, h, side))) {
        return refuse("6.2", "units without an attack strength may never enter an enemy-occupied hex");
      }
    }
  }
  if (IsArtillery(u) && LeavesWoodsOffPath(s.unit(u).hex, path, n)) {
    return refuse("5.3", "artillery may leave a woods hex only along a road or trail");
  }
  int prev = s.unit(u).hex;
  for (int i = 0; i < n; ++i) {
    const int h = path[i];
    const int dir = h >= 0 ? DirectionTo(game_.hex_board().map.grid.HexAt(prev), game_.hex_board().map.grid.HexAt(h)) : -1;
    if (dir >= 0) {
      const FeatureMask side = game_.hex_board().map.Side(prev, dir);
      if ((side & river_) && !(side & bridge_ford_)) return refuse("7.5.1", "units may not retreat across river hexsides");
    }
    if (h >= 0) prev = h;
  }
  return HexRules::CheckRetreat(s, ctx, u, path, n, length);
}

void SbRules::OnEliminated(State& s, Context&, UnitId u, int hex) const {
  SbExt& x = Ext<SbExt>(s);
  if (IsSupply(u) && s.combat.active && x.num_convoys < 4) {
    x.convoy_unit[x.num_convoys] = u;
    x.convoy_hex[x.num_convoys] = static_cast<int16_t>(hex);
    ++x.num_convoys;
  }
}

WG_RULE("5.8", SbRules::AfterCombat);
void SbRules::AfterCombat(State& s, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  // 5.8: a convoy eliminated in combat with an enemy unit in its hex may be captured.
  for (int i = 0; i < x.num_convoys; ++i) {
    const UnitId u = x.convoy_unit[i];
    const int hex = x.convoy_hex[i];
    if (s.unit(u).hex != kEliminated) continue;
    const int owner = s.unit(u).side;
    if (CountIn(s, hex, 1 - owner) > 0 && CountIn(s, hex, owner) == 0) OfferCapture(s, ctx, u, hex, 1 - owner);
  }
  x.num_convoys = 0;
  x.advance_rolled = 0;
  for (int i = 0; i < s.num_units; ++i) s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~kSbNoAdvance);
}

// --- Stacking checkpoints (5.5) --------------------------------------------------------

int SbRules::OverstackedSide(const State& s) const {
  // StackingCount per hex, counted once per side (not once per unit), in a buffer kept
  // by the thread (asked at every phase end: no allocation each time).
  thread_local std::vector<uint16_t> count;
  count.resize(static_cast<size_t>(game_.hex_board().map.size()));
  for (int side : {static_cast<int>(s.phasing_side), 1 - s.phasing_side}) {
    std::fill(count.begin(), count.end(), 0);
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.side == side && u.hex >= 0 && u.hex < game_.hex_board().map.size() && CountsForStacking(s, static_cast<UnitId>(i))) {
        ++count[static_cast<size_t>(u.hex)];
      }
    }
    for (int i = 0; i < s.num_units; ++i) {
      const UnitState& u = s.units[static_cast<size_t>(i)];
      if (u.OnMap() && u.side == side && static_cast<int>(count[static_cast<size_t>(u.hex)]) > game_.hex_board().stacking.limit) {
        return side;
      }
    }
  }
  return -1;
}

WG_RULE("2.2.1.1/5.5", SbRules::StackingVictim);
bool SbRules::StackingVictim(const State& s, UnitId u) const {
  const UnitState& us = s.unit(u);
  if (!us.OnMap() || us.side != s.decision_side || !CountsForStacking(s, u)) return false;
  if (StackingCount(s, us.hex, us.side) <= game_.hex_board().stacking.limit) return false;
  if (!Def(u).trained) return true;
  // Untrained units go first.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId v = static_cast<UnitId>(i);
    if (s.unit(v).hex == us.hex && s.unit(v).side == us.side && CountsForStacking(s, v) && !Def(v).trained) return false;
  }
  return true;
}

// Ends the movement or combat phase, first asking owners to remove excess units.
WG_RULE("5.5", SbRules::BeginStackingCheck);
Status SbRules::BeginStackingCheck(State& s, Context& ctx) const {
  const int side = OverstackedSide(s);
  if (side < 0) {
    AdvancePhase(s, ctx);
    return Status::Ok();
  }
  CallStep(s, ctx, steps_, step_stacking_, side);
  return Status::Ok();
}

// --- Choices at the start of a player-turn (12.3, 12.6) -------------------------------

WG_RULE("12.3/12.6", SbRules::NextChoice);
void SbRules::NextChoice(State& s, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  SbChoice choice = kNoChoice;
  if (game_.OptionOn("12.3") && s.phasing_side == 0 && s.turn >= 9 && x.sill == 0) {
    choice = kChoiceSill;
  } else if (game_.OptionOn("12.3") && s.phasing_side == 1 && s.turn >= 12 && x.sill == 1 && x.withers == 0) {
    choice = kChoiceWithers;
  } else if (game_.OptionOn("12.6") && s.phasing_side == 1 && !x.forced_march_used && !x.forced_march_active && !x.moved_any &&
             s.decision == DecisionType::kMovement) {
    choice = kChoiceForcedMarch;
  }
  // The step carries what it asks (its argument 0).
  if (choice != kNoChoice) CallStep(s, ctx, steps_, step_choice_, s.phasing_side, {choice});
}

// The choice the turn_choice step on top asks (kNoChoice when it is not on top).
SbChoice SbRules::PendingChoice(const State& s) const {
  const Step* top = TopStep(s);
  if (top == nullptr || top->kind != step_choice_) return kNoChoice;
  return static_cast<SbChoice>(top->args[0]);
}

WG_RULE("12.0/12.3/12.6", SbRules::ApplyChoice);
Status SbRules::ApplyChoice(State& s, const Action& a, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  if (a.value != 0 && a.value != 1) return Status::Refused("12.0", "choose 1 (yes) or 0 (no)");
  const bool yes = a.value == 1;
  Event e;
  e.type = EventType::kChoice;
  e.side = static_cast<int8_t>(s.decision_side);
  e.a = a.value;
  auto withdraw_optional = [&](const char* formation) {
    const int f = game_.FormationIndex(formation);
    for (int i = 0; i < s.num_units; ++i) {
      const UnitId u = static_cast<UnitId>(i);
      if (Def(u).formation == f && f >= 0 && s.unit(u).hex == kNotYetEntered) Withdraw(s, u);
    }
  };
  const SbChoice choice = PendingChoice(s);
  if (choice == kChoiceSill) {
    x.sill = yes ? 1 : 2;
    e.rule = "12.3";
    e.text = yes ? "receive Sill's Division" : "decline Sill's Division";
    if (!yes) {
      withdraw_optional("sill");
      withdraw_optional("withers");
      if (cav_2nd_ >= 0 && s.unit(cav_2nd_).hex == kNotYetEntered) Withdraw(s, cav_2nd_);  // TRT note
    }
  } else if (choice == kChoiceWithers) {
    x.withers = yes ? 1 : 2;
    e.rule = "12.3";
    e.text = yes ? "receive Withers' Division" : "decline Withers' Division (draws become Confederate wins)";
    if (!yes) withdraw_optional("withers");
  } else if (choice == kChoiceForcedMarch) {
    e.rule = "12.6";
    e.text = yes ? "forced march" : "no forced march this turn";
    if (yes) {
      x.forced_march_used = 1;
      x.forced_march_active = 1;
    }
  } else {
    return Status::Refused("sequence", "no choice is pending");
  }
  ctx.Emit(e);
  // Back to the movement phase, unless another start-of-turn choice follows (12.3, then 12.6).
  EndStep(s, ctx, steps_);
  if (choice != kChoiceForcedMarch) NextChoice(s, ctx);
  return Status::Ok();
}

// --- Bombardment (8.0-8.5) -------------------------------------------------------------

WG_RULE("7.8/8.1/8.2", SbRules::CheckBombard);
Status SbRules::CheckBombard(const State& s, const Action& a, int* strength) const {
  const SbExt& x = Ext<SbExt>(s);
  if (a.num_units == 0 || a.num_hexes != 1) return Status::Refused("8.2", "bombard one target hex with one or more artillery units");
  const int target = a.hexes[0];
  const int side = s.decision_side;
  if (side != s.phasing_side && CavalryRetreatDeclared(s, side)) {
    return Status::Refused("7.8", "a cavalry retreat before combat is declared at the end of defensive bombardment: "
                                  "no bombardment after it");
  }
  if (target < 0 || target >= game_.hex_board().map.size() || !EnemyIn(s, target, side)) return Status::Refused("8.2", "the target hex holds no enemy unit");
  for (int i = 0; i < x.num_bombarded; ++i) {
    if (x.bombarded_hexes[i] == target) return Status::Refused("8.2", "that hex has already been bombarded this phase (all artillery on one hex fires together)");
  }
  Status why;
  BombardStrength(s, a, target, strength, &why);
  return why;
}

// 7.8: a unit of `side` retreated before combat this phase.
bool SbRules::CavalryRetreatDeclared(const State& s, int side) const {
  for (int i = 0; i < s.num_units; ++i) {
    if (s.units[static_cast<size_t>(i)].side == side && s.units[static_cast<size_t>(i)].Has(kSbCavRetreated)) return true;
  }
  return false;
}

// CheckBombard's tests of the bombarding units (8.0-8.5), and their strength into
// *strength; on a refusal false, and *why gets it if `why` is not null (the listing asks
// without one: no message is built).
WG_RULE("8.0/8.1/8.2/8.3/8.5", SbRules::BombardStrength);
bool SbRules::BombardStrength(const State& s, const Action& a, int target, int* strength, Status* why) const {
  auto refuse = [why](const char* rule, auto&& message) {
    if (why) *why = Status::Refused(rule, message());
    return false;
  };
  auto text = [](const char* message) { return [message] { return std::string(message); }; };
  const int side = s.decision_side;
  int total = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= s.num_units) return refuse("8.0", text("no such unit"));
    const UnitState& us = s.unit(u);
    for (int j = 0; j < i; ++j) {
      if (a.units[static_cast<size_t>(j)] == u) return refuse("8.2", text("a unit is listed twice"));
    }
    if (us.side != side || !us.OnMap() || !IsArtillery(u)) return refuse("8.0", [&] { return game_.UnitLabel(u) + " is not friendly artillery on the map"; });
    if (!Unlimbered(s, u)) return refuse("8.0", text("only unlimbered artillery may bombard"));
    if (us.Has(kUnitBombarded)) return refuse("8.2", [&] { return game_.UnitLabel(u) + " has already bombarded this phase"; });
    const int range = DistanceBetween(us.hex, target);
    const int bs = Bombard(s, u);
    if (range > 3) return refuse("8.1", text("out of range"));
    if (range == 3 && bs <= 0) return refuse("8.5", text("artillery with no bombardment strength may not fire at extended range"));
    if (range >= 2 && !data().los->Clear(us.hex, target)) return refuse("8.3", [&] { return "no line of sight from " + game_.HexLabel(us.hex); });
    total += range == 3 ? 1 : bs;  // 8.5
  }
  total = std::min(total, 6);  // 8.2
  if (total <= 0) return refuse("8.2", text("no bombardment strength"));
  *strength = total;
  return true;
}

WG_RULE("8.2", SbRules::ApplyBombard);
Status SbRules::ApplyBombard(State& s, const Action& a, Context& ctx) const {
  int strength = 0;
  Status st = CheckBombard(s, a, &strength);
  if (!st.ok()) return st;
  SbExt& x = Ext<SbExt>(s);
  const int target = a.hexes[0];
  if (x.num_bombarded < 24) x.bombarded_hexes[x.num_bombarded++] = static_cast<int16_t>(target);
  for (int i = 0; i < a.num_units; ++i) s.unit(a.units[static_cast<size_t>(i)]).flags |= kUnitBombarded;
  Event e;
  e.type = EventType::kBombard;
  e.side = static_cast<int8_t>(s.decision_side);
  e.hex = static_cast<int16_t>(target);
  e.a = strength;
  e.rule = "8.2";
  ctx.Emit(e);
  const DieTable& table = *data().tables.Find("bombardment");
  const int column = table.ColumnForValue(strength);
  const int drm = (game_.hex_board().map.HasTerrain(target, woods_) || game_.hex_board().map.HasTerrain(target, stone_wall_)) ? -1 : 0;
  UnitId here[kMaxCombatUnits];
  const int n = UnitsIn(s, target, 1 - s.decision_side, here, kMaxCombatUnits);
  bool others = false;  // units stacking freely are ignored unless alone (8.2, 12.2)
  for (int i = 0; i < n; ++i) others = others || CountsForStacking(s, here[i]);
  // One die per unit hit, each a chance step, called by the bombardment_fire script.
  CallStep(s, ctx, steps_, step_bombard_fire_, s.decision_side,
           {static_cast<int16_t>(target), static_cast<int16_t>(column < 0 ? 0 : column), static_cast<int16_t>(drm),
            static_cast<int16_t>(others ? 1 : 0)});
  return Status::Ok();
}

// The bombardment_fire script (8.2): args {target hex, column, DRM, next unit << 1 | others};
// calls a bombardment_roll for each enemy unit in the target hex, in unit order (units
// stacking freely are ignored unless alone: `others`), then ends.
WG_RULE("8.2", SbRules::ResumeBombardmentFire);
void SbRules::ResumeBombardmentFire(State& s, Context& ctx) const {
  Step& f = *TopFrame(s);
  const int target = f.args[0];
  const int others = f.args[3] & 1;
  const int side = 1 - f.side;  // the bombarded side
  for (int i = f.args[3] >> 1; i < s.num_units && i < kMaxUnits; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).hex != target || s.unit(u).side != side) continue;
    if (others && !CountsForStacking(s, u)) continue;
    f.args[3] = static_cast<int16_t>((i + 1) << 1 | others);
    if (!s.unit(u).Has(kUnitReleased)) s.unit(u).flags |= kSbReleaseNext;  // 5.6
    CallStep(s, ctx, steps_, step_bombard_roll_, f.side, {static_cast<int16_t>(u), f.args[1], f.args[2]});
    return;
  }
  EndStep(s, ctx, steps_);
}

// A bombardment_roll (8.2): args {unit, column, DRM}.
WG_RULE("8.2", SbRules::ResolveBombardmentRoll);
void SbRules::ResolveBombardmentRoll(State& s, Context& ctx, int roll) const {
  const Step f = *TopStep(s);
  const UnitId u = static_cast<UnitId>(f.args[0]);
  const DieTableCell& cell = data().tables.Find("bombardment")->Lookup(roll + f.args[2], f.args[1]);
  if (cell.is_int && cell.number > 0) {
    AddMarker(s, ctx, u, dis_, cell.number, "8.2");
    CheckDeath(s, ctx, u, "8.2");
  }
  EndStep(s, ctx, steps_);
}

// CheckBombard of each unlimbered artillery unit against each enemy hex in range, with
// the tests of the phase (7.8) and of each target (8.2) asked once, not per unit: the
// targets are the hexes of the other side's units on the map, each once, in the unit
// order of the first unit in it (on the map and held by the enemy, as CheckBombard asks),
// found once per listing.
void SbRules::ListBombards(const State& s, Context& ctx, std::vector<Action>* out) const {
  const int side = s.decision_side;
  if (side != s.phasing_side && CavalryRetreatDeclared(s, side)) return;  // 7.8: none at all
  int16_t targets[kMaxUnits];
  Hex at[kMaxUnits];  // their coordinates (the range test)
  int num_targets = -1;  // not yet found
  const auto& grid = game_.hex_board().map.grid;
  for (const UnitId u : artillery_) {
    if (u >= s.num_units) break;
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap() || !Unlimbered(s, u) || us.Has(kUnitBombarded)) continue;
    if (num_targets < 0) num_targets = BombardTargets(s, Hs(ctx), targets, at);
    const Hex from = grid.HexAt(us.hex);
    for (int t = 0; t < num_targets; ++t) {
      if (Distance(from, at[t]) > 3) continue;  // DistanceBetween
      Action a = Action::Of(ActionType::kBombard);
      a.AddUnit(u).AddHex(targets[t]);
      int strength;
      if (BombardStrength(s, a, targets[t], &strength, nullptr)) out->push_back(a);
    }
  }
}

// ListBombards' targets into targets[] (and their coordinates into at[]); returns how
// many. Each hex once: HexScratch::hex_seen marks the hexes met (ListAttacks' marks, all
// 0 between uses: reset before returning).
WG_RULE("8.2", SbRules::BombardTargets);
int SbRules::BombardTargets(const State& s, HexScratch& hs, int16_t* targets, Hex* at) const {
  const SbExt& x = Ext<SbExt>(s);
  const int side = s.decision_side;
  int16_t met[kMaxUnits];
  int num_met = 0, n = 0;
  for (int j = 0; j < s.num_units; ++j) {
    const UnitState& e = s.units[static_cast<size_t>(j)];
    if (!e.OnMap() || e.side == side) continue;
    uint8_t& seen = hs.hex_seen[static_cast<size_t>(e.hex)];
    if (seen) continue;
    seen = 1;
    met[num_met++] = e.hex;
    // 8.2: a hex bombarded this phase is no target any more.
    if (std::find(x.bombarded_hexes, x.bombarded_hexes + x.num_bombarded, e.hex) != x.bombarded_hexes + x.num_bombarded) {
      continue;
    }
    at[n] = game_.hex_board().map.grid.HexAt(e.hex);
    targets[n++] = e.hex;
  }
  for (int k = 0; k < num_met; ++k) hs.hex_seen[static_cast<size_t>(met[k])] = 0;
  return n;
}

// --- Cavalry retreat before combat (7.8) -------------------------------------------------

WG_RULE("7.8", SbRules::CheckCavalryRetreat);
Status SbRules::CheckCavalryRetreat(const State& s, Context& ctx, const Action& a) const {
  if (a.num_units != 1 || a.num_hexes != 2) return Status::Refused("7.8", "a cavalry retreat before combat is one unit, two hexes");
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units) return Status::Refused("7.8", "only cavalry may retreat before combat");
  Status st;
  if (!CavalryMayRetreat(s, u, &st)) return st;
  int16_t path[2] = {a.hexes[0], a.hexes[1]};
  return CheckRetreat(s, ctx, u, path, 2, 2);  // as a two-hex combat retreat (7.5.1)
}

// 7.8's tests of the unit (not of its path): cavalry of the deciding side, on the map,
// not retreated yet, with an enemy unit adjacent.
WG_RULE("7.8", SbRules::CavalryMayRetreat);
bool SbRules::CavalryMayRetreat(const State& s, UnitId u, Status* why) const {
  auto refuse = [why](auto&& message) {  // the text only when asked (the listing does not)
    if (why) *why = Status::Refused("7.8", message());
    return false;
  };
  if (!IsKind(u, kind_cavalry_)) return refuse([] { return "only cavalry may retreat before combat"; });
  const UnitState& us = s.unit(u);
  if (us.side != s.decision_side || !us.OnMap() || us.Has(kSbCavRetreated)) {
    return refuse([&] { return game_.UnitLabel(u) + " cannot retreat before combat now"; });
  }
  bool adjacent = false;
  for (int i = 0; i < s.num_units && !adjacent; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    adjacent = e.OnMap() && e.side != us.side && Adjacent(e.hex, us.hex);
  }
  if (!adjacent) return refuse([] { return "no enemy unit is adjacent"; });
  return true;
}

WG_RULE("7.8", SbRules::ApplyCavalryRetreat);
Status SbRules::ApplyCavalryRetreat(State& s, const Action& a, Context& ctx) const {
  Status st = CheckCavalryRetreat(s, ctx, a);
  if (!st.ok()) return st;
  const UnitId u = a.units[0];
  bool enemy_cavalry = false;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& e = s.units[static_cast<size_t>(i)];
    if (e.OnMap() && e.side != s.unit(u).side && Adjacent(e.hex, s.unit(u).hex) && IsKind(static_cast<UnitId>(i), kind_cavalry_)) enemy_cavalry = true;
  }
  const int from = s.unit(u).hex;
  for (int k = 0; k < 2; ++k) {
    if (EnemyIn(s, a.hexes[static_cast<size_t>(k)], s.unit(u).side)) OnOverrun(s, ctx, a.hexes[static_cast<size_t>(k)], s.unit(u).side);  // 6.2
  }
  MoveUnit(s, ctx, u, a.hexes[1], EventType::kRetreat, "7.8");
  s.unit(u).flags |= kSbCavRetreated;
  for (int k = 0; k < 2; ++k) TouchHex(s, ctx, a.hexes[static_cast<size_t>(k)], s.unit(u).side);  // 11.1
  RetreatCompanions(s, ctx, u, from, a.hexes.data(), 2, /*in_combat=*/false);
  if (CountIn(s, from, -1) == 0) {
    // The attacker may advance units that were adjacent (7.6); they count as having attacked.
    PendingCombat& c = s.combat;
    c = PendingCombat{};
    for (auto& h : c.defender_hexes) h = -1;
    c.legacy_current = kNoUnit;
    c.vacated_hex = static_cast<int16_t>(from);
    for (int i = 0; i < s.num_units && c.num_attackers < kMaxCombatUnits; ++i) {
      const UnitId v = static_cast<UnitId>(i);
      const UnitState& vs = s.unit(v);
      if (vs.OnMap() && vs.side == s.phasing_side && Adjacent(vs.hex, from) && AttackStrength(s, v) > 0 && !IsArtillery(v)) {
        c.attackers[c.num_attackers++] = v;
      }
    }
    if (c.num_attackers > 0) {
      Ext<SbExt>(s).cavalry_advance = 1;
      CallStep(s, ctx, steps_, step_advance_, s.phasing_side);
    }
  }
  const DieTable& t = *data().tables.Find("cavalry_withdrawal");
  // The column least favourable to the cavalry: "cavalry" if any adjacent enemy is cavalry.
  const int column = t.ColumnByKey(enemy_cavalry ? "cavalry" : "infantry");
  CallStep(s, ctx, steps_, step_cav_withdrawal_, s.unit(u).side, {static_cast<int16_t>(u), static_cast<int16_t>(column)});
  return Status::Ok();
}

// The cavalry withdrawal's die (7.8): args {unit, column}.
WG_RULE("7.8", SbRules::ResolveCavalryWithdrawal);
void SbRules::ResolveCavalryWithdrawal(State& s, Context& ctx, int roll) const {
  const Step f = *TopStep(s);
  const UnitId u = static_cast<UnitId>(f.args[0]);
  if (data().tables.Find("cavalry_withdrawal")->Lookup(roll, f.args[1]).text == "D") {
    AddMarker(s, ctx, u, dis_, 1, "7.8");
    CheckDeath(s, ctx, u, "7.8");
  }
  EndStep(s, ctx, steps_);
}

void SbRules::ListCavalryRetreats(const State& s, Context& ctx, std::vector<Action>* out) const {
  // CheckCavalryRetreat's tests of the unit, of each cavalry unit (no other may retreat so);
  // the paths from the first that may on (ListCavalryRetreatPaths: its State view is made
  // only then, not for every listing).
  for (size_t k = 0; k < cavalry_.size(); ++k) {
    const UnitId u = cavalry_[k];
    if (u >= s.num_units) break;
    if (CavalryMayRetreat(s, u, nullptr)) {
      ListCavalryRetreatPaths(s, ctx, k, out);
      return;
    }
  }
}

// The retreat paths of the cavalry units cavalry_[first] (which may retreat) and after
// that may retreat, each path checked as a two-hex combat retreat (7.5.1) against s, pinned
// (nothing changes it while the paths are checked). Only whether a path is legal is asked:
// the refusals are quiet.
void SbRules::ListCavalryRetreatPaths(const State& s, Context& ctx, size_t first, std::vector<Action>* out) const {
  const QuietRefusals quiet(Hs(ctx));
  const HexStatePin pin(ctx, s);
  const auto& grid = game_.hex_board().map.grid;
  for (size_t k = first; k < cavalry_.size(); ++k) {
    const UnitId u = cavalry_[k];
    if (u >= s.num_units) break;
    if (k != first && !CavalryMayRetreat(s, u, nullptr)) continue;
    const UnitState& us = s.unit(u);
    for (int d1 = 0; d1 < 6; ++d1) {
      const int h1 = grid.NeighborIndex(us.hex, d1);
      if (h1 < 0) continue;
      for (int d2 = 0; d2 < 6; ++d2) {
        const int h2 = grid.NeighborIndex(h1, d2);
        if (h2 < 0 || DistanceBetween(us.hex, h2) != 2) continue;
        const int16_t path[2] = {static_cast<int16_t>(h1), static_cast<int16_t>(h2)};
        if (!CheckRetreat(s, ctx, u, path, 2, 2).ok()) continue;
        Action a = Action::Of(ActionType::kRetreat);
        a.AddUnit(u).AddHex(h1).AddHex(h2);
        out->push_back(a);
      }
    }
  }
}

WG_RULE("5.2/5.8/7.6", SbRules::MayAdvanceInto);
Status SbRules::MayAdvanceInto(const State& s, UnitId u, int to) const {
  const int from = s.unit(u).hex;
  const int dir = from >= 0 && to >= 0 ? DirectionTo(game_.hex_board().map.grid.HexAt(from), game_.hex_board().map.grid.HexAt(to)) : -1;
  const int cls = game_.kinds[static_cast<size_t>(Def(u).kind)].movement_class;
  std::string why;
  if (dir < 0 || StepCost(game_.hex_board().map, data().movement, cls, from, dir, &why) == kProhibitedCost) {
    if (IsSupply(u)) return Status::Refused("5.8", "supply convoys move only along roads and trails, an advance too");
    return Status::Refused("5.2", game_.UnitLabel(u) + " may not advance there: " + why);
  }
  return Status::Ok();
}

// 7.5.1: "Other units with a zero AS (including HQs) automatically retreat with the units
// they are stacked with" (also a cavalry retreat before combat, 7.8, when no unit with an
// AS stays behind). A unit whose terrain forbids the path retreats on its own in combat.
WG_RULE("6.2/7.5.1/7.8", SbRules::RetreatCompanions);
void SbRules::RetreatCompanions(State& s, Context& ctx, UnitId u, int from, const int16_t* path, int n,
                                bool in_combat) const {
  const int side = s.unit(u).side;
  for (int i = 0; i < s.num_units && !in_combat; ++i) {
    const UnitId v = static_cast<UnitId>(i);
    if (v != u && s.unit(v).hex == from && s.unit(v).side == side && AttackStrength(s, v) > 0) return;
  }
  // The retreating unit eliminates enemy zero-strength units on the path (6.2): not in the way.
  State view;
  std::memcpy(static_cast<void*>(&view), &s, sizeof(State));
  for (int i = 0; i < view.num_units; ++i) {
    UnitState& e = view.units[static_cast<size_t>(i)];
    for (int k = 0; k < n && e.OnMap(); ++k) {
      if (e.side != side && e.hex == path[k] && Overrunnable(s, path[k], side)) e.hex = kEliminated;
    }
  }
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId v = static_cast<UnitId>(i);
    UnitState& vs = s.unit(v);
    if (v == u || vs.hex != from || vs.side != side || AttackStrength(s, v) > 0) continue;
    if (in_combat && !OwesRetreat(s, v)) continue;
    const QuietRefusals quiet(Hs(ctx));  // only whether it may go is asked
    if (!CheckRetreat(view, ctx, v, path, n, n).ok()) continue;
    MoveUnit(s, ctx, v, path[n - 1], EventType::kRetreat, in_combat ? "7.5.1" : "7.8");
    ForgiveRetreat(s, v);
  }
}

// --- Reorganization (9.0, 12.5) ----------------------------------------------------------

WG_RULE("12.5", SbRules::HqServes);
bool SbRules::HqServes(UnitId hq, UnitId u) const {
  if (!game_.OptionOn("12.5")) return true;
  if (IsKind(u, kind_cavalry_) || IsSupply(u) || IsRegiment(u)) return true;  // 12.5
  const UnitDef& d = Def(u);
  int formation = d.formation;
  const int parent = battery_parent_[static_cast<size_t>(u)];
  if (parent >= 0) formation = game_.units[static_cast<size_t>(parent)].formation;
  if (formation < 0) return false;
  const Formation& f = game_.formations[static_cast<size_t>(formation)];
  if (d.side == 0) {
    // Union: the corps HQ.
    return Def(hq).size == "corps" && CorpsNumber(hq) != 0 && CorpsNumber(hq) == CorpsNumber(u);
  }
  // Confederate: the divisional HQ.
  return !f.hq.empty() && game_.UnitIndex(f.hq) == hq;
}

WG_RULE("4.2/9.0/12.5", SbRules::CheckReorganize);
Status SbRules::CheckReorganize(const State& s, Context& ctx, const Action& a, int* column) const {
  // The listing asks under QuietRefusals: its refusals build no message.
  const HexScratch& hs = Hs(ctx);
  auto refuse = [&](const char* rule, auto message) { return RefuseUnlessQuiet(hs, rule, message); };
  if (a.num_units < 1 || a.num_units > 2) {
    return refuse("9.0", [] { return std::string("reorganize one unit, optionally aided by one HQ"); });
  }
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units) return refuse("9.0", [] { return std::string("no such unit"); });
  const UnitState& us = s.unit(u);
  if (us.side != s.phasing_side || !us.OnMap()) {
    return refuse("9.0", [] { return std::string("only phasing units on the map reorganize"); });
  }
  if (us.markers[dis_] == 0) return refuse("9.0", [&] { return game_.UnitLabel(u) + " is not disrupted"; });
  if (us.Has(kSbReorganized)) {
    return refuse("9.0", [&] { return game_.UnitLabel(u) + " has already tried to reorganize"; });
  }
  if (InEnemyZoc(s, ctx, us.side, us.hex)) {
    return refuse("9.0", [] { return std::string("a unit in an enemy zone of control may not reorganize"); });
  }
  *column = 0;
  if (a.num_units == 2) {
    const UnitId h = a.units[1];
    if (h < 0 || h >= s.num_units || !IsHq(h) || s.unit(h).side != us.side || !s.unit(h).OnMap()) {
      return refuse("9.0", [] { return std::string("the aiding unit must be a friendly HQ on the map"); });
    }
    if (h == buell_ || h == bragg_) {
      return refuse("9.0", [] { return std::string("the Bragg and Buell HQs may not aid reorganization"); });
    }
    if (s.unit(h).spare >= 2) return refuse("9.0", [&] { return game_.UnitLabel(h) + " has already aided two units"; });
    if (!HqServes(h, u)) {
      return refuse("12.5", [&] { return game_.UnitLabel(h) + " does not command " + game_.UnitLabel(u); });
    }
    const int dist = DistanceBetween(s.unit(h).hex, us.hex);
    if (dist > 3) return refuse("9.0", [] { return std::string("the HQ must be within three hexes"); });
    *column = dist == 0 ? 2 : 1;
  }
  return Status::Ok();
}

WG_RULE("9.0", SbRules::ApplyReorganize);
Status SbRules::ApplyReorganize(State& s, const Action& a, Context& ctx) const {
  int column = 0;
  Status st = CheckReorganize(s, ctx, a, &column);
  if (!st.ok()) return st;
  const UnitId u = a.units[0];
  UnitState& us = s.unit(u);
  us.flags |= kSbReorganized;
  if (a.num_units == 2) ++s.unit(a.units[1]).spare;
  const int drm = us.Has(kUnitMoved) && !IsHq(u) ? -1 : 0;  // 9.0: -1 if it moved
  CallStep(s, ctx, steps_, step_reorg_roll_, us.side,
           {static_cast<int16_t>(u), static_cast<int16_t>(column), static_cast<int16_t>(drm)});
  return Status::Ok();
}

// The reorganization's die (9.0): args {unit, column, DRM}.
WG_RULE("9.0", SbRules::ResolveReorganization);
void SbRules::ResolveReorganization(State& s, Context& ctx, int roll) const {
  const Step f = *TopStep(s);
  const UnitId u = static_cast<UnitId>(f.args[0]);
  UnitState& us = s.unit(u);
  const DieTableCell& cell = data().tables.Find("reorganization")->Lookup(roll + f.args[2], f.args[1]);
  const int removed = std::min<int>(cell.is_int ? cell.number : 0, us.markers[dis_]);
  if (removed > 0) {
    us.markers[dis_] = static_cast<uint8_t>(us.markers[dis_] - removed);
    Event e;
    e.type = EventType::kRecover;
    e.unit = u;
    e.hex = us.hex;
    e.a = removed;
    e.rule = "9.0";
    e.text = "disruption";
    ctx.Emit(e);
  }
  EndStep(s, ctx, steps_);
}

void SbRules::ListReorganize(const State& s, Context& ctx, std::vector<Action>* out) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != s.phasing_side || !us.OnMap() || us.markers[dis_] == 0 || us.Has(kSbReorganized)) continue;
    Action a = Action::Of(ActionType::kCustom);
    a.value = kCustomReorganize;
    a.AddUnit(u);
    int column;
    const QuietRefusals quiet(Hs(ctx));  // only whether it may is asked
    if (!CheckReorganize(s, ctx, a, &column).ok()) continue;
    out->push_back(a);
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId h = static_cast<UnitId>(j);
      if (!IsHq(h) || s.unit(h).side != us.side || !s.unit(h).OnMap()) continue;
      Action b = a;
      b.AddUnit(h);
      if (CheckReorganize(s, ctx, b, &column).ok()) out->push_back(b);
    }
  }
}

// --- Detachments (10.1-10.3) -----------------------------------------------------------------

Status SbRules::CheckDetach(const State& s, const Action& a) const {
  Status why;
  CheckDetachAllowed(s, a, &why);
  return why;
}

// CheckDetach's rules; `why` (if not null) gets the refusal (the listing passes null).
// What detaching (10.1) and recombining (10.2) both require: the start of the movement
// phase, a brigade and a regiment named, the brigade the phasing side's and on the map.
// The refusals name the act: `acts` ("detachments happen"), `may` ("detach a regiment").
// A message is built only when `why` is given (the listing passes null).
bool SbRules::BrigadeMayActOnRegiment(const State& s, const Action& a, const char* rule, const char* acts,
                                      const char* may, Status* why) const {
  auto refuse = [why, rule](const char* message, const char* tail = "") {
    if (why) *why = Status::Refused(rule, std::string(message) + tail);
    return false;
  };
  if (s.decision != DecisionType::kMovement) return refuse(acts, " in the movement phase");
  if (Ext<SbExt>(s).moved_any) return refuse("only at the start of the movement phase, before any unit moves");
  if (a.num_units != 2) return refuse("name the brigade and the regiment");
  const UnitId b = a.units[0], r = a.units[1];
  if (b < 0 || r < 0 || b >= s.num_units || r >= s.num_units) return refuse("no such unit");
  if (!IsBrigade(b) || s.unit(b).side != s.phasing_side || !s.unit(b).OnMap()) {
    return refuse("only a phasing brigade on the map may ", may);
  }
  return true;
}

WG_RULE("2.2.2.2/10.1", SbRules::CheckDetachAllowed);
bool SbRules::CheckDetachAllowed(const State& s, const Action& a, Status* why) const {
  auto refuse = [why](const char* rule, const char* message) {
    if (why) *why = Status::Refused(rule, message);
    return false;
  };
  if (!BrigadeMayActOnRegiment(s, a, "10.1", "detachments happen", "detach a regiment", why)) return false;
  const UnitId b = a.units[0], r = a.units[1];
  if (s.unit(b).markers[pl_] > 0) return refuse("10.1", "the brigade must be at full strength (no permanent loss)");
  if (s.unit(b).Has(kSbHasDetached)) return refuse("10.1", "no brigade may have more than one regiment detached");
  if (!RegimentAvailable(s, r)) return refuse("10.1", "that regiment counter is not available");
  return true;
}

// CheckDetachAllowed's test of the regiment alone (it does not read the brigade).
bool SbRules::RegimentAvailable(const State& s, UnitId r) const {
  return IsRegiment(r) && Def(r).side == s.phasing_side && s.unit(r).hex == kWithdrawn && s.unit(r).spare == 0 &&
         (Def(r).optional_rule.empty() || game_.OptionOn(Def(r).optional_rule));
}

Status SbRules::CheckRecombine(const State& s, const Action& a) const {
  Status why;
  CheckRecombineAllowed(s, a, &why);
  return why;
}

// CheckRecombine's rules; `why` (if not null) gets the refusal (the listing passes null).
WG_RULE("10.2", SbRules::CheckRecombineAllowed);
bool SbRules::CheckRecombineAllowed(const State& s, const Action& a, Status* why) const {
  auto refuse = [why](const char* rule, const char* message) {
    if (why) *why = Status::Refused(rule, message);
    return false;
  };
  if (!BrigadeMayActOnRegiment(s, a, "10.2", "recombination happens", "recombine", why)) return false;
  const UnitId b = a.units[0], r = a.units[1];
  if (!IsRegiment(r) || s.unit(r).side != s.phasing_side || s.unit(r).hex != s.unit(b).hex || s.unit(r).spare == 0) {
    return refuse("10.2", "the regiment must be a detached regiment in the brigade's hex");
  }
  const int as = Def(r).front[data().attack] - s.unit(r).markers[pl_];
  if (as <= 0) return refuse("10.2", "the regiment has no attack strength left to restore");
  if (s.unit(b).markers[pl_] < as) return refuse("10.2", "the brigade's permanent loss must be at least the regiment's AS");
  return true;
}

// --- Phases ------------------------------------------------------------------------------------

WG_RULE("3.0/10.1/10.3/12.4.2", SbRules::Start);
void SbRules::Start(State& s, Context& ctx) const {
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitDef& d = Def(u);
    // 10.1: regiment counters not on the map form the detachment pool.
    if (IsRegiment(u) && s.unit(u).hex == kNotYetEntered && d.reinforcement_turn == 0) Withdraw(s, u);
    // 3.0 / 5.3: artillery may set up unlimbered; the data gives the face.
  }
  // 10.3: the 7th Arkansas begins detached from Liddell's Brigade.
  if (liddell_ >= 0 && liddell_reg_ >= 0 && s.unit(liddell_reg_).OnMap()) {
    s.unit(liddell_reg_).spare = static_cast<int16_t>(liddell_ + 1);
    s.unit(liddell_).flags |= kSbHasDetached;
  }
  if (game_.OptionOn("12.4") && gilbert_ >= 0) s.unit(gilbert_).flags |= kUnitReleased;  // 12.4.2
  // 3.0: "Artillery units may be set up either limbered or unlimbered at the owner's option":
  // each owner is asked (the `setup` step, one battery at a time); with auto=setup the
  // scenario's face stands.
  if (option_setup_) {
    const UnitId b = NextSetupBattery(s, kNoUnit);
    if (b != kNoUnit) {
      PushStep(s, steps_, step_setup_, s.unit(b).side, {b});
      return;
    }
  }
  BeginPlay(s, ctx);
}

WG_RULE("11.1", SbRules::BeginPlay);
void SbRules::BeginPlay(State& s, Context& ctx) const {
  // 11.1: a side occupying the objective at the start is its last occupant.
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).OnMap() && DefenseStrength(s, u) > 0) TouchHex(s, ctx, s.unit(u).hex, s.unit(u).side);
  }
  HexRules::Start(s, ctx);
}

// --- Phase steps' beginnings -----------------------------------------------------------------

// The movement phase (5.0): the core's releases, then the marks of the last phase go, 12.4.1's
// initiative roll, then the start-of-turn choices (12.3, 12.6).
void SbRules::BeginSbMovement(State& s, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  const int side = s.phasing_side;
  BeginMovementPhase(s, ctx);
  x.moved_any = 0;
  x.forced_march_active = 0;
  x.num_cav_advanced = 0;
  const ZocField& zoc = EnemyZoc(s, ctx, side);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    UnitState& us = s.unit(u);
    // The combat marks of the last combat phase go; 7.8 may set them again before this one.
    us.flags &= static_cast<uint16_t>(~(kSbCavRetreated | kSbDetachedNow | kUnitAttacked | kUnitDefended));
    if (us.side != side) continue;
    if (us.Has(kSbReleaseNext)) {
      us.flags = static_cast<uint16_t>((us.flags | kUnitReleased) & ~kSbReleaseNext);  // 5.6
    }
    if (IsArtillery(u)) us.spare = 0;
    us.flags &= static_cast<uint16_t>(~(kSbStartedInEzoc | kSbStartedWithHq));
    if (us.OnMap() && zoc.InEzoc(us.hex)) us.flags |= kSbStartedInEzoc;
  }
  // 12.4.1: the Union initiative roll, from the turn after the first combat.
  x.initiative_corps = 0;
  if (game_.OptionOn("12.4") && side == 0 && x.first_combat_turn > 0 && s.turn > x.first_combat_turn) {
    CallStep(s, ctx, steps_, step_initiative_, 0);  // its outcome goes on to the choices
    return;
  }
  NextChoice(s, ctx);
}

// The Union initiative's die (12.4.1), then the start-of-turn choices (12.3, 12.6).
WG_RULE("12.4.1", SbRules::ResolveUnionInitiative);
void SbRules::ResolveUnionInitiative(State& s, Context& ctx, int roll) const {
  SbExt& x = Ext<SbExt>(s);
  EndStep(s, ctx, steps_);
  const DieTable& t = *data().tables.Find("union_initiative");
  const std::string& corps = t.Lookup(roll, 0).text;
  x.initiative_corps = static_cast<uint8_t>(corps == "I" ? 1 : corps == "II" ? 2 : corps == "III" ? 3 : 0);
  Event e;
  e.type = EventType::kNote;
  e.rule = "12.4.1";
  e.a = x.initiative_corps;
  e.text = x.initiative_corps == 1 ? "I Corps lacks initiative" : x.initiative_corps == 2 ? "II Corps lacks initiative"
                                   : x.initiative_corps == 3 ? "III Corps lacks initiative" : "no corps restricted";
  ctx.Emit(e);
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    if (s.unit(u).side != 0 || !s.unit(u).OnMap()) continue;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId h = static_cast<UnitId>(j);
      if (IsHq(h) && s.unit(h).side == 0 && s.unit(h).hex == s.unit(u).hex &&
          (!game_.OptionOn("12.5") || (CorpsNumber(h) == CorpsNumber(u) && Def(h).size == "corps"))) {
        s.unit(u).flags |= kSbStartedWithHq;
      }
    }
  }
  NextChoice(s, ctx);
}

// The combat phase (7.0): 7.8's advancing units are treated as having attacked: they may
// not attack and owe no attack.
WG_RULE("7.8", SbRules::BeginSbCombat);
void SbRules::BeginSbCombat(State& s, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  BeginCombatPhase(s, ctx);
  for (int i = 0; i < x.num_cav_advanced && i < 8; ++i) {
    if (s.unit(x.cav_advanced[i]).OnMap()) s.unit(x.cav_advanced[i]).flags |= kUnitAttacked;
  }
}

// 9.0: the reorganization phase; over at once when no unit may reorganize.
WG_RULE("4.2/9.0", SbRules::BeginReorganization);
void SbRules::BeginReorganization(State& s, Context& ctx) const {
  for (int i = 0; i < s.num_units; ++i) {
    UnitState& us = s.units[static_cast<size_t>(i)];
    us.flags &= static_cast<uint16_t>(~kSbReorganized);
    if (IsHq(static_cast<UnitId>(i))) us.spare = 0;
  }
  std::vector<Action>& tmp = Hs(ctx).ruleset_actions;  // reused: no allocation
  tmp.clear();
  ListReorganize(s, ctx, &tmp);
  if (tmp.empty()) PopStep(s, steps_);
}

// 8.0: the defensive (non-phasing artillery, and 7.8 cavalry) or offensive bombardment phase;
// over at once when there is nothing to do.
WG_RULE("4.3/4.3.1/4.3.2/8.0", SbRules::BeginBombardment);
void SbRules::BeginBombardment(State& s, Context& ctx, bool defensive) const {
  SbExt& x = Ext<SbExt>(s);
  x.num_bombarded = 0;
  if (defensive) {
    for (int i = 0; i < s.num_units; ++i) s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~kUnitBombarded);
  }
  const Step top = *TopStep(s);
  ReplaceStep(s, steps_, top.kind, defensive ? 1 - s.phasing_side : s.phasing_side);
  std::vector<Action>& tmp = Hs(ctx).ruleset_actions;  // reused: no allocation
  tmp.clear();
  ListBombards(s, ctx, &tmp);
  if (defensive) ListCavalryRetreats(s, ctx, &tmp);
  if (tmp.empty()) PopStep(s, steps_);
}

// 8.1.F: phasing artillery that bombarded from an EZOC is eliminated if an enemy unit whose
// ZOC it is in was not attacked (as the combat phase ends).
WG_RULE("8.1", SbRules::EliminateUnsupportedBombardment);
void SbRules::EliminateUnsupportedBombardment(State& s, Context& ctx) const {
  const int side = s.phasing_side;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (us.side != side || !us.OnMap() || !IsArtillery(u) || !us.Has(kUnitBombarded)) continue;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId e = static_cast<UnitId>(j);
      const UnitState& es = s.unit(e);
      if (!es.OnMap() || es.side == side || es.Has(kUnitDefended) || !Adjacent(es.hex, us.hex)) continue;
      if (ZocOf(s, e) != ZocKind::kSix) continue;
      // A river without a bridge or ford blocks the ZOC (6.1).
      int dir = DirectionTo(game_.hex_board().map.grid.HexAt(es.hex), game_.hex_board().map.grid.HexAt(us.hex));
      const FeatureMask sd = dir >= 0 ? game_.hex_board().map.Side(es.hex, dir) : 0;
      if ((sd & river_) && !(sd & bridge_ford_)) continue;
      Eliminate(s, ctx, u, "8.1", "bombarded from an enemy zone of control and the enemy was not attacked");
      break;
    }
  }
}

// What happens at the points of the turn procedure (wargame/steps.h), each with its rule; the
// engine's stacking checkpoint (5.5, stacking_check: eliminate) runs after these.
void SbRules::RegisterProcedure() {
  const HexGameData& d = data();
  if (d.phase_combat >= 0) {
    procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(d.phase_combat)], "8.1",
                  "SbRules::EliminateUnsupportedBombardment (8.1.F)",
                  [this](State& s, Context& ctx) { EliminateUnsupportedBombardment(s, ctx); });
  }
  if (d.phase_movement >= 0) {
    procedure_.At(ProcedureAt::kPhaseEnd, game_.turns.phases[static_cast<size_t>(d.phase_movement)], "12.6",
                  "a forced march lasts one movement phase",
                  [](State& s, Context&) { Ext<SbExt>(s).forced_march_active = 0; });
  }
  procedure_.At(ProcedureAt::kGameEnd, "", "11.1", "SbRules::CountEndVp",
                [this](State& s, Context& ctx) { CountEndVp(s, ctx); });
  procedure_.At(ProcedureAt::kGameOver, "", "12.3", "SbRules::WithersDeclinedDraw",
                [this](State& s, Context& ctx) { WithersDeclinedDraw(s, ctx); });
}

// 11.1: victory points, counted at the end of the game.
WG_RULE("11.0/11.1", SbRules::CountEndVp);
void SbRules::CountEndVp(State& s, Context& ctx) const {
  static const char* kReason = "end-of-game count";
  int vp[2];
  for (int side = 0; side < 2; ++side) vp[side] = EndVp(s, side);
  for (int side = 0; side < 2; ++side) AwardVp(s, ctx, side, vp[side], "11.1", kReason);
}

WG_RULE("11.0/11.1", SbRules::EndVp);
int SbRules::EndVp(const State& s, int side) const {
  int vp = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitDef& d = Def(u);
    const UnitState& us = s.unit(u);
    if (IsSupply(u)) {
      if (d.side != side && us.OnMap() && us.side == side) vp += 6;      // captured and held
      if (d.side != side && us.hex == kEliminated) vp += 3;             // eliminated
      continue;
    }
    if (d.side == side || us.hex == kWithdrawn || us.hex == kNotYetEntered) continue;
    if (us.hex == kEliminated) {
      if (IsHq(u)) vp += 1;
      else if (IsArtillery(u)) vp += d.back[attr_bombard_];
      else vp += d.front[data().defense];
    } else if (!IsArtillery(u)) {
      vp += us.markers[pl_];
    }
    // Detachments are not losses: subtract each detached regiment's AS (11.1 note 1).
    if (us.spare != 0 && IsRegiment(u)) vp -= d.front[data().attack];
  }
  if (objective_place_ >= 0 && s.place_control[objective_place_] == side + 1) vp += 1;  // objective
  return vp;
}

// --- Listing and applying ---------------------------------------------------------------------

// --- Steps: registration ------------------------------------------------------------------------

// The procedures of Stars and Bars as named steps, each citing its rule. The phases of
// `turns:` are the steps of their names; the core's movement, combat, retreat and advance
// are refined (registered again under their names, calling the core's handlers).
void SbRules::RegisterSteps() {
  using Out = std::vector<Action>*;
  StepDef m = NewStep("movement", "5.0", DecisionType::kMovement, 0);
  m.begin = [this](State& s, Context& ctx) { BeginSbMovement(s, ctx); };
  m.list = [this](const State& s, Context& ctx, Out out) { ListSbMovement(s, ctx, out); };
  // One handler per action: a move or an entry (5.0, 5.7), a mode change (the core's), a
  // detachment or recombination (12.2), a convoy destroyed (5.8), a conversion, the end (5.7).
  using A = const Action&;
  m.On(ActionType::kMove, [this](State& s, A a, Context& ctx) { return ApplySbMove(s, a, ctx); });
  m.On(ActionType::kEnter, [this](State& s, A a, Context& ctx) { return ApplySbMove(s, a, ctx); });
  m.On(ActionType::kChangeMode, [this](State& s, A a, Context& ctx) { return ApplyModeChange(s, a, ctx); });
  m.On(ActionType::kDetach, [this](State& s, A a, Context& ctx) { return ApplyDetach(s, a, ctx); });
  m.On(ActionType::kRecombine, [this](State& s, A a, Context& ctx) { return ApplyRecombine(s, a, ctx); });
  m.On(ActionType::kDestroy, [this](State& s, A a, Context& ctx) { return ApplyDestroyConvoy(s, a, ctx); });
  m.On(ActionType::kConvert, [this](State& s, A a, Context& ctx) { return ApplyConvert(s, a, ctx); });
  m.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return EndSbMovement(s, ctx); });
  steps_.Register(std::move(m));
  StepDef c = NewStep("combat", "7.0", DecisionType::kCombat, Takes({ActionType::kAttack, ActionType::kEndPhase}));
  c.begin = [this](State& s, Context& ctx) { BeginSbCombat(s, ctx); };
  c.list = [this](const State& s, Context& ctx, Out out) { ListCombatStep(s, ctx, out); };
  c.On(ActionType::kAttack, [this](State& s, A a, Context& ctx) { return ApplySbAttack(s, a, ctx); });
  c.On(ActionType::kEndPhase, [this](State& s, A, Context& ctx) { return EndSbCombat(s, ctx); });
  steps_.Register(std::move(c));
  StepDef r = NewStep("retreat", "7.5.1", DecisionType::kRetreat, Takes(ActionType::kRetreat));
  r.list = [this](const State& s, Context& ctx, Out out) { ListRetreatStep(s, ctx, out); };
  r.apply = [this](State& s, const Action& a, Context& ctx) { return ApplySbRetreat(s, a, ctx); };
  steps_.Register(std::move(r));
  StepDef v = NewStep("advance", "7.6", DecisionType::kAdvance, Takes(ActionType::kAdvance));
  v.begin = [this](State& s, Context& ctx) { BeginSbAdvance(s, ctx); };
  v.list = [this](const State& s, Context& ctx, Out out) { ListSbAdvance(s, ctx, out); };
  v.apply = [this](State& s, const Action& a, Context& ctx) { return ApplySbAdvance(s, a, ctx); };
  steps_.Register(std::move(v));
  StepDef u = NewStep("untrained_advance", "12.1", DecisionType::kAdvance, 0);
  u.chance = ChanceDef{6, 1, "untrained advance"};
  u.resolve = [this](State& s, Context& ctx, int roll) { ResolveUntrainedAdvance(s, ctx, roll); };
  step_untrained_ = steps_.Register(std::move(u));
  StepDef l = NewStep("losses", "7.3", DecisionType::kLosses, 0);
  l.list = [this](const State& s, Context&, Out out) { ListLosses(s, out); };
  l.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyLossStep(s, a, ctx); };
  l.prompt = [](const State&) { return std::string("divide combat losses (7.3)"); };
  step_losses_ = steps_.Register(std::move(l));
  StepDef sr = NewStep("stand_or_retreat", "7.5.2", DecisionType::kStandOrRetreat, 0);
  sr.list = [](const State&, Context&, Out out) {
    out->push_back(Action::Of(ActionType::kStand));
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
  };
  sr.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyStandStep(s, a, ctx); };
  sr.prompt = [](const State&) { return std::string("stand or retreat (7.5.2)"); };
  step_stand_ = steps_.Register(std::move(sr));
  for (const char* phase : {"defensive_bombardment", "offensive_bombardment"}) {
    const bool defensive = std::string(phase) == "defensive_bombardment";
    StepDef b = NewStep(phase, defensive ? "8.0/7.8" : "8.0", DecisionType::kBombard, 0);
    b.begin = [this, defensive](State& s, Context& ctx) { BeginBombardment(s, ctx, defensive); };
    b.list = [this](const State& s, Context& ctx, Out out) { ListBombardStep(s, ctx, out); };
    // One handler per action: a bombardment, a cavalry withdrawal (7.8, the defensive phase), the end.
    b.On(ActionType::kBombard, [this](State& s, const Action& a, Context& ctx) { return ApplyBombard(s, a, ctx); });
    if (defensive) {
      b.On(ActionType::kRetreat,
           [this](State& s, const Action& a, Context& ctx) { return ApplyCavalryRetreat(s, a, ctx); });
    }
    b.On(ActionType::kEndPhase, [this](State& s, const Action&, Context& ctx) { return ApplyEndPhase(s, ctx); });
    b.prompt = [](const State&) { return std::string("bombard (8.0)"); };
    steps_.Register(std::move(b));
  }
  StepDef g = NewStep("reorganization", "9.0", DecisionType::kChoice, 0);
  g.begin = [this](State& s, Context& ctx) { BeginReorganization(s, ctx); };
  g.list = [this](const State& s, Context& ctx, Out out) {
    ListReorganize(s, ctx, out);
    out->push_back(Action::EndPhase());
  };
  g.On(ActionType::kCustom, [this](State& s, const Action& a, Context& ctx) {
    if (a.value != kCustomReorganize) return Status::Refused("9.0", "reorganize a unit or end the phase");
    return ApplyReorganize(s, a, ctx);
  });
  g.On(ActionType::kEndPhase, [this](State& s, const Action&, Context& ctx) { return ApplyEndPhase(s, ctx); });
  g.prompt = [](const State&) { return std::string("reorganize disrupted units (9.0)"); };
  step_reorg_ = steps_.Register(std::move(g));
  StepDef k = NewStep("stacking", "5.5", DecisionType::kChoice, 0);
  k.list = [this](const State& s, Context&, Out out) { ListStackingStep(s, out); };
  k.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyStackingStep(s, a, ctx); };
  k.prompt = [](const State&) { return std::string("eliminate excess units over the stacking limit (5.5)"); };
  step_stacking_ = steps_.Register(std::move(k));
  StepDef t = NewStep("turn_choice", "12.3/12.6", DecisionType::kChoice, 0);
  t.list = [](const State&, Context&, Out out) {
    out->push_back(Action::Of(ActionType::kChoice).Value(1));
    out->push_back(Action::Of(ActionType::kChoice).Value(0));
  };
  t.apply = [this](State& s, const Action& a, Context& ctx) {
    if (a.type == ActionType::kChoice) return ApplyChoice(s, a, ctx);
    return Status::Refused("12.0", "answer the choice first ({choose: 1} or {choose: 0})");
  };
  t.prompt = [](const State& s) {
    switch (static_cast<SbChoice>(TopStep(s)->args[0])) {  // what the step asks (its argument 0)
      case kChoiceSill: return std::string("receive Sill's Division? (12.3)");
      case kChoiceWithers: return std::string("receive Withers' Division? (12.3)");
      case kChoiceForcedMarch: return std::string("use the forced march this turn? (12.6)");
      default: return std::string(DecisionPrompt(DecisionType::kChoice));
    }
  };
  step_choice_ = steps_.Register(std::move(t));
  StepDef su = NewStep("setup", "3.0", DecisionType::kSetup, Takes(ActionType::kChangeMode));
  su.list = [this](const State& s, Context&, Out out) { ListSetup(s, out); };
  su.apply = [this](State& s, const Action& a, Context& ctx) { return ApplySetup(s, a, ctx); };
  su.prompt = [this](const State& s) {
    return "set up " + game_.UnitLabel(static_cast<UnitId>(TopStep(s)->args[0])) +
           " limbered ({mode: [unit], value: 0}) or unlimbered (value: 1) (3.0)";
  };
  step_setup_ = steps_.Register(std::move(su));
  StepDef cp = NewStep("capture", "5.8", DecisionType::kChoice, Takes(ActionType::kChoice));
  cp.list = [this](const State& s, Context&, Out out) { ListCapture(s, out); };
  cp.apply = [this](State& s, const Action& a, Context& ctx) { return ApplyCapture(s, a, ctx); };
  cp.prompt = [this](const State& s) {
    return "capture " + game_.UnitLabel(static_cast<UnitId>(TopStep(s)->args[0])) +
           "? (5.8): declare it captured (choose 1); leave it eliminated (choose 0)";
  };
  step_capture_ = steps_.Register(std::move(cp));
}

// --- Steps: the movement phase ---------------------------------------------------------------

void SbRules::ListSbMovement(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListMoves(s, ctx);  // into the scratch's listed_runs: placed ahead of `out`
  ListMovementExtras(s, ctx, out);
  // The end of the phase, last: EndSbMovement refuses it only while a reinforcement
  // may still enter (5.7), so that is asked directly instead of trying the end on a
  // copy of the State (the same answer; ReinforcementCanEnter is not even needed
  // when an entry is listed).
  if (!FilterMoves(s, ctx) && !ReinforcementCanEnter(s, ctx)) out->push_back(Action::EndPhase());
}

// Mode changes (5.3), convoy destruction (5.8), detachment and recombination (10.1, 10.2),
// disruption converted to permanent loss (7.4.3).
void SbRules::ListMovementExtras(const State& s, Context& ctx, std::vector<Action>* out) const {
  const SbExt& x = Ext<SbExt>(s);
  constexpr UnitId kNotLookedFor = -2;
  UnitId detachable = kNotLookedFor;  // 10.1: the regiment any brigade would detach (kNoUnit: none)
  UnitId room[kMaxUnits];
  for (const UnitId u : PhasingUnitsOnMap(s, ctx, room)) {
    const UnitState& us = s.unit(u);
    if (IsArtillery(u)) {
      Action a = Action::Of(ActionType::kChangeMode);
      a.AddUnit(u);
      if (ModeChangeAllowed(s, a, ctx, nullptr)) out->push_back(a);  // ApplyModeChange's own test
    }
    if (IsSupply(u)) out->push_back(Action::Of(ActionType::kDestroy).AddUnit(u));
    if (!x.moved_any && IsBrigade(u)) {
      // 10.1: the brigade detaches the first regiment (in unit order) that CheckDetachAllowed
      // accepts; its regiment test does not read the brigade, so that regiment is the first
      // available one for every brigade, looked for once per listing.
      if (detachable == kNotLookedFor) {
        detachable = kNoUnit;
        for (const UnitId r : regiments_) {  // IsRegiment, in unit order
          if (r >= s.num_units) break;
          if (RegimentAvailable(s, r)) {
            detachable = r;
            break;
          }
        }
      }
      if (detachable != kNoUnit) {
        Action d = Action::Of(ActionType::kDetach);
        d.AddUnit(u).AddUnit(detachable);
        if (CheckDetachAllowed(s, d, nullptr)) out->push_back(d);
      }
      for (const UnitId r : regiments_) {
        if (r >= s.num_units) break;
        if (s.unit(r).hex != us.hex) continue;
        Action d = Action::Of(ActionType::kRecombine);
        d.AddUnit(u).AddUnit(r);
        if (CheckRecombineAllowed(s, d, nullptr)) out->push_back(d);
      }
    }
    if (us.markers[dis_] > 0 && !IsArtillery(u)) {
      Action c = Action::Of(ActionType::kConvert);
      c.AddUnit(u);
      c.value = 1;
      out->push_back(c);
    }
  }
}

// The phasing side's units on the map, in unit order, into out (room for kMaxUnits): those a
// RefreshOccupancy of this listing gathered (HexScratch::GatheredUnits), else found here.
std::span<const UnitId> SbRules::PhasingUnitsOnMap(const State& s, Context& ctx, UnitId* room) const {
  std::span<const UnitId> units;
  if (Hs(ctx).GatheredUnits(s, s.phasing_side, &units)) return units;
  size_t n = 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitState& u = s.units[static_cast<size_t>(i)];
    if (u.side == s.phasing_side && u.OnMap()) room[n++] = static_cast<UnitId>(i);
  }
  return std::span<const UnitId>(room, n);
}

// MoveFacts::normal_friend for s, in the scratch's hex_mask (rebuilt by each listing that
// needs it, on the first unit: the pointer stays valid for the listing).
const uint8_t* SbRules::NormalFriends(const State& s, Context& ctx) const {
  HexScratch& hs = Hs(ctx);
  if (hs.hex_mask_pin == hs.PinOf(s) && hs.hex_mask_pin != 0) return hs.hex_mask.data();
  hs.hex_mask.assign(static_cast<size_t>(map_size_), 0);
  uint8_t* mask = hs.hex_mask.data();
  UnitId room[kMaxUnits];
  for (const UnitId u : PhasingUnitsOnMap(s, ctx, room)) {
    if (DefenseStrength(s, u) > 0) mask[static_cast<size_t>(s.unit(u).hex)] = 1;
  }
  hs.hex_mask_pin = hs.PinOf(s);
  return hs.hex_mask.data();
}

// Drops the moves CheckMove refuses (zero-strength units, 12.4 initiative, 12.6, artillery);
// true if an entry is kept (then the phase may not end: 5.7).
WG_RULE("5.3/6.2/12.4.1/12.6", SbRules::FilterMoves);
bool SbRules::FilterMoves(const State& s, Context& ctx) const {
  HexScratch& hs = Hs(ctx);
  bool enter = false;
  const bool fm = Ext<SbExt>(s).forced_march_active != 0;
  // 6.2's test of a zero-strength unit's move ending in an enemy ZOC without joining a
  // normal unit (MoveAllowed), as a set of hexes: the enemy ZOCs less the hexes of the
  // phasing side's units with a defence strength, built for the first such unit of the
  // listing (the ZOCs and the units are the listing's State's).
  const uint64_t* barred = nullptr;
  // Whether a unit's moves need CheckMove depends on the unit only: decided once
  // per unit, for the run of its candidates (a run is one cache slot's: one unit's
  // moves of one type); a run that needs no check is kept without reading its actions.
  hs.FilterRuns([&](HexScratch::RunEdit& edit) {
    // A slot's candidates share their units, type and value: its first root's.
    HexScratch::UnitMoves& slot = edit.slot();
    const Action& first = slot.roots[0];
    const UnitId u = first.units[0];
    const bool needs_check = PinnedAttackStrength(s, hs, u) <= 0 || InitiativeAffects(s, u) || fm || IsArtillery(u);
    if (!needs_check) {
      enter = enter || first.type == ActionType::kEnter;
      return;
    }
    MoveFacts facts = MoveFactsOf(s, first);  // the same for all of a unit's moves
    if (!facts.any_normal || fm) facts.zoc = &EnemyZoc(s, ctx, s.phasing_side);
    // MoveAllowed's per-hex normal friends (the same answer as its scan of the units),
    // built only for the moves asked of it one by one.
    auto one_by_one = [&] {
      if (facts.normal_friend == nullptr) facts.normal_friend = NormalFriends(s, ctx);
    };
    // The path facts cached with the candidates, if computed from the phasing side's
    // occupancy (the query's enemy array is the scratch's, of the key's generation,
    // which this listing's refresh for the phasing side produced).
    const int limit = facts.initiative_limit[0];
    const bool bits = slot.enemy == hs.enemy.data() && first.num_units == 1 && limit <= 2 && SlotBits(hs, slot) != nullptr &&
                      slot.bits.size() == slot.size();
    const uint32_t n = static_cast<uint32_t>(slot.size());
    if (bits) {
      // MoveAllowed's tests of a one-unit move decided by the path's bits, without
      // reading the Action: the bits that refuse it outright for this unit (5.3, 6.2,
      // 12.4.1), as the slot's set of candidates without them (cached per fill); a
      // path off the map goes to MoveAllowed itself.
      uint8_t reject = limit == 1 ? kPathOver1 : (limit == 2 ? kPathOver2 : 0);
      if (facts.artillery && first.type == ActionType::kMove) reject |= kPathWoodsExit;  // 5.3
      if (!facts.any_attack) reject |= kPathEnemyHex;                                    // 6.2
      const ZocField* ezoc = !facts.any_normal || fm ? facts.zoc : nullptr;
      const uint64_t* without = slot.WithoutBits(reject | kPathOffMap);  // also sets slot.any_bits
      // The off-map paths the run holds that MoveAllowed accepts (rare): put back last.
      uint32_t off_map[16];
      size_t num_off_map = 0;
      bool off_map_overflow = false;
      if (slot.any_bits & kPathOffMap) {
        one_by_one();
        for (uint32_t i = 0; i < n; ++i) {
          if (!(slot.bits[i] & kPathOffMap) || !edit.Kept(i) || !MoveAllowed(s, slot.At(i), ctx, facts, nullptr, -1)) {
            continue;
          }
          if (num_off_map == std::size(off_map)) {
            off_map_overflow = true;
            break;
          }
          off_map[num_off_map++] = i;
        }
      }
      if (off_map_overflow) {  // too many to remember: every candidate asked
        one_by_one();
        const Action* all = slot.BuildAll();
        for (uint32_t i = 0; i < n; ++i) {
          if (edit.Kept(i) && !MoveAllowed(s, all[i], ctx, facts, nullptr)) edit.Drop(i);
        }
      } else {
        edit.And(without);
        if (ezoc != nullptr && !fm) {
          // !any_normal: 6.2 by the listing's barred hexes (a zero-strength unit ends in
          // an enemy ZOC only joining a normal unit; the path bits are on the map).
          if (barred == nullptr) {
            const size_t words = hs.map_words;
            std::vector<uint64_t>& b = hs.ruleset_words;
            b.assign(words, 0);
            UnitId room[kMaxUnits];
            for (const UnitId v : PhasingUnitsOnMap(s, ctx, room)) {
              if (DefenseStrength(s, v) <= 0) continue;
              const int h = s.unit(v).hex;
              b[static_cast<size_t>(h >> 6)] |= uint64_t{1} << (h & 63);
            }
            const uint64_t* z = hs.ZocWords(*ezoc);
            for (size_t w = 0; w < words; ++w) b[w] = z[w] & ~b[w];
            barred = b.data();
          }
          edit.AndNotMap(barred);
        } else if (ezoc != nullptr) {
          // The forced march (12.6), and 6.2 joining a normal unit: MoveAllowed decides a
          // move ending in an enemy ZOC, with the path's bits.
          one_by_one();
          for (uint32_t i = 0; i < n; ++i) {
            if (edit.Kept(i) && ezoc->InEzoc(slot.ends[i]) && !MoveAllowed(s, slot.At(i), ctx, facts, nullptr, slot.bits[i])) {
              edit.Drop(i);
            }
          }
        }
        for (size_t k = 0; k < num_off_map; ++k) edit.Keep(off_map[k]);
      }
    } else {
      one_by_one();
      const Action* all = slot.BuildAll();  // every Action is checked
      for (uint32_t i = 0; i < n; ++i) {
        if (edit.Kept(i) && !MoveAllowed(s, all[i], ctx, facts, nullptr)) edit.Drop(i);
      }
    }
    if (first.type == ActionType::kEnter && !enter) {
      // An entry kept (FilterRuns counts the set after this returns).
      for (uint32_t i = 0; i < n && !enter; ++i) enter = edit.Kept(i);
    }
  });
  return enter;
}

// 5.8: a supply convoy under the phasing side's control may be destroyed.
WG_RULE("5.8", SbRules::ApplyDestroyConvoy);
Status SbRules::ApplyDestroyConvoy(State& s, const Action& a, Context& ctx) const {
  const UnitId u = a.num_units == 1 ? a.units[0] : kNoUnit;
  if (u < 0 || u >= s.num_units || !IsSupply(u) || s.unit(u).side != s.phasing_side || !s.unit(u).OnMap()) {
    return Status::Refused("5.8", "only a supply convoy under the phasing side's control may be destroyed");
  }
  Eliminate(s, ctx, u, "5.8", "voluntarily destroyed");
  return Status::Ok();
}

// 5.7: the movement phase ends only when no reinforcement due may still enter; then the
// stacking check (5.5).
WG_RULE("5.7", SbRules::EndSbMovement);
Status SbRules::EndSbMovement(State& s, Context& ctx) const {
  if (ReinforcementCanEnter(s, ctx)) return Status::Refused("5.7", "reinforcements due this turn must enter");
  return BeginStackingCheck(s, ctx);
}

// A move or an entry: artillery's movement points spent (5.3), zero-strength units take no
// objective (11.1 note 2), raids (5.8).
WG_RULE("5.3/11.1", SbRules::ApplySbMove);
Status SbRules::ApplySbMove(State& s, const Action& a, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  int cost = 0;
  uint8_t control[kMaxPlaces];
  std::memcpy(control, s.place_control, sizeof(control));
  bool zero_strength = true;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u >= 0 && u < s.num_units && DefenseStrength(s, u) > 0) zero_strength = false;
  }
  if (a.type == ActionType::kMove && a.num_units > 0 && a.num_hexes > 0 && a.units[0] >= 0 && a.units[0] < s.num_units &&
      IsArtillery(a.units[0]) && s.unit(a.units[0]).OnMap()) {
    MoveQuery q = BuildQuery(s, ctx, a.units.data(), a.num_units);
    int path[kMaxActionHexes];  // no allocation
    std::copy(a.hexes.begin(), a.hexes.begin() + a.num_hexes, path);
    const PathCheck pc = Hs(ctx).pathfinder.CheckPath(
        q, std::span<const int>(path, static_cast<size_t>(a.num_hexes)), data().move_labels);
    cost = pc.ok ? pc.cost : 0;
  }
  // 11.1 note 2: zero-strength units take no objective: their moves do not report control.
  struct NoControl : EventSink {
    EventSink* next = nullptr;
    void OnEvent(const Event& e) override {
      if (e.type != EventType::kControl && next) next->OnEvent(e);
    }
  } filter;
  filter.next = ctx.sink();
  Context quiet(game_, nullptr, &filter, &ctx.scratch());
  Status st = ApplyMovementStep(s, a, zero_strength ? quiet : ctx);
  if (!st.ok()) return st;
  x.moved_any = 1;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (IsArtillery(u)) s.unit(u).spare = static_cast<int16_t>(s.unit(u).spare + cost);
  }
  if (zero_strength) {
    std::memcpy(s.place_control, control, sizeof(control));  // 11.1 note 2
  } else {
    RaidCheck(s, ctx, a);
  }
  return Status::Ok();
}

// 10.1: a regiment detached from its brigade.
WG_RULE("10.1", SbRules::ApplyDetach);
Status SbRules::ApplyDetach(State& s, const Action& a, Context& ctx) const {
  Status st = CheckDetach(s, a);
  if (!st.ok()) return st;
  const UnitId b = a.units[0], r = a.units[1];
  UnitState& rs = s.unit(r);
  rs.hex = s.unit(b).hex;
  rs.side = s.unit(b).side;
  rs.face = 0;
  std::memset(rs.markers, 0, sizeof(rs.markers));
  rs.flags = static_cast<uint16_t>(static_cast<uint16_t>(kUnitReleased) | static_cast<uint16_t>(kSbDetachedNow));
  rs.spare = static_cast<int16_t>(b + 1);
  s.unit(b).flags |= kSbHasDetached;
  AddMarker(s, ctx, b, pl_, Def(r).front[data().attack], "10.1");
  Event e;
  e.type = EventType::kNote;
  e.unit = r;
  e.unit2 = b;
  e.hex = rs.hex;
  e.rule = "10.1";
  e.text = "regiment detached";
  ctx.Emit(e);
  return Status::Ok();
}

// 10.2: a detached regiment recombined with a brigade.
WG_RULE("7.4.1/10.2", SbRules::ApplyRecombine);
Status SbRules::ApplyRecombine(State& s, const Action& a, Context& ctx) const {
  Status st = CheckRecombine(s, a);
  if (!st.ok()) return st;
  const UnitId b = a.units[0], r = a.units[1];
  const int as = Def(r).front[data().attack] - s.unit(r).markers[pl_];
  s.unit(b).markers[pl_] = static_cast<uint8_t>(s.unit(b).markers[pl_] - as);
  const UnitId origin = static_cast<UnitId>(s.unit(r).spare - 1);
  if (origin >= 0 && origin < s.num_units) s.unit(origin).flags &= static_cast<uint16_t>(~kSbHasDetached);
  UnitState& rs = s.unit(r);
  rs.hex = kWithdrawn;
  rs.spare = 0;
  rs.side = static_cast<uint8_t>(Def(r).side);
  std::memset(rs.markers, 0, sizeof(rs.markers));
  rs.flags = 0;
  Event e;
  e.type = EventType::kRecover;
  e.unit = b;
  e.unit2 = r;
  e.hex = s.unit(b).hex;
  e.a = as;
  e.rule = "10.2";
  e.text = "permanent loss (regiment recombined)";
  ctx.Emit(e);
  return Status::Ok();
}

// 7.4.3: disruption converted to permanent loss.
WG_RULE("7.4.3", SbRules::ApplyConvert);
Status SbRules::ApplyConvert(State& s, const Action& a, Context& ctx) const {
  const UnitId u = a.num_units == 1 ? a.units[0] : kNoUnit;
  if (u < 0 || u >= s.num_units || s.unit(u).side != s.phasing_side || !s.unit(u).OnMap()) {
    return Status::Refused("7.4.3", "convert disruption on a phasing unit on the map");
  }
  if (IsArtillery(u)) return Status::Refused("8.4", "artillery can never take permanent losses");
  if (a.value < 1 || a.value > s.unit(u).markers[dis_]) return Status::Refused("7.4.3", "not that much disruption to convert");
  s.unit(u).markers[dis_] = static_cast<uint8_t>(s.unit(u).markers[dis_] - a.value);
  AddMarker(s, ctx, u, pl_, a.value, "7.4.3");
  return Status::Ok();
}

// --- Steps: the combat phase and its follow-ups --------------------------------------------------

// 7.1: a zero-strength unit attacked alone is eliminated without the table; the end of the
// phase is a stacking checkpoint (5.5).
// The end of the combat phase: the attack obligations (7.1) are met, then the stacking check (5.5).
WG_RULE("5.5/7.1", SbRules::EndSbCombat);
Status SbRules::EndSbCombat(State& s, Context& ctx) const {
  Status st = EndCombatPhase(s, ctx);
  if (!st.ok()) return st;
  return BeginStackingCheck(s, ctx);
}

// An attack; one with no CRT roll (6.2: zero-strength defenders) is resolved at once.
Status SbRules::ApplySbAttack(State& s, const Action& a, Context& ctx) const {
  AttackPlan plan;
  Status st = PrepareAttack(s, a, ctx, &plan);
  if (!st.ok()) return st;
  if (AutomaticAttack(s, plan) != nullptr) return ApplyZeroStrengthAttack(s, a, ctx, plan);
  return ApplyCombatStep(s, a, ctx);
}

Status SbRules::ApplyLossStep(State& s, const Action& a, Context& ctx) const {
  if (a.type == ActionType::kLoss) return ApplyLoss(s, a, ctx);
  return Status::Refused("7.3", "losses must be divided first (a loss action)");
}

Status SbRules::ApplyStandStep(State& s, const Action& a, Context& ctx) const {
  if (a.type == ActionType::kStand || (a.type == ActionType::kChoice && a.value == 0)) return ApplyStand(s, a, ctx);
  return Status::Refused("7.5.2", "choose stand, or {choose: 0} to retreat");
}

// 7.5.1: zero-AS units (HQs, limbered artillery) retreat with the units they are stacked
// with; 11.1: a retreat moves the unit through its hexes (zero-strength units take no objective).
Status SbRules::ApplySbRetreat(State& s, const Action& a, Context& ctx) const {
  if (a.num_units == 1 && a.units[0] == RetreatingUnit(s) && a.num_hexes > 0 && AttackStrength(s, a.units[0]) > 0) {
    Status check = CheckRetreat(s, ctx, a.units[0], a.hexes.data(), a.num_hexes, RetreatLength(s));
    if (!check.ok()) return check;
    RetreatCompanions(s, ctx, a.units[0], s.unit(a.units[0]).hex, a.hexes.data(), a.num_hexes, /*in_combat=*/true);
  }
  const bool one = a.num_units == 1 && a.units[0] >= 0 && a.units[0] < s.num_units;
  Status st = ApplyRetreatStep(s, a, ctx);
  if (!st.ok()) return st;
  if (one && DefenseStrength(s, a.units[0]) > 0) {
    for (int k = 0; k < a.num_hexes; ++k) TouchHex(s, ctx, a.hexes[static_cast<size_t>(k)], s.unit(a.units[0]).side);
  }
  return Status::Ok();
}

// 7.6 / 12.1: the core's advances less those a unit may not make, then the zero-AS units
// stacked with an advancing attacker that may go along.
void SbRules::ListSbAdvance(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListAdvanceStep(s, ctx, out);
  out->erase(std::remove_if(out->begin(), out->end(),
                            [&](const Action& a) {
                              for (int i = 0; i < a.num_units; ++i) {
                                const UnitId u = a.units[static_cast<size_t>(i)];
                                if (s.unit(u).Has(kSbNoAdvance)) return true;
                                if (s.combat.vacated_hex >= 0 && !MayAdvanceInto(s, u, s.combat.vacated_hex).ok()) return true;
                              }
                              return a.num_units > 0 && s.combat.vacated_hex >= 0 &&
                                     StackingCount(s, s.combat.vacated_hex, s.phasing_side) +
                                             (CountsForStacking(s, a.units[0]) ? 1 : 0) > game_.hex_board().stacking.limit;
                            }),
             out->end());
  const size_t n = out->size();
  for (size_t i = 0; i < n; ++i) {
    const Action a = (*out)[i];
    if (a.num_units != 1) continue;
    Action with = a;
    for (int j = 0; j < s.num_units; ++j) {
      const UnitId v = static_cast<UnitId>(j);
      if (v != a.units[0] && s.unit(v).hex == s.unit(a.units[0]).hex && s.unit(v).side == s.phasing_side &&
          AttackStrength(s, v) == 0 && !IsArtillery(v) && MayAdvanceInto(s, v, s.combat.vacated_hex).ok()) {
        with.AddUnit(v);
      }
    }
    if (with.num_units > 1) out->push_back(with);
  }
}

WG_RULE("7.6/12.1", SbRules::ApplySbAdvance);
Status SbRules::ApplySbAdvance(State& s, const Action& a, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  // 7.6: zero-AS units (HQs) may advance with the attacking units they are stacked with.
  Action attackers = Action::Of(ActionType::kAdvance);
  UnitId companions[kMaxActionUnits];
  int nc = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (u < 0 || u >= s.num_units) return Status::Refused("7.6", "no such unit");
    if (IsArtillery(u)) return Status::Refused("7.6", "artillery may never advance after combat (even if limbered)");
    if (s.combat.vacated_hex >= 0 && s.unit(u).OnMap()) {
      Status st = MayAdvanceInto(s, u, s.combat.vacated_hex);
      if (!st.ok()) return st;
    }
    bool attacker = false;
    for (int k = 0; k < s.combat.num_attackers; ++k) attacker = attacker || s.combat.attackers[k] == u;
    if (attacker) {
      attackers.AddUnit(u);
    } else {
      companions[nc++] = u;
    }
  }
  for (int i = 0; i < nc; ++i) {
    const UnitId u = companions[i];
    bool with = false;
    for (int k = 0; k < attackers.num_units; ++k) with = with || s.unit(attackers.units[static_cast<size_t>(k)]).hex == s.unit(u).hex;
    if (s.unit(u).side != s.phasing_side || !s.unit(u).OnMap() || AttackStrength(s, u) > 0 || IsArtillery(u) || !with) {
      return Status::Refused("7.6", game_.UnitLabel(u) + " may advance only with attacking units it is stacked with");
    }
  }
  if (x.cavalry_advance) return ApplyCavalryAdvance(s, attackers, a, ctx);
  if (nc > 0) {
    if (attackers.num_units == 0) return Status::Refused("7.6", "zero-AS units advance only with attacking units");
    for (int i = 0; i < nc; ++i) MoveUnit(s, ctx, companions[i], s.combat.vacated_hex, EventType::kAdvance, "7.6");
    return ApplySbAdvance(s, attackers, ctx);
  }
  int counted = 0;
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    if (s.unit(u).Has(kSbNoAdvance)) return Status::Refused("12.1", game_.UnitLabel(u) + " failed its untrained advance roll");
    if (CountsForStacking(s, u)) ++counted;
  }
  if (s.combat.vacated_hex >= 0 && counted > 0 &&
      StackingCount(s, s.combat.vacated_hex, s.phasing_side) + counted > game_.hex_board().stacking.limit) {
    return Status::Refused("7.6", "advance only up to the stacking limit");
  }
  return ApplyAdvanceStep(s, a, ctx);
}

// 7.8: the advance after a cavalry retreat before combat; back to the defensive bombardment.
WG_RULE("7.6/7.8", SbRules::ApplyCavalryAdvance);
Status SbRules::ApplyCavalryAdvance(State& s, const Action& attackers, const Action& a, Context& ctx) const {
  SbExt& x = Ext<SbExt>(s);
  PendingCombat& c = s.combat;
  int counted = 0;
  for (int i = 0; i < attackers.num_units; ++i) {
    const UnitId u = attackers.units[static_cast<size_t>(i)];
    if (!Adjacent(s.unit(u).hex, c.vacated_hex)) return Status::Refused("7.8", game_.UnitLabel(u) + " is not adjacent");
    if (CountsForStacking(s, u)) ++counted;
  }
  if (StackingCount(s, c.vacated_hex, s.phasing_side) + counted > game_.hex_board().stacking.limit) {
    return Status::Refused("7.6", "advance only up to the stacking limit");
  }
  for (int i = 0; i < a.num_units; ++i) {
    const UnitId u = a.units[static_cast<size_t>(i)];
    TouchHex(s, ctx, c.vacated_hex, s.phasing_side);
    MoveUnit(s, ctx, u, c.vacated_hex, EventType::kAdvance, "7.8");
    s.unit(u).flags |= kUnitAttacked;  // treated as having attacked (kept into the combat phase)
    if (x.num_cav_advanced < 8) x.cav_advanced[x.num_cav_advanced++] = u;
  }
  x.cavalry_advance = 0;
  c = PendingCombat{};
  for (auto& h : c.defender_hexes) h = -1;
  c.vacated_hex = -1;
  c.legacy_current = kNoUnit;
  x.advance_rolled = 0;
  for (int i = 0; i < s.num_units; ++i) s.units[static_cast<size_t>(i)].flags &= static_cast<uint16_t>(~kSbNoAdvance);
  EndStep(s, ctx, steps_);
  return Status::Ok();
}

// 12.1: before any advance, each untrained attacker that could advance rolls: a chance step
// per unit, over the advance step.
WG_RULE("12.1", SbRules::BeginSbAdvance);
void SbRules::BeginSbAdvance(State& s, Context&) const {
  SbExt& x = Ext<SbExt>(s);
  if (!game_.OptionOn("12.1") || x.advance_rolled) return;
  x.advance_rolled = 1;
  const int i = NextUntrainedAdvance(s, 0);
  if (i >= 0) PushStep(s, steps_, step_untrained_, s.phasing_side, {static_cast<int16_t>(i)});
}

// The index (in s.combat.attackers) of the next untrained attacker from `from` that rolls, -1 none.
int SbRules::NextUntrainedAdvance(const State& s, int from) const {
  const PendingCombat& c = s.combat;
  for (int i = from; i < c.num_attackers; ++i) {
    const UnitId u = c.attackers[i];
    if (Def(u).trained || !s.unit(u).OnMap() || IsArtillery(u) || !Adjacent(s.unit(u).hex, c.vacated_hex)) continue;
    return i;
  }
  return -1;
}

WG_RULE("12.1", SbRules::ResolveUntrainedAdvance);
void SbRules::ResolveUntrainedAdvance(State& s, Context& ctx, int roll) const {
  const PendingCombat& c = s.combat;
  const int i = TopStep(s)->args[0];
  const UnitId u = c.attackers[i];
  const DieTable& t = *data().tables.Find("untrained_advance");
  if (t.Lookup(roll, 0).text == "must_advance" && MayAdvanceInto(s, u, c.vacated_hex).ok() &&
      StackingCount(s, c.vacated_hex, s.phasing_side) + (CountsForStacking(s, u) ? 1 : 0) <= game_.hex_board().stacking.limit) {
    TouchHex(s, ctx, c.vacated_hex, s.phasing_side);
    MoveUnit(s, ctx, u, c.vacated_hex, EventType::kAdvance, "12.1");
  }
  s.unit(u).flags |= kSbNoAdvance;  // decided: it may not (also) advance by choice
  const int next = NextUntrainedAdvance(s, i + 1);
  if (next >= 0) {
    ReplaceStep(s, steps_, step_untrained_, s.phasing_side, {static_cast<int16_t>(next)});
  } else {
    PopStep(s, steps_);
  }
}

// --- Steps: reorganization, bombardment, stacking -------------------------------------------------

void SbRules::ListBombardStep(const State& s, Context& ctx, std::vector<Action>* out) const {
  ListBombards(s, ctx, out);
  if (PhaseName(s) == "defensive_bombardment") ListCavalryRetreats(s, ctx, out);
  out->push_back(Action::EndPhase());
}

void SbRules::ListStackingStep(const State& s, std::vector<Action>* out) const {
  for (int i = 0; i < s.num_units; ++i) {
    if (StackingVictim(s, static_cast<UnitId>(i))) out->push_back(Action::Of(ActionType::kDestroy).AddUnit(static_cast<UnitId>(i)));
  }
}

WG_RULE("5.5", SbRules::ApplyStackingStep);
Status SbRules::ApplyStackingStep(State& s, const Action& a, Context& ctx) const {
  if (a.type != ActionType::kDestroy || a.num_units != 1) {
    return Status::Refused("5.5", "choose a unit to eliminate from an overstacked hex ({destroy: [unit]})");
  }
  const UnitId u = a.units[0];
  if (u < 0 || u >= s.num_units || !StackingVictim(s, u)) {
    return Status::Refused("5.5", "not a unit the owner may eliminate now (excess units, untrained first)");
  }
  Eliminate(s, ctx, u, "5.5", "over the stacking limit");
  EndStep(s, ctx, steps_);
  return BeginStackingCheck(s, ctx);
}

// 12.3: declining Withers turns a draw into a Confederate win.
WG_RULE("12.3", SbRules::WithersDeclinedDraw);
void SbRules::WithersDeclinedDraw(State& s, Context& ctx) const {
  const SbExt& x = Ext<SbExt>(s);
  if (s.winner >= 0 || s.conceded_by != 0xFF || x.withers != 2) return;
  s.winner = 1;
  Event e;
  e.type = EventType::kGameEnd;
  e.side = 1;
  e.a = s.vp[0];
  e.b = s.vp[1];
  e.rule = "12.3";
  e.text = "a draw counts as a Confederate win (Withers declined)";
  ctx.Emit(e);
}

Result<std::shared_ptr<const Game>> MakeStarsAndBars(const GameParams& params) {
  return LoadHexGame(FindRulesetFolder("stars_and_bars"), params, {"battery_parents"},
                     [](const Game& g, RulesetDocument& doc, ErrorList* errors) -> std::unique_ptr<Rules> {
                       return std::make_unique<SbRules>(g, doc, errors);
                     });
}

WG_REGISTER_RULESET((RulesetInfo{"stars_and_bars", "Stars and Bars (Perryville, 8 October 1862)", "stars_and_bars"}),
                    MakeStarsAndBars);


// --- Computer opponent knowledge: Rules::Evaluate for the `ai` player ------------------------
//
// Not a rule: the `ai` player (libwargame/src/ai.cc) adds this to its generic evaluation. It
// values the victory points each side would have if the game ended now (11.1), counted toward
// the win thresholds (11.2), and the VPs at risk: zero-strength units (HQs, limbered artillery,
// 6.2) and convoys (5.8: 6 VPs when captured) that enemy combat units can reach. The raid
// (11.1) and the enemy convoys draw the side's units toward them.

namespace {
constexpr double kVpWeight = 3.0;        // per projected VP (material is counted by the AI)
constexpr double kWinningBonus = 12.0;   // the side would win if the game ended now (11.2)
constexpr double kRaidApproach = 0.4;    // per hex from the nearest unit to the enemy army HQ
constexpr double kConvoyApproach = 0.3;  // per hex from the nearest unit to an enemy convoy
// Per bombardment SP of an unreleased battery set up unlimbered (3.0's choice at set-up):
// it may bombard and defends with its BS before its release, when it could not unlimber (5.6),
// and it could not move anyway. With auto=setup no unreleased battery is ever unlimbered
// (the data sets them up limbered), so the term is 0 there.
constexpr double kBatteryReady = 1.0;
}  // namespace

double SbRules::Evaluate(const State& s, int side) const {
  if (s.game_over) return 0.0;  // the final VPs are in s.vp already
  const int opp = 1 - side;
  const int vp[2] = {s.vp[0] + EndVp(s, 0), s.vp[1] + EndVp(s, 1)};
  double score = kVpWeight * (vp[side] - vp[opp]);
  const int* need = game_.victory.thresholds;
  if (vp[side] >= need[side] && vp[side] > vp[opp]) score += kWinningBonus;
  if (vp[opp] >= need[opp] && vp[opp] > vp[side]) score -= kWinningBonus;

  // VPs at risk: a unit the enemy can take cheaply (zero strength, or a convoy) with no
  // friendly combat unit in its hex, near enemy combat units. One pass lists, per side,
  // the hexes of its combat units (AS > 0) and of its guards (DS >= 2, not a convoy),
  // so each unit at risk looks at those lists, not at every unit; the terms are added
  // to the score in unit order.
  const HexGrid& grid = game_.hex_board().map.grid;
  int attacker_q[2][kMaxUnits], attacker_r[2][kMaxUnits];
  int16_t guards[2][kMaxUnits], convoys[kMaxUnits];
  int num_attackers[2] = {0, 0}, num_guards[2] = {0, 0}, num_convoys = 0, ready[2] = {0, 0};
  bool combat_unit[kMaxUnits], at_risk[kMaxUnits];
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    combat_unit[i] = at_risk[i] = false;
    if (!us.OnMap()) continue;
    const int sd = us.side & 1;
    const int ds = DefenseStrength(s, u);
    const bool convoy = IsSupply(u);
    if (AttackStrength(s, u) > 0) {
      const Hex at = grid.HexAt(us.hex);
      attacker_q[sd][num_attackers[sd]] = at.q;
      attacker_r[sd][num_attackers[sd]++] = at.r;
      combat_unit[i] = !convoy;
    }
    if (ds >= 2 && !convoy) guards[sd][num_guards[sd]++] = us.hex;
    if (convoy && us.side == opp) convoys[num_convoys++] = us.hex;
    at_risk[i] = convoy || ds <= 0;
    if (IsArtillery(u) && us.face == 1 && !us.Has(kUnitReleased)) ready[sd] += Def(u).back[attr_bombard_];
  }
  score += kBatteryReady * (ready[side] - ready[opp]);
  int raid_dist = 1 << 20, convoy_dist = 1 << 20;
  const int enemy_hq = army_hq_hex_[opp];
  const bool raided = (s.once_awarded & (1ull << side)) != 0;
  for (int i = 0; i < s.num_units; ++i) {
    const UnitId u = static_cast<UnitId>(i);
    const UnitState& us = s.unit(u);
    if (!us.OnMap()) continue;
    if (us.side == side && combat_unit[i]) {
      if (!raided && enemy_hq >= 0) raid_dist = std::min(raid_dist, DistanceBetween(us.hex, enemy_hq));
      for (int c = 0; c < num_convoys; ++c) convoy_dist = std::min(convoy_dist, DistanceBetween(us.hex, convoys[c]));
    }
    if (!at_risk[i]) continue;
    // Guarded: another unit of its side in its hex with DS >= 2 (never the unit itself,
    // which is a convoy or has DS 0).
    const int sd = us.side & 1;
    if (std::find(guards[sd], guards[sd] + num_guards[sd], us.hex) != guards[sd] + num_guards[sd]) continue;
    // The VPs the enemy would score by taking it (a captured convoy retaken: the 6 VPs lost).
    const double at_stake = IsSupply(u) ? 6.0 : (IsHq(u) ? 1.0 : (IsArtillery(u) ? Def(u).back[attr_bombard_] : 1.0));
    const int nearest =
        NearestDistance(grid.HexAt(us.hex), attacker_q[1 - sd], attacker_r[1 - sd], num_attackers[1 - sd], 1 << 20);
    const double p = nearest <= 1 ? 0.6 : (nearest <= 3 ? 0.3 : (nearest <= 5 ? 0.1 : 0.0));
    score += (us.side == side ? -1.0 : 1.0) * p * kVpWeight * at_stake;
  }
  if (raid_dist < (1 << 20)) score -= kRaidApproach * raid_dist;
  if (convoy_dist < (1 << 20)) score -= kConvoyApproach * convoy_dist;
  return score;
}

}  // namespace
}  // namespace wg::stars_and_bars
