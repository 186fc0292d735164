#pragma once
// Progress of the long loops (the rows of a sweep) for whoever runs them: a sink installed for
// the calling thread while a ProgressScope lives. Without one, reporting costs a test.
#include <functional>

namespace linkdyn {

/// Receives `done` of `total` units of the current loop.
using ProgressSink = std::function<void(long done, long total)>;

/// Installs `sink` for this thread while the object lives (the previous one after).
class ProgressScope {
 public:
  explicit ProgressScope(ProgressSink sink);
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  ProgressSink previous_;
};

/// Reports to this thread's sink, if any.
void report_progress(long done, long total);

}  // namespace linkdyn
