// The game behind `wargame serve`, driven without the network: seats and
// tokens, actions refused to the other side, undo within the phase, odds,
// import, and a seeded stream of malformed messages that must change nothing.
#include "web_game.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "cli.h"
#include "serve_route.h"
#include "wargame/action_text.h"
#include "wargame/ai.h"
#include "wargame/map.h"
#include "wargame/registry.h"

namespace wg::cli {
namespace {

using nlohmann::json;

// Stars and Bars with the program making the players' choices of 3.0 and 5.8 (auto=): play
// begins at once, as these tests were written (the choices' buttons: ActionLabel.StarsAndBars...).
constexpr const char* kSb = "stars_and_bars(auto=setup+capture)";

std::unique_ptr<WebGame> NewGame(std::vector<std::string> kinds, uint64_t seed = 1, int ai_budget = 50,
                                 const std::string& spec = kSb) {
  auto game = LoadGame(spec);
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

// A save imported over the network names a game: the host's files are never
// looked up for it, and the answer is the same whether a named file exists or not.
TEST(WebGame, ImportReadsNoFileTheSaveNames) {
  auto g = NewGame({"human", "ai"}, 1, 50, "stars_and_bars");
  const std::string good = Send(*g, 1, {{"t", "export"}})["save"];
  std::vector<std::string> answers;
  for (const std::string spec : {"stars_and_bars(scenario=/etc/passwd)", "stars_and_bars(scenario=/no/such/file)",
                                 "/etc", "/proc/self/environ", "blue_and_gray", "stars_and_bars(optional=12.1)"}) {
    std::string save = good;
    save.replace(save.find("game: \"stars_and_bars\""), 22, "game: \"" + spec + "\"");
    const json a = Send(*g, 1, {{"t", "import"}, {"save", save}});
    EXPECT_EQ(a["t"], "refused") << spec;
    std::string m = a["message"];
    EXPECT_EQ(m.find("root:"), std::string::npos) << m;  // nothing of the file
    EXPECT_NE(m.find("not of \"stars_and_bars\""), std::string::npos) << m;
    // The answer names the save's own spec back, and says nothing else about it.
    const size_t at = m.find("a game of \"");
    ASSERT_NE(at, std::string::npos) << m;
    m.erase(at, m.find("\", not of") - at);
    answers.push_back(m);
  }
  for (const std::string& m : answers) EXPECT_EQ(m, answers[0]);
  EXPECT_EQ(Send(*g, 1, {{"t", "import"}, {"save", good}})["t"], "ok");
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

// {"t":"replay"}: the position after N actions, the same as the game reached then (any
// link, a spectator's too); never the seed; a step back and an out-of-range N answered too.
TEST(WebGame, ReplayShowsEachPositionAsPlayedAndNeverTheSeed) {
  auto g = NewGame({"remote", "remote"}, 3);
  const int union_seat = g->seats()[0].sides, confed_seat = g->seats()[1].sides;
  std::vector<std::string> hashes;
  hashes.push_back(json::parse(StateJson(g->session()))["units"].dump());
  for (int i = 0; i < 40 && !g->session().over(); ++i) {
    const int seat = g->session().state().decision_side == 0 ? union_seat : confed_seat;
    const json st = Send(*g, seat, {{"t", "state"}});
    ASSERT_FALSE(st["legal"].empty());
    bool changed = false;
    Send(*g, seat, {{"t", "act"}, {"action", st["legal"][st["legal"].size() / 2]["text"]}}, &changed);
    ASSERT_TRUE(changed);
    hashes.push_back(json::parse(StateJson(g->session()))["units"].dump());
  }
  const size_t total = g->session().actions().size();
  const State before = g->session().state();
  for (size_t n : {total, size_t{7}, size_t{0}, total / 2, total / 2 + 1}) {
    bool changed = true;
    const json r = Send(*g, kSpectator, {{"t", "replay"}, {"to", n}}, &changed);
    EXPECT_FALSE(changed);
    ASSERT_EQ(r["t"], "replay") << r.dump();
    EXPECT_EQ(r["n"], n);
    EXPECT_EQ(r["total"], total);
    EXPECT_FALSE(r.contains("seed"));
    json units = r["units"];
    for (auto& u : units) u.erase("values");
    EXPECT_EQ(units.dump(), hashes[n]) << n;
    EXPECT_EQ(r.contains("action"), n > 0);
    EXPECT_NE(r["svg"].get<std::string>().find("<svg"), std::string::npos);
    EXPECT_FALSE(r["turn_starts"].empty());
  }
  EXPECT_TRUE(SameState(before, g->session().state()));
  EXPECT_EQ(Send(*g, 3, {{"t", "replay"}, {"to", 100000}})["n"], total);
  EXPECT_EQ(Send(*g, 3, {{"t", "replay"}, {"to", -5}})["n"], 0);
  EXPECT_EQ(Send(*g, 3, {{"t", "replay"}, {"to", "x"}})["t"], "error");
}

// {"t":"why"}: a unit no option names is answered with the engine's refusal and its rule.
TEST(WebGame, WhyAUnitMayNotBeChosenNamesItsRule) {
  auto g = NewGame({"human", "human"});
  const json st = Send(*g, 3, {{"t", "state"}});
  ASSERT_EQ(st["decision"]["kind"], "movement");
  std::set<std::string> named;
  for (const auto& a : st["legal"]) {
    for (const auto& u : a["units"]) named.insert(u.get<std::string>());
  }
  std::string stuck, free, enemy;
  for (const auto& u : st["units"]) {
    if (u["hex"].is_null()) continue;
    const std::string id = u["id"];
    if (u["side"] != st["decision"]["side"]) enemy = id;
    else if (named.count(id)) free = id;
    else stuck = id;
  }
  ASSERT_FALSE(stuck.empty());
  const State before = g->session().state();
  bool changed = true;
  const json why = Send(*g, 3, {{"t", "why"}, {"unit", stuck}}, &changed);
  EXPECT_FALSE(changed);
  EXPECT_EQ(why["ok"], false);
  EXPECT_FALSE(why["rule"].get<std::string>().empty()) << why.dump();
  EXPECT_FALSE(why["message"].get<std::string>().empty());
  EXPECT_EQ(Send(*g, 3, {{"t", "why"}, {"unit", free}})["ok"], true);
  EXPECT_NE(Send(*g, 3, {{"t", "why"}, {"unit", enemy}})["message"].get<std::string>().find("decides now"),
            std::string::npos);
  EXPECT_EQ(Send(*g, 3, {{"t", "why"}, {"unit", "nobody"}})["t"], "error");
  EXPECT_EQ(Send(*g, kSpectator, {{"t", "why"}, {"unit", stuck}})["t"], "refused");
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

// Stars and Bars 3.0 and 5.8: the set-up's mode buttons name the face chosen
// (not a flip), the capture's buttons its two answers.
TEST(ActionLabel, StarsAndBarsSetUpAndCaptureInWords) {
  auto game = LoadGame("stars_and_bars");
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

// A player at a link of a fair game: its private key, and the steps its page takes, signed.
struct Player {
  int sides;         // the link's bit mask (1 or 2)
  std::string priv;  // Ed25519 private key (32 bytes as hex)
  std::string pub() const { return PublicKeyOf(priv); }
};
const Player kUnion{1, std::string(62, '1') + "0a"}, kConfed{2, std::string(62, '2') + "0b"};

json Fair(WebGame& g, const Player& p) { return Send(g, p.sides, {{"t", "state"}})["fair"]; }
json KeyIn(WebGame& g, const Player& p) { return Send(g, p.sides, {{"t", "key"}, {"key", p.pub()}}); }
json CommitIn(WebGame& g, const Player& p, const std::string& secret) {
  const json f = Fair(g, p), r = f["round"];
  if (!r.is_object()) return {{"t", "no round"}};
  const std::string c = CommitmentOf(secret);
  return Send(g, p.sides, {{"t", "commit"}, {"hash", c},
                           {"sig", Sign(p.priv, CommitMessage(f["id"], r["n"], r["sides"], r["label"], c))}});
}
json RevealIn(WebGame& g, const Player& p, const std::string& secret) {
  const json f = Fair(g, p), r = f["round"];
  if (!r.is_object()) return {{"t", "no round"}};
  return Send(g, p.sides, {{"t", "reveal"}, {"secret", secret},
                           {"sig", Sign(p.priv, RevealMessage(f["id"], r["n"], r["commit"][0], r["commit"][1], secret))}});
}
json VoidIn(WebGame& g, const Player& p) {
  const json f = Fair(g, p), r = f["round"];
  return Send(g, p.sides, {{"t", "void"}, {"sig", Sign(p.priv, VoidMessage(f["id"], r["n"], r["commit"][0], r["commit"][1]))}});
}

// The Union's first movement played by the computer with every die supplied
// (none is needed), continued with two remote links, the Union to attack.
std::unique_ptr<WebGame> PerryvilleFairCombat(std::string* attack) {
  auto game = LoadGame("stars_and_bars");
  EXPECT_TRUE(game.ok());
  WebGame auto_play(std::make_unique<Session>(*game, 1, /*supplied_dice=*/true), {"ai", "ai"}, 1, 200);
  while (PhaseName(**game, auto_play.session().state()) != "combat") EXPECT_TRUE(auto_play.AiStep());
  auto session = Session::Load(auto_play.SaveText(), "test");
  EXPECT_TRUE(session.ok());
  auto g = std::make_unique<WebGame>(std::move(*session), std::vector<std::string>{"remote", "remote"}, 1, 50);
  FairDiceRecord none;
  EXPECT_EQ(g->SetFairDice(std::move(none)), "");  // as `serve --load` does: a new fair game
  const json st = Send(*g, 1, {{"t", "state"}});
  for (const auto& a : st["legal"]) {
    if (a["type"] == "attack") *attack = a["text"];
  }
  return g;
}

TEST(FairDice, RemotePlayersDrawEachDieBySignedCommitReveal) {
  std::string attack;
  auto gp = PerryvilleFairCombat(&attack);
  WebGame& g = *gp;
  ASSERT_FALSE(attack.empty());
  ASSERT_TRUE(g.fair_dice());
  ASSERT_EQ(g.fair_game().id.size(), 32u);
  const size_t actions = g.session().actions().size();
  ASSERT_EQ(Send(g, 1, {{"t", "act"}, {"action", attack}})["t"], "ok");
  EXPECT_EQ(g.session().actions().size(), actions);  // waiting for the die
  const json waiting = Send(g, 1, {{"t", "state"}});
  EXPECT_FALSE(waiting["dice_round"].is_null());
  EXPECT_TRUE(waiting["legal"].empty());
  EXPECT_EQ(Send(g, 1, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  // No step before the side's key; a key is the side's once registered.
  EXPECT_EQ(CommitIn(g, kUnion, Secret('1'))["t"], "refused");
  ASSERT_EQ(KeyIn(g, kUnion)["t"], "ok");
  ASSERT_EQ(KeyIn(g, kUnion)["t"], "ok");  // the same key again
  EXPECT_EQ(Send(g, 1, {{"t", "key"}, {"key", kConfed.pub()}})["t"], "refused");
  ASSERT_EQ(KeyIn(g, kConfed)["t"], "ok");
  // Both commit before either reveals; a secret must match its commitment; every step is signed.
  EXPECT_EQ(RevealIn(g, kUnion, Secret('1'))["t"], "refused");
  EXPECT_EQ(Send(g, 1, {{"t", "commit"}, {"hash", "nothex"}, {"sig", ""}})["t"], "refused");
  EXPECT_EQ(Send(g, 1, {{"t", "commit"}, {"hash", CommitmentOf(Secret('1'))}, {"sig", std::string(128, '0')}})["t"],
            "refused");
  Player impostor = kConfed;  // the Confederate's key signing the Union's step
  impostor.sides = 1;
  EXPECT_EQ(CommitIn(g, impostor, Secret('1'))["t"], "refused");
  ASSERT_EQ(CommitIn(g, kUnion, Secret('1'))["t"], "ok");
  EXPECT_EQ(CommitIn(g, kUnion, Secret('3'))["t"], "refused");  // no second try
  EXPECT_EQ(RevealIn(g, kUnion, Secret('1'))["t"], "refused");   // the other has not committed
  ASSERT_EQ(CommitIn(g, kConfed, Secret('2'))["t"], "ok");
  EXPECT_EQ(RevealIn(g, kConfed, Secret('4'))["t"], "refused");
  ASSERT_EQ(RevealIn(g, kUnion, Secret('1'))["t"], "ok");
  EXPECT_EQ(VoidIn(g, kConfed)["t"], "refused");  // a secret is out: no void now
  ASSERT_EQ(RevealIn(g, kConfed, Secret('2'))["t"], "ok");
  ASSERT_EQ(g.session().actions().size(), actions + 1);  // the attack, with the fair die
  const int die = DieOfRound(g.fair_game().id, 0, Secret('1'), Secret('2'), 6);
  ASSERT_FALSE(g.session().supplied_used().empty());
  EXPECT_EQ(g.session().supplied_used().back(), die);
  // The save records the game and the round; tampering with a secret is caught on loading.
  const std::string save = Send(g, 1, {{"t", "export"}})["save"];
  EXPECT_NE(save.find("fair_dice_game:"), std::string::npos);
  FairDiceRecord rec;
  EXPECT_EQ(VerifyFairDice(save, "save", &rec), "");
  ASSERT_EQ(rec.rounds.size(), 1u);
  EXPECT_EQ(rec.rounds[0].value, die);
  EXPECT_EQ(rec.game.keys[0], kUnion.pub());
  EXPECT_TRUE(Session::Load(save, "save").ok());
  std::string bad = save;
  bad.replace(bad.find(Secret('2')), 1, "3");
  EXPECT_NE(VerifyFairDice(bad, "save", nullptr).find("does not match its commitment"), std::string::npos);
}

// The die depends on the round: the same two secrets give other dice in other rounds.
TEST(FairDice, TheDieDependsOnBothSecretsAndTheRound) {
  const std::string id(32, 'c');
  std::set<int> dice;
  for (long n = 0; n < 40; ++n) dice.insert(DieOfRound(id, n, Secret('1'), Secret('2'), 6));
  EXPECT_EQ(dice.size(), 6u);
  EXPECT_NE(DieOfRound(id, 0, Secret('1'), Secret('2'), 1000), DieOfRound(id, 0, Secret('1'), Secret('3'), 1000));
  EXPECT_NE(DieOfRound(id, 0, Secret('1'), Secret('2'), 1000), DieOfRound(id, 0, Secret('3'), Secret('2'), 1000));
  EXPECT_NE(DieOfRound(id, 0, Secret('1'), Secret('2'), 1000),
            DieOfRound(std::string(32, 'd'), 0, Secret('1'), Secret('2'), 1000));
  EXPECT_EQ(DieOfRound(id, -1, Secret('1'), Secret('2'), 6), 0);
  // Ed25519 as published (RFC 8032, test 1): the key and signature of the empty message.
  const std::string sk = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
  EXPECT_EQ(PublicKeyOf(sk), "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  EXPECT_EQ(Sign(sk, ""), "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                          "d25bf5f0595bbe24655141438e7a100b");
  EXPECT_TRUE(VerifySignature(PublicKeyOf(sk), "x", Sign(sk, "x")));
  EXPECT_FALSE(VerifySignature(PublicKeyOf(sk), "y", Sign(sk, "x")));
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
  FairDiceRecord record;
  EXPECT_EQ(VerifyFairDice(save, "save", &record), "");
  auto g = std::make_unique<WebGame>(std::move(*s), std::move(kinds), 1, 50);
  EXPECT_EQ(g->SetFairDice(std::move(record)), "");
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
  const std::string id = union_turn->fair_game().id;
  const std::string fire = "{bombard: [us_20me, csa_1va]}";
  ASSERT_EQ(KeyIn(*union_turn, kUnion)["t"], "ok");
  ASSERT_EQ(Send(*union_turn, 1, {{"t", "act"}, {"action", fire}})["t"], "ok");
  ASSERT_EQ(CommitIn(*union_turn, kUnion, SecretN(0))["t"], "ok");
  const std::string mail1 = Send(*union_turn, 1, {{"t", "export"}})["save"];
  EXPECT_NE(mail1.find("fair_dice_pending:"), std::string::npos);
  EXPECT_EQ(mail1.find(SecretN(0)), std::string::npos) << "no secret travels before both commitments";
  // The Confederate player, with the Union not online.
  auto confed_turn = FromSave(mail1, {"remote", "remote"});
  ASSERT_TRUE(confed_turn);
  EXPECT_EQ(confed_turn->fair_game().id, id);
  const json waiting = Send(*confed_turn, 2, {{"t", "state"}});
  ASSERT_FALSE(waiting["dice_round"].is_null());
  EXPECT_EQ(waiting["dice_round"]["commit"][0], CommitmentOf(SecretN(0)));
  EXPECT_EQ(waiting["dice_round"]["action"], fire);
  EXPECT_EQ(Send(*confed_turn, 2, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  ASSERT_EQ(KeyIn(*confed_turn, kConfed)["t"], "ok");
  ASSERT_EQ(CommitIn(*confed_turn, kConfed, SecretN(100))["t"], "ok");
  ASSERT_EQ(RevealIn(*confed_turn, kConfed, SecretN(100))["t"], "ok");
  const std::string mail2 = Send(*confed_turn, 2, {{"t", "export"}})["save"];
  EXPECT_NE(mail2.find(SecretN(100)), std::string::npos);
  // The Union reveals: the first die is drawn; the action needs more.
  auto union_again = FromSave(mail2, {"remote", "remote"});
  ASSERT_TRUE(union_again);
  ASSERT_EQ(RevealIn(*union_again, kUnion, SecretN(0))["t"], "ok");
  std::vector<int> dice = {DieOfRound(id, 0, SecretN(0), SecretN(100), 6)};
  ASSERT_EQ(union_again->session().actions().size(), 0u) << "fire rolls a die for each stand";
  // Mailed again with one die drawn; both players online for the rest.
  auto online = FromSave(Send(*union_again, 1, {{"t", "export"}})["save"], {"remote", "remote"});
  ASSERT_TRUE(online);
  for (int k = 1; k < 40 && online->session().actions().empty(); ++k) {
    ASSERT_EQ(CommitIn(*online, kUnion, SecretN(k))["t"], "ok");
    ASSERT_EQ(CommitIn(*online, kConfed, SecretN(100 + k))["t"], "ok");
    ASSERT_EQ(RevealIn(*online, kConfed, SecretN(100 + k))["t"], "ok");
    ASSERT_EQ(RevealIn(*online, kUnion, SecretN(k))["t"], "ok");
    dice.push_back(DieOfRound(id, k, SecretN(k), SecretN(100 + k), 6));
  }
  ASSERT_EQ(online->session().actions().size(), 1u);
  EXPECT_GE(dice.size(), 6u);  // six stands fire
  // The referee's check: the dice the fire used are the dice of the secrets, in order.
  EXPECT_EQ(online->session().supplied_used(), dice);
  const std::string final_save = Send(*online, 1, {{"t", "export"}})["save"];
  FairDiceRecord rec;
  ASSERT_EQ(VerifyFairDice(final_save, "final", &rec), "");
  ASSERT_EQ(rec.rounds.size(), dice.size());
  for (size_t i = 0; i < rec.rounds.size(); ++i) {
    EXPECT_EQ(rec.rounds[i].at, static_cast<long>(i));
    EXPECT_EQ(rec.rounds[i].n, static_cast<long>(i));
  }
  auto replayed = Session::Load(final_save, "final");
  ASSERT_TRUE(replayed.ok());
  EXPECT_TRUE(SameState((*replayed)->state(), online->session().state()));
}

// A skirmish whose Union fire has drawn its dice, and the Confederate's fire
// waiting for a round with the Union's commitment only.
std::unique_ptr<WebGame> SkirmishMidRound() {
  auto g = Skirmish({"remote", "remote"}, true);
  EXPECT_EQ(KeyIn(*g, kUnion)["t"], "ok");
  EXPECT_EQ(KeyIn(*g, kConfed)["t"], "ok");
  EXPECT_EQ(Send(*g, 1, {{"t", "act"}, {"action", "{bombard: [us_20me, csa_1va]}"}})["t"], "ok");
  for (int k = 0; k < 40 && g->session().actions().empty(); ++k) {
    CommitIn(*g, kUnion, SecretN(k));
    CommitIn(*g, kConfed, SecretN(100 + k));
    RevealIn(*g, kUnion, SecretN(k));
    RevealIn(*g, kConfed, SecretN(100 + k));
  }
  EXPECT_EQ(g->session().actions().size(), 1u);
  EXPECT_EQ(Send(*g, 2, {{"t", "state"}})["decision"]["side"], "confederate");
  EXPECT_EQ(Send(*g, 2, {{"t", "act"}, {"action", "{bombard: [csa_1va, us_20me]}"}})["t"], "ok");
  EXPECT_EQ(CommitIn(*g, kUnion, SecretN(77))["t"], "ok");
  return g;
}

std::string Replayed(const std::string& save) {
  // One file per process: ctest runs the tests that replay in parallel.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("wargame_web_test_tampered_" + std::to_string(getpid()) + ".yaml")).string();
  std::ofstream(path) << save;
  const std::string cmd = std::string("'") + WARGAME_BIN + "' replay '" + path + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  if (!p) return out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  std::filesystem::remove(path);
  return "exit " + std::to_string(WEXITSTATUS(status)) + "\n" + out;
}

// Every fair die is recomputed, every secret checked against its commitment;
// a save that does not match is refused with the position of its entry, by
// loading and by `wargame replay`.
TEST(FairDice, TamperedRecordsAreRefusedWithTheirPosition) {
  auto g = SkirmishMidRound();
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
  const std::string out = Replayed(bad);
  EXPECT_EQ(out.rfind("exit 1\n", 0), 0u) << out;
  EXPECT_NE(out.find("fair_dice_pending.round.reveal[0]: a secret revealed before both sides committed"),
            std::string::npos) << out;
}

// Values appended to `supplied` that no round covers (the next dice, chosen
// by whoever holds the save) are refused by loading, replay and the server.
TEST(FairDice, SmuggledSuppliedValuesAreRefused) {
  auto g = SkirmishMidRound();
  const std::string save = Send(*g, 1, {{"t", "export"}})["save"];
  const size_t list = save.find("supplied: [");
  ASSERT_NE(list, std::string::npos);
  std::string bad = save;
  bad.insert(bad.find(']', list), ", 6, 6");
  const std::string why = VerifyFairDice(bad, "bad.yaml", nullptr);
  EXPECT_NE(why.find("is not the die of any fair_dice round"), std::string::npos) << why;
  EXPECT_NE(Replayed(bad).find("is not the die of any fair_dice round"), std::string::npos);
  // Nor queued dice, nor a referee's dice at an action.
  bad = save;
  bad.insert(bad.find("actions:"), "queued: [6, 6]\n");
  EXPECT_NE(VerifyFairDice(bad, "bad.yaml", nullptr).find("queued: a game with fair dice has no die but its rounds'"),
            std::string::npos);
  // A round removed from the record (to draw it again) leaves a gap in the indexes.
  bad = save;
  const size_t first = bad.find("  - {at: 0,");
  bad.erase(first, bad.find('\n', first) + 1 - first);
  EXPECT_NE(VerifyFairDice(bad, "bad.yaml", nullptr), "");
}

// Whoever holds the mailed save cannot replace the other side's commitment,
// nor swap their own after seeing the other's secret: the signatures bind them.
TEST(FairDice, ForgedCommitmentsAreRefused) {
  auto g = SkirmishMidRound();
  // The Confederate holds the save with the Union's commitment: it replaces
  // it with one of its own choosing, signed with its own key.
  const std::string save = Send(*g, 1, {{"t", "export"}})["save"];
  std::string bad = save;
  const std::string c77 = CommitmentOf(SecretN(77)), c78 = CommitmentOf(SecretN(78));
  bad.replace(bad.rfind(c77), 64, c78);
  std::string why = VerifyFairDice(bad, "bad.yaml", nullptr);
  EXPECT_NE(why.find("fair_dice_pending.round.commit_sig[0]: the signature does not verify"), std::string::npos) << why;
  const FairDiceGame& fg = g->fair_game();
  const json r = Fair(*g, kConfed)["round"];
  const std::string sig77 = Sign(kUnion.priv, CommitMessage(fg.id, r["n"], r["sides"], r["label"], c77));
  ASSERT_NE(bad.find(sig77), std::string::npos);
  bad.replace(bad.find(sig77), 128, Sign(kConfed.priv, CommitMessage(fg.id, r["n"], r["sides"], r["label"], c78)));
  why = VerifyFairDice(bad, "bad.yaml", nullptr);
  EXPECT_NE(why.find("commit_sig[0]: the signature does not verify with fair_dice_game.keys[0]"), std::string::npos) << why;
  // Or it made the game with a key of its own for the Union (re-signing every
  // Union step with it): the save verifies, but the Union's page, whose key
  // it is not, is refused by the game the save describes, and so learns of it.
  auto made = Skirmish({"remote", "remote"}, true);
  Player fake = kConfed;
  fake.sides = 1;
  ASSERT_EQ(KeyIn(*made, fake)["t"], "ok");
  auto mailed = FromSave(Send(*made, 1, {{"t", "export"}})["save"], {"remote", "remote"});
  ASSERT_TRUE(mailed);
  const json answer = KeyIn(*mailed, kUnion);
  EXPECT_EQ(answer["t"], "refused");
  EXPECT_NE(answer["message"].get<std::string>().find("not this browser's"), std::string::npos);
  // The side that reveals last swaps its commitment after the other's secret:
  // the other side's signed reveal names the commitment it saw.
  ASSERT_EQ(CommitIn(*g, kConfed, SecretN(177))["t"], "ok");
  ASSERT_EQ(RevealIn(*g, kUnion, SecretN(77))["t"], "ok");
  const std::string held = Send(*g, 2, {{"t", "export"}})["save"];
  ASSERT_EQ(VerifyFairDice(held, "held.yaml", nullptr), "");
  bad = held;
  const std::string c177 = CommitmentOf(SecretN(177)), c178 = CommitmentOf(SecretN(178));
  const std::string old_sig = Sign(kConfed.priv, CommitMessage(fg.id, r["n"], r["sides"], r["label"], c177));
  bad.replace(bad.rfind(c177), 64, c178);
  bad.replace(bad.find(old_sig), 128, Sign(kConfed.priv, CommitMessage(fg.id, r["n"], r["sides"], r["label"], c178)));
  why = VerifyFairDice(bad, "bad.yaml", nullptr);
  EXPECT_NE(why.find("reveal_sig[0]: the signature does not verify with fair_dice_game.keys[0]"), std::string::npos) << why;
}

// A round nobody has revealed a secret of is voided when both sides ask
// (a lost secret): the die is drawn by the next round.
TEST(FairDice, VoidByAgreementDrawsTheDieAgain) {
  auto g = SkirmishMidRound();
  const long n = Fair(*g, kUnion)["round"]["n"];
  ASSERT_EQ(CommitIn(*g, kConfed, SecretN(177))["t"], "ok");
  ASSERT_EQ(VoidIn(*g, kUnion)["t"], "ok");
  EXPECT_EQ(RevealIn(*g, kConfed, SecretN(177))["t"], "refused");  // no secret once a void is asked
  EXPECT_EQ(RevealIn(*g, kUnion, SecretN(77))["t"], "refused");
  const std::string asked = Send(*g, 1, {{"t", "export"}})["save"];
  ASSERT_EQ(VerifyFairDice(asked, "asked.yaml", nullptr), "");
  ASSERT_EQ(VoidIn(*g, kConfed)["t"], "ok");
  const json r = Fair(*g, kUnion)["round"];
  EXPECT_EQ(r["n"], n + 1);
  EXPECT_EQ(r["commit"][0], "");
  ASSERT_EQ(CommitIn(*g, kUnion, SecretN(300))["t"], "ok");
  ASSERT_EQ(CommitIn(*g, kConfed, SecretN(400))["t"], "ok");
  ASSERT_EQ(RevealIn(*g, kUnion, SecretN(300))["t"], "ok");
  ASSERT_EQ(RevealIn(*g, kConfed, SecretN(400))["t"], "ok");
  const std::string save = Send(*g, 1, {{"t", "export"}})["save"];
  FairDiceRecord rec;
  ASSERT_EQ(VerifyFairDice(save, "voided.yaml", &rec), "") << save;
  ASSERT_EQ(rec.voided.size(), 1u);
  EXPECT_EQ(rec.voided[0].n, n);
  // The fire rolls a die per stand: the die of round n + 1 is drawn (used, or held by the waiting fire).
  std::vector<FairDiceRound> drawn = rec.rounds;
  if (rec.pending) drawn.insert(drawn.end(), rec.pending->drawn.begin(), rec.pending->drawn.end());
  ASSERT_FALSE(drawn.empty());
  EXPECT_EQ(drawn.back().n, n + 1);
  EXPECT_EQ(drawn.back().value, DieOfRound(g->fair_game().id, n + 1, SecretN(300), SecretN(400), 6));
  // The voided round removed from the record (to hide it) leaves a gap in the indexes.
  std::string bad = save;
  EXPECT_TRUE(Session::Load(save, "voided.yaml").ok());
  bad.erase(bad.find("fair_dice_void:"), bad.find("fair_dice_pending:") == std::string::npos
                                             ? bad.size() - bad.find("fair_dice_void:")
                                             : bad.find("fair_dice_pending:") - bad.find("fair_dice_void:"));
  EXPECT_NE(VerifyFairDice(bad, "bad.yaml", nullptr).find("is missing (a round was removed)"), std::string::npos);
}

// A round stalled by the side that would reveal last: after the deadline the
// waiting side claims the die; before it, nobody can.
TEST(FairDice, AStalledRoundIsClaimedAtTheDeadline) {
  long now = 1'800'000'000;
  auto g = Skirmish({"remote", "remote"}, true);
  g->set_clock([&] { return now; });
  g->set_dice_deadline(3600);
  ASSERT_EQ(g->fair_game().deadline, 3600);
  ASSERT_EQ(KeyIn(*g, kUnion)["t"], "ok");
  ASSERT_EQ(KeyIn(*g, kConfed)["t"], "ok");
  ASSERT_EQ(Send(*g, 1, {{"t", "act"}, {"action", "{bombard: [us_20me, csa_1va]}"}})["t"], "ok");
  ASSERT_EQ(CommitIn(*g, kUnion, SecretN(1))["t"], "ok");
  ASSERT_EQ(CommitIn(*g, kConfed, SecretN(2))["t"], "ok");
  now += 10;
  ASSERT_EQ(RevealIn(*g, kUnion, SecretN(1))["t"], "ok");
  const json f = Fair(*g, kUnion), r = f["round"];
  EXPECT_EQ(r["claimable_at"], now + 3600);
  EXPECT_EQ(Fair(*g, kConfed)["round"]["claimable_at"], -1);  // the side that stalls never claims
  auto claim = [&](const Player& p, int value, long at) {
    return Send(*g, p.sides, {{"t", "claim"}, {"value", value}, {"at", at},
                              {"sig", Sign(p.priv, ClaimMessage(f["id"], r["n"], r["commit"][0], r["commit"][1], value,
                                                                r["waiting_since"], at))}});
  };
  now += 3599;
  EXPECT_EQ(claim(kUnion, 6, now)["t"], "refused");
  now += 1;
  EXPECT_EQ(claim(kConfed, 6, now)["t"], "refused");
  EXPECT_EQ(claim(kUnion, 7, now)["t"], "refused");
  ASSERT_EQ(claim(kUnion, 6, now)["t"], "ok");
  const std::string save = Send(*g, 1, {{"t", "export"}})["save"];
  FairDiceRecord rec;
  ASSERT_EQ(VerifyFairDice(save, "claimed.yaml", &rec), "") << save;
  // The fire rolls a die per stand: the claimed one is drawn, the next round begun.
  const FairDiceRound& claimed = rec.pending ? rec.pending->drawn.at(0) : rec.rounds.at(0);
  EXPECT_EQ(claimed.claimed_by, 0);
  EXPECT_EQ(claimed.value, 6);
  // A claim dated before the deadline does not verify.
  std::string bad = save;
  const std::string at = "at: " + std::to_string(now) + ",";
  bad.replace(bad.find(at), at.size(), "at: " + std::to_string(now - 100) + ",");
  EXPECT_NE(VerifyFairDice(bad, "bad.yaml", nullptr).find("claimed before the deadline"), std::string::npos);
}

// Saves written before signatures replay and verify, but cannot go on with
// two remote players; a referee's save cannot become a fair game either.
TEST(FairDice, UnsignedSavesReplayButDoNotGoOnAsFairGames) {
  auto game = LoadGame("stars_and_bars");
  ASSERT_TRUE(game.ok());
  Session s(*game, 1, /*supplied_dice=*/true);
  std::string legacy = s.Save();
  FairDiceRecord rec;
  ASSERT_EQ(VerifyFairDice(legacy, "legacy.yaml", &rec), "");
  EXPECT_FALSE(rec.fair());
  auto fresh = FromSave(legacy, {"remote", "remote"});  // no die used yet: a new fair game
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->fair_game().id.size(), 32u);
  // An unsigned round (as saves before format 4 of the fair dice held).
  const std::string save = Session(*game, 1, true).Save();
  std::string old = save;
  const std::string round = "fair_dice_pending:\n  action: \"end\"\n  side: 0\n  drawn: []\n  round: {sides: 6, label: "
                            "\"combat\", commit: [\"" + CommitmentOf(SecretN(1)) + "\", \"\"], reveal: [\"\", \"\"]}\n";
  old += round;
  ASSERT_EQ(VerifyFairDice(old, "old.yaml", &rec), "");
  auto s2 = Session::Load(old, "old.yaml");
  ASSERT_TRUE(s2.ok());
  WebGame g(std::move(*s2), {"remote", "remote"}, 1, 50);
  const std::string why = g.SetFairDice(std::move(rec));
  EXPECT_NE(why.find("unsigned"), std::string::npos) << why;
}

// A seeded game with a remote player: the remote link never gets the seed
// (the save holds it) before the game is over; the host's page may export.
TEST(WebGame, ARemoteLinkNeverSeesTheSeed) {
  auto g = NewGame({"human", "remote"}, 12345);
  const json st = Send(*g, 2, {{"t", "state"}});
  EXPECT_EQ(st.dump().find("12345"), std::string::npos);
  EXPECT_EQ(Send(*g, 2, {{"t", "export"}})["t"], "refused");
  EXPECT_EQ(Send(*g, 1, {{"t", "export"}})["t"], "save");
  auto both = NewGame({"remote", "remote"}, 12345);
  EXPECT_EQ(Send(*both, 1, {{"t", "export"}})["t"], "refused");
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
  const std::string in =
      (std::filesystem::temp_directory_path() / ("wargame_web_test_stdin_" + std::to_string(getpid()) + ".txt")).string();
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
  auto game = LoadGame(kSb);
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
  auto game = LoadGame(kSb);
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
