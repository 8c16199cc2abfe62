// `wargame serve`: the game in the browser. One page (web/index.html, built
// into the program) and the game over HTTP and WebSocket (Boost.Beast), on
// 127.0.0.1 by default. All network work runs on one thread, so the WebGame
// needs no lock. The server reads no file named by a request: the only paths
// it answers are "/", "/api/state", "/api" (POST) and "/ws".
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <boost/program_options.hpp>

#include <chrono>
#include <deque>
#include <iostream>
#include <set>

#include "cli.h"
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

constexpr auto kIdleTimeout = std::chrono::seconds(60);
constexpr size_t kMaxHeaderBytes = 8192;

// "?token=abc&x=1" -> "abc" (hex digits only; anything else is no token).
std::string TokenOf(beast::string_view target) {
  const size_t q = target.find('?');
  if (q == beast::string_view::npos) return "";
  beast::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const beast::string_view kv = query.substr(0, amp);
    if (kv.substr(0, 6) == "token=") {
      std::string t(kv.substr(6));
      if (t.size() > 64) return "";
      for (char c : t) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) return "";
      }
      return t;
    }
    if (amp == beast::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return "";
}

beast::string_view PathOf(beast::string_view target) { return target.substr(0, target.find('?')); }

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

// The server: the game, the open WebSockets, the computer player's timer.
class Server {
 public:
  Server(asio::io_context& io, WebGame& game, int ai_delay_ms)
      : io_(io), game_(game), ai_timer_(io), ai_delay_ms_(ai_delay_ms) {}
  WebGame& game() { return game_; }
  asio::io_context& io() { return io_; }
  void Add(WsSession* s) { sockets_.insert(s); }
  void Remove(WsSession* s) { sockets_.erase(s); }
  // After a change: every page gets its state; the computer moves after a pause.
  void Changed();
  void ScheduleAi();

 private:
  asio::io_context& io_;
  WebGame& game_;
  std::set<WsSession*> sockets_;
  asio::steady_timer ai_timer_;
  int ai_delay_ms_;
  bool ai_pending_ = false;
};

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, Server& server, int sides)
      : ws_(std::move(socket)), server_(server), sides_(sides) {}
  ~WsSession() { server_.Remove(this); }

  void Run(http::request<http::string_body> req) {
    ws_.read_message_max(kMaxMessageBytes);
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->server_.Add(self.get());
      self->Send(self->server_.game().StateMessage(self->sides_));
      self->Read();
    });
  }
  void SendState() { Send(server_.game().StateMessage(sides_)); }

 private:
  void Read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {
        self->server_.Remove(self.get());
        return;
      }
      const std::string msg = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      bool changed = false;
      self->Send(HandleSafely(self->server_.game(), self->sides_, msg, &changed));
      if (changed) self->server_.Changed();
      self->Read();
    });
  }
  void Send(std::string text) {
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) Write();
  }
  void Write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {
        self->server_.Remove(self.get());
        return;
      }
      self->queue_.pop_front();
      if (!self->queue_.empty()) self->Write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  Server& server_;
  int sides_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
};

void Server::Changed() {
  for (WsSession* s : std::vector<WsSession*>(sockets_.begin(), sockets_.end())) s->SendState();
  ScheduleAi();
}

void Server::ScheduleAi() {
  if (ai_pending_ || !game_.AiToMove()) return;
  ai_pending_ = true;
  ai_timer_.expires_after(std::chrono::milliseconds(ai_delay_ms_));
  ai_timer_.async_wait([this](beast::error_code ec) {
    ai_pending_ = false;
    if (ec) return;
    bool moved = false;
    try {
      moved = game_.AiStep();
    } catch (const std::exception& e) {
      std::cerr << "wargame serve: the computer player raised " << e.what() << "\n";
    }
    if (moved) Changed();
  });
}

http::response<http::string_body> Reply(const http::request<http::string_body>& req, http::status status,
                                        const std::string& type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "wargame");
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

// One HTTP connection: the page, the state, POSTed messages; upgrades to a WebSocket.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Server& server) : stream_(std::move(socket)), server_(server) {}
  void Run() { Read(); }

 private:
  void Read() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxMessageBytes);
    stream_.expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) {
        if (ec != http::error::end_of_stream) self->SendError(ec);
        return;
      }
      self->OnRequest(self->parser_->release());
    });
  }
  // A request that does not parse (too long, garbage) gets 400 and the connection closes.
  void SendError(beast::error_code ec) {
    if (ec == beast::error::timeout || ec == asio::error::operation_aborted) return;
    http::request<http::string_body> dummy;
    auto res = Reply(dummy, http::status::bad_request, "text/plain", "bad request: " + ec.message() + "\n");
    res.keep_alive(false);
    Send(std::move(res));
  }
  void OnRequest(http::request<http::string_body> req);
  void Send(http::response<http::string_body> res) {
    auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
    http::async_write(stream_, *sp, [self = shared_from_this(), sp](beast::error_code ec, size_t) {
      if (ec || !sp->keep_alive()) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
      }
      self->Read();
    });
  }

  beast::tcp_stream stream_;
  Server& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

void HttpSession::OnRequest(http::request<http::string_body> req) {
  const beast::string_view path = PathOf(req.target());
  const int sides = server_.game().SidesOf(TokenOf(req.target()));
  if (websocket::is_upgrade(req)) {
    if (path != "/ws" || sides == 0) {
      return Send(Reply(req, http::status::forbidden, "text/plain", "a WebSocket needs /ws?token=<your link's token>\n"));
    }
    stream_.expires_never();
    std::make_shared<WsSession>(stream_.release_socket(), server_, sides)->Run(std::move(req));
    return;
  }
  if (req.method() == http::verb::get && (path == "/" || path == "/index.html")) {
    return Send(Reply(req, http::status::ok, "text/html; charset=utf-8", kWebIndexHtml));
  }
  const bool api = path == "/api" || path == "/api/state";
  if (!api) return Send(Reply(req, http::status::not_found, "text/plain", "not found\n"));
  if (sides == 0) return Send(Reply(req, http::status::forbidden, "application/json", "{\"t\":\"error\",\"message\":\"unknown token\"}"));
  if (path == "/api/state" && req.method() == http::verb::get) {
    return Send(Reply(req, http::status::ok, "application/json", server_.game().StateMessage(sides)));
  }
  if (path == "/api" && req.method() == http::verb::post) {
    bool changed = false;
    std::string answer = HandleSafely(server_.game(), sides, req.body(), &changed);
    if (changed) server_.Changed();
    return Send(Reply(req, http::status::ok, "application/json", std::move(answer)));
  }
  return Send(Reply(req, http::status::method_not_allowed, "text/plain", "method not allowed\n"));
}

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& io, tcp::endpoint ep, Server& server) : acceptor_(io), server_(server) {
    acceptor_.open(ep.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  void Accept() {
    acceptor_.async_accept([self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
      if (!ec) std::make_shared<HttpSession>(std::move(socket), self->server_)->Run();
      self->Accept();
    });
  }

 private:
  tcp::acceptor acceptor_;
  Server& server_;
};

}  // namespace

int RunServer(WebGame& game, const std::string& bind, int port, int ai_delay_ms) {
  asio::io_context io{1};
  Server server(io, game, ai_delay_ms);
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
  const Game& g = game.session().game();
  std::cout << g.title << "\nserving on http://" << bind << ":" << listener->port() << "/\n";
  for (const auto& seat : game.seats()) {
    std::string who;
    for (int i = 0; i < 2; ++i) {
      if ((seat.sides >> i) & 1) who += (who.empty() ? "" : " and ") + SideName(g, i);
    }
    std::cout << who << ": http://" << bind << ":" << listener->port() << "/?token=" << seat.token << "\n";
  }
  std::cout << std::flush;
  listener->Accept();
  server.ScheduleAi();
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { io.stop(); });
  io.run();
  return kExitOk;
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
      "fair dice: seconds a round may wait on one player before the other may claim the die (0: never)");
  po::positional_options_description pos;
  pos.add("game", 1);
  po::variables_map vm;
  const char* synopsis =
      "usage: wargame serve GAME [--scenario S] [--optional R,..] [--port P] [--players human,ai] [--seed N]\n"
      "       wargame serve --load SAVE [--players ...]";
  if (int rc = ParseOptions(argc, argv, desc, pos, &vm, "wargame serve", synopsis); rc >= 0) return rc;
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
