// The `net` fuzz target (fuzz/README.md): what `wargame serve` does with bytes
// from the network, without sockets. The first byte picks:
//   even: the rest is an HTTP request, parsed with the server's parser and
//         limits (examples/wargame/serve_http.h) in pieces of (byte / 2 % 64 + 1)
//         bytes, routed by RouteRequest, and its body read only when routed so;
//         a byte of 128 or more routes it as `wargame serve --club` does (the
//         club's key, a creator's and a spectator's link besides the seats),
//         and a body read for /club/games or /club/revoke is handled by a club
//         kept in an in-memory SQLite database (club.h);
//   odd:  byte / 2 picks a game in progress (skirmish or Stars and Bars) and a
//         seat's sides, and the rest is a message to WebGame::Handle.
// Properties: no exception escapes; only a seat's POST to /api (in a club, also
// the key's POST to /club/games and the creator's to /club/revoke) reads a body,
// within kMaxMessageBytes; a header past kMaxHeaderBytes is refused; a message
// that does not report a change changes neither the state nor the log, and
// every answer is a JSON object with a "t".
#include <nlohmann/json.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "club.h"
#include "serve_http.h"
#include "serve_route.h"
#include "targets.h"
#include "wargame/players.h"
#include "wargame/registry.h"
#include "web_game.h"

namespace wg::fuzz {

namespace {

namespace http = boost::beast::http;
using cli::RouteDecision;
using cli::Route;

// The seats' tokens of the routing half (the seed inputs carry them).
const std::string kSeat1 = "0123456789abcdef0123456789abcdef";
const std::string kSeat2 = "fedcba9876543210fedcba9876543210";

// A club's other roles (serve_route.h).
const std::string kSpectatorToken = "5bec7a7025bec7a7025bec7a7025bec7";
const std::string kCreatorToken = "c7ea7025c7ea7025c7ea7025c7ea7025";
const std::string kHostToken = "4057ee4057ee4057ee4057ee4057ee40";

int FakeSidesOf(const std::string& t) { return t == kSeat1 ? 1 : t == kSeat2 ? 2 : 0; }
int FakeClubRoleOf(const std::string& t) {
  if (t == kSpectatorToken) return cli::kSpectator;
  if (t == kCreatorToken) return cli::kSpectator | cli::kCreator;
  if (t == kHostToken) return cli::kClubHost;
  return FakeSidesOf(t);
}

std::string CheckDecision(const cli::RequestHead& h, const RouteDecision& d, bool club) {
  const std::string token = cli::TokenOf(h.target);
  const bool served = d.route == Route::kState || d.route == Route::kApi || d.route == Route::kWebSocket;
  const int role = club ? FakeClubRoleOf(token) : FakeSidesOf(token);
  if (served && (d.sides & (cli::kSidesMask | cli::kSpectator)) == 0) return "a request was served without a seat's token";
  if (d.sides != 0 && d.sides != role) return "a request was given sides its token does not play";
  if ((d.route == Route::kClubList || d.route == Route::kClubCreate) && !(d.sides & cli::kClubHost)) {
    return "the games were listed or created without the club's key";
  }
  if (d.route == Route::kClubRevoke && !(d.sides & cli::kCreator)) return "a link was revoked without a creator's link";
  if (!club && (d.route == Route::kClubList || d.route == Route::kClubCreate || d.route == Route::kClubRevoke)) {
    return "a club route outside a club";
  }
  if (d.route == Route::kApi && !(d.sides & cli::kSidesMask) && !(d.sides & cli::kSpectator)) {
    return "a message was taken from a link of no game";
  }
  const bool body_route = d.route == Route::kApi || d.route == Route::kClubCreate || d.route == Route::kClubRevoke;
  if (d.read_body != body_route) return "a body is read by a route other than /api and the club's POSTs";
  if (d.read_body && h.method != "POST") return "a body is read for a " + std::string(h.method);
  if (d.read_body && h.content_length && *h.content_length > cli::kMaxMessageBytes) return "a body over the limit is read";
  if (d.close_after && d.read_body) return "a route both reads the body and leaves it";
  const bool has_body = h.chunked || h.content_length.value_or(0) > 0;
  if (has_body && !d.read_body && !d.close_after) return "an unread body would be taken for the next request";
  return "";
}

// The club whose creations and revocations the bodies are (an in-memory SQLite
// database), made again after every 32 creations so it stays small; its first
// game's creator link revokes.
cli::Club& FuzzClub(bool fresh) {
  static std::unique_ptr<cli::Club> club;
  if (!club || fresh) {
    std::string error;
    club = std::make_unique<cli::Club>(cli::OpenSqliteClubStore(":memory:", &error), 20);
    club->set_host_key_for_tests(kHostToken);
    int status = 0;
    club->Create(R"({"game":"stars_and_bars","players":["remote","remote"],"seed":1})", &status);
  }
  return *club;
}

std::string ClubBody(Route route, const std::string& body) {
  static int created = 0;
  cli::Club& club = FuzzClub(route == Route::kClubCreate && ++created % 32 == 0);
  int status = 0, closed = 0;
  std::string answer;
  if (route == Route::kClubCreate) {
    answer = club.Create(body, &status);
  } else {
    cli::Club::Access creator{club.games().begin()->second.get(), cli::kSpectator | cli::kCreator, 1};
    answer = club.Revoke(creator, body, &status, &closed);
  }
  const auto j = nlohmann::json::parse(answer, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("t")) return "a club answer is not a JSON object with a \"t\"";
  if (status != 200 && j["t"] != "error") return "a refused club request answered " + answer.substr(0, 200);
  return "";
}

std::string HttpRequest(const uint8_t* data, size_t size, size_t piece, bool club) {
  cli::RequestParser p;
  cli::HeaderLimits(p);
  p.eager(false);
  boost::beast::error_code ec;
  size_t at = 0;
  // The header, fed as the network would (the server keeps unparsed bytes in its buffer).
  std::string pending;
  while (!p.is_header_done()) {
    if (at >= size) return "";
    const size_t n = std::min(piece, size - at);
    pending.append(reinterpret_cast<const char*>(data + at), n);
    at += n;
    const size_t used = p.put(boost::asio::buffer(pending), ec);
    if (ec == http::error::need_more) ec = {};
    if (ec) return "";  // refused (400/431): the server answers and closes
    pending.erase(0, used);
    if (!p.is_header_done() && pending.size() > cli::kMaxHeaderBytes + 4) return "a header past the limit was not refused";
  }
  const cli::RequestHead head = cli::HeadOf(p);
  const RouteDecision d = cli::RouteRequest(head, club ? FakeClubRoleOf : FakeSidesOf, club);
  if (std::string bad = CheckDecision(head, d, club); !bad.empty()) return bad;
  if (!d.read_body) return "";
  cli::BodyLimits(p);
  pending.append(reinterpret_cast<const char*>(data + at), size - at);
  while (!pending.empty() && !p.is_done()) {
    const size_t used = p.put(boost::asio::buffer(pending), ec);
    if (ec == http::error::need_more) break;
    if (ec) return "";
    if (used == 0) break;
    pending.erase(0, used);
  }
  if (p.get().body().size() > cli::kMaxMessageBytes) return "a body past kMaxMessageBytes was read";
  if (club && p.is_done() && (d.route == Route::kClubCreate || d.route == Route::kClubRevoke)) {
    return ClubBody(d.route, p.get().body());
  }
  return "";
}

// Games in progress for the message half: (game, human seat kinds, depth).
struct NetGame {
  std::shared_ptr<const Game> game;
  std::vector<std::string> kinds;
  int depth = 0;
};

std::vector<NetGame>& NetGames() {
  static auto* all = [] {
    auto* v = new std::vector<NetGame>;
    auto skirmish = LoadGame(std::string(WG_SOURCE_DIR) + "/tests/data/rulesets/skirmish");
    auto snb = LoadGame("stars_and_bars");
    for (auto* g : {&skirmish, &snb}) {
      if (!g->ok()) continue;
      for (int depth : {0, 12, 40}) {
        v->push_back({**g, {"human", "human"}, depth});
        v->push_back({**g, {"human", "ai"}, depth});
      }
    }
    return v;
  }();
  return *all;
}

std::unique_ptr<cli::WebGame> NewWebGame(const NetGame& ng) {
  auto s = std::make_unique<Session>(ng.game, 5);
  RandomPlayer player(11);
  for (int i = 0; i < ng.depth && !s->over(); ++i) {
    const auto legal = s->LegalActions();
    if (legal.empty() || !s->Apply(player.Choose(s->game(), s->state(), legal)).ok()) break;
  }
  return std::make_unique<cli::WebGame>(std::move(s), ng.kinds, 5, 20);
}

std::string Message(uint8_t pick, const uint8_t* data, size_t size) {
  auto& games = NetGames();
  if (games.empty()) return "";
  static std::vector<std::unique_ptr<cli::WebGame>> live(games.size());
  const size_t i = pick % games.size();
  if (!live[i]) live[i] = NewWebGame(games[i]);
  cli::WebGame& web = *live[i];
  const int sides = web.seats()[0].sides;
  State before;
  std::memcpy(static_cast<void*>(&before), &web.session().state(), sizeof(State));
  const size_t actions = web.session().actions().size(), events = web.session().events().size();
  bool changed = false;
  std::string answer;
  try {
    answer = web.Handle(sides, std::string(reinterpret_cast<const char*>(data), size), &changed);
  } catch (const std::exception& e) {
    live[i].reset();
    return std::string("WebGame::Handle raised ") + e.what();
  }
  std::string problem;
  const auto j = nlohmann::json::parse(answer, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("t") || !j["t"].is_string()) {
    problem = "an answer is not a JSON object with a \"t\": " + answer.substr(0, 200);
  }
  if (!changed && (!before.Equals(web.session().state()) || web.session().actions().size() != actions ||
                   web.session().events().size() != events)) {
    problem = "a message reported no change but changed the game (answer " + answer.substr(0, 200) + ")";
  }
  if (changed) live[i].reset();  // the next input starts from the same position again
  return problem;
}

}  // namespace

std::string NetRequest(const uint8_t* data, size_t size) {
  if (size < 1) return "";
  try {
    if (data[0] % 2 == 0) return HttpRequest(data + 1, size - 1, data[0] / 2 % 64 + 1, data[0] >= 128);
    return Message(static_cast<uint8_t>(data[0] / 2), data + 1, size - 1);
  } catch (const std::exception& e) {
    return std::string("an exception escaped: ") + e.what();
  }
}

void PrepareNet() {
  NetGames();
  FuzzClub(false);
}

}  // namespace wg::fuzz
