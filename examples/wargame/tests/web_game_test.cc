// The game behind `wargame serve`, driven without the network: seats and
// tokens, actions refused to the other side, undo within the phase, odds,
// import, and a seeded stream of malformed messages that must change nothing.
#include "web_game.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include "cli.h"
#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/registry.h"

namespace wg::cli {
namespace {

using nlohmann::json;

std::unique_ptr<WebGame> NewGame(std::vector<std::string> kinds, uint64_t seed = 1, int ai_budget = 50) {
  auto game = LoadGame("stars_and_bars");
  EXPECT_TRUE(game.ok());
  return std::make_unique<WebGame>(std::make_unique<Session>(*game, seed), std::move(kinds), seed, ai_budget);
}

json Send(WebGame& g, int sides, const json& msg, bool* changed = nullptr) {
  bool c = false;
  const json out = json::parse(g.Handle(sides, msg.dump(), &c));
  if (changed) *changed = c;
  return out;
}

bool SameState(const State& a, const State& b) { return std::memcmp(&a, &b, sizeof(State)) == 0; }

// The first legal move of a single unit.
std::string FirstMove(WebGame& g, int sides) {
  const json st = Send(g, sides, {{"t", "state"}});
  for (const auto& a : st["legal"]) {
    if (a["type"] == "move" && a["units"].size() == 1) return a["text"];
  }
  return "";
}

TEST(WebGame, SeatsHotSeatRemoteAndAi) {
  auto hot = NewGame({"human", "human"});
  ASSERT_EQ(hot->seats().size(), 1u);
  EXPECT_EQ(hot->seats()[0].sides, 3);
  auto remote = NewGame({"remote", "remote"});
  ASSERT_EQ(remote->seats().size(), 2u);
  EXPECT_EQ(remote->SidesOf(remote->seats()[0].token), 1);
  EXPECT_EQ(remote->SidesOf(remote->seats()[1].token), 2);
  EXPECT_NE(remote->seats()[0].token, remote->seats()[1].token);
  EXPECT_EQ(remote->seats()[0].token.size(), 32u);
  EXPECT_EQ(remote->SidesOf(""), 0);
  EXPECT_EQ(remote->SidesOf("0123"), 0);
  auto ai = NewGame({"human", "ai"});
  ASSERT_EQ(ai->seats().size(), 1u);
  EXPECT_EQ(ai->seats()[0].sides, 1);
  EXPECT_FALSE(ai->AiToMove());  // the Union moves first
}

TEST(WebGame, OtherSidesDecisionIsRefusedAndChangesNothing) {
  auto g = NewGame({"remote", "remote"});
  const State before = g->session().state();
  bool changed = true;
  const json r = Send(*g, 2, {{"t", "act"}, {"action", "end"}}, &changed);
  EXPECT_EQ(r["t"], "refused");
  EXPECT_NE(r["message"].get<std::string>().find("does not play Union"), std::string::npos) << r.dump();
  EXPECT_FALSE(changed);
  EXPECT_TRUE(SameState(before, g->session().state()));
  // The state a Confederate page sees offers it nothing to do.
  EXPECT_TRUE(Send(*g, 2, {{"t", "state"}})["legal"].empty());
  EXPECT_FALSE(Send(*g, 1, {{"t", "state"}})["legal"].empty());
}

TEST(WebGame, IllegalActionIsRefusedWithItsRule) {
  auto g = NewGame({"human", "human"});
  const std::string mv = FirstMove(*g, 3);
  ASSERT_FALSE(mv.empty());
  auto a = ParseActionText(g->session().game(), mv);
  ASSERT_TRUE(a.ok());
  const std::string unit = g->session().game().units[a->units[0]].id;
  const State before = g->session().state();
  // A move to the far corner of the map.
  const json r = Send(*g, 3, {{"t", "act"}, {"action", "{move: [" + unit + "], path: [0101]}"}});
  EXPECT_EQ(r["t"], "refused");
  EXPECT_FALSE(r["rule"].get<std::string>().empty()) << r.dump();
  EXPECT_TRUE(SameState(before, g->session().state()));
}

TEST(WebGame, LegalMovesCarryTheirCostAndWords) {
  auto g = NewGame({"human", "ai"});
  const json st = Send(*g, 1, {{"t", "state"}});
  int moves = 0;
  for (const auto& a : st["legal"]) {
    if (a["type"] != "move") continue;
    ++moves;
    ASSERT_TRUE(a.contains("cost")) << a.dump();
    EXPECT_GT(a["cost"].get<double>(), 0.0);
    EXPECT_EQ(a["label"].get<std::string>().rfind("move ", 0), 0u);
  }
  EXPECT_GT(moves, 10);
  EXPECT_NE(st["svg"].get<std::string>().find("data-hex=\"2302\""), std::string::npos);
  EXPECT_EQ(st["you"], json::array({"union"}));
}

TEST(WebGame, UndoWithinThePhaseOnlyOwnActions) {
  auto g = NewGame({"remote", "remote"});
  const State start = g->session().state();
  EXPECT_EQ(Send(*g, 1, {{"t", "undo"}})["t"], "refused");  // nothing yet
  const std::string mv = FirstMove(*g, 1);
  ASSERT_EQ(Send(*g, 1, {{"t", "act"}, {"action", mv}})["t"], "ok");
  EXPECT_EQ(Send(*g, 2, {{"t", "undo"}})["t"], "refused");  // not the Confederate's move
  EXPECT_TRUE(Send(*g, 1, {{"t", "state"}})["can_undo"].get<bool>());
  EXPECT_EQ(Send(*g, 1, {{"t", "undo"}})["t"], "ok");
  EXPECT_TRUE(SameState(start, g->session().state()));
  // After the end of the phase, the phase's moves cannot be taken back.
  ASSERT_EQ(Send(*g, 1, {{"t", "act"}, {"action", mv}})["t"], "ok");
  ASSERT_EQ(Send(*g, 1, {{"t", "act"}, {"action", "end"}})["t"], "ok");
  const int decider = g->session().state().decision_side == 0 ? 1 : 2;
  EXPECT_FALSE(Send(*g, decider, {{"t", "state"}})["can_undo"].get<bool>());
}

TEST(WebGame, OddsArePreviewedExactlyAndChangeNothing) {
  // The computer plays the Union up to its first combat phase (as `play --ai-budget 200` would).
  auto auto_play = NewGame({"ai", "ai"}, 1, 200);
  const Game& game = auto_play->session().game();
  while (!(auto_play->session().state().turn == 1 && PhaseName(game, auto_play->session().state()) == "combat")) {
    ASSERT_TRUE(auto_play->AiStep());
  }
  auto hot = NewGame({"human", "human"});
  ASSERT_EQ(Send(*hot, 3, {{"t", "import"}, {"save", Send(*auto_play, 3, {{"t", "export"}})["save"]}})["t"], "ok");
  WebGame& g = *hot;
  const State before = g.session().state();
  int previews = 0;
  const json st = Send(g, 3, {{"t", "state"}});
  for (const auto& a : st["legal"]) {
    if (a["type"] != "attack") continue;
    const json o = Send(g, 3, {{"t", "odds"}, {"action", a["text"]}});
    ASSERT_EQ(o["t"], "odds") << o.dump();
    uint64_t sum = 0;
    for (const auto& x : o["outcomes"]) sum += x["numerator"].get<uint64_t>();
    EXPECT_EQ(sum, o["outcomes"][0]["denominator"].get<uint64_t>());
    EXPECT_FALSE(o["column"].get<std::string>().empty());
    ++previews;
  }
  EXPECT_GT(previews, 0);
  EXPECT_TRUE(SameState(before, g.session().state()));
  EXPECT_EQ(Send(g, 3, {{"t", "odds"}, {"action", "end"}})["t"], "refused");
}

TEST(WebGame, ExportImportContinuesTheGame) {
  auto g = NewGame({"human", "ai"});
  ASSERT_EQ(Send(*g, 1, {{"t", "act"}, {"action", FirstMove(*g, 1)}})["t"], "ok");
  const std::string save = Send(*g, 1, {{"t", "export"}})["save"];
  auto other = NewGame({"human", "ai"}, 9);
  bool changed = false;
  EXPECT_EQ(Send(*other, 1, {{"t", "import"}, {"save", save}}, &changed)["t"], "ok");
  EXPECT_TRUE(changed);
  EXPECT_TRUE(SameState(g->session().state(), other->session().state()));
  // A remote player cannot replace the game, and a bad save changes nothing.
  auto remote = NewGame({"remote", "remote"});
  EXPECT_EQ(Send(*remote, 1, {{"t", "import"}, {"save", save}})["t"], "refused");
  const State before = other->session().state();
  EXPECT_EQ(Send(*other, 1, {{"t", "import"}, {"save", "game: \"stars_and_bars\"\nseed: [\n"}})["t"], "refused");
  EXPECT_TRUE(SameState(before, other->session().state()));
}

TEST(WebGame, TheComputerMovesOnlyOnItsTurn) {
  auto g = NewGame({"ai", "human"});
  EXPECT_TRUE(g->AiToMove());
  EXPECT_EQ(Send(*g, 2, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  int steps = 0;
  while (g->AiToMove() && steps < 500) steps += g->AiStep() ? 1 : 500;
  EXPECT_LT(steps, 500);
  EXPECT_EQ(g->session().state().decision_side, 1);
}

// Malformed messages from a seeded generator: each is answered with an error
// or a refusal, and the state stays byte for byte the same.
TEST(WebGame, MalformedMessagesChangeNothing) {
  auto g = NewGame({"remote", "remote"});
  const State before = g->session().state();
  RngState rng = SeedRng(17);
  const std::vector<std::string> seeds = {
      "{\"t\":\"act\",\"action\":\"{move: [fry], path: [2303]}\"}", "{\"t\":\"odds\",\"action\":\"{attack: [fry]}\"}",
      "{\"t\":\"import\",\"save\":\"game: x\"}", "{\"t\":\"undo\"}", "{\"t\":\"state\"}",
      "{\"t\":\"preview\",\"action\":\"{move: [fry], value: 100, value2: 200}\"}", "{\"t\":\"die\",\"value\":3}",
      "{\"t\":\"commit\",\"hash\":\"" + CommitmentOf(std::string(64, '1')) + "\"}",
      "{\"t\":\"reveal\",\"secret\":\"" + std::string(64, '1') + "\"}"};
  const std::string alphabet = "{}[]\":,\\ tactionmovepath0123456789-_xyz\n\t\x01\xff";
  for (int i = 0; i < 3000; ++i) {  // a few milliseconds
    std::string m = seeds[UniformBelow(rng, static_cast<uint32_t>(seeds.size()))];
    const int edits = 1 + static_cast<int>(UniformBelow(rng, 8));
    for (int e = 0; e < edits && !m.empty(); ++e) {
      const size_t at = UniformBelow(rng, static_cast<uint32_t>(m.size()));
      const char c = alphabet[UniformBelow(rng, static_cast<uint32_t>(alphabet.size()))];
      switch (UniformBelow(rng, 3)) {
        case 0: m[at] = c; break;
        case 1: m.insert(m.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: m.erase(at, 1); break;
      }
    }
    bool changed = false;
    // The Confederate link: no action of its may apply in the Union's movement phase.
    const std::string answer = g->Handle(2, m, &changed);
    ASSERT_FALSE(changed) << m;
    ASSERT_FALSE(answer.empty());
  }
  for (const std::string& m : {std::string(200000, '['), std::string(kMaxMessageBytes + 1, ' '),
                               "{\"t\":\"act\",\"action\":\"" + std::string(1900, '[') + "\"}",
                               std::string("{\"t\":\"act\",\"action\":\"") + "{move: [fry], path: [" +
                                   std::string(3000, '1') + "]}\"}"}) {
    bool changed = false;
    EXPECT_NE(json::parse(g->Handle(1, m, &changed))["t"], "ok");
  }
  EXPECT_TRUE(SameState(before, g->session().state()));
}

TEST(ActionLabel, ChoicesInWords) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  Session s(*game, 1);
  State st = s.state();
  const StepTable& steps = (*game)->rules->steps();
  ReplaceStep(st, steps, steps.Find("stand_or_retreat"), st.decision_side);
  EXPECT_EQ(ActionLabel(**game, st, Action::Of(ActionType::kStand)), "stand");
  EXPECT_EQ(ActionLabel(**game, st, Action::Of(ActionType::kChoice).Value(0)), "retreat");
  ReplaceStep(st, steps, steps.Find("movement"), st.decision_side);
  EXPECT_EQ(ActionLabel(**game, st, Action::EndPhase()), "end the movement phase");
  Action mv = Action::Of(ActionType::kMove);
  mv.AddUnit(static_cast<UnitId>((*game)->UnitIndex("fry"))).AddHex((*game)->hex_board().map.Index("2403"));
  EXPECT_EQ(ActionLabel(**game, st, mv), "move " + (*game)->units[mv.units[0]].name + " to 2403");
  // A tabletop move: toward a point, in inches.
  auto mini = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(mini.ok());
  Session ms(*mini, 1);
  Action to = Action::Of(ActionType::kMove).AddUnit(0);
  to.value = 2249;
  to.value2 = 751;
  EXPECT_EQ(ActionLabel(**mini, ms.state(), to), "move " + (*mini)->units[0].name + " toward 22.49, 7.51 in");
}

// Stars and Bars 3.0 and 5.8 with the options: the set-up's mode buttons name the face chosen
// (not a flip), the capture's buttons its two answers.
TEST(ActionLabel, StarsAndBarsSetUpAndCaptureInWords) {
  auto game = LoadGame("stars_and_bars(optional=setup+capture)");
  ASSERT_TRUE(game.ok());
  Session s(*game, 1);
  ASSERT_EQ(s.state().decision, DecisionType::kSetup);
  const std::vector<Action> legal = s.LegalActions();
  ASSERT_EQ(legal.size(), 2u);
  const std::string name = (*game)->units[static_cast<size_t>(legal[0].units[0])].name;
  EXPECT_EQ(ActionLabel(**game, s.state(), legal[0]), "set up " + name + " on its front face (limbered)");
  EXPECT_EQ(ActionLabel(**game, s.state(), legal[1]), "set up " + name + " on its back face (unlimbered)");
  State st = s.state();
  const StepTable& steps = (*game)->rules->steps();
  const int16_t convoy = static_cast<int16_t>((*game)->UnitIndex("union_supply_iii"));
  ReplaceStep(st, steps, steps.Find("capture"), 1, {convoy, 0});
  EXPECT_EQ(ActionLabel(**game, st, Action::Of(ActionType::kChoice).Value(1)), "declare it captured");
  EXPECT_EQ(ActionLabel(**game, st, Action::Of(ActionType::kChoice).Value(0)), "leave it eliminated");
}

}  // namespace
}  // namespace wg::cli

namespace wg::cli {
namespace {

TEST(FairDice, CommitmentIsSha256OfTheSecretBytes) {
  // SHA-256 of 32 zero bytes (a published test value).
  EXPECT_EQ(CommitmentOf(std::string(64, '0')), "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925");
  EXPECT_EQ(CommitmentOf("xyz"), "");
  EXPECT_EQ(CommitmentOf(std::string(64, 'A')), "");  // lowercase only
  for (int i = 0; i < 50; ++i) {
    const std::string a(64, "0123456789abcdef"[i % 16]), b(64, "fedcba9876543210"[i % 16]);
    const int v = DieFromSecrets(a, b, 6);
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 6);
    EXPECT_EQ(v, DieFromSecrets(a, b, 6));
  }
}

std::string Secret(char c) { return std::string(64, c); }

TEST(FairDice, RemotePlayersDrawEachDieByCommitReveal) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  // The computer plays the Union's first movement with every die supplied (none is needed).
  WebGame auto_play(std::make_unique<Session>(*game, 1, /*supplied_dice=*/true), {"ai", "ai"}, 1, 200);
  while (PhaseName(**game, auto_play.session().state()) != "combat") ASSERT_TRUE(auto_play.AiStep());
  auto session = Session::Load(auto_play.SaveText(), "test");
  ASSERT_TRUE(session.ok());
  WebGame g(std::move(*session), {"remote", "remote"}, 1, 50);
  const json st = Send(g, 1, {{"t", "state"}});
  std::string attack;
  for (const auto& a : st["legal"]) {
    if (a["type"] == "attack") attack = a["text"];
  }
  ASSERT_FALSE(attack.empty());
  const size_t actions = g.session().actions().size();
  ASSERT_EQ(Send(g, 1, {{"t", "act"}, {"action", attack}})["t"], "ok");
  EXPECT_EQ(g.session().actions().size(), actions);  // waiting for the die
  const json waiting = Send(g, 1, {{"t", "state"}});
  EXPECT_FALSE(waiting["dice_round"].is_null());
  EXPECT_TRUE(waiting["legal"].empty());
  EXPECT_EQ(Send(g, 1, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  // Both commit before either reveals; a secret must match its commitment.
  EXPECT_EQ(Send(g, 1, {{"t", "reveal"}, {"secret", Secret('1')}})["t"], "refused");
  EXPECT_EQ(Send(g, 1, {{"t", "commit"}, {"hash", "nothex"}})["t"], "refused");
  ASSERT_EQ(Send(g, 1, {{"t", "commit"}, {"hash", CommitmentOf(Secret('1'))}})["t"], "ok");
  EXPECT_EQ(Send(g, 1, {{"t", "commit"}, {"hash", CommitmentOf(Secret('3'))}})["t"], "refused");  // no second try
  EXPECT_EQ(Send(g, 1, {{"t", "reveal"}, {"secret", Secret('1')}})["t"], "refused");  // the other has not committed
  ASSERT_EQ(Send(g, 2, {{"t", "commit"}, {"hash", CommitmentOf(Secret('2'))}})["t"], "ok");
  EXPECT_EQ(Send(g, 2, {{"t", "reveal"}, {"secret", Secret('4')}})["t"], "refused");
  ASSERT_EQ(Send(g, 1, {{"t", "reveal"}, {"secret", Secret('1')}})["t"], "ok");
  ASSERT_EQ(Send(g, 2, {{"t", "reveal"}, {"secret", Secret('2')}})["t"], "ok");
  ASSERT_EQ(g.session().actions().size(), actions + 1);  // the attack, with the fair die
  const int die = DieFromSecrets(Secret('1'), Secret('2'), 6);
  ASSERT_FALSE(g.session().supplied_used().empty());
  EXPECT_EQ(g.session().supplied_used().back(), die);
  // The save records the round; tampering with a secret is caught on loading.
  const std::string save = Send(g, 1, {{"t", "export"}})["save"];
  EXPECT_NE(save.find("fair_dice:"), std::string::npos);
  std::vector<FairDiceRound> rounds;
  EXPECT_EQ(VerifyFairDice(save, "save", &rounds), "");
  ASSERT_EQ(rounds.size(), 1u);
  EXPECT_EQ(rounds[0].value, die);
  EXPECT_TRUE(Session::Load(save, "save").ok());
  std::string bad = save;
  bad.replace(bad.find(Secret('2')), 1, "3");
  EXPECT_NE(VerifyFairDice(bad, "save", nullptr).find("does not match its commitment"), std::string::npos);
  // An old save without the record still loads.
  EXPECT_EQ(VerifyFairDice(auto_play.SaveText(), "old", nullptr), "");
}

}  // namespace
}  // namespace wg::cli

// --- Play by e-mail, a referee's dice, the tabletop ---------------------------------------------

namespace wg::cli {
namespace {

// The tabletop's messages, mutated, from the link that decides: a preview
// never changes the game, and no die is asked for.
TEST(WebGame, MalformedTabletopMessagesChangeNothing) {
  auto game = LoadGame("civil_war_miniatures");
  ASSERT_TRUE(game.ok());
  WebGame g(std::make_unique<Session>(*game, 1), {"human", "human"}, 1, 50);
  ASSERT_EQ(Send(g, 3, {{"t", "act"}, {"action", "end"}})["t"], "ok");  // the battery's card: now an infantry unit
  const State before = g.session().state();
  RngState rng = SeedRng(23);
  const std::vector<std::string> seeds = {
      "{\"t\":\"preview\",\"action\":\"{move: [us_44ny], value: 2000, value2: 1600}\"}",
      "{\"t\":\"preview\",\"action\":\"{custom: 2, units: [us_44ny], value2: 90}\"}",
      "{\"t\":\"preview\",\"action\":\"{bombard: [us_44ny, csa_1va]}\"}",
      "{\"t\":\"preview\",\"action\":\"{mode: [us_44ny], value: 1}\"}", "{\"t\":\"die\",\"value\":3}"};
  const std::string alphabet = "{}[]\":,\\ -0123456789xyvalue\n\x01\xff";
  for (int i = 0; i < 1500; ++i) {
    std::string m = seeds[UniformBelow(rng, static_cast<uint32_t>(seeds.size()))];
    const int edits = 1 + static_cast<int>(UniformBelow(rng, 6));
    for (int e = 0; e < edits; ++e) {
      const size_t at = UniformBelow(rng, static_cast<uint32_t>(m.size()));
      m[at] = alphabet[UniformBelow(rng, static_cast<uint32_t>(alphabet.size()))];
    }
    bool changed = false;
    const std::string answer = g.Handle(3, m, &changed);
    ASSERT_FALSE(changed) << m;
    ASSERT_FALSE(json::parse(answer, nullptr, false).is_discarded()) << answer;
  }
  EXPECT_TRUE(SameState(before, g.session().state()));
}

const std::string kSkirmish = std::string(WG_WEB_TEST_DATA) + "/tabletop_skirmish.yaml";

std::string SecretN(int k) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", static_cast<unsigned>(k));
  return std::string(56, 'a') + b;
}

// A WebGame continued from a save as `wargame serve --load SAVE` does it.
std::unique_ptr<WebGame> FromSave(const std::string& save, std::vector<std::string> kinds) {
  auto s = Session::Load(save, "save");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.errors().ToString());
  if (!s.ok()) return nullptr;
  std::vector<FairDiceRound> rounds;
  std::optional<FairDicePending> pending;
  EXPECT_EQ(VerifyFairDice(save, "save", &rounds, &pending), "");
  auto g = std::make_unique<WebGame>(std::move(*s), std::move(kinds), 1, 50);
  EXPECT_EQ(g->SetFairDice(std::move(rounds), std::move(pending)), "");
  return g;
}

std::unique_ptr<WebGame> Skirmish(std::vector<std::string> kinds, bool supplied) {
  auto game = LoadGame("civil_war_miniatures(scenario=" + kSkirmish + ")");
  EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.errors().ToString());
  return std::make_unique<WebGame>(std::make_unique<Session>(*game, 1, supplied), std::move(kinds), 1, 50);
}

// Play by e-mail: the Union fires (several dice), commits to its first secret
// and mails the save; the Confederate, alone, commits and reveals and mails it
// back; the Union reveals. No save holds a secret before both commitments.
TEST(FairDice, PlayByEmailOneSideOnlineAtATime) {
  auto union_turn = Skirmish({"remote", "remote"}, true);
  ASSERT_TRUE(union_turn->fair_dice());
  const std::string fire = "{bombard: [us_20me, csa_1va]}";
  ASSERT_EQ(Send(*union_turn, 1, {{"t", "act"}, {"action", fire}})["t"], "ok");
  ASSERT_EQ(Send(*union_turn, 1, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(0))}})["t"], "ok");
  const std::string mail1 = Send(*union_turn, 1, {{"t", "export"}})["save"];
  EXPECT_NE(mail1.find("fair_dice_pending:"), std::string::npos);
  EXPECT_EQ(mail1.find(SecretN(0)), std::string::npos) << "no secret travels before both commitments";
  // The Confederate player, with the Union not online.
  auto confed_turn = FromSave(mail1, {"remote", "remote"});
  ASSERT_TRUE(confed_turn);
  const json waiting = Send(*confed_turn, 2, {{"t", "state"}});
  ASSERT_FALSE(waiting["dice_round"].is_null());
  EXPECT_EQ(waiting["dice_round"]["commit"][0], CommitmentOf(SecretN(0)));
  EXPECT_EQ(waiting["dice_round"]["action"], fire);
  EXPECT_EQ(Send(*confed_turn, 2, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  ASSERT_EQ(Send(*confed_turn, 2, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(100))}})["t"], "ok");
  ASSERT_EQ(Send(*confed_turn, 2, {{"t", "reveal"}, {"secret", SecretN(100)}})["t"], "ok");
  const std::string mail2 = Send(*confed_turn, 2, {{"t", "export"}})["save"];
  EXPECT_NE(mail2.find(SecretN(100)), std::string::npos);
  // The Union reveals: the first die is drawn; the action needs more.
  auto union_again = FromSave(mail2, {"remote", "remote"});
  ASSERT_TRUE(union_again);
  ASSERT_EQ(Send(*union_again, 1, {{"t", "reveal"}, {"secret", SecretN(0)}})["t"], "ok");
  std::vector<int> dice = {DieFromSecrets(SecretN(0), SecretN(100), 6)};
  ASSERT_EQ(union_again->session().actions().size(), 0u) << "fire rolls a die for each stand";
  // Mailed again with one die drawn; both players online for the rest.
  auto online = FromSave(Send(*union_again, 1, {{"t", "export"}})["save"], {"remote", "remote"});
  ASSERT_TRUE(online);
  for (int k = 1; k < 40 && online->session().actions().empty(); ++k) {
    ASSERT_EQ(Send(*online, 1, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(k))}})["t"], "ok");
    ASSERT_EQ(Send(*online, 2, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(100 + k))}})["t"], "ok");
    ASSERT_EQ(Send(*online, 2, {{"t", "reveal"}, {"secret", SecretN(100 + k)}})["t"], "ok");
    ASSERT_EQ(Send(*online, 1, {{"t", "reveal"}, {"secret", SecretN(k)}})["t"], "ok");
    dice.push_back(DieFromSecrets(SecretN(k), SecretN(100 + k), 6));
  }
  ASSERT_EQ(online->session().actions().size(), 1u);
  EXPECT_GE(dice.size(), 6u);  // six stands fire
  // The referee's check: the dice the fire used are the dice of the secrets, in order.
  EXPECT_EQ(online->session().supplied_used(), dice);
  const std::string final_save = Send(*online, 1, {{"t", "export"}})["save"];
  std::vector<FairDiceRound> rounds;
  ASSERT_EQ(VerifyFairDice(final_save, "final", &rounds), "");
  ASSERT_EQ(rounds.size(), dice.size());
  for (size_t i = 0; i < rounds.size(); ++i) EXPECT_EQ(rounds[i].at, static_cast<long>(i));
  auto replayed = Session::Load(final_save, "final");
  ASSERT_TRUE(replayed.ok());
  EXPECT_TRUE(SameState((*replayed)->state(), online->session().state()));
}

// Every fair die is recomputed, every secret checked against its commitment;
// a save that does not match is refused with the position of its entry, by
// loading and by `wargame replay`.
TEST(FairDice, TamperedRecordsAreRefusedWithTheirPosition) {
  auto g = Skirmish({"remote", "remote"}, true);
  ASSERT_EQ(Send(*g, 1, {{"t", "act"}, {"action", "{bombard: [us_20me, csa_1va]}"}})["t"], "ok");
  for (int k = 0; k < 40 && g->session().actions().empty(); ++k) {
    Send(*g, 1, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(k))}});
    Send(*g, 2, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(100 + k))}});
    Send(*g, 1, {{"t", "reveal"}, {"secret", SecretN(k)}});
    Send(*g, 2, {{"t", "reveal"}, {"secret", SecretN(100 + k)}});
  }
  ASSERT_EQ(g->session().actions().size(), 1u);
  // A die in progress, with the Union's commitment only.
  ASSERT_EQ(Send(*g, 2, {{"t", "state"}})["decision"]["side"], "confederate");
  ASSERT_EQ(Send(*g, 2, {{"t", "act"}, {"action", "{bombard: [csa_1va, us_20me]}"}})["t"], "ok");
  ASSERT_EQ(Send(*g, 1, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(77))}})["t"], "ok");
  const std::string save = Send(*g, 1, {{"t", "export"}})["save"];
  ASSERT_EQ(VerifyFairDice(save, "good.yaml", nullptr), "");
  const std::regex position("^bad\\.yaml:[0-9]+:[0-9]+: ");
  auto refused = [&](std::string bad, const std::string& want) {
    const std::string why = VerifyFairDice(bad, "bad.yaml", nullptr);
    EXPECT_TRUE(std::regex_search(why, position)) << why;
    EXPECT_NE(why.find(want), std::string::npos) << why;
    auto hot = Skirmish({"human", "human"}, false);  // nor may a page import it
    EXPECT_EQ(Send(*hot, 3, {{"t", "import"}, {"save", bad}})["t"], "refused");
    return why;
  };
  std::string bad = save;
  bad.replace(bad.find(SecretN(102)), 64, SecretN(999));
  refused(bad, "fair_dice[2].reveal[1]: does not match its commitment fair_dice[2].commit[1]");
  bad = save;  // a value that is not the die of its secrets
  const size_t line = bad.find("  - {at: 3,");
  ASSERT_NE(line, std::string::npos) << bad;
  const size_t v = bad.find("value: ", line);
  bad[v + 7] = bad[v + 7] == '1' ? '2' : '1';
  refused(bad, "fair_dice[3].value: is not the die of the two secrets");
  bad = save;  // a secret in the round in progress before the Confederate committed
  bad.replace(bad.find("reveal: [\"\", \"\"]"), 16, "reveal: [\"" + SecretN(77) + "\", \"\"]");
  refused(bad, "fair_dice_pending.round.reveal[0]: a secret revealed before both sides committed");
  // `wargame replay` refuses it with the same message.
  const std::string path = (std::filesystem::temp_directory_path() / "wargame_web_test_tampered.yaml").string();
  std::ofstream(path) << bad;
  const std::string cmd = std::string("'") + WARGAME_BIN + "' replay '" + path + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  EXPECT_EQ(WEXITSTATUS(status), 1) << out;
  EXPECT_NE(out.find("fair_dice_pending.round.reveal[0]: a secret revealed before both sides committed"),
            std::string::npos)
      << out;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace wg::cli

namespace wg::cli {
namespace {

struct Ran {
  int code = -1;
  std::string out;
};

// `wargame ARGS` with stdin from `input`, stdout and stderr together.
Ran RunWargame(const std::string& args, const std::string& input = "") {
  const std::string in = (std::filesystem::temp_directory_path() / "wargame_web_test_stdin.txt").string();
  std::ofstream(in) << input;
  const std::string cmd = std::string("'") + WARGAME_BIN + "' " + args + " <'" + in + "' 2>&1";
  Ran r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path) << text;
  return path;
}

// A referee's game (every die supplied) continued against the computer: its
// attack waits for the die, which the page enters; nothing stalls.
TEST(RefereeDice, ASuppliedSaveContinuedAtThePageWaitsForEachDie) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  Session referee(*game, 1, /*supplied_dice=*/true);
  auto g = FromSave(referee.Save(), {"ai", "human"});
  ASSERT_TRUE(g);
  EXPECT_FALSE(g->fair_dice());
  int steps = 0;
  while (g->AiToMove() && steps++ < 300) ASSERT_TRUE(g->AiStep());
  const json st = Send(*g, 2, {{"t", "state"}});
  ASSERT_FALSE(st["die_needed"].is_null()) << "the computer's attack waits for its die";
  EXPECT_TRUE(st["die_needed"]["you"].get<bool>());
  EXPECT_EQ(st["die_needed"]["sides"], 6);
  EXPECT_TRUE(st["legal"].empty());
  const size_t actions = g->session().actions().size();
  EXPECT_EQ(Send(*g, 2, {{"t", "die"}, {"value", 7}})["t"], "refused");
  EXPECT_EQ(Send(*g, 2, {{"t", "die"}, {"value", "4"}})["t"], "refused");
  EXPECT_EQ(Send(*g, 2, {{"t", "commit"}, {"hash", CommitmentOf(SecretN(1))}})["t"], "refused");
  EXPECT_EQ(Send(*g, 2, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  EXPECT_EQ(g->session().actions().size(), actions);
  ASSERT_EQ(Send(*g, 2, {{"t", "die"}, {"value", 4}})["t"], "ok");
  ASSERT_EQ(g->session().actions().size(), actions + 1);
  EXPECT_EQ(g->session().supplied_used().back(), 4);
  bool rolled_four = false;
  for (const Event& e : g->session().events()) rolled_four |= e.type == EventType::kDieRoll && e.b == 4;
  EXPECT_TRUE(rolled_four);
  EXPECT_TRUE(Send(*g, 2, {{"t", "state"}})["die_needed"].is_null());
  EXPECT_EQ(Send(*g, 2, {{"t", "die"}, {"value", 4}})["t"], "refused");  // none is needed now
  // The save is a referee's save still: it replays with the die entered.
  const std::string save = Send(*g, 2, {{"t", "export"}})["save"];
  EXPECT_NE(save.find("dice: supplied"), std::string::npos);
  EXPECT_TRUE(Session::Load(save, "save").ok());
}

// Hot-seat with a referee's dice: an action waiting for its die cannot be
// undone from under it (nor the move before it), and each die entered is used.
TEST(RefereeDice, NoUndoWhileAnActionWaitsForItsDie) {
  auto g = Skirmish({"human", "human"}, true);
  ASSERT_EQ(Send(*g, 3, {{"t", "act"}, {"action", "{move: [us_20me], value: 2600, value2: 2800}"}})["t"], "ok");
  ASSERT_TRUE(Send(*g, 3, {{"t", "state"}})["can_undo"].get<bool>());
  ASSERT_EQ(Send(*g, 3, {{"t", "act"}, {"action", "{bombard: [us_20me, csa_1va]}"}})["t"], "ok");
  EXPECT_FALSE(Send(*g, 3, {{"t", "state"}})["can_undo"].get<bool>());
  EXPECT_EQ(Send(*g, 3, {{"t", "undo"}})["t"], "refused");
  int entered = 0;
  while (g->session().actions().size() == 1 && entered < 40) {
    ASSERT_EQ(Send(*g, 3, {{"t", "die"}, {"value", 1 + entered % 6}})["t"], "ok");
    ++entered;
  }
  ASSERT_EQ(g->session().actions().size(), 2u);
  std::vector<int> want;
  for (int i = 0; i < entered; ++i) want.push_back(1 + i % 6);
  EXPECT_EQ(g->session().supplied_used(), want);
}

// The same save in the terminal: with a human, the die is asked for; with no
// human, `play` says what is needed instead of stalling.
TEST(RefereeDice, ASuppliedSaveContinuedInTheTerminal) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  const std::string path = WriteTemp("wargame_web_test_referee.yaml", Session(*game, 1, true).Save());
  const Ran ai = RunWargame("play --load '" + path + "' --players ai,ai --ai-budget 50 -q");
  EXPECT_EQ(ai.code, 1) << ai.out;
  EXPECT_NE(ai.out.find("needs a die value (d6, combat), and this game's dice are all supplied by hand"),
            std::string::npos) << ai.out;
  EXPECT_NE(ai.out.find("--dice"), std::string::npos);
  const Ran given = RunWargame("play --load '" + path + "' --players ai,ai --ai-budget 50 -q --dice 4 --max-actions 9");
  EXPECT_EQ(given.code, 0) << given.out;
  // The Confederate at the terminal rolls the Union computer's die: a bad value is asked again.
  const std::string out = (std::filesystem::temp_directory_path() / "wargame_web_test_referee_out.yaml").string();
  const Ran human = RunWargame("play --load '" + path + "' --players ai,human --ai-budget 50 --max-actions 8 --save '" +
                               out + "'", "x\n4\n");
  EXPECT_EQ(human.code, 0) << human.out;
  EXPECT_NE(human.out.find("needs a die (d6, combat): roll it and enter the value (1-6)"), std::string::npos);
  EXPECT_NE(human.out.find("a d6 shows 1 to 6"), std::string::npos);
  EXPECT_NE(human.out.find("Die roll (d6, combat): 4"), std::string::npos) << human.out;
  std::ifstream in(out);
  const std::string saved((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(saved.find("supplied: [4]"), std::string::npos) << saved;
  std::filesystem::remove(path);
  std::filesystem::remove(out);
}

// Two remote players: their dice are never the server's to choose or to seed.
TEST(FairDice, ServeRefusesDiceTheHostCouldKnow) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  const std::string seeded = WriteTemp("wargame_web_test_seeded.yaml", Session(*game, 1).Save());
  const Ran a = RunWargame("serve --load '" + seeded + "' --players remote,remote --port 0");
  EXPECT_EQ(a.code, 2) << a.out;
  EXPECT_NE(a.out.find("this save's dice are seeded"), std::string::npos) << a.out;
  const Ran b = RunWargame("serve stars_and_bars --players remote,remote --dice 6,6 --port 0");
  EXPECT_EQ(b.code, 2) << b.out;
  EXPECT_NE(b.out.find("--dice with two remote players"), std::string::npos) << b.out;
  std::filesystem::remove(seeded);
}

// The tabletop: the preview is the rules' own answer (clipped by the fence,
// refused through a friend), changes nothing, and rolls no die.
TEST(Tabletop, PreviewClipsAndRefusesAsTheRulesDo) {
  auto g = Skirmish({"human", "human"}, false);
  const State before = g->session().state();
  const json st = Send(*g, 3, {{"t", "state"}});
  ASSERT_TRUE(st.contains("tabletop"));
  const json& t = st["tabletop"];
  EXPECT_EQ(t["active"], "us_20me");
  EXPECT_EQ(t["width"], 72);
  EXPECT_EQ(t["bases"].size(), 4u);
  ASSERT_FALSE(t["reach"].is_null());
  EXPECT_EQ(t["reach"]["rate"], 6);
  // East (heading 0) the West fence costs 2": the outline stops 4" from (24, 28).
  EXPECT_EQ(t["reach"]["outline"][0], json::array({28.0, 28.0}));
  // Every point of the outline is a move the rules allow, never beyond the rate (positions are hundredths).
  for (const auto& p : t["reach"]["outline"]) {
    const double dx = p[0].get<double>() - 24, dy = p[1].get<double>() - 28;
    EXPECT_LE(std::sqrt(dx * dx + dy * dy), 6.0 + 0.01);
  }
  const json east = Send(*g, 3, {{"t", "preview"}, {"action", "{move: [us_20me], value: 4000, value2: 2800}"}});
  ASSERT_TRUE(east["ok"].get<bool>()) << east.dump();
  EXPECT_EQ(east["center"], json::array({28.0, 28.0}));
  EXPECT_DOUBLE_EQ(east["moved"].get<double>(), 4.0);
  const json south = Send(*g, 3, {{"t", "preview"}, {"action", "{move: [us_20me], value: 2400, value2: 2200}"}});
  EXPECT_FALSE(south["ok"].get<bool>());
  EXPECT_EQ(south["rule"], "C.1");
  const json fire = Send(*g, 3, {{"t", "preview"}, {"action", "{bombard: [us_20me, csa_1va]}"}});
  EXPECT_FALSE(fire["ok"].get<bool>());
  EXPECT_EQ(fire["message"], "this action rolls dice: it has no preview");
  // A link that does not play the deciding side is refused a preview.
  EXPECT_EQ(Send(*g, 2, {{"t", "preview"}, {"action", "{move: [us_20me], value: 4000, value2: 2800}"}})["t"],
            "refused");
  EXPECT_TRUE(SameState(before, g->session().state()));
  // The move made is where the preview said.
  ASSERT_EQ(Send(*g, 3, {{"t", "act"}, {"action", "{move: [us_20me], value: 4000, value2: 2800}"}})["t"], "ok");
  const json after = Send(*g, 3, {{"t", "state"}});
  EXPECT_EQ(after["ruleset_state"]["units"][0]["x"], 28.0);
  EXPECT_TRUE(after["tabletop"]["reach"].is_null()) << "the unit has moved";
  // Its actions in words.
  std::vector<std::string> labels;
  for (const auto& a : after["legal"]) labels.push_back(a["label"]);
  EXPECT_NE(std::find(labels.begin(), labels.end(), "20th Maine fires at 1st Virginia"), labels.end());
  EXPECT_NE(std::find(labels.begin(), labels.end(), "end the activation of 20th Maine"), labels.end());
}

}  // namespace
}  // namespace wg::cli
