// The game behind `wargame serve`, driven without the network: seats and
// tokens, actions refused to the other side, undo within the phase, odds,
// import, and a seeded stream of malformed messages that must change nothing.
#include "web_game.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>

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
      "{\"t\":\"import\",\"save\":\"game: x\"}", "{\"t\":\"undo\"}", "{\"t\":\"state\"}"};
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
  mv.AddUnit(static_cast<UnitId>((*game)->UnitIndex("fry"))).AddHex((*game)->map.Index("2403"));
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
