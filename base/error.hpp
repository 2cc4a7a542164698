// The three kinds of error (STYLE §3): bad input → InputError ("FILE:LINE: what"),
// misuse of an internal API → TDISC_REQUIRE (names the function), invariants → TDISC_ASSERT
// (base/assert.hpp, on in every build).
#pragma once
#include <stdexcept>
#include <string>

namespace tdisc {

// Bad input from a user's file or command line; carries where it was found.
class InputError : public std::runtime_error {
public:
  InputError(std::string file, int line, const std::string& what)
      : std::runtime_error(what), file_(std::move(file)), line_(line) {}
  explicit InputError(const std::string& what) : InputError("", 0, what) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  // "FILE:LINE: what", "FILE: what" or "what", as much as is known.
  std::string located() const {
    if (file_.empty()) return what();
    if (line_ <= 0) return file_ + ": " + what();
    return file_ + ":" + std::to_string(line_) + ": " + what();
  }

private:
  std::string file_;
  int line_;
};

// The file system refused (cannot read, cannot write): exit code 1 rather than 2.
class IoError : public InputError {
public:
  using InputError::InputError;
};

// A command line that cannot be obeyed (unknown flag, value out of range): exit code 1.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A caller broke an internal contract: a bug in tdisc, not in the input.
class ContractError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

}  // namespace tdisc

#define TDISC_REQUIRE(cond, msg)                                                              \
  do {                                                                                        \
    if (!(cond))                                                                              \
      throw ::tdisc::ContractError(std::string(__func__) + ": requirement failed: " #cond " — " + \
                                   std::string(msg));                                         \
  } while (0)
