// `wargame serve`: the game in the browser. One page (web/index.html, built
// into the program) and the game over HTTP and WebSocket (Boost.Beast), on
// 127.0.0.1 by default. All network work runs on one thread, so the WebGame
// needs no lock. The server reads no file named by a request: the only paths
// it answers are "/", "/api/state", "/api" (POST) and "/ws" (and, in a club,
// "/club/games" and "/club/revoke"). Every resource a peer can make it hold is
// bounded (serve_limits.h, docs/security.md).
//
// `wargame serve --club FILE` serves many games (club.h): a request's token
// picks its game, so each game is served by the same routes and code as the
// single game; every change is committed to the store before it is answered.
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "cli.h"
#include "club.h"
#include "serve_http.h"
#include "serve_limits.h"
#include "serve_route.h"
#include "web_game.h"

namespace po = boost::program_options;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace wg::cli {

extern const char kWebIndexHtml[];  // web_assets.cc, generated from web/index.html

namespace {

// A connection the server may close to keep within its budgets (ConnectionTable).
class Conn {
 public:
  virtual ~Conn() = default;
  // Closes the socket now (its descriptor is free on return); handlers then see operation_aborted.
  virtual void Evict() = 0;
};

class WsSession;

// WebGame::Handle answers every malformed message itself; should a library
// throw all the same, the message gets an error and the server goes on.
std::string HandleSafely(WebGame& game, int sides, const std::string& msg, bool* changed) {
  try {
    return game.Handle(sides, msg, changed);
  } catch (const std::exception& e) {
    std::cerr << "wargame serve: a message raised " << e.what() << "\n";
    return "{\"t\":\"error\",\"message\":\"internal error\"}";
  }
}

// A game being served: its WebGame, its open WebSockets, the computer
// player's timer; in a club, its record there.
struct Room {
  Room(asio::io_context& io, WebGame& g, Club::Game* c) : game(g), club_game(c), ai_timer(io) {}
  WebGame& game;
  Club::Game* club_game;  // nullptr: the single game of `wargame serve`
  std::set<WsSession*> sockets;
  asio::steady_timer ai_timer;
  bool ai_pending = false;
};

// What a request's token gives: a game (none for a club's key), the sides and
// roles (serve_route.h), and the connection budget it counts in.
struct Access {
  Room* room = nullptr;
  int sides = 0;
  int key = 0;
};

// The server: the games, the open connections and their budgets, the open
// WebSockets, the computer players' timers.
class Server {
 public:
  using Id = ConnectionTable::Id;
  Server(asio::io_context& io, int ai_delay_ms) : io_(io), ai_delay_ms_(ai_delay_ms) {}
  // The single game of `wargame serve`.
  void ServeGame(WebGame& game) { single_ = std::make_unique<Room>(io_, game, nullptr); }
  // A club's games.
  void ServeClub(Club& club) {
    club_ = &club;
    table_.set_max_authenticated(kMaxClubAuthenticated);
  }
  bool club() const { return club_ != nullptr; }
  Club& the_club() { return *club_; }
  std::optional<Access> Resolve(const std::string& token) {
    if (!club_) {
      const int sides = single_->game.SidesOf(token);
      if (!sides) return std::nullopt;
      return Access{single_.get(), sides, sides};
    }
    const auto a = club_->Resolve(token);
    if (!a) return std::nullopt;
    return Access{a->game ? &RoomOf(*a->game) : nullptr, a->role, a->key};
  }
  Room& RoomOf(Club::Game& g) {
    auto& r = rooms_[&g];
    if (!r) r = std::make_unique<Room>(io_, *g.web, &g);
    return *r;
  }
  // Every game's computer player, at the start.
  void ScheduleAllAi() {
    if (single_) ScheduleAi(*single_);
    if (club_) {
      for (const auto& [id, g] : club_->games()) ScheduleAi(RoomOf(*g));
    }
  }
  // After a change, before it is acknowledged: a club commits it to its store.
  // "" or the store's error (then the game is back to its stored save).
  std::string Persist(Room& room) {
    if (!club_ || !room.club_game) return "";
    std::string e;
    try {
      e = club_->Commit(*room.club_game);
    } catch (const std::exception& x) {
      e = x.what();
    }
    if (!e.empty()) std::cerr << "wargame serve: game " << room.club_game->id << " not saved: " << e << "\n";
    return e;
  }
  void AddSocket(Room& room, WsSession* s) { room.sockets.insert(s); }
  void RemoveSocket(Room& room, WsSession* s) { room.sockets.erase(s); }
  // After a change: every page gets its state; the computer moves after a pause.
  void Changed(Room& room);
  void ScheduleAi(Room& room);
  // A revoked link: its connections close.
  void CloseSeat(int key, Id keep) {
    std::vector<Id> evict;
    table_.CloseSeat(key, keep, &evict);
    EvictAll(evict);
  }

  // A new connection (unauthenticated), which may close the oldest to make room.
  Id Open(const std::string& address, std::weak_ptr<Conn> conn) {
    std::vector<Id> evict;
    const Id id = table_.Open(address, &evict);
    conns_[id] = std::move(conn);
    EvictAll(evict);
    return id;
  }
  // The connection changed hands (its HTTP session became a WebSocket).
  void Attach(Id id, std::weak_ptr<Conn> conn) {
    if (table_.is_open(id)) conns_[id] = std::move(conn);
  }
  void Authenticate(Id id, int sides) {
    std::vector<Id> evict;
    table_.Authenticate(id, sides, &evict);
    EvictAll(evict);
  }
  void Close(Id id) {
    table_.Close(id);
    conns_.erase(id);
  }
  // Descriptors ran out: closes the oldest unauthenticated connection (false: none).
  bool EvictOldestUnauthenticated() {
    const Id id = table_.OldestUnauthenticated();
    if (id == 0) return false;
    table_.Close(id);
    EvictAll({id});
    return true;
  }
  // A connection closed or refused by a bound: counted, and summed up in one
  // line at most once per kLimitLogInterval (an attack floods no log).
  void NoteLimit() {
    ++limited_;
    const auto now = std::chrono::steady_clock::now();
    if (logged_ && now - last_log_ < kLimitLogInterval) return;
    std::cerr << "wargame serve: " << limited_ << " connection(s) closed or refused by the server's limits"
              << (logged_ ? " in the last minutes" : "") << " (connection budgets, descriptors, a WebSocket not reading; "
              << "at most one such line a minute)\n";
    limited_ = 0;
    last_log_ = now;
    logged_ = true;
  }

 private:
  void EvictAll(const std::vector<Id>& ids) {
    for (Id id : ids) {
      NoteLimit();
      const auto it = conns_.find(id);
      if (it == conns_.end()) continue;
      const std::shared_ptr<Conn> c = it->second.lock();
      conns_.erase(it);
      if (c) c->Evict();
    }
  }

  asio::io_context& io_;
  std::unique_ptr<Room> single_;
  Club* club_ = nullptr;
  std::map<Club::Game*, std::unique_ptr<Room>> rooms_;
  ConnectionTable table_;
  std::map<Id, std::weak_ptr<Conn>> conns_;
  size_t limited_ = 0;
  bool logged_ = false;
  std::chrono::steady_clock::time_point last_log_;
  int ai_delay_ms_;
};

// A club's request: should anything throw, the answer is an error (500) and the server goes on.
std::string ClubSafely(int* status, const std::function<std::string()>& handle) {
  try {
    return handle();
  } catch (const std::exception& e) {
    std::cerr << "wargame serve: a club request raised " << e.what() << "\n";
    *status = 500;
    return ErrorAnswer("internal error");
  }
}

// A message to a game: handled, and a change committed (a club) before the answer is sent.
std::string HandleAndPersist(Server& server, Room& room, int sides, const std::string& msg, bool* changed) {
  std::string answer = HandleSafely(room.game, sides, msg, changed);
  if (*changed) {
    if (const std::string e = server.Persist(room); !e.empty()) {
      answer = ErrorAnswer("not saved, so not done (the game is as it was): " + e);
    }
  }
  return answer;
}

// A page's WebSocket: its messages and their answers, and every state after a
// change. Unsent state messages are coalesced (the newest replaces an unsent
// one); a peer leaving more than kMaxWsQueueBytes unsent is closed.
class WsSession : public Conn, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, Server& server, Room& room, int sides, Server::Id id)
      : ws_(std::move(socket)), server_(server), room_(room), sides_(sides), id_(id) {}
  ~WsSession() override {
    server_.RemoveSocket(room_, this);
    if (id_) server_.Close(id_);
  }

  void Run(http::request<http::string_body> req) {
    server_.Attach(id_, weak_from_this());
    ws_.read_message_max(kMaxMessageBytes);
    websocket::stream_base::timeout t{};
    t.handshake_timeout = kWsHandshakeTimeout;
    t.idle_timeout = kWsIdleTimeout;
    t.keep_alive_pings = true;
    ws_.set_option(t);
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->server_.AddSocket(self->room_, self.get());
      self->SendState();
      self->Read();
    });
  }
  void SendState() { Send(room_.game.StateMessage(sides_), /*state=*/true); }
  void Evict() override {
    id_ = 0;
    closed_ = true;
    server_.RemoveSocket(room_, this);
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().close(ec);
  }

 private:
  void Read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->Stop();
      const std::string msg = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      if (self->buffer_.capacity() > kReadBufferBytes) self->buffer_.shrink_to_fit();
      bool changed = false;
      self->Send(HandleAndPersist(self->server_, self->room_, self->sides_, msg, &changed), IsStateRequest(msg));
      if (changed) self->server_.Changed(self->room_);
      if (!self->closed_) self->Read();
    });
  }
  void Stop() {
    closed_ = true;
    server_.RemoveSocket(room_, this);
  }
  void Send(std::string text, bool state) {
    if (closed_) return;
    if (state) {  // at most one unsent state message: the newest
      for (auto it = queue_.begin() + (writing_ ? 1 : 0); it != queue_.end(); ++it) {
        if (!it->state) continue;
        unsent_bytes_ -= it->text.size();
        queue_.erase(it);
        break;
      }
    }
    unsent_bytes_ += text.size();
    queue_.push_back(Out{std::move(text), state});
    const size_t unsent = queue_.size() - (writing_ ? 1 : 0);
    if (unsent > 1 && unsent_bytes_ > kMaxWsQueueBytes) {  // the peer does not read
      server_.NoteLimit();
      server_.Close(id_);
      return Evict();
    }
    if (!writing_) Write();
  }
  void Write() {
    writing_ = true;
    unsent_bytes_ -= queue_.front().text.size();
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front().text), [self = shared_from_this()](beast::error_code ec, size_t) {
      self->writing_ = false;
      if (ec) return self->Stop();
      self->queue_.pop_front();
      if (!self->queue_.empty() && !self->closed_) self->Write();
    });
  }

  struct Out {
    std::string text;
    bool state = false;
  };
  websocket::stream<beast::tcp_stream> ws_;
  Server& server_;
  Room& room_;
  int sides_;
  Server::Id id_;
  beast::flat_buffer buffer_;
  std::deque<Out> queue_;  // the front is being written while writing_
  size_t unsent_bytes_ = 0;
  bool writing_ = false;
  bool closed_ = false;
};

void Server::Changed(Room& room) {
  for (WsSession* s : std::vector<WsSession*>(room.sockets.begin(), room.sockets.end())) s->SendState();
  ScheduleAi(room);
}

void Server::ScheduleAi(Room& room) {
  if (room.ai_pending || !room.game.AiToMove()) return;
  room.ai_pending = true;
  room.ai_timer.expires_after(std::chrono::milliseconds(ai_delay_ms_));
  room.ai_timer.async_wait([this, &room](beast::error_code ec) {
    room.ai_pending = false;
    if (ec) return;
    bool moved = false;
    try {
      moved = room.game.AiStep();
    } catch (const std::exception& e) {
      std::cerr << "wargame serve: the computer player raised " << e.what() << "\n";
    }
    if (moved) {
      Persist(room);
      Changed(room);
    }
  });
}

template <class Body>
void SetHeaders(http::response<Body>& res, const std::string& type) {
  res.set(http::field::server, "wargame");
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.set("X-Content-Type-Options", "nosniff");
}

// The answer of a route that is not the page (the page's body is not copied: PageResponse).
http::response<http::string_body> Reply(unsigned version, int status, const std::string& type, std::string body) {
  http::response<http::string_body> res{static_cast<http::status>(status), version};
  SetHeaders(res, type);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

http::response<http::span_body<const char>> PageResponse(unsigned version) {
  static const size_t size = std::strlen(kWebIndexHtml);
  http::response<http::span_body<const char>> res{http::status::ok, version};
  SetHeaders(res, "text/html; charset=utf-8");
  res.body() = beast::span<const char>(kWebIndexHtml, size);
  res.prepare_payload();
  return res;
}

// The text of a refusal.
std::string RefusalText(Route r) {
  switch (r) {
    case Route::kForbidden:
      return "{\"t\":\"error\",\"message\":\"unknown token: a WebSocket or the API needs ?token=<your link's token>\"}";
    case Route::kNotFound:
      return "not found\n";
    case Route::kMethodNotAllowed:
      return "method not allowed\n";
    case Route::kTooLarge:
      return "request body too large (1 MB at most)\n";
    default:
      return "bad request\n";
  }
}

// One HTTP connection: the page, the state, POSTed messages; upgrades to a
// WebSocket. Each request's header is read first and routed (RouteRequest);
// only a seat's POST to /api has its body read.
class HttpSession : public Conn, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Server& server)
      : stream_(std::move(socket)), server_(server), buffer_(kReadBufferBytes) {}
  ~HttpSession() override {
    if (id_) server_.Close(id_);
  }
  void Run(const std::string& address) {
    id_ = server_.Open(address, weak_from_this());
    ReadHeader();
  }
  void Evict() override {
    id_ = 0;
    stream_.close();
  }

 private:
  void ReadHeader() {
    parser_.emplace();
    HeaderLimits(*parser_);
    stream_.expires_after(sides_ ? std::chrono::steady_clock::duration(kKeepAliveTimeout) : kHeaderTimeout);
    http::async_read_header(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      self->OnHeader(ec);
    });
  }
  void OnHeader(beast::error_code ec) {
    if (ec) return ReadFailed(ec);
    std::optional<Access> access;
    const RouteDecision d = RouteRequest(
        HeadOf(*parser_),
        [&](const std::string& t) {
          access = server_.Resolve(t);
          return access ? access->sides : 0;
        },
        server_.club());
    room_ = nullptr;
    if (d.sides && access) {
      sides_ = d.sides;
      room_ = access->room;
      server_.Authenticate(id_, access->key);
    }
    if (!d.read_body) return Answer(d);
    BodyLimits(*parser_);
    stream_.expires_after(kBodyTimeout);
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this(), d](beast::error_code ec, size_t) {
      if (ec) return self->ReadFailed(ec);
      self->Answer(d);
    });
  }
  // A request that does not parse (too long, garbage) gets 400, 413 or 431 and the connection closes.
  void ReadFailed(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::operation_aborted ||
        ec == asio::error::eof || ec == asio::error::connection_reset) {
      return;
    }
    int status = 400;
    if (ec == http::error::header_limit || ec == http::error::buffer_overflow) status = 431;
    if (ec == http::error::body_limit) status = 413;
    Send(Reply(11, status, "text/plain", "bad request: " + ec.message() + "\n"), /*keep_alive=*/false);
  }
  void Answer(const RouteDecision& d) {
    const auto& req = parser_->get();
    const unsigned v = req.version();
    const bool keep = req.keep_alive() && !d.close_after;
    switch (d.route) {
      case Route::kPage:
        return Send(PageResponse(v), keep);
      case Route::kWebSocket:
      case Route::kState:
      case Route::kApi:
        if (!room_) {  // a club's key is no game's (the router refuses it already)
          return Send(Reply(v, 403, "application/json", RefusalText(Route::kForbidden)), keep);
        }
        if (d.route == Route::kWebSocket) return Upgrade();
        if (d.route == Route::kState) return Send(Reply(v, 200, "application/json", room_->game.StateMessage(d.sides)), keep);
        {
          bool changed = false;
          std::string answer = HandleAndPersist(server_, *room_, d.sides, req.body(), &changed);
          parser_.reset();  // the body is not kept while the answer is written
          if (changed) server_.Changed(*room_);
          return Send(Reply(v, 200, "application/json", std::move(answer)), keep);
        }
      case Route::kClubList: {
        int status = 200;
        std::string answer = ClubSafely(&status, [&] { return server_.the_club().List(); });
        return Send(Reply(v, status, "application/json", std::move(answer)), keep);
      }
      case Route::kClubCreate: {
        int status = 400;
        std::string answer = ClubSafely(&status, [&] { return server_.the_club().Create(req.body(), &status); });
        parser_.reset();
        if (status == 200) {
          const auto j = nlohmann::json::parse(answer, nullptr, false);
          if (auto* g = j.is_object() ? FindGame(j.value("id", "")) : nullptr) server_.ScheduleAi(server_.RoomOf(*g));
        }
        return Send(Reply(v, status, "application/json", std::move(answer)), keep);
      }
      case Route::kClubRevoke: {
        int status = 400, closed = 0;
        Club::Access creator{room_ ? room_->club_game : nullptr, d.sides, 0};
        std::string answer =
            ClubSafely(&status, [&] { return server_.the_club().Revoke(creator, req.body(), &status, &closed); });
        parser_.reset();
        Send(Reply(v, status, "application/json", std::move(answer)), keep);
        if (closed) server_.CloseSeat(closed, id_);  // not this connection: its answer holds the new link
        return;
      }
      default:
        break;
    }
    const bool json = d.route == Route::kForbidden;
    Send(Reply(v, StatusOf(d.route), json ? "application/json" : "text/plain", RefusalText(d.route)), keep);
  }
  Club::Game* FindGame(const std::string& id) {
    const auto& games = server_.the_club().games();
    const auto it = games.find(id);
    return it == games.end() ? nullptr : it->second.get();
  }
  void Upgrade() {
    stream_.expires_never();
    auto ws = std::make_shared<WsSession>(stream_.release_socket(), server_, *room_, sides_, id_);
    id_ = 0;  // the WebSocket holds the connection's place now
    ws->Run(parser_->release());
  }
  template <class Body>
  void Send(http::response<Body> res, bool keep_alive) {
    res.keep_alive(keep_alive);
    auto sp = std::make_shared<http::response<Body>>(std::move(res));
    stream_.expires_after(kWriteTimeout);
    http::async_write(stream_, *sp, [self = shared_from_this(), sp](beast::error_code ec, size_t) {
      if (ec) return;
      if (!sp->keep_alive()) return self->Linger();
      self->ReadHeader();
    });
  }
  // Closing with unread bytes would reset the connection and could lose the
  // answer: stop sending, then read and drop a bounded amount for a short while.
  void Linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(kLingerTimeout);
    Drain();
  }
  void Drain() {
    static char sink[4096];  // one thread; what is read is dropped
    stream_.async_read_some(asio::buffer(sink), [self = shared_from_this()](beast::error_code ec, size_t n) {
      self->lingered_ += n;
      if (!ec && self->lingered_ < kMaxLingerBytes) self->Drain();
    });
  }

  beast::tcp_stream stream_;
  Server& server_;
  beast::flat_buffer buffer_;
  std::optional<RequestParser> parser_;
  Server::Id id_ = 0;
  int sides_ = 0;  // the sides of the last seat's token shown (0: unauthenticated)
  Room* room_ = nullptr;  // the game of this request's token
  size_t lingered_ = 0;
};

// Accepts connections. accept() failing does not spin: descriptors exhausted
// close the oldest unauthenticated connection (or, with none, refuse one
// waiting connection through a spare descriptor), and every failure waits
// kAcceptBackoffMin, doubling to kAcceptBackoffMax, before the next accept.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, tcp::endpoint ep, Server& server) : acceptor_(io), retry_(io), server_(server) {
    acceptor_.open(ep.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen(asio::socket_base::max_listen_connections);
    acceptor_.non_blocking(true);
    spare_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  }
  ~Listener() {
    if (spare_ >= 0) ::close(spare_);
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  void Accept() {
    acceptor_.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
      self->OnAccept(ec, std::move(socket));
    });
  }

 private:
  void OnAccept(beast::error_code ec, tcp::socket socket) {
    if (!ec) {
      backoff_ = {};
      beast::error_code e;
      const tcp::endpoint remote = socket.remote_endpoint(e);
      if (!e) std::make_shared<HttpSession>(std::move(socket), server_)->Run(remote.address().to_string());
      return Accept();
    }
    if (ec == asio::error::operation_aborted) return;
    const bool no_fd = ec == asio::error::no_descriptors ||
                       ec == beast::error_code(ENFILE, boost::system::system_category());
    if (no_fd) {
      if (server_.EvictOldestUnauthenticated()) return Accept();  // a descriptor is free now
      RefuseOne();
    }
    backoff_ = backoff_ == std::chrono::milliseconds{} ? kAcceptBackoffMin : std::min(backoff_ * 2, kAcceptBackoffMax);
    retry_.expires_after(backoff_);
    retry_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e) self->Accept();
    });
  }
  // No descriptor left for a waiting connection: the spare one takes it, to close it.
  void RefuseOne() {
    server_.NoteLimit();
    if (spare_ < 0) return;
    ::close(spare_);
    beast::error_code e;
    tcp::socket dropped = acceptor_.accept(e);  // non-blocking: would_block when none waits
    dropped.close(e);
    spare_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  }

  tcp::acceptor acceptor_;
  asio::steady_timer retry_;
  Server& server_;
  int spare_ = -1;  // a descriptor kept open on /dev/null for RefuseOne
  std::chrono::milliseconds backoff_{};
};

}  // namespace

// The server of RunServer, never destroyed (the io_context's destructor destroys
// the sessions still waiting, and they tell the server), kept reachable here, a
// name other files could read, so the store is kept and LeakSanitizer sees it.
void* g_running_server = nullptr;

namespace {

// Listens and runs until SIGINT/SIGTERM; `announce` prints what to open, with the port.
int Serve(Server& server, asio::io_context& io, const std::string& bind, int port,
          const std::function<void(unsigned short)>& announce) {
  std::shared_ptr<Listener> listener;
  beast::error_code ec;
  const auto address = asio::ip::make_address(bind, ec);
  if (ec) {
    std::cerr << "wargame serve: bad --bind address \"" << bind << "\"\n";
    return kExitUsage;
  }
  try {
    listener = std::make_shared<Listener>(io, tcp::endpoint{address, static_cast<unsigned short>(port)}, server);
  } catch (const boost::system::system_error& e) {
    std::cerr << "wargame serve: cannot listen on " << bind << ":" << port << ": " << e.what() << "\n";
    return kExitError;
  }
  announce(listener->port());
  std::cout << std::flush;
  listener->Accept();
  server.ScheduleAllAi();
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { io.stop(); });
  io.run();
  return kExitOk;
}

}  // namespace

int RunServer(WebGame& game, const std::string& bind, int port, int ai_delay_ms) {
  asio::io_context io{1};
  auto* server_ptr = new Server(io, ai_delay_ms);
  g_running_server = server_ptr;
  Server& server = *server_ptr;
  server.ServeGame(game);
  return Serve(server, io, bind, port, [&](unsigned short p) {
    const Game& g = game.session().game();
    std::cout << g.title << "\nserving on http://" << bind << ":" << p << "/\n";
    for (const auto& seat : game.seats()) {
      std::string who;
      for (int i = 0; i < 2; ++i) {
        if ((seat.sides >> i) & 1) who += (who.empty() ? "" : " and ") + SideName(g, i);
      }
      std::cout << who << ": http://" << bind << ":" << p << "/?token=" << seat.token << "\n";
    }
  });
}

int RunClub(const std::string& path, const std::string& bind, int port, int ai_delay_ms, int ai_budget) {
  std::string error;
  auto store = OpenClubStore(path, &error);
  if (!store) {
    std::cerr << "wargame serve: " << error << "\n";
    return kExitError;
  }
  auto* club = new Club(std::move(store), ai_budget);  // never destroyed, as the server
  if (const std::string bad = club->Load(); !bad.empty()) std::cerr << "wargame serve: " << path << ": " << bad;
  const std::string key = club->NewHostKey();
  asio::io_context io{1};
  auto* server_ptr = new Server(io, ai_delay_ms);
  g_running_server = server_ptr;
  Server& server = *server_ptr;
  server.ServeClub(*club);
  return Serve(server, io, bind, port, [&](unsigned short p) {
    const bool uri = path.find("://") != std::string::npos;  // may hold a password: not printed
    std::cout << "club: " << (uri ? "" : path + " ") << "(" << club->store().kind() << "), " << club->games().size() << " game(s)\n"
              << "serving on http://" << bind << ":" << p << "/\n"
              << "club key (lists and creates games; a new one at each start): " << key << "\n"
              << "lobby: http://" << bind << ":" << p << "/?token=" << key << "\n"
              << "games: http://" << bind << ":" << p << "/club/games?token=" << key << "\n";
  });
}

}  // namespace wg::cli

namespace wg::cli {

int CmdServe(int argc, char** argv) {
  po::options_description desc("options");
  desc.add_options()("help,h", "this help")("game", po::value<std::string>(), "GAME: ruleset name with options, or a ruleset folder")(
      "scenario", po::value<std::string>(), "scenario name or file")(
      "optional", po::value<std::string>(), "optional rules to enable, comma separated")(
      "load", po::value<std::string>(), "continue this saved game instead of starting one")(
      "seed", po::value<uint64_t>()->default_value(1), "dice and computer player seed")(
      "dice", po::value<std::string>(), "die values to use first, comma separated (a referee's dice, as in play)")(
      "players", po::value<std::string>()->default_value("human,ai"),
      "two players, first side first: human (this page; two humans play hot-seat), remote (its own link), ai")(
      "port", po::value<int>()->default_value(8080), "TCP port (0: any free port)")(
      "bind", po::value<std::string>()->default_value("127.0.0.1"), "address to listen on")(
      "ai-delay", po::value<int>()->default_value(600), "pause before each computer action, milliseconds")(
      "ai-budget", po::value<int>()->default_value(0), "the ai player's work per decision (0: its default)")(
      "dice-deadline", po::value<long>()->default_value(86400),
      "fair dice: seconds a round may wait on one player before the other may claim the die (0: never)")(
      "club", po::value<std::string>(), "FILE.sqlite or postgresql://...: serve many games kept in this SQLite "
                                        "file (created if needed) or PostgreSQL database, made and listed over HTTP "
                                        "with the club key printed at start");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  const char* synopsis =
      "usage: wargame serve GAME [--scenario S] [--optional R,..] [--port P] [--players human,ai] [--seed N]\n"
      "       wargame serve --load SAVE [--players ...]\n"
      "       wargame serve --club FILE.sqlite [--port P] [--bind ADDR]";
  if (int rc = ParseOptions(argc, argv, desc, pos, &vm, "wargame serve", synopsis); rc >= 0) return rc;
  if (vm.count("club")) {
    for (const char* o : {"game", "scenario", "optional", "load", "dice"}) {
      if (vm.count(o)) {
        std::cerr << "wargame serve: --club serves the games created over HTTP (POST /club/games): no "
                  << (std::string(o) == "game" ? "GAME" : "--" + std::string(o)) << "\n";
        return kExitUsage;
      }
    }
    const int port = vm["port"].as<int>();
    if (port < 0 || port > 65535 || vm["ai-delay"].as<int>() < 0) {
      std::cerr << "wargame serve: --port must be 0-65535 and --ai-delay >= 0\n";
      return kExitUsage;
    }
    return RunClub(vm["club"].as<std::string>(), vm["bind"].as<std::string>(), port, vm["ai-delay"].as<int>(),
                   vm["ai-budget"].as<int>());
  }
  std::vector<std::string> kinds = SplitList(vm["players"].as<std::string>());
  if (kinds.size() == 1) kinds.push_back(kinds[0]);
  for (const auto& k : kinds) {
    if (k != "human" && k != "remote" && k != "ai") {
      std::cerr << "wargame serve: unknown player \"" << k << "\" (human, remote, ai)\n";
      return kExitUsage;
    }
  }
  if (kinds.size() != 2 || (kinds[0] == "ai" && kinds[1] == "ai")) {
    std::cerr << "wargame serve: --players takes two players with at least one human or remote, e.g. human,ai\n";
    return kExitUsage;
  }
  const int port = vm["port"].as<int>();
  if (port < 0 || port > 65535 || vm["ai-delay"].as<int>() < 0 || vm["dice-deadline"].as<long>() < 0 ||
      vm["dice-deadline"].as<long>() > 10L * 365 * 86400) {
    std::cerr << "wargame serve: --port must be 0-65535, --ai-delay >= 0 and --dice-deadline 0 to 315360000\n";
    return kExitUsage;
  }
  if (!vm.count("game") && !vm.count("load")) {
    std::cerr << "wargame serve: GAME or --load SAVE is required\n" << synopsis << "\n";
    return kExitUsage;
  }
  const uint64_t seed = vm["seed"].as<uint64_t>();
  auto session = OpenGame(vm.count("game") ? vm["game"].as<std::string>() : "",
                          vm.count("scenario") ? vm["scenario"].as<std::string>() : "",
                          vm.count("optional") ? vm["optional"].as<std::string>() : "",
                          vm.count("load") ? vm["load"].as<std::string>() : "", seed,
                          /*supplied_dice=*/kinds[0] == "remote" && kinds[1] == "remote");
  if (!session.ok()) {
    PrintErrors(session.errors());
    return kExitError;
  }
  const bool two_remote = kinds[0] == "remote" && kinds[1] == "remote";
  if (two_remote && !(*session)->supplied_only()) {
    std::cerr << "wargame serve: fair remote dice need a game whose every die is drawn by commit-reveal, and this "
                 "save's dice are seeded (anyone holding the save can compute them): continue it with human or ai "
                 "players, or start a new game with --players remote,remote\n";
    return kExitUsage;
  }
  if (vm.count("dice")) {
    if (two_remote) {
      std::cerr << "wargame serve: --dice with two remote players would let whoever starts the server choose "
                   "their dice: the dice are drawn by commit-reveal\n";
      return kExitUsage;
    }
    std::vector<int> dice;
    if (!ParseDiceList(vm["dice"].as<std::string>(), &dice)) {
      std::cerr << "wargame serve: bad --dice \"" << vm["dice"].as<std::string>() << "\" (values 1-1000, e.g. 3,5,1)\n";
      return kExitUsage;
    }
    (*session)->SupplyDice(dice);
  }
  WebGame game(std::move(*session), kinds, seed, vm["ai-budget"].as<int>());
  game.set_dice_deadline(vm["dice-deadline"].as<long>());
  if (vm.count("load")) {  // OpenGame verified the save's fair dice
    std::string text;
    FairDiceRecord record;
    if (ReadFile(vm["load"].as<std::string>(), &text)) VerifyFairDice(text, vm["load"].as<std::string>(), &record);
    if (const std::string bad = game.SetFairDice(std::move(record)); !bad.empty()) {
      std::cerr << vm["load"].as<std::string>() << ": " << bad << "\n";
      return kExitError;
    }
  }
  return RunServer(game, vm["bind"].as<std::string>(), port, vm["ai-delay"].as<int>());
}

}  // namespace wg::cli
