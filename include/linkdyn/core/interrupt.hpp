#pragma once
// A stop asked from outside the computation (Ctrl-C at the command line): the long loops (sweep
// rows, integrator steps, table points, study variants) poll it and end cleanly, so that what
// is written is whole and says it stopped.
#include <stdexcept>
#include <string>

namespace linkdyn {

/// The run was stopped on request. Exit code 130 (128 + SIGINT, as shells report Ctrl-C).
class Interrupted : public std::runtime_error {
 public:
  /// "interrupted (Ctrl-C)", then `next` (what is kept and how to go on) when given.
  explicit Interrupted(const std::string& next = "");
  static constexpr int exit_code = 130;
};

/// Asks every running analysis to stop at its next row or step. Async-signal-safe: a SIGINT
/// handler may call it.
void request_stop() noexcept;
/// Withdraws the request (a new run in the same process).
void clear_stop_request() noexcept;
[[nodiscard]] bool stop_requested() noexcept;
/// Throws Interrupted when a stop was asked.
inline void throw_if_stop_requested() {
  if (stop_requested()) throw Interrupted();
}

}  // namespace linkdyn
