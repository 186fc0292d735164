#include "linkdyn/core/progress.hpp"

#include <utility>

namespace linkdyn {
namespace {
thread_local ProgressSink current;
}  // namespace

ProgressScope::ProgressScope(ProgressSink sink) : previous_(std::exchange(current, std::move(sink))) {}
ProgressScope::~ProgressScope() { current = std::move(previous_); }

void report_progress(long done, long total) {
  if (current) current(done, total);
}

}  // namespace linkdyn
