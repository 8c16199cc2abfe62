// `wargame serve --club` without sockets (club.h).
#include "club.h"

#include <nlohmann/json.hpp>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstdio>
#include <ctime>

#include "serve_route.h"
#include "wargame/registry.h"

namespace wg::cli {

using nlohmann::json;

namespace {

std::string Hex(const unsigned char* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

// The creation of a game, checked: only names of rulesets built into the
// program, and scenario and rule names of letters, digits, '_', '-' (and '.'
// in a rule id): no path on the host is ever named by a request.
struct ClubSpec {
  std::string game, scenario;
  std::vector<std::string> optional;
  std::vector<std::string> players;
  bool fair = false;
  uint64_t seed = 0;
  long dice_deadline = 86400;

  json ToJson() const {
    return {{"game", game},   {"scenario", scenario}, {"optional", optional},          {"players", players},
            {"dice", fair ? "fair" : "seeded"}, {"seed", seed}, {"dice_deadline", dice_deadline}};
  }
  std::string Spec() const {
    GameParams p;
    p.ruleset = game;
    p.scenario = scenario;
    p.optional = optional;
    return p.ToString();
  }
};

bool Named(const std::string& s, size_t max, bool dots) {
  if (s.empty() || s.size() > max || s.find("..") != std::string::npos) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || (dots && c == '.');
    if (!ok) return false;
  }
  return true;
}

// "" or why the creation is refused. `stored`: a spec read back from the store (its seed is in it).
std::string ParseSpec(const json& j, ClubSpec* out) {
  if (!j.is_object()) return "expected a JSON object";
  for (const auto& [k, v] : j.items()) {
    if (k != "game" && k != "scenario" && k != "optional" && k != "players" && k != "dice" && k != "seed" &&
        k != "dice_deadline") {
      return "unknown field \"" + k + "\" (game, scenario, optional, players, dice, seed, dice_deadline)";
    }
  }
  const auto game = j.find("game");
  if (game == j.end() || !game->is_string() || !Named(game->get<std::string>(), 64, false) ||
      !RulesetRegistry::Get().Find(game->get<std::string>())) {
    return "\"game\" names a ruleset built into the program (wargame list)";
  }
  out->game = game->get<std::string>();
  if (const auto s = j.find("scenario"); s != j.end() && !(s->is_string() && s->get<std::string>().empty())) {
    if (!s->is_string() || !Named(s->get<std::string>(), 64, false)) return "\"scenario\" is a scenario's name";
    out->scenario = s->get<std::string>();
  }
  if (const auto o = j.find("optional"); o != j.end()) {
    if (!o->is_array() || o->size() > 32) return "\"optional\" is a list of rule ids (at most 32)";
    for (const auto& r : *o) {
      if (!r.is_string() || !Named(r.get<std::string>(), 32, true)) return "\"optional\" holds rule ids, e.g. \"12.1\"";
      out->optional.push_back(r.get<std::string>());
    }
  }
  const auto players = j.find("players");
  if (players == j.end() || !players->is_array() || players->size() != 2) {
    return "\"players\" names two players, first side first: human, remote or ai";
  }
  for (const auto& p : *players) {
    const std::string k = p.is_string() ? p.get<std::string>() : "";
    if (k != "human" && k != "remote" && k != "ai") return "\"players\": each is human, remote or ai";
    out->players.push_back(k);
  }
  if (out->players[0] == "ai" && out->players[1] == "ai") return "\"players\": at least one human or remote";
  if (const auto d = j.find("dice"); d != j.end()) {
    if (!d->is_string() || (*d != "seeded" && *d != "fair")) return "\"dice\" is \"seeded\" or \"fair\"";
    out->fair = *d == "fair";
  }
  if (out->fair && (out->players[0] == "ai" || out->players[1] == "ai" ||
                    (out->players[0] == "human" && out->players[1] == "human"))) {
    return "fair dice are drawn by commit-reveal between two links: each side human or remote, and not both human";
  }
  if (const auto s = j.find("seed"); s != j.end()) {
    if (!s->is_number_unsigned() && !(s->is_number_integer() && s->get<long long>() >= 0)) {
      return "\"seed\" is a whole number 0 to 2^64 - 1";
    }
    out->seed = s->get<uint64_t>();
  } else {
    unsigned char b[8];
    if (RAND_bytes(b, sizeof b) != 1) return "no random seed";
    for (unsigned char c : b) out->seed = out->seed << 8 | c;
  }
  if (const auto d = j.find("dice_deadline"); d != j.end()) {
    if (!d->is_number_integer() || d->get<long long>() < 0 || d->get<long long>() > 10LL * 365 * 86400) {
      return "\"dice_deadline\" is 0 to 315360000 seconds";
    }
    out->dice_deadline = static_cast<long>(d->get<long long>());
  }
  return "";
}

json LinkJson(const std::string& token, const std::string& role) {
  return {{"token", token}, {"url", "/?token=" + token}, {"role", role}};
}

}  // namespace

std::string TokenHash(const std::string& token) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(token.data(), token.size(), md, &n, EVP_sha256(), nullptr);
  return Hex(md, n);
}

std::string SecretToken() {
  unsigned char b[16];
  if (RAND_bytes(b, sizeof b) != 1) throw std::runtime_error("RAND_bytes failed");
  return Hex(b, sizeof b);
}

Club::Club(std::unique_ptr<ClubStore> store, int ai_budget) : store_(std::move(store)), ai_budget_(ai_budget) {}

std::string Club::NewHostKey() {
  const std::string key = SecretToken();
  host_hash_ = TokenHash(key);
  return key;
}

void Club::set_host_key_for_tests(const std::string& key) { host_hash_ = TokenHash(key); }

std::string Club::Build(Game& g, const std::string& save) {
  ClubSpec spec;
  const json j = json::parse(g.spec, nullptr, false);
  if (const std::string bad = ParseSpec(j, &spec); !bad.empty()) return "its creation: " + bad;
  // One loaded Game per spec, shared by the sessions (a Game is immutable).
  std::shared_ptr<const wg::Game>& game = loaded_[spec.Spec()];
  if (!game) {
    auto loaded = LoadGame(spec.Spec());
    if (!loaded.ok()) {
      loaded_.erase(spec.Spec());
      return loaded.errors().ToString();
    }
    game = *loaded;
  }
  auto session = std::make_unique<Session>(game, spec.seed, spec.fair);
  auto web = std::make_unique<WebGame>(std::move(session), spec.players, spec.seed, ai_budget_);
  web->set_dice_deadline(spec.dice_deadline);
  if (spec.fair && !web->fair_dice()) return "fair dice need a link for each side";
  if (!save.empty()) {
    if (const std::string bad = web->Restore(save); !bad.empty()) return bad;
  }
  g.web = std::move(web);
  return "";
}

std::string Club::Load() {
  std::vector<ClubGameRecord> records;
  if (std::string e = store_->ListGames(&records); !e.empty()) return e;
  std::string errors;
  for (const auto& r : records) {
    auto g = std::make_unique<Game>();
    g->id = r.id;
    g->spec = r.spec;
    g->created = r.created;
    g->version = r.version;
    if (const std::string bad = Build(*g, r.save); !bad.empty()) {
      errors += "game " + r.id + " cannot be rebuilt from its save: " + bad + "\n";
      continue;
    }
    games_[r.id] = std::move(g);
  }
  std::vector<ClubLinkRecord> links;
  if (std::string e = store_->Links(&links); !e.empty()) return errors + e;
  for (const auto& l : links) {
    if (!l.revoked && games_.count(l.game)) links_[l.hash] = Link{l.hash, l.game, l.role, next_key_++};
  }
  return errors;
}

std::optional<Club::Access> Club::Resolve(const std::string& token) const {
  if (token.empty()) return std::nullopt;
  const std::string h = TokenHash(token);
  if (!host_hash_.empty() && CRYPTO_memcmp(h.data(), host_hash_.data(), h.size()) == 0) {
    return Access{nullptr, kClubHost, -1};
  }
  const auto it = links_.find(h);
  if (it == links_.end() || CRYPTO_memcmp(it->second.hash.data(), h.data(), h.size()) != 0) return std::nullopt;
  const auto g = games_.find(it->second.game);
  if (g == games_.end()) return std::nullopt;
  return Access{g->second.get(), it->second.role, it->second.key};
}

std::string Club::NewLink(const std::string& game, int role, std::vector<ClubLinkRecord>* records) {
  const std::string token = SecretToken();
  records->push_back(ClubLinkRecord{TokenHash(token), game, role, false});
  return token;
}

std::string Club::StatusJson(const WebGame& web) {
  const Session& s = web.session();
  const wg::Game& g = s.game();
  const State& st = s.state();
  json j = {{"title", g.title}, {"actions", s.actions().size()}, {"turn", st.turn}, {"over", s.over()}};
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(HashState(st)));
  j["hash"] = hash;
  if (s.over()) {
    j["winner"] = st.winner >= 0 ? json(SideName(g, st.winner)) : json(nullptr);
  } else {
    j["phase"] = PhaseName(g, st);
    j["to_move"] = SideName(g, st.decision_side);
    if (web.waiting_for_die()) j["waiting"] = web.fair_dice() ? "a fair die (commit-reveal)" : "a die entered at the page";
  }
  return Answer(j);
}

std::string Club::Create(const std::string& body, int* status) {
  *status = 400;
  const json j = json::parse(body, nullptr, false);
  ClubSpec spec;
  if (const std::string bad = ParseSpec(j, &spec); !bad.empty()) return ErrorAnswer(bad);
  if (games_.size() >= kMaxClubGames) {
    *status = 503;
    return ErrorAnswer("this club holds " + std::to_string(kMaxClubGames) + " games, its most");
  }
  auto g = std::make_unique<Game>();
  g->id = SecretToken();
  g->spec = spec.ToJson().dump();
  g->created = static_cast<int64_t>(std::time(nullptr));
  g->version = 1;
  if (const std::string bad = Build(*g, ""); !bad.empty()) return ErrorAnswer(bad);
  std::vector<ClubLinkRecord> records;
  json seats = json::array();
  const wg::Game& game = g->web->session().game();
  for (const auto& seat : g->web->seats()) {
    json link = LinkJson(NewLink(g->id, seat.sides, &records), "seat");
    json sides = json::array();
    for (int i = 0; i < 2; ++i) {
      if (Plays(seat.sides, i)) sides.push_back(game.sides[static_cast<size_t>(i)].id);
    }
    link["sides"] = sides;
    seats.push_back(link);
  }
  const json spectator = LinkJson(NewLink(g->id, kSpectator, &records), "spectator");
  const json creator = LinkJson(NewLink(g->id, kSpectator | kCreator, &records), "creator");
  ClubGameRecord rec{g->id, g->created, g->spec, g->web->SaveText(), g->version, StatusJson(*g->web)};
  if (const std::string e = store_->CreateGame(rec, records); !e.empty()) {
    *status = 500;
    return ErrorAnswer("not stored: " + e);
  }
  for (const auto& r : records) links_[r.hash] = Link{r.hash, r.game, r.role, next_key_++};
  const std::string id = g->id;
  games_[id] = std::move(g);
  *status = 200;
  return Answer({{"t", "created"}, {"id", id}, {"title", game.title}, {"seats", seats}, {"spectator", spectator},
                 {"creator", creator}});
}

std::string Club::List() const {
  json games = json::array();
  for (const auto& [id, g] : games_) {
    json e = json::parse(StatusJson(*g->web));
    e["id"] = id;
    e["created"] = g->created;
    e["version"] = g->version;
    json spec = json::parse(g->spec, nullptr, false);
    if (spec.is_object()) {
      spec.erase("seed");  // every die to come of a seeded game: the host's only
      e["spec"] = spec;
    }
    games.push_back(e);
  }
  if (catalogue_.empty()) {
    json rulesets = json::array();
    for (const auto& info : RulesetRegistry::Get().List()) {
      json optional = json::array(), sides = json::array();
      std::string title;
      if (auto game = LoadGame(info.name); game.ok()) {
        for (const auto& o : (*game)->optional_rules) optional.push_back({{"id", o.id}, {"title", o.title}});
        for (const auto& sd : (*game)->sides) sides.push_back(sd.name);
        title = (*game)->title;
      }
      rulesets.push_back({{"name", info.name}, {"title", title}, {"scenarios", ListScenarios(info)},
                          {"optional", optional}, {"sides", sides}});
    }
    catalogue_ = rulesets.dump();
  }
  return Answer({{"t", "games"}, {"games", games}, {"rulesets", json::parse(catalogue_)}});
}

std::string Club::Revoke(const Access& creator, const std::string& body, int* status, int* closed) {
  *status = 400;
  *closed = 0;
  const json j = json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("link") || !j["link"].is_string()) {
    return ErrorAnswer("expected {\"link\":\"<token of a link of this game>\"} (and \"replace\":true for a new one)");
  }
  const auto it = links_.find(TokenHash(j["link"].get<std::string>()));
  if (!creator.game || it == links_.end() || it->second.game != creator.game->id) {
    *status = 404;
    return ErrorAnswer("no such link of this game");
  }
  const bool replace = j.contains("replace") && j["replace"] == true;
  std::vector<ClubLinkRecord> records;
  std::string token;
  if (replace) token = NewLink(it->second.game, it->second.role, &records);
  if (const std::string e = store_->Revoke(it->second.game, it->first); !e.empty()) {
    *status = 500;
    return ErrorAnswer("not revoked: " + e);
  }
  json answer = {{"t", "revoked"}};
  if (replace) {
    if (const std::string e = store_->AddLink(records[0]); !e.empty()) {
      answer["error"] = "revoked, but the new link was not stored: " + e;
    } else {
      links_[records[0].hash] = Link{records[0].hash, records[0].game, records[0].role, next_key_++};
      answer["link"] = LinkJson(token, (records[0].role & kCreator)     ? "creator"
                                   : (records[0].role & kSidesMask) ? "seat"
                                                                    : "spectator");
    }
  }
  *closed = it->second.key;
  links_.erase(it);
  *status = 200;
  return Answer(answer);
}

std::string Club::Commit(Game& g) {
  const std::string e = store_->Commit(g.id, g.web->SaveText(), StatusJson(*g.web), g.version + 1);
  if (e.empty()) {
    ++g.version;
    return "";
  }
  // Not stored: the game goes back to what is.
  ClubGameRecord rec;
  if (store_->LoadGame(g.id, &rec).empty() && g.web->Restore(rec.save).empty()) g.version = rec.version;
  return e;
}

}  // namespace wg::cli
