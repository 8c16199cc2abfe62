// Every bound `wargame serve` sets on what a peer can make it hold or do, in
// one place (docs/security.md explains each). The message bound
// itself, kMaxMessageBytes (1 MB: a POST body, a WebSocket message), is in
// web_game.h beside the game that reads the messages.
#pragma once

#include <chrono>
#include <cstddef>

namespace wg::cli {

using namespace std::chrono_literals;

// A request's line and header fields; a longer one is answered 431 and closed.
inline constexpr size_t kMaxHeaderBytes = 8 * 1024;
// A connection's read buffer: the header is parsed in it and a body (only a
// seat's, after its token was checked) streams through it into the request.
inline constexpr size_t kReadBufferBytes = 16 * 1024;

// Connections. A new one is unauthenticated until a request of it carries a
// seat's token; a tokenless page load stays so. When the unauthenticated
// budget (or one address's share of it) is full, the oldest unauthenticated
// connection (of that address) is closed to admit the new one: a flood cannot
// keep out a player, whose fresh connection shows its token at once.
inline constexpr size_t kMaxUnauthenticated = 64;
inline constexpr size_t kMaxUnauthenticatedPerAddress = 48;
// Each seat (token) has its own budget of authenticated connections (HTTP
// keep-alive and WebSockets); past it, that seat's oldest is closed, so one
// player cannot crowd out the other.
inline constexpr size_t kMaxPerSeat = 16;
inline constexpr size_t kMaxSeats = 2;
inline constexpr size_t kMaxConnections = kMaxUnauthenticated + kMaxSeats * kMaxPerSeat;
// A club (`wargame serve --club`) has a link per seat, spectator and creator of
// every game, each with kMaxPerSeat: all of them together hold at most this
// many authenticated connections (past it, the oldest is closed).
inline constexpr size_t kMaxClubAuthenticated = 512;
inline constexpr size_t kMaxClubConnections = kMaxUnauthenticated + kMaxClubAuthenticated;

// Timers. A new connection (and every unauthenticated one, for each request)
// must send its whole header within kHeaderTimeout (slowloris); a seat's
// keep-alive connection may idle kKeepAliveTimeout between requests.
inline constexpr auto kHeaderTimeout = 10s;
inline constexpr auto kKeepAliveTimeout = 60s;
inline constexpr auto kBodyTimeout = 30s;   // a seat's request body, once its header was accepted
inline constexpr auto kWriteTimeout = 30s;  // a response to be taken by the peer
// A refused request's unread body: the connection reads and drops at most
// kMaxLingerBytes for at most kLingerTimeout after the answer, so that closing
// it does not reset the answer away, then closes.
inline constexpr auto kLingerTimeout = 2s;
inline constexpr size_t kMaxLingerBytes = 64 * 1024;

// WebSockets: the opening handshake, and idleness (a ping at half of it; a
// page answers pings by itself, a dead peer is closed).
inline constexpr auto kWsHandshakeTimeout = 10s;
inline constexpr auto kWsIdleTimeout = 60s;
// A socket's unsent messages. State messages are coalesced (at most one
// unsent, the newest); past this many unsent bytes in more than one message,
// the peer is not reading and the socket is closed.
inline constexpr size_t kMaxWsQueueBytes = 4 << 20;

// accept() failing (descriptors exhausted, out of memory): retry after a
// pause doubling from kAcceptBackoffMin to kAcceptBackoffMax.
inline constexpr auto kAcceptBackoffMin = 10ms;
inline constexpr auto kAcceptBackoffMax = 1000ms;
// Connections closed by these bounds are counted, and the count is printed at
// most once per kLimitLogInterval (nothing is printed per connection).
inline constexpr auto kLimitLogInterval = 60s;

}  // namespace wg::cli
