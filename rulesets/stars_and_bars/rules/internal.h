// Stars and Bars: the class SbRules (the ruleset's hooks on the standard HexRules flow),
// private to the files of rules/, one per rule section or step (RULES.md maps every rule
// section to its hook). See rules.h for the per-game state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "../rules.h"

namespace wg::stars_and_bars {

inline HexScratch& Hs(Context& ctx) { return static_cast<HexScratch&>(ctx.scratch()); }

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
  void FinishSteps() override;
  void LegacyFrameState(const State& s, State* old) const override;
  void LegacySaveStates(const State& s, int format, std::vector<State>* out) const override;
  bool ProjectCavalryAdvance(State* old) const;
  // The `ai` player's ruleset knowledge (rules/ai.cc).
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
  // 5.8: no capture is left owed outside the capture steps between actions.
  void CheckInvariants(const State& s, ErrorList* out) const override;
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

}  // namespace wg::stars_and_bars
