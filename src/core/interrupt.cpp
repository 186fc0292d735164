#include "linkdyn/core/interrupt.hpp"

#include <atomic>

namespace linkdyn {
namespace {
std::atomic<bool> stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may set it");
}  // namespace

Interrupted::Interrupted(const std::string& next)
    : std::runtime_error(next.empty() ? "interrupted (Ctrl-C)" : "interrupted (Ctrl-C): " + next) {}

void request_stop() noexcept { stop.store(true, std::memory_order_relaxed); }
void clear_stop_request() noexcept { stop.store(false, std::memory_order_relaxed); }
bool stop_requested() noexcept { return stop.load(std::memory_order_relaxed); }

}  // namespace linkdyn
