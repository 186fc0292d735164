#pragma once
// The variants of a run and of earlier runs: a journal written as variants finish, read back by
// --resume so that no finished variant is evaluated again; progress for a display.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <unordered_map>

#include "linkdyn/study/study.hpp"

namespace linkdyn::study {

class Evaluations {
 public:
  /// On the root (`writes`), the journal is opened for appending; with options.resume the
  /// variants it holds are read first (every rank reads them).
  Evaluations(const io::Study& study, const io::ModelTemplate& model, const StudyOptions& options, bool writes);
  ~Evaluations();
  Evaluations(const Evaluations&) = delete;
  Evaluations& operator=(const Evaluations&) = delete;

  /// The variant at x: from an earlier run's journal, else evaluated (and journaled, on the root).
  [[nodiscard]] Variant evaluate(VariantEvaluator& evaluator, std::span<const double> x);
  /// Variants another rank evaluated: journaled and counted here.
  void record(const std::vector<Variant>& variants);
  /// The number of variants a progress display counts up to.
  void expect(size_t total) { total_ = total; }
  [[nodiscard]] size_t resumed() const { return cache_.size(); }

 private:
  void append(const Variant& v);
  void tick(size_t count);

  const StudyOptions& options_;
  std::unordered_map<std::string, Variant> cache_;  ///< by the parameters' bytes
  std::FILE* journal_ = nullptr;
  std::mutex journal_mutex_, progress_mutex_;
  std::atomic<size_t> done_{0};
  size_t total_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace linkdyn::study
