#pragma once
// Design studies on a cluster: the variants split over the ranks of an MPI job (mpirun, Slurm's
// srun), each rank on its threads, gathered on rank 0. Built when MPI is found (library
// linkdyn_study_mpi, linked by the command line alone: the main library never needs MPI).
#include <mutex>

#include "linkdyn/study/study.hpp"

namespace linkdyn::study {

/// Whether this process was started as a rank of an MPI job (Open MPI's, PMIx's or Slurm's
/// environment variables): a program started alone never initialises MPI.
[[nodiscard]] bool launched_by_mpi();

/// Rank 0 hands out tasks in chunks that shrink as the work runs out (dynamic balance: variants
/// have very different costs) and runs tasks on its own threads meanwhile; the other ranks ask
/// for chunks, run them on their threads and send the variants back with their next request.
/// The results on rank 0 are those of a single process, in task order, bit for bit.
class MpiExecutor : public Executor {
 public:
  /// Initialises MPI (threads: funneled). threads 0: the node's cores shared among its ranks.
  MpiExecutor(const io::Study& study, const io::ModelTemplate& model, int threads);
  ~MpiExecutor() override;
  MpiExecutor(const MpiExecutor&) = delete;
  MpiExecutor& operator=(const MpiExecutor&) = delete;

  [[nodiscard]] std::vector<std::vector<Variant>> run(size_t tasks, const TaskFunction& task,
                                                      const TaskDone& done) override;
  void share(std::vector<std::vector<Variant>>& results) override;
  [[nodiscard]] bool root() const override { return rank_ == 0; }
  [[nodiscard]] int threads() const override { return local_.threads(); }
  void barrier() override;
  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int ranks() const { return size_; }
  /// Ends every rank of the job with `code` (after an error on one of them).
  [[noreturn]] void abort(int code);

 private:
  /// Rank 0's main thread: the workers' requests served until each has been told to stop.
  void serve(int active, size_t tasks, size_t total_threads, size_t& next, std::mutex& mutex,
             std::vector<std::vector<Variant>>& results, const TaskDone& done);
  int rank_ = 0, size_ = 1;
  ThreadExecutor local_;
};

}  // namespace linkdyn::study
