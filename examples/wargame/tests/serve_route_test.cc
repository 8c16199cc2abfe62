// The routing decision and the connection budgets of `wargame serve`
// (serve_route.h), without sockets: what is read, refused or closed.
#include "serve_route.h"

#include <gtest/gtest.h>

#include "serve_http.h"
#include "serve_limits.h"
#include "web_game.h"

namespace wg::cli {
namespace {

const std::string kToken = "0123456789abcdef0123456789abcdef";

int SidesOf(const std::string& t) { return t == kToken ? 1 : 0; }

RouteDecision Decide(std::string_view method, std::string_view target, std::optional<uint64_t> length = {},
                     bool upgrade = false, bool chunked = false) {
  RequestHead h;
  h.method = method;
  h.target = target;
  h.content_length = length;
  h.upgrade = upgrade;
  h.chunked = chunked;
  return RouteRequest(h, SidesOf);
}

TEST(ServeRoute, TokenAndPath) {
  EXPECT_EQ(TokenOf("/api?token=abc&x=1"), "abc");
  EXPECT_EQ(TokenOf("/api?x=1&token=ABC"), "ABC");
  EXPECT_EQ(TokenOf("/api?token=zz"), "");
  EXPECT_EQ(TokenOf("/api?token=" + std::string(65, 'a')), "");
  EXPECT_EQ(TokenOf("/api"), "");
  EXPECT_EQ(PathOf("/api?token=1"), "/api");
}

TEST(ServeRoute, TheSeatsRequests) {
  const std::string q = "?token=" + kToken;
  EXPECT_EQ(Decide("GET", "/").route, Route::kPage);
  EXPECT_EQ(Decide("GET", "/").sides, 0);  // a tokenless page load stays unauthenticated
  EXPECT_EQ(Decide("GET", "/" + q).sides, 1);
  const RouteDecision state = Decide("GET", "/api/state" + q);
  EXPECT_EQ(state.route, Route::kState);
  EXPECT_EQ(state.sides, 1);
  EXPECT_FALSE(state.read_body);
  const RouteDecision api = Decide("POST", "/api" + q, 100);
  EXPECT_EQ(api.route, Route::kApi);
  EXPECT_TRUE(api.read_body);
  EXPECT_FALSE(api.close_after);
  EXPECT_EQ(Decide("POST", "/api" + q, {}, false, true).route, Route::kApi);  // chunked: the parser bounds it
  EXPECT_EQ(Decide("GET", "/ws" + q, {}, true).route, Route::kWebSocket);
}

TEST(ServeRoute, RefusedBeforeAnyBodyIsRead) {
  // No token, another token, a body too long: refused from the header; the body is never read.
  for (const auto& d : {Decide("POST", "/api", 1000000), Decide("POST", "/api?token=00", 1000000),
                        Decide("POST", "/api?token=" + kToken, kMaxMessageBytes + 1),
                        Decide("POST", "/nowhere", 5), Decide("GET", "/", 10), Decide("POST", "/api", {}, false, true)}) {
    EXPECT_FALSE(d.read_body);
    EXPECT_TRUE(d.close_after);
    EXPECT_EQ(d.sides, 0);
  }
  EXPECT_EQ(Decide("POST", "/api", 1000000).route, Route::kForbidden);
  EXPECT_EQ(Decide("POST", "/api?token=" + kToken, kMaxMessageBytes + 1).route, Route::kTooLarge);
  EXPECT_EQ(StatusOf(Route::kTooLarge), 413);
  EXPECT_EQ(Decide("GET", "/ws", {}, true).route, Route::kForbidden);
  EXPECT_EQ(Decide("GET", "/api?token=" + kToken, {}, true).route, Route::kForbidden);
  EXPECT_EQ(Decide("GET", "/../etc/passwd").route, Route::kNotFound);
  EXPECT_EQ(Decide("DELETE", "/api/state?token=" + kToken).route, Route::kMethodNotAllowed);
  EXPECT_EQ(Decide("GET", "/api/state").route, Route::kForbidden);
  EXPECT_FALSE(Decide("GET", "/api/state").close_after);  // no body: keep-alive allowed
}

TEST(ServeRoute, TheParserStopsAtTheHeader) {
  RequestParser p;
  HeaderLimits(p);
  const std::string head = "POST /api HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nabc";
  boost::beast::error_code ec;
  p.eager(false);
  const size_t used = p.put(boost::asio::buffer(head), ec);
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_TRUE(p.is_header_done());
  EXPECT_EQ(used, head.size() - 3);  // the body is left where it is
  const RouteDecision d = RouteRequest(HeadOf(p), SidesOf);
  EXPECT_EQ(d.route, Route::kForbidden);
  RequestParser big;
  HeaderLimits(big);
  const std::string long_head = "GET / HTTP/1.1\r\nX: " + std::string(kMaxHeaderBytes, 'a') + "\r\n\r\n";
  big.put(boost::asio::buffer(long_head), ec);
  EXPECT_EQ(ec, boost::beast::http::error::header_limit);
}

TEST(ServeRoute, StateRequestsAreRecognized) {
  EXPECT_TRUE(IsStateRequest(R"({"t":"state"})"));
  EXPECT_TRUE(IsStateRequest(R"({ "t" : "state" })"));
  EXPECT_FALSE(IsStateRequest(R"({"t":"export"})"));
  EXPECT_FALSE(IsStateRequest("[not json"));
  EXPECT_FALSE(IsStateRequest(R"({"t":"state","pad":")" + std::string(300, 'x') + "\"}"));
}

TEST(ConnectionTable, AFloodEvictsTheOldestUnauthenticatedNeverASeat) {
  ConnectionTable t;
  std::vector<ConnectionTable::Id> evict;
  const auto player = t.Open("127.0.0.1", &evict);
  t.Authenticate(player, 1, &evict);
  EXPECT_TRUE(evict.empty());
  std::vector<ConnectionTable::Id> flood;
  for (int i = 0; i < 300; ++i) flood.push_back(t.Open("127.0.0.1", &evict));
  EXPECT_EQ(t.unauthenticated(), kMaxUnauthenticatedPerAddress);
  EXPECT_EQ(evict.size(), 300 - kMaxUnauthenticatedPerAddress);
  EXPECT_EQ(evict.front(), flood.front());  // the oldest first
  EXPECT_TRUE(t.is_open(player));
  EXPECT_TRUE(t.is_open(flood.back()));
  // A newcomer from the same address gets in (and can show its token).
  evict.clear();
  const auto newcomer = t.Open("127.0.0.1", &evict);
  EXPECT_TRUE(t.is_open(newcomer));
  ASSERT_EQ(evict.size(), 1u);
  EXPECT_EQ(t.OldestUnauthenticated(), evict[0] + 1);
}

TEST(ConnectionTable, BudgetsPerAddressAndPerSeat) {
  ConnectionTable t;
  std::vector<ConnectionTable::Id> evict;
  for (size_t i = 0; i < kMaxUnauthenticatedPerAddress; ++i) t.Open("10.0.0.1", &evict);
  const auto other = t.Open("10.0.0.2", &evict);
  for (int i = 0; i < 100; ++i) t.Open("10.0.0.1", &evict);  // evicts only its own
  EXPECT_TRUE(t.is_open(other));
  for (int i = 0; i < 100; ++i) t.Open(std::to_string(i), &evict);  // the whole budget
  EXPECT_EQ(t.unauthenticated(), kMaxUnauthenticated);
  EXPECT_FALSE(t.is_open(other));
  // One seat's connections never evict the other's.
  ConnectionTable s;
  evict.clear();
  const auto two = s.Open("a", &evict);
  s.Authenticate(two, 2, &evict);
  for (size_t i = 0; i < 3 * kMaxPerSeat; ++i) s.Authenticate(s.Open("a", &evict), 1, &evict);
  EXPECT_TRUE(s.is_open(two));
  EXPECT_EQ(s.authenticated(), kMaxPerSeat + 1);
  EXPECT_EQ(evict.size(), 2 * kMaxPerSeat);
  s.Close(two);
  s.Close(two);  // twice: ignored
  EXPECT_EQ(s.authenticated(), kMaxPerSeat);
}

// A club (`wargame serve --club`): the tokens' roles (club.h).
const std::string kSpect = std::string(32, 'a'), kCreate = std::string(32, 'b'), kHost = std::string(32, 'c');

int ClubRoleOf(const std::string& t) {
  if (t == kToken) return 2;
  if (t == kSpect) return kSpectator;
  if (t == kCreate) return kSpectator | kCreator;
  return t == kHost ? kClubHost : 0;
}

RouteDecision DecideClub(std::string_view method, std::string_view target, std::optional<uint64_t> length = {},
                         bool upgrade = false) {
  RequestHead h;
  h.method = method;
  h.target = target;
  h.content_length = length;
  h.upgrade = upgrade;
  return RouteRequest(h, ClubRoleOf, /*club=*/true);
}

TEST(ServeRoute, TheClubsRoutesNeedTheirRole) {
  const auto q = [](const std::string& t) { return "?token=" + t; };
  // The club's key lists and creates games, and reads or plays none.
  EXPECT_EQ(DecideClub("GET", "/club/games" + q(kHost)).route, Route::kClubList);
  const RouteDecision create = DecideClub("POST", "/club/games" + q(kHost), 100);
  EXPECT_EQ(create.route, Route::kClubCreate);
  EXPECT_TRUE(create.read_body);
  EXPECT_EQ(DecideClub("POST", "/club/games" + q(kHost), kMaxMessageBytes + 1).route, Route::kTooLarge);
  EXPECT_FALSE(DecideClub("POST", "/club/games" + q(kHost), kMaxMessageBytes + 1).read_body);
  for (const std::string path : {"/api/state", "/api", "/ws"}) {
    EXPECT_EQ(DecideClub(path == "/api" ? "POST" : "GET", path + q(kHost), {}, path == "/ws").route, Route::kForbidden)
        << path;
  }
  // No other token lists, creates or revokes, and no body is read for them.
  for (const std::string& t : {kToken, kSpect, kCreate, std::string("00")}) {
    EXPECT_EQ(DecideClub("GET", "/club/games" + q(t)).route, Route::kForbidden);
    const RouteDecision d = DecideClub("POST", "/club/games" + q(t), 100);
    EXPECT_EQ(d.route, Route::kForbidden);
    EXPECT_FALSE(d.read_body);
    EXPECT_TRUE(d.close_after);
  }
  for (const std::string& t : {kToken, kSpect, kHost}) {
    EXPECT_EQ(DecideClub("POST", "/club/revoke" + q(t), 10).route, Route::kForbidden);
  }
  EXPECT_EQ(DecideClub("POST", "/club/revoke" + q(kCreate), 10).route, Route::kClubRevoke);
  EXPECT_EQ(DecideClub("GET", "/club/revoke" + q(kCreate)).route, Route::kMethodNotAllowed);
  EXPECT_EQ(DecideClub("GET", "/club/other" + q(kHost)).route, Route::kNotFound);
  // A spectator (and the creator) reads the game's state and socket, and may post (state and odds only: WebGame).
  for (const std::string& t : {kSpect, kCreate}) {
    EXPECT_EQ(DecideClub("GET", "/api/state" + q(t)).route, Route::kState);
    EXPECT_EQ(DecideClub("GET", "/ws" + q(t), {}, true).route, Route::kWebSocket);
    EXPECT_EQ(DecideClub("POST", "/api" + q(t), 10).route, Route::kApi);
  }
  // Without --club the club's paths are unknown, whatever the token.
  EXPECT_EQ(Decide("GET", "/club/games" + q(kToken)).route, Route::kNotFound);
  RequestHead h;
  h.method = "GET";
  const std::string target = "/club/games?token=" + kHost;
  h.target = target;
  EXPECT_EQ(RouteRequest(h, ClubRoleOf).route, Route::kNotFound);
}

TEST(ConnectionTable, AClubBoundsItsAuthenticatedConnectionsAndClosesARevokedLink) {
  ConnectionTable t;
  t.set_max_authenticated(kMaxClubAuthenticated);
  std::vector<ConnectionTable::Id> evict;
  const auto first = t.Open("a", &evict);
  t.Authenticate(first, 1, &evict);
  for (int link = 2; link < static_cast<int>(kMaxClubAuthenticated) + 40; ++link) {
    t.Authenticate(t.Open("a", &evict), link, &evict);
  }
  EXPECT_EQ(t.authenticated(), kMaxClubAuthenticated);
  EXPECT_FALSE(t.is_open(first));  // the oldest went
  EXPECT_EQ(evict.size(), 39u);
  evict.clear();
  const auto x = t.Open("b", &evict), y = t.Open("b", &evict);
  t.Authenticate(x, 7777, &evict);
  t.Authenticate(y, 7777, &evict);
  evict.clear();
  const auto z = t.Open("b", &evict);
  t.Authenticate(z, 7777, &evict);
  evict.clear();
  t.CloseSeat(7777, z, &evict);  // z revoked it: its answer is being sent
  EXPECT_EQ(evict, (std::vector<ConnectionTable::Id>{x, y}));
  EXPECT_FALSE(t.is_open(x));
  EXPECT_FALSE(t.is_open(y));
  EXPECT_TRUE(t.is_open(z));
}

}  // namespace
}  // namespace wg::cli
