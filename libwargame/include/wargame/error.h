// Errors. Two kinds, as the style guide says: WG_CHECK for broken invariants
// (a bug: abort with a message), and Error / Result<T> for bad user input
// (a YAML file, a script line, an illegal action), which is returned, never thrown.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace wg {

// One problem with user input. For files: "file:line:col: key.path: message"
// (line and column 1-based). For refused actions: "rule: message".
struct Error {
  std::string file;
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
  std::string path;
  std::string message;
  std::string rule;  // the rule number an illegal action breaks, e.g. "6.1"

  std::string ToString() const;
};

class ErrorList {
 public:
  void Add(Error e) { errors_.push_back(std::move(e)); }
  void Append(const ErrorList& other) {
    errors_.insert(errors_.end(), other.errors_.begin(), other.errors_.end());
  }
  bool ok() const { return errors_.empty(); }
  size_t size() const { return errors_.size(); }
  const std::vector<Error>& errors() const { return errors_; }
  const Error& front() const { return errors_.front(); }
  // Every error on its own line.
  std::string ToString() const;

 private:
  std::vector<Error> errors_;
};

// A value or the errors that prevented it.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}           // NOLINT: implicit by design
  Result(ErrorList errors) : v_(std::move(errors)) {}  // NOLINT
  Result(Error error) {                                // NOLINT
    ErrorList l;
    l.Add(std::move(error));
    v_ = std::move(l);
  }
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const ErrorList& errors() const { return std::get<1>(v_); }

 private:
  std::variant<T, ErrorList> v_;
};

[[noreturn]] void CheckFailed(const char* file, int line, const char* cond, const std::string& msg);

// What Rules::Apply returns: success, or the rule the action breaks and why.
class Status {
 public:
  static Status Ok() { return Status(); }
  static Status Refused(std::string rule, std::string message) {
    Status s;
    s.ok_ = false;
    s.error_.rule = std::move(rule);
    s.error_.message = std::move(message);
    return s;
  }
  bool ok() const { return ok_; }
  const Error& error() const { return error_; }
  std::string ToString() const { return ok_ ? "ok" : error_.ToString(); }

 private:
  bool ok_ = true;
  Error error_;
};

}  // namespace wg

// Aborts with a message when an internal invariant is broken (a bug, not bad input).
#define WG_CHECK(cond, msg)                                        \
  do {                                                             \
    if (!(cond)) ::wg::CheckFailed(__FILE__, __LINE__, #cond, msg); \
  } while (0)
