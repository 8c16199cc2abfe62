// `wargame serve --club` without sockets (club.h): games created and kept in
// SQLite, each link acting for its own seat of its own game only, games
// rebuilt from the store, links revoked, bad creations refused.
#include "club.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "serve_route.h"

namespace wg::cli {
namespace {

using nlohmann::json;

// A temporary SQLite file per test and process (ctest -j runs tests side by side).
class TempDb {
 public:
  TempDb() {
    path_ = (std::filesystem::temp_directory_path() /
             ("club_test_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".sqlite"))
                .string();
    Remove();
  }
  ~TempDb() { Remove(); }
  const std::string& path() const { return path_; }

 private:
  void Remove() {
    for (const char* ext : {"", "-wal", "-shm"}) std::remove((path_ + ext).c_str());
  }
  std::string path_;
};

std::unique_ptr<Club> OpenClub(const std::string& path) {
  std::string error;
  auto store = OpenSqliteClubStore(path, &error);
  EXPECT_TRUE(store) << error;
  auto club = std::make_unique<Club>(std::move(store), 50);
  EXPECT_EQ(club->Load(), "");
  return club;
}

json Create(Club& club, const json& spec, int want_status = 200) {
  int status = 0;
  const json j = json::parse(club.Create(spec.dump(), &status));
  EXPECT_EQ(status, want_status) << j.dump();
  return j;
}

// A message from a token, as the server passes it: resolved, handled, committed.
json Send(Club& club, const std::string& token, const json& m, bool* changed_out = nullptr) {
  const auto a = club.Resolve(token);
  if (!a || !a->game) return {{"t", "no access"}};
  bool changed = false;
  json answer = json::parse(a->game->web->Handle(a->role, m.dump(), &changed));
  if (changed) {
    EXPECT_EQ(club.Commit(*a->game), "");
  }
  if (changed_out) *changed_out = changed;
  return answer;
}

std::string FirstLegal(Club& club, const std::string& token) {
  const json st = Send(club, token, {{"t", "state"}});
  for (const auto& a : st["legal"]) {
    if (a["type"] == "move") return a["text"];
  }
  return st["legal"].empty() ? "" : st["legal"][0]["text"].get<std::string>();
}

const json kTwoRemote = {{"game", "stars_and_bars"}, {"players", {"remote", "remote"}}, {"seed", 7}};

TEST(Club, EachLinkActsForItsOwnSeatOfItsOwnGameOnly) {
  TempDb db;
  auto club = OpenClub(db.path());
  const json a = Create(*club, kTwoRemote), b = Create(*club, kTwoRemote);
  ASSERT_EQ(a["seats"].size(), 2u);
  const std::string a_union = a["seats"][0]["token"], a_confed = a["seats"][1]["token"];
  const std::string b_union = b["seats"][0]["token"], b_confed = b["seats"][1]["token"];
  const std::string a_spect = a["spectator"]["token"], a_creator = a["creator"]["token"];
  EXPECT_EQ(a_union.size(), 32u);
  EXPECT_EQ(a["seats"][0]["sides"], json::array({"union"}));
  // Each token picks its game and only its role.
  EXPECT_EQ(club->Resolve(a_union)->game->id, a["id"]);
  EXPECT_EQ(club->Resolve(b_union)->game->id, b["id"]);
  EXPECT_EQ(club->Resolve(a_union)->role, 1);
  EXPECT_EQ(club->Resolve(a_confed)->role, 2);
  EXPECT_EQ(club->Resolve(a_spect)->role, kSpectator);
  EXPECT_EQ(club->Resolve(a_creator)->role, kSpectator | kCreator);
  EXPECT_FALSE(club->Resolve(a_union.substr(0, 31) + (a_union[31] == '0' ? "1" : "0")));
  EXPECT_FALSE(club->Resolve(""));

  const Session& ga = club->Resolve(a_union)->game->web->session();
  const Session& gb = club->Resolve(b_union)->game->web->session();
  const std::string mv = FirstLegal(*club, a_union);
  ASSERT_FALSE(mv.empty());
  // The Union decides first: the other seat, the spectator, the creator cannot act for it.
  for (const std::string& t : {a_confed, a_spect, a_creator}) {
    bool changed = true;
    const json r = Send(*club, t, {{"t", "act"}, {"action", mv}}, &changed);
    EXPECT_EQ(r["t"], "refused") << r.dump();
    EXPECT_FALSE(changed);
    for (const char* m : {"undo", "export"}) EXPECT_NE(Send(*club, t, {{"t", m}})["t"], "ok");
  }
  EXPECT_EQ(ga.actions().size(), 0u);
  // A spectator reads without the seed (every die to come), and has nothing to do.
  const json seen = Send(*club, a_spect, {{"t", "state"}});
  EXPECT_EQ(seen["t"], "state");
  EXPECT_FALSE(seen.contains("seed"));
  EXPECT_TRUE(seen["legal"].empty());
  EXPECT_EQ(Send(*club, a_spect, {{"t", "import"}, {"save", "x"}})["t"], "refused");
  // Game a's Union acts in game a only.
  EXPECT_EQ(Send(*club, a_union, {{"t", "act"}, {"action", mv}})["t"], "ok");
  EXPECT_EQ(ga.actions().size(), 1u);
  EXPECT_EQ(gb.actions().size(), 0u);
  // Game b's Confederate cannot act in b (not its turn), nor reach a.
  EXPECT_EQ(Send(*club, b_confed, {{"t", "act"}, {"action", "end"}})["t"], "refused");
  EXPECT_EQ(gb.actions().size(), 0u);
  EXPECT_EQ(ga.actions().size(), 1u);
}

TEST(Club, GamesAreRebuiltFromTheStoreWithEveryCommittedAction) {
  TempDb db;
  std::string a_union, a_confed, spect, hash;
  size_t actions = 0;
  {
    auto club = OpenClub(db.path());
    const json a = Create(*club, kTwoRemote);
    Create(*club, {{"game", "stars_and_bars"}, {"players", {"human", "ai"}}});
    a_union = a["seats"][0]["token"];
    a_confed = a["seats"][1]["token"];
    spect = a["spectator"]["token"];
    for (int i = 0; i < 3; ++i) ASSERT_EQ(Send(*club, a_union, {{"t", "act"}, {"action", FirstLegal(*club, a_union)}})["t"], "ok");
    const Session& s = club->Resolve(a_union)->game->web->session();
    actions = s.actions().size();
    hash = json::parse(Club::StatusJson(*club->Resolve(a_union)->game->web))["hash"];
    const json list = json::parse(club->List());
    ASSERT_EQ(list["games"].size(), 2u);
    for (const auto& g : list["games"]) {
      EXPECT_FALSE(g["spec"].contains("seed")) << g.dump();
      EXPECT_EQ(g["to_move"], "Union");
    }
  }
  auto club = OpenClub(db.path());  // a restart
  ASSERT_EQ(club->games().size(), 2u);
  ASSERT_TRUE(club->Resolve(a_union));
  const WebGame& web = *club->Resolve(a_union)->game->web;
  EXPECT_EQ(web.session().actions().size(), actions);
  EXPECT_EQ(json::parse(Club::StatusJson(web))["hash"], hash);
  EXPECT_EQ(club->Resolve(a_confed)->role, 2);
  EXPECT_EQ(club->Resolve(spect)->role, kSpectator);
  // And it goes on.
  EXPECT_EQ(Send(*club, a_union, {{"t", "act"}, {"action", FirstLegal(*club, a_union)}})["t"], "ok");
  EXPECT_EQ(club->Resolve(a_union)->game->version, static_cast<int64_t>(actions) + 2);
}

TEST(Club, FairDiceGamesKeepTheirIdAndKeysAcrossARestart) {
  TempDb db;
  std::string id, seat;
  {
    auto club = OpenClub(db.path());
    const json a = Create(*club, {{"game", "stars_and_bars"}, {"players", {"remote", "remote"}}, {"dice", "fair"}});
    seat = a["seats"][0]["token"];
    const WebGame& web = *club->Resolve(seat)->game->web;
    ASSERT_TRUE(web.fair_dice());
    id = web.fair_game().id;
    EXPECT_EQ(Send(*club, seat, {{"t", "key"}, {"key", PublicKeyOf(std::string(64, '1'))}})["t"], "ok");
  }
  auto club = OpenClub(db.path());
  const WebGame& web = *club->Resolve(seat)->game->web;
  EXPECT_TRUE(web.fair_dice());
  EXPECT_EQ(web.fair_game().id, id);
  EXPECT_EQ(web.fair_game().keys[0], PublicKeyOf(std::string(64, '1')));
}

TEST(Club, TheCreatorRevokesALinkOfItsGameOnly) {
  TempDb db;
  std::string old_seat, new_seat;
  {
    auto club = OpenClub(db.path());
    const json a = Create(*club, kTwoRemote), b = Create(*club, kTwoRemote);
    old_seat = a["seats"][1]["token"];
    const auto creator = *club->Resolve(a["creator"]["token"]);
    int status = 0, closed = 0;
    // Another game's link: not this creator's.
    json r = json::parse(club->Revoke(creator, json{{"link", b["seats"][0]["token"]}}.dump(), &status, &closed));
    EXPECT_EQ(status, 404);
    EXPECT_EQ(closed, 0);
    EXPECT_TRUE(club->Resolve(b["seats"][0]["token"]));
    // A seat's link cannot revoke (the router lets only a creator's link reach Revoke).
    EXPECT_FALSE(club->Resolve(a["seats"][0]["token"])->role & kCreator);
    r = json::parse(club->Revoke(creator, "{\"link\": 5}", &status, &closed));
    EXPECT_EQ(status, 400);
    const int key = club->Resolve(old_seat)->key;
    r = json::parse(club->Revoke(creator, json{{"link", old_seat}, {"replace", true}}.dump(), &status, &closed));
    ASSERT_EQ(status, 200) << r.dump();
    EXPECT_EQ(closed, key);
    EXPECT_FALSE(club->Resolve(old_seat));
    new_seat = r["link"]["token"];
    EXPECT_EQ(club->Resolve(new_seat)->role, 2);
  }
  auto club = OpenClub(db.path());
  EXPECT_FALSE(club->Resolve(old_seat));
  EXPECT_EQ(club->Resolve(new_seat)->role, 2);
}

TEST(Club, BadCreationsAreRefusedAndStoreNothing) {
  TempDb db;
  auto club = OpenClub(db.path());
  const json bad[] = {
      json("not an object"),
      {{"players", {"remote", "remote"}}},
      {{"game", "/etc/passwd"}, {"players", {"remote", "remote"}}},
      {{"game", "../rulesets/stars_and_bars"}, {"players", {"remote", "remote"}}},
      {{"game", "no_such_ruleset"}, {"players", {"remote", "remote"}}},
      {{"game", "stars_and_bars"}, {"scenario", "../../etc/passwd"}, {"players", {"remote", "remote"}}},
      {{"game", "stars_and_bars"}, {"scenario", "no_such_scenario"}, {"players", {"remote", "remote"}}},
      {{"game", "stars_and_bars"}, {"optional", {"a/b"}}, {"players", {"remote", "remote"}}},
      {{"game", "stars_and_bars"}, {"players", {"ai", "ai"}}},
      {{"game", "stars_and_bars"}, {"players", {"remote"}}},
      {{"game", "stars_and_bars"}, {"players", {"remote", "ai"}}, {"dice", "fair"}},
      {{"game", "stars_and_bars"}, {"players", {"human", "human"}}, {"dice", "fair"}},
      {{"game", "stars_and_bars"}, {"players", {"remote", "remote"}}, {"seed", -1}},
      {{"game", "stars_and_bars"}, {"players", {"remote", "remote"}}, {"path", "/tmp"}},
  };
  for (const json& j : bad) {
    const json r = Create(*club, j, 400);
    EXPECT_EQ(r["t"], "error") << j.dump();
    EXPECT_FALSE(r["message"].get<std::string>().empty());
  }
  int status = 0;
  EXPECT_EQ(json::parse(club->Create("{\"game\": [1, 2", &status))["t"], "error");
  EXPECT_EQ(status, 400);
  EXPECT_TRUE(club->games().empty());
  EXPECT_TRUE(json::parse(club->List())["games"].empty());
  auto again = OpenClub(db.path());
  EXPECT_TRUE(again->games().empty());
}

// A store that refuses every commit: the change is undone, and the answer says so.
class RefusingStore : public ClubStore {
 public:
  explicit RefusingStore(std::unique_ptr<ClubStore> inner) : inner_(std::move(inner)) {}
  std::string CreateGame(const ClubGameRecord& g, const std::vector<ClubLinkRecord>& l) override {
    return inner_->CreateGame(g, l);
  }
  std::string Commit(const std::string&, const std::string&, const std::string&, int64_t) override {
    return "disk full";
  }
  std::string ListGames(std::vector<ClubGameRecord>* out) override { return inner_->ListGames(out); }
  std::string LoadGame(const std::string& id, ClubGameRecord* out) override { return inner_->LoadGame(id, out); }
  std::string Links(std::vector<ClubLinkRecord>* out) override { return inner_->Links(out); }
  std::string AddLink(const ClubLinkRecord& l) override { return inner_->AddLink(l); }
  std::string Revoke(const std::string& g, const std::string& h) override { return inner_->Revoke(g, h); }
  std::string kind() const override { return "refusing"; }

 private:
  std::unique_ptr<ClubStore> inner_;
};

TEST(Club, AChangeTheStoreRefusesIsUndone) {
  TempDb db;
  std::string error;
  Club club(std::make_unique<RefusingStore>(OpenSqliteClubStore(db.path(), &error)), 50);
  const json a = Create(club, kTwoRemote);
  const std::string seat = a["seats"][0]["token"];
  const auto access = *club.Resolve(seat);
  bool changed = false;
  const std::string mv = FirstLegal(club, seat);
  access.game->web->Handle(1, json{{"t", "act"}, {"action", mv}}.dump(), &changed);
  ASSERT_TRUE(changed);
  EXPECT_EQ(access.game->web->session().actions().size(), 1u);
  EXPECT_EQ(club.Commit(*access.game), "disk full");
  EXPECT_EQ(access.game->web->session().actions().size(), 0u);  // back to the stored game
  EXPECT_EQ(access.game->version, 1);
}

}  // namespace
}  // namespace wg::cli
