// `wargame serve --club FILE`: many games in one server, kept in a ClubStore
// (club_store.h), with seats by invitation. Without sockets: serve.cc moves
// the requests, the tests call this directly.
//
// Who holds what (docs/security.md, "A club"):
//  - the club's key (printed when the server starts, new at each start, kept
//    hashed in memory only) lists the games and creates them;
//  - a game's creation answers one secret link per seat (WebGame::seats(): a
//    "human" side is the creator's own seat, both human sides share one link,
//    hot-seat; each "remote" side has its own), a spectator link and the
//    creator's link (reads as a spectator, and revokes links of that game);
//  - a link's token is 128 random bits (OpenSSL RAND_bytes); only its SHA-256
//    is stored, and a token is found by its hash and compared in constant time.
// A token picks its game: the single game's page and API (/, /api/state, /api,
// /ws, all with ?token=) serve every game of the club unchanged.
//
// Every accepted change of a game (an action, a die, a key, a commitment...)
// is committed to the store (its save text, WebGame::SaveText) before the
// request that made it is answered; a change the store refuses is undone (the
// game is rebuilt from its stored save) and the answer is an error.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "club_store.h"
#include "web_game.h"

namespace wg::cli {

// At most this many games in one club (each is kept in memory).
inline constexpr size_t kMaxClubGames = 2000;

class Club {
 public:
  struct Game {
    std::string id;
    std::string spec;  // the creation, JSON
    int64_t created = 0;
    int64_t version = 0;
    std::unique_ptr<WebGame> web;
  };
  // What a token gives: a game (none for the club's key), its role bits
  // (serve_route.h: sides, kSpectator, kCreator, kClubHost), and the number
  // of its link (its own connection budget; never 0).
  struct Access {
    Game* game = nullptr;
    int role = 0;
    int key = 0;
  };

  // ai_budget: the computer players' work per decision (0: their default).
  Club(std::unique_ptr<ClubStore> store, int ai_budget);
  // Loads every game (each rebuilt from its stored save) and link: "" or the
  // errors (a game that cannot be rebuilt is left out and named).
  std::string Load();
  // A new key for the club (the host's); returns it (32 hex digits).
  std::string NewHostKey();
  void set_host_key_for_tests(const std::string& key);

  std::optional<Access> Resolve(const std::string& token) const;

  // The requests of the club's own routes. *status is the HTTP status.
  // POST /club/games: {"game":"stars_and_bars","scenario":"","optional":[..],
  //   "players":["remote","ai"],"dice":"seeded"|"fair","seed":N,"dice_deadline":S}
  std::string Create(const std::string& body, int* status);
  // GET /club/games: every game, whose turn it is, and (for the lobby's
  // creation form) the rulesets built into the program, with their scenarios
  // and optional rules.
  std::string List() const;
  // POST /club/revoke with the creator's link: {"link":"<token>","replace":true}.
  // *closed: the link number whose connections must close (0: none).
  std::string Revoke(const Access& creator, const std::string& body, int* status, int* closed);

  // After a change of the game: commits its save. "" or the store's error
  // (then the game is rebuilt from its last stored save).
  std::string Commit(Game& game);

  const std::map<std::string, std::unique_ptr<Game>>& games() const { return games_; }
  ClubStore& store() { return *store_; }
  // The summary of a game in the games list (whose turn, over, actions, hash).
  static std::string StatusJson(const WebGame& web);

 private:
  struct Link {
    std::string hash;
    std::string game;
    int role = 0;
    int key = 0;
  };
  // Builds a game from its creation (spec) and, if any, its save. "" or why not.
  std::string Build(Game& g, const std::string& save);
  std::string NewLink(const std::string& game, int role, std::vector<ClubLinkRecord>* records);

  std::unique_ptr<ClubStore> store_;
  int ai_budget_;
  std::map<std::string, std::unique_ptr<Game>> games_;
  std::unordered_map<std::string, Link> links_;  // by hash; revoked links are not here
  std::map<std::string, std::shared_ptr<const wg::Game>> loaded_;  // by spec
  std::string host_hash_;
  int next_key_ = 1;
  mutable std::string catalogue_;  // the rulesets, JSON (made once)
};

// SHA-256 of a token's text, 64 hex digits.
std::string TokenHash(const std::string& token);
// 16 bytes from OpenSSL's CSPRNG, 32 hex digits.
std::string SecretToken();

}  // namespace wg::cli
