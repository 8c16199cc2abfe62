// What `wargame serve` does with a request, decided from its request line and
// header alone (before any body is read), and the connection budgets of
// serve_limits.h: pure code without sockets, which serve.cc, the unit tests
// (tests/web_game_test.cc) and the `net` fuzz target (fuzz/net_target.cc) call.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wg::cli {

// "?token=abc&x=1" -> "abc" (hex digits only, at most 64; anything else is no token).
std::string TokenOf(std::string_view target);
// "/api?token=x" -> "/api".
std::string_view PathOf(std::string_view target);

// What the parser knows once the header is read.
struct RequestHead {
  std::string_view method;  // "GET", "POST", ...
  std::string_view target;  // "/api?token=..."
  bool upgrade = false;     // asks for a WebSocket
  bool chunked = false;     // a chunked body follows
  std::optional<uint64_t> content_length;
};

// The roles a token may carry besides the sides it plays (bits 0 and 1), in
// `wargame serve --club` (club.h): a spectator reads a game and acts for no
// side; a game's creator may also revoke its links; the club's key lists and
// creates games. The single game of `wargame serve` has seats only.
inline constexpr int kSidesMask = 3;
inline constexpr int kSpectator = 4;
inline constexpr int kCreator = 8;
inline constexpr int kClubHost = 16;

enum class Route {
  kPage,              // 200, the page
  kState,             // 200, the state for the token's sides
  kApi,               // the body is read (bounded) and handled as a message
  kWebSocket,         // upgrade
  kBadRequest,        // 400
  kForbidden,         // 403: no seat's token
  kNotFound,          // 404
  kMethodNotAllowed,  // 405
  kTooLarge,          // 413: a Content-Length over kMaxMessageBytes
  // `wargame serve --club` only:
  kClubList,          // GET /club/games with the club's key: the games
  kClubCreate,        // POST /club/games with the club's key: a new game (the body is read, bounded)
  kClubRevoke,        // POST /club/revoke with a game's creator link (the body is read, bounded)
};

struct RouteDecision {
  Route route = Route::kBadRequest;
  // The token's sides (and roles) when the request is a seat's, a spectator's or
  // the club's (authenticates the connection), else 0.
  int sides = 0;
  // Only kApi and the club's POSTs read a body.
  bool read_body = false;
  // A body was announced and will not be read: the connection closes after the answer.
  bool close_after = false;
};

// sides_of: a token -> the sides it plays (0: not a seat's), with the role bits
// above in a club. club: the /club/ paths are answered (else 404, as any
// unknown path). Never throws for any head.
RouteDecision RouteRequest(const RequestHead& head, const std::function<int(const std::string&)>& sides_of,
                           bool club = false);
// The HTTP status of a route's answer (200 for the routes that answer).
int StatusOf(Route r);

// A WebSocket message asking for the state ({"t":"state"}, short): its answer may be coalesced.
bool IsStateRequest(const std::string& message);

// The open connections and their budgets (serve_limits.h). Ids grow, so the
// smallest is the oldest. Every call appends to *evict the connections the
// caller must now close (already forgotten here).
class ConnectionTable {
 public:
  using Id = uint64_t;
  // A new, unauthenticated connection from `address`.
  Id Open(const std::string& address, std::vector<Id>* evict);
  // The connection showed the token of the seat playing `sides` (non-zero): in
  // the single game the sides, in a club a number per link (its own budget).
  void Authenticate(Id id, int sides, std::vector<Id>* evict);
  // Every connection of that seat but `keep` is closed (a revoked link; keep:
  // the connection that revoked it, whose answer is being sent).
  void CloseSeat(int sides, Id keep, std::vector<Id>* evict);
  // At most this many authenticated connections in all (a club, whose links
  // are many): past it, the oldest authenticated one is closed. 0: no bound
  // but the seats' (the single game: kMaxSeats x kMaxPerSeat).
  void set_max_authenticated(size_t n) { max_authenticated_ = n; }
  // Closed (unknown ids are ignored).
  void Close(Id id);
  // The oldest unauthenticated connection, or 0.
  Id OldestUnauthenticated() const;
  size_t unauthenticated() const;
  size_t authenticated() const;
  bool is_open(Id id) const { return open_.count(id) > 0; }

 private:
  struct Entry {
    std::string address;
    int sides = 0;  // 0: unauthenticated
  };
  // The oldest connection matching, or 0.
  Id Oldest(const std::function<bool(const Entry&)>& match) const;
  size_t Count(const std::function<bool(const Entry&)>& match) const;
  std::map<Id, Entry> open_;
  Id next_ = 1;
  size_t max_authenticated_ = 0;
};

}  // namespace wg::cli
