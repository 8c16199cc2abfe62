#include "serve_route.h"

#include <nlohmann/json.hpp>

#include <cctype>

#include "serve_limits.h"
#include "web_game.h"

namespace wg::cli {

std::string TokenOf(std::string_view target) {
  const size_t q = target.find('?');
  if (q == std::string_view::npos) return "";
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view kv = query.substr(0, amp);
    if (kv.substr(0, 6) == "token=") {
      std::string t(kv.substr(6));
      if (t.size() > 64) return "";
      for (char c : t) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) return "";
      }
      return t;
    }
    if (amp == std::string_view::npos) break;
    query = query.substr(amp + 1);
  }
  return "";
}

std::string_view PathOf(std::string_view target) { return target.substr(0, target.find('?')); }

namespace {

Route ClubRouteOf(const RequestHead& h, std::string_view path, int sides) {
  const bool too_large = h.content_length && *h.content_length > kMaxMessageBytes;
  if (path == "/club/games") {
    if (!(sides & kClubHost)) return Route::kForbidden;
    if (h.method == "GET") return Route::kClubList;
    if (h.method != "POST") return Route::kMethodNotAllowed;
    return too_large ? Route::kTooLarge : Route::kClubCreate;
  }
  if (path == "/club/revoke") {
    if (!(sides & kCreator)) return Route::kForbidden;
    if (h.method != "POST") return Route::kMethodNotAllowed;
    return too_large ? Route::kTooLarge : Route::kClubRevoke;
  }
  return Route::kNotFound;
}

Route RouteOf(const RequestHead& h, std::string_view path, int sides, bool has_body, bool club) {
  if (club && path.substr(0, 6) == "/club/" && !h.upgrade) return ClubRouteOf(h, path, sides);
  // A game's page, state, messages and WebSocket: a seat's or a spectator's token.
  sides &= kSidesMask | kSpectator | kCreator;
  if (h.upgrade) {
    if (path != "/ws" || sides == 0) return Route::kForbidden;
    return h.method == "GET" && !has_body ? Route::kWebSocket : Route::kBadRequest;
  }
  if (path == "/" || path == "/index.html") return h.method == "GET" ? Route::kPage : Route::kMethodNotAllowed;
  if (path != "/api" && path != "/api/state") return Route::kNotFound;
  if (sides == 0) return Route::kForbidden;
  if (path == "/api/state") return h.method == "GET" ? Route::kState : Route::kMethodNotAllowed;
  if (h.method != "POST") return Route::kMethodNotAllowed;
  if (h.content_length && *h.content_length > kMaxMessageBytes) return Route::kTooLarge;
  return Route::kApi;
}

}  // namespace

RouteDecision RouteRequest(const RequestHead& head, const std::function<int(const std::string&)>& sides_of,
                           bool club) {
  const std::string_view path = PathOf(head.target);
  const std::string token = TokenOf(head.target);
  const int sides = token.empty() ? 0 : sides_of(token);
  const bool has_body = head.chunked || head.content_length.value_or(0) > 0;
  RouteDecision d;
  d.route = RouteOf(head, path, sides, has_body, club);
  const bool club_route = d.route == Route::kClubList || d.route == Route::kClubCreate || d.route == Route::kClubRevoke;
  const bool served = d.route == Route::kPage || d.route == Route::kState || d.route == Route::kApi ||
                      d.route == Route::kWebSocket || club_route;
  d.sides = served ? sides : 0;
  d.read_body = d.route == Route::kApi || d.route == Route::kClubCreate || d.route == Route::kClubRevoke;
  d.close_after = has_body && !d.read_body;
  return d;
}

int StatusOf(Route r) {
  switch (r) {
    case Route::kPage:
    case Route::kState:
    case Route::kApi:
    case Route::kClubList:
    case Route::kClubCreate:
    case Route::kClubRevoke:
      return 200;
    case Route::kWebSocket:
      return 101;
    case Route::kBadRequest:
      return 400;
    case Route::kForbidden:
      return 403;
    case Route::kNotFound:
      return 404;
    case Route::kMethodNotAllowed:
      return 405;
    case Route::kTooLarge:
      return 413;
  }
  return 400;
}

bool IsStateRequest(const std::string& message) {
  if (message.size() > 256) return false;
  const auto j = nlohmann::json::parse(message, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return false;
  const auto t = j.find("t");
  return t != j.end() && t->is_string() && t->get<std::string>() == "state";
}

ConnectionTable::Id ConnectionTable::Oldest(const std::function<bool(const Entry&)>& match) const {
  for (const auto& [id, e] : open_) {
    if (match(e)) return id;
  }
  return 0;
}

size_t ConnectionTable::Count(const std::function<bool(const Entry&)>& match) const {
  size_t n = 0;
  for (const auto& [id, e] : open_) n += match(e) ? 1 : 0;
  return n;
}

ConnectionTable::Id ConnectionTable::Open(const std::string& address, std::vector<Id>* evict) {
  const auto same = [&](const Entry& e) { return e.sides == 0 && e.address == address; };
  const auto any = [](const Entry& e) { return e.sides == 0; };
  // One address's share first (its own oldest goes), then the whole budget.
  if (Count(same) >= kMaxUnauthenticatedPerAddress) {
    const Id old = Oldest(same);
    open_.erase(old);
    evict->push_back(old);
  }
  if (Count(any) >= kMaxUnauthenticated) {
    const Id old = Oldest(any);
    open_.erase(old);
    evict->push_back(old);
  }
  const Id id = next_++;
  open_[id] = Entry{address, 0};
  return id;
}

void ConnectionTable::Authenticate(Id id, int sides, std::vector<Id>* evict) {
  const auto it = open_.find(id);
  if (it == open_.end() || sides == 0 || it->second.sides == sides) return;
  const auto seat = [&](const Entry& e) { return e.sides == sides; };
  if (Count(seat) >= kMaxPerSeat) {
    const Id old = Oldest(seat);
    open_.erase(old);
    evict->push_back(old);
  }
  if (max_authenticated_ && it->second.sides == 0 && authenticated() >= max_authenticated_) {
    const Id old = Oldest([&](const Entry& e) { return e.sides != 0; });
    open_.erase(old);
    evict->push_back(old);
  }
  it->second.sides = sides;
}

void ConnectionTable::CloseSeat(int sides, Id keep, std::vector<Id>* evict) {
  for (auto it = open_.begin(); it != open_.end();) {
    if (sides != 0 && it->second.sides == sides && it->first != keep) {
      evict->push_back(it->first);
      it = open_.erase(it);
    } else {
      ++it;
    }
  }
}

void ConnectionTable::Close(Id id) { open_.erase(id); }

ConnectionTable::Id ConnectionTable::OldestUnauthenticated() const {
  return Oldest([](const Entry& e) { return e.sides == 0; });
}

size_t ConnectionTable::unauthenticated() const {
  return Count([](const Entry& e) { return e.sides == 0; });
}

size_t ConnectionTable::authenticated() const { return open_.size() - unauthenticated(); }

}  // namespace wg::cli
