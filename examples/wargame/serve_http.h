// The HTTP request parser of `wargame serve` with its limits, and what the
// router needs of a parsed header: shared by serve.cc and the `net` fuzz
// target, so that the fuzzer parses exactly as the server does.
#pragma once

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp uses std::exchange

#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include <cstdint>
#include <limits>

#include "serve_limits.h"
#include "serve_route.h"
#include "web_game.h"  // kMaxMessageBytes

namespace wg::cli {

using RequestParser = boost::beast::http::request_parser<boost::beast::http::string_body>;

// For the header: at most kMaxHeaderBytes, and no body limit yet (a body is
// read only once the router allows it, with BodyLimits).
// (Not boost::none: Beast 1.74 compares a Content-Length with an empty limit
// as over it.)
inline void HeaderLimits(RequestParser& p) {
  p.header_limit(kMaxHeaderBytes);
  p.body_limit(std::numeric_limits<std::uint64_t>::max());
}
// Before the body of a seat's request is read.
inline void BodyLimits(RequestParser& p) { p.body_limit(kMaxMessageBytes); }

// The head of a parsed header (its views point into the parser).
inline RequestHead HeadOf(const RequestParser& p) {
  const auto& req = p.get();
  RequestHead h;
  const auto method = req.method_string();
  h.method = std::string_view(method.data(), method.size());
  const auto target = req.target();
  h.target = std::string_view(target.data(), target.size());
  h.upgrade = boost::beast::websocket::is_upgrade(req);
  h.chunked = p.chunked();
  if (const auto n = p.content_length()) h.content_length = *n;
  return h;
}

}  // namespace wg::cli
