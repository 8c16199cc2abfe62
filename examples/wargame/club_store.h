// Where `wargame serve --club` keeps its games: a small storage interface and
// its SQLite implementation (one file, WAL). A game's record is what a save
// holds: its creation (the ruleset, scenario, optional rules, players, dice
// mode, seed) and the save text of its last accepted change (WebGame::SaveText:
// Session::Save and the fair dice record). On restart each game is rebuilt by
// replaying that save through the same code as an imported save
// (WebGame::Restore -> Session::LoadFor), so nothing here can disagree with a
// save. Seat links are kept as the SHA-256 of their secret only.
//
// Every call is one transaction, done (committed) when it returns "": the
// server acknowledges an action only after Commit returned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wg::cli {

struct ClubGameRecord {
  std::string id;         // 32 hex digits
  int64_t created = 0;    // unix seconds
  std::string spec;       // the creation, JSON (club.cc: ClubSpec)
  std::string save;       // the save text of the last accepted change
  int64_t version = 0;    // how many changes were committed (1: as created)
  std::string status;     // a summary for the games list, JSON (whose turn, over, actions)
};

struct ClubLinkRecord {
  std::string hash;  // SHA-256 of the link's secret, 64 hex digits
  std::string game;  // the game's id
  int role = 0;      // the sides it plays (bits 0, 1), spectator and creator bits (serve_route.h)
  bool revoked = false;
};

class ClubStore {
 public:
  virtual ~ClubStore() = default;
  // Each returns "" when done (committed), else the error (nothing changed).
  // A new game with its links, in one transaction.
  virtual std::string CreateGame(const ClubGameRecord& game, const std::vector<ClubLinkRecord>& links) = 0;
  // The game's new save (an accepted change): written only if the stored
  // version is version - 1 (another writer's change is not overwritten).
  virtual std::string Commit(const std::string& id, const std::string& save, const std::string& status,
                             int64_t version) = 0;
  virtual std::string ListGames(std::vector<ClubGameRecord>* out) = 0;
  virtual std::string LoadGame(const std::string& id, ClubGameRecord* out) = 0;
  // Every link, revoked ones included.
  virtual std::string Links(std::vector<ClubLinkRecord>* out) = 0;
  virtual std::string AddLink(const ClubLinkRecord& link) = 0;
  // Revokes the link of this hash (of this game); an unknown one is an error.
  virtual std::string Revoke(const std::string& game, const std::string& hash) = 0;
  // "sqlite", "postgresql".
  virtual std::string kind() const = 0;
};

// Opens (creating if needed) the SQLite file: WAL, synchronous=FULL (a commit
// survives kill -9 and a power cut). nullptr and *error if it cannot.
std::unique_ptr<ClubStore> OpenSqliteClubStore(const std::string& path, std::string* error);
// Connects to PostgreSQL (a libpq connection string or postgresql:// URI) and
// creates the tables if needed. nullptr and *error if it cannot, or if the
// program was built without libpq (WG_HAVE_POSTGRESQL).
std::unique_ptr<ClubStore> OpenPostgresClubStore(const std::string& conninfo, std::string* error);
// A --club argument: a postgresql:// or postgres:// URI, else an SQLite file.
std::unique_ptr<ClubStore> OpenClubStore(const std::string& where, std::string* error);

}  // namespace wg::cli
