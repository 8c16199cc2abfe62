// The SQLite store of `wargame serve --club` (club_store.h).
#include <sqlite3.h>

#include "club_store.h"

namespace wg::cli {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS games ("
    "  id TEXT PRIMARY KEY, created INTEGER NOT NULL, spec TEXT NOT NULL, save TEXT NOT NULL,"
    "  version INTEGER NOT NULL, status TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS links ("
    "  hash TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), role INTEGER NOT NULL,"
    "  revoked INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS links_game ON links(game);";

// A prepared statement, finalized on scope exit.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) == SQLITE_OK; }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return ok_; }
  Stmt& Bind(int i, const std::string& v) {
    ok_ = ok_ && sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) == SQLITE_OK;
    return *this;
  }
  Stmt& Bind(int i, int64_t v) {
    ok_ = ok_ && sqlite3_bind_int64(s_, i, v) == SQLITE_OK;
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error.
  int Step() { return ok_ ? sqlite3_step(s_) : SQLITE_ERROR; }
  std::string Text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, col));
    return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(s_, col))) : std::string();
  }
  int64_t Int(int col) const { return sqlite3_column_int64(s_, col); }

 private:
  sqlite3_stmt* s_ = nullptr;
  bool ok_ = false;
};

class SqliteStore : public ClubStore {
 public:
  explicit SqliteStore(sqlite3* db) : db_(db) {}
  ~SqliteStore() override { sqlite3_close(db_); }

  std::string Exec(const char* sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) == SQLITE_OK) return "";
    std::string e = msg ? msg : sqlite3_errmsg(db_);
    sqlite3_free(msg);
    return e;
  }
  std::string Error() const { return std::string("sqlite: ") + sqlite3_errmsg(db_); }

  std::string CreateGame(const ClubGameRecord& g, const std::vector<ClubLinkRecord>& links) override {
    if (std::string e = Exec("BEGIN IMMEDIATE"); !e.empty()) return "sqlite: " + e;
    bool ok = Stmt(db_, "INSERT INTO games(id, created, spec, save, version, status) VALUES(?,?,?,?,?,?)")
                  .Bind(1, g.id).Bind(2, g.created).Bind(3, g.spec).Bind(4, g.save).Bind(5, g.version).Bind(6, g.status)
                  .Step() == SQLITE_DONE;
    for (const auto& l : links) ok = ok && InsertLink(l);
    if (!ok) {
      const std::string e = Error();
      Exec("ROLLBACK");
      return e;
    }
    if (std::string e = Exec("COMMIT"); !e.empty()) {
      Exec("ROLLBACK");
      return "sqlite: " + e;
    }
    return "";
  }

  std::string Commit(const std::string& id, const std::string& save, const std::string& status,
                     int64_t version) override {
    Stmt s(db_, "UPDATE games SET save = ?, status = ?, version = ? WHERE id = ? AND version = ?");
    s.Bind(1, save).Bind(2, status).Bind(3, version).Bind(4, id).Bind(5, version - 1);
    if (s.Step() != SQLITE_DONE) return Error();
    if (sqlite3_changes(db_) != 1) return "the game " + id + " is not at version " + std::to_string(version - 1);
    return "";
  }

  std::string ListGames(std::vector<ClubGameRecord>* out) override {
    Stmt s(db_, "SELECT id, created, spec, save, version, status FROM games ORDER BY created, id");
    int rc;
    while ((rc = s.Step()) == SQLITE_ROW) out->push_back(Row(s));
    return rc == SQLITE_DONE ? "" : Error();
  }

  std::string LoadGame(const std::string& id, ClubGameRecord* out) override {
    Stmt s(db_, "SELECT id, created, spec, save, version, status FROM games WHERE id = ?");
    s.Bind(1, id);
    const int rc = s.Step();
    if (rc == SQLITE_ROW) {
      *out = Row(s);
      return "";
    }
    return rc == SQLITE_DONE ? "no game " + id : Error();
  }

  std::string Links(std::vector<ClubLinkRecord>* out) override {
    Stmt s(db_, "SELECT hash, game, role, revoked FROM links ORDER BY rowid");
    int rc;
    while ((rc = s.Step()) == SQLITE_ROW) {
      out->push_back(ClubLinkRecord{s.Text(0), s.Text(1), static_cast<int>(s.Int(2)), s.Int(3) != 0});
    }
    return rc == SQLITE_DONE ? "" : Error();
  }

  std::string AddLink(const ClubLinkRecord& link) override { return InsertLink(link) ? "" : Error(); }

  std::string Revoke(const std::string& game, const std::string& hash) override {
    Stmt s(db_, "UPDATE links SET revoked = 1 WHERE game = ? AND hash = ? AND revoked = 0");
    s.Bind(1, game).Bind(2, hash);
    if (s.Step() != SQLITE_DONE) return Error();
    return sqlite3_changes(db_) == 1 ? "" : "no such link of this game";
  }

  std::string kind() const override { return "sqlite"; }

 private:
  bool InsertLink(const ClubLinkRecord& l) {
    return Stmt(db_, "INSERT INTO links(hash, game, role, revoked) VALUES(?,?,?,?)")
               .Bind(1, l.hash).Bind(2, l.game).Bind(3, static_cast<int64_t>(l.role)).Bind(4, int64_t{l.revoked})
               .Step() == SQLITE_DONE;
  }
  static ClubGameRecord Row(const Stmt& s) {
    return ClubGameRecord{s.Text(0), s.Int(1), s.Text(2), s.Text(3), s.Int(4), s.Text(5)};
  }
  sqlite3* db_;
};

}  // namespace

std::unique_ptr<ClubStore> OpenSqliteClubStore(const std::string& path, std::string* error) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    *error = path + ": " + (db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_busy_timeout(db, 5000);
  auto store = std::make_unique<SqliteStore>(db);
  // WAL: readers never block the writer; FULL: each commit is on disk when it returns.
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON", kSchema}) {
    if (std::string e = store->Exec(sql); !e.empty()) {
      *error = path + ": " + e;
      return nullptr;
    }
  }
  return store;
}

#ifndef WG_HAVE_POSTGRESQL
std::unique_ptr<ClubStore> OpenPostgresClubStore(const std::string&, std::string* error) {
  *error = "this wargame was built without PostgreSQL (libpq-dev)";
  return nullptr;
}
#endif

std::unique_ptr<ClubStore> OpenClubStore(const std::string& where, std::string* error) {
  if (where.rfind("postgresql://", 0) == 0 || where.rfind("postgres://", 0) == 0) {
    return OpenPostgresClubStore(where, error);
  }
  return OpenSqliteClubStore(where, error);
}

}  // namespace wg::cli
