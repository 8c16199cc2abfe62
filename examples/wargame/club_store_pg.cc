// The PostgreSQL store of `wargame serve --club postgresql://...` (club_store.h):
// the same tables as SQLite's, through libpq. Each call is one transaction,
// committed (synchronous_commit as the server sets it, on by default) when it
// returns "".
#include <libpq-fe.h>

#include "club_store.h"

namespace wg::cli {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS games ("
    "  id TEXT PRIMARY KEY, created BIGINT NOT NULL, spec TEXT NOT NULL, save TEXT NOT NULL,"
    "  version BIGINT NOT NULL, status TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS links ("
    "  hash TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), role INTEGER NOT NULL,"
    "  revoked INTEGER NOT NULL DEFAULT 0, serial BIGSERIAL);"
    "CREATE INDEX IF NOT EXISTS links_game ON links(game);";

// A result, cleared on scope exit.
class Res {
 public:
  explicit Res(PGresult* r) : r_(r) {}
  ~Res() { PQclear(r_); }
  Res(const Res&) = delete;
  Res& operator=(const Res&) = delete;
  bool ok() const {
    const auto s = PQresultStatus(r_);
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
  }
  int rows() const { return PQntuples(r_); }
  std::string Text(int row, int col) const {
    return std::string(PQgetvalue(r_, row, col), static_cast<size_t>(PQgetlength(r_, row, col)));
  }
  int64_t Int(int row, int col) const { return std::stoll(Text(row, col)); }
  std::string affected() const { return PQcmdTuples(r_); }
  std::string error() const { return PQresultErrorMessage(r_); }

 private:
  PGresult* r_;
};

class PgStore : public ClubStore {
 public:
  explicit PgStore(PGconn* c) : c_(c) {}
  ~PgStore() override { PQfinish(c_); }

  Res Exec(const char* sql) { return Res(PQexec(c_, sql)); }
  Res Params(const char* sql, const std::vector<std::string>& p) {
    std::vector<const char*> v;
    std::vector<int> len;
    for (const auto& s : p) {
      v.push_back(s.c_str());
      len.push_back(static_cast<int>(s.size()));
    }
    return Res(PQexecParams(c_, sql, static_cast<int>(p.size()), nullptr, v.data(), len.data(), nullptr, 0));
  }
  std::string Fail(const Res& r) { return "postgresql: " + r.error(); }

  std::string CreateGame(const ClubGameRecord& g, const std::vector<ClubLinkRecord>& links) override {
    if (Res b = Exec("BEGIN"); !b.ok()) return Fail(b);
    Res r = Params("INSERT INTO games(id, created, spec, save, version, status) VALUES($1,$2,$3,$4,$5,$6)",
                   {g.id, std::to_string(g.created), g.spec, g.save, std::to_string(g.version), g.status});
    std::string e = r.ok() ? "" : Fail(r);
    for (const auto& l : links) {
      if (!e.empty()) break;
      e = InsertLink(l);
    }
    if (!e.empty()) {
      Exec("ROLLBACK");
      return e;
    }
    if (Res c = Exec("COMMIT"); !c.ok()) return Fail(c);
    return "";
  }

  std::string Commit(const std::string& id, const std::string& save, const std::string& status,
                     int64_t version) override {
    Res r = Params("UPDATE games SET save = $1, status = $2, version = $3 WHERE id = $4 AND version = $5",
                   {save, status, std::to_string(version), id, std::to_string(version - 1)});
    if (!r.ok()) return Fail(r);
    if (r.affected() != "1") return "the game " + id + " is not at version " + std::to_string(version - 1);
    return "";
  }

  std::string ListGames(std::vector<ClubGameRecord>* out) override {
    Res r = Exec("SELECT id, created, spec, save, version, status FROM games ORDER BY created, id");
    if (!r.ok()) return Fail(r);
    for (int i = 0; i < r.rows(); ++i) out->push_back(Row(r, i));
    return "";
  }

  std::string LoadGame(const std::string& id, ClubGameRecord* out) override {
    Res r = Params("SELECT id, created, spec, save, version, status FROM games WHERE id = $1", {id});
    if (!r.ok()) return Fail(r);
    if (r.rows() != 1) return "no game " + id;
    *out = Row(r, 0);
    return "";
  }

  std::string Links(std::vector<ClubLinkRecord>* out) override {
    Res r = Exec("SELECT hash, game, role, revoked FROM links ORDER BY serial");
    if (!r.ok()) return Fail(r);
    for (int i = 0; i < r.rows(); ++i) {
      out->push_back(ClubLinkRecord{r.Text(i, 0), r.Text(i, 1), static_cast<int>(r.Int(i, 2)), r.Int(i, 3) != 0});
    }
    return "";
  }

  std::string AddLink(const ClubLinkRecord& link) override { return InsertLink(link); }

  std::string Revoke(const std::string& game, const std::string& hash) override {
    Res r = Params("UPDATE links SET revoked = 1 WHERE game = $1 AND hash = $2 AND revoked = 0", {game, hash});
    if (!r.ok()) return Fail(r);
    return r.affected() == "1" ? "" : "no such link of this game";
  }

  std::string kind() const override { return "postgresql"; }

 private:
  std::string InsertLink(const ClubLinkRecord& l) {
    Res r = Params("INSERT INTO links(hash, game, role, revoked) VALUES($1,$2,$3,$4)",
                   {l.hash, l.game, std::to_string(l.role), l.revoked ? "1" : "0"});
    return r.ok() ? "" : Fail(r);
  }
  static ClubGameRecord Row(const Res& r, int i) {
    return ClubGameRecord{r.Text(i, 0), r.Int(i, 1), r.Text(i, 2), r.Text(i, 3), r.Int(i, 4), r.Text(i, 5)};
  }
  PGconn* c_;
};

}  // namespace

std::unique_ptr<ClubStore> OpenPostgresClubStore(const std::string& conninfo, std::string* error) {
  PGconn* c = PQconnectdb(conninfo.c_str());
  if (!c || PQstatus(c) != CONNECTION_OK) {
    *error = std::string("postgresql: ") + (c ? PQerrorMessage(c) : "cannot connect");
    PQfinish(c);
    return nullptr;
  }
  auto store = std::make_unique<PgStore>(c);
  // Quiet: CREATE ... IF NOT EXISTS notices would go to stderr.
  PQsetNoticeProcessor(c, [](void*, const char*) {}, nullptr);
  if (Res r = store->Exec(kSchema); !r.ok()) {
    *error = store->Fail(r);
    return nullptr;
  }
  return store;
}

}  // namespace wg::cli
