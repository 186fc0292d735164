// Variants on every core: a pool of threads, each with its own evaluator (study::ThreadExecutor).
#include <sched.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/study/study.hpp"

namespace linkdyn::study {

int available_cores() {
  cpu_set_t set;  // the cores this process may run on (taskset, Slurm's binding), not the machine's
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

ThreadExecutor::ThreadExecutor(const io::Study& study, const io::ModelTemplate& model, int threads)
    : study_(study), model_(model) {
  threads_ = threads > 0 ? threads : available_cores();
  evaluators_.resize(static_cast<size_t>(threads_));
}

ThreadExecutor::~ThreadExecutor() = default;

void ThreadExecutor::run_pulling(const std::function<bool(size_t&)>& next, const TaskFunction& task,
                                 const std::function<void(size_t, std::vector<Variant>&&)>& done) {
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto worker = [&](size_t slot) {
    try {
      if (!evaluators_[slot]) evaluators_[slot] = std::make_unique<VariantEvaluator>(study_, model_);
      size_t index = 0;
      while (!stop && next(index)) {
        throw_if_stop_requested();
        std::vector<Variant> out;
        task(index, *evaluators_[slot], out);
        done(index, std::move(out));
      }
    } catch (...) {  // a defect (a variant's own failures are statuses): stop everyone, rethrow once
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      stop = true;
    }
  };
  std::vector<std::thread> pool;
  for (size_t slot = 1; slot < evaluators_.size(); ++slot) pool.emplace_back(worker, slot);
  worker(0);
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

std::vector<std::vector<Variant>> ThreadExecutor::run(size_t tasks, const TaskFunction& task, const TaskDone& done) {
  std::vector<std::vector<Variant>> results(tasks);
  std::atomic<size_t> next{0};
  std::mutex results_mutex;
  run_pulling(
      [&](size_t& index) {
        index = next++;
        return index < tasks;
      },
      task,
      [&](size_t index, std::vector<Variant>&& variants) {
        const std::lock_guard lock(results_mutex);
        if (done) done(index, variants, false);
        results[index] = std::move(variants);
      });
  return results;
}

}  // namespace linkdyn::study
