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
};

struct RouteDecision {
  Route route = Route::kBadRequest;
  // The token's sides when the request is a seat's (authenticates the connection), else 0.
  int sides = 0;
  // Only kApi reads a body.
  bool read_body = false;
  // A body was announced and will not be read: the connection closes after the answer.
  bool close_after = false;
};

// sides_of: a token -> the sides it plays (0: not a seat's). Never throws for any head.
RouteDecision RouteRequest(const RequestHead& head, const std::function<int(const std::string&)>& sides_of);
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
  // The connection showed the token of the seat playing `sides` (non-zero).
  void Authenticate(Id id, int sides, std::vector<Id>* evict);
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
};

}  // namespace wg::cli
