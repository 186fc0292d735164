// Design studies over the ranks of an MPI job (study::MpiExecutor).
#include "linkdyn/study/mpi.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace linkdyn::study {
namespace {

constexpr int tag_request = 1;  ///< worker -> root: finished tasks' variants, and a request for more
constexpr int tag_work = 2;     ///< root -> worker: task indices (none: the phase is over)

int threads_per_rank(int threads) {
  if (threads > 0) return threads;
  if (const char* given = std::getenv("SLURM_CPUS_PER_TASK")) return std::max(1, std::atoi(given));
  // Open MPI binds each rank to a core by default when ranks <= cores: then the affinity is
  // the rank's share; unbound, the node's cores are shared among its ranks.
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const int ranks_here = local ? std::max(1, std::atoi(local)) : 1;
  const int cores = available_cores();
  const int machine = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return cores < machine ? cores : std::max(1, machine / ranks_here);
}

/// Variants as bytes and back: (task, count, variants) records.
class Bytes {
 public:
  std::vector<char> data;
  template <class T>
  void put(const T& value) {
    const char* p = reinterpret_cast<const char*>(&value);
    data.insert(data.end(), p, p + sizeof(T));
  }
  void put_task(size_t task, const std::vector<Variant>& variants) {
    put<std::uint64_t>(task);
    put<std::uint64_t>(variants.size());
    for (const Variant& v : variants) {
      put<std::uint64_t>(v.parameters.size());
      for (double x : v.parameters) put(x);
      put<std::uint64_t>(v.metrics.size());
      for (double x : v.metrics) put(x);
      put<std::int32_t>(static_cast<std::int32_t>(v.status));
      put<std::int32_t>(v.run);
      put<std::int32_t>(v.phase);
      put<std::uint8_t>(v.optimum ? 1 : 0);
      put<std::uint64_t>(v.reason.size());
      data.insert(data.end(), v.reason.begin(), v.reason.end());
    }
  }
};

class Reader {
 public:
  explicit Reader(const std::vector<char>& data) : data_(data) {}
  [[nodiscard]] bool done() const { return at_ >= data_.size(); }
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, data_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::pair<size_t, std::vector<Variant>> get_task() {
    const auto task = static_cast<size_t>(get<std::uint64_t>());
    std::vector<Variant> variants(static_cast<size_t>(get<std::uint64_t>()));
    for (Variant& v : variants) {
      v.parameters.resize(static_cast<size_t>(get<std::uint64_t>()));
      for (double& x : v.parameters) x = get<double>();
      v.metrics.resize(static_cast<size_t>(get<std::uint64_t>()));
      for (double& x : v.metrics) x = get<double>();
      v.status = static_cast<Status>(get<std::int32_t>());
      v.run = get<std::int32_t>();
      v.phase = get<std::int32_t>();
      v.optimum = get<std::uint8_t>() != 0;
      const auto length = static_cast<size_t>(get<std::uint64_t>());
      v.reason.assign(data_.data() + at_, length);
      at_ += length;
    }
    return {task, std::move(variants)};
  }

 private:
  const std::vector<char>& data_;
  size_t at_ = 0;
};

std::vector<char> receive(int source, int tag, int& from) {
  MPI_Status status;
  MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<char> data(static_cast<size_t>(count));
  MPI_Recv(data.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  from = status.MPI_SOURCE;
  return data;
}

void send(const std::vector<char>& data, int destination, int tag) {
  MPI_Send(data.data(), static_cast<int>(data.size()), MPI_BYTE, destination, tag, MPI_COMM_WORLD);
}

}  // namespace

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(variable)) return true;
  return false;
}

MpiExecutor::MpiExecutor(const io::Study& study, const io::ModelTemplate& model, int threads)
    : local_(study, model, threads_per_rank(threads)) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiExecutor::~MpiExecutor() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
}

void MpiExecutor::abort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

void MpiExecutor::barrier() { MPI_Barrier(MPI_COMM_WORLD); }

std::vector<std::vector<Variant>> MpiExecutor::run(size_t tasks, const TaskFunction& task, const TaskDone& done) {
  if (size_ == 1) return local_.run(tasks, task, done);
  if (rank_ != 0) {  // a worker: ask, run, send back with the next request
    Bytes outgoing;
    for (;;) {
      send(outgoing.data, 0, tag_request);
      outgoing.data.clear();
      int from = 0;
      const std::vector<char> work = receive(0, tag_work, from);
      if (work.empty()) return {};
      std::vector<std::uint64_t> indices(work.size() / sizeof(std::uint64_t));
      std::memcpy(indices.data(), work.data(), work.size());
      size_t next = 0;
      std::mutex mutex;
      local_.run_pulling(
          [&](size_t& index) {
            const std::lock_guard lock(mutex);
            if (next >= indices.size()) return false;
            index = static_cast<size_t>(indices[next++]);
            return true;
          },
          task,
          [&](size_t index, std::vector<Variant>&& variants) {
            const std::lock_guard lock(mutex);
            outgoing.put_task(index, variants);
          });
    }
  }
  // The root: its own threads take one task at a time; its main thread serves the workers.
  std::vector<std::vector<Variant>> results(tasks);
  std::mutex mutex;
  size_t next = 0;
  std::exception_ptr local_error;
  std::thread local([&] {
    try {
      local_.run_pulling(
          [&](size_t& index) {
            const std::lock_guard lock(mutex);
            if (next >= tasks) return false;
            index = next++;
            return true;
          },
          task,
          [&](size_t index, std::vector<Variant>&& variants) {
            const std::lock_guard lock(mutex);
            if (done) done(index, variants, false);
            results[index] = std::move(variants);
          });
    } catch (...) {
      local_error = std::current_exception();
    }
  });
  const size_t total_threads = static_cast<size_t>(size_) * static_cast<size_t>(local_.threads());
  int active = size_ - 1;
  try {
    serve(active, tasks, total_threads, next, mutex, results, done);
  } catch (...) {  // the local threads take no more tasks and end before the error goes on
    {
      const std::lock_guard lock(mutex);
      next = tasks;
    }
    local.join();
    throw;
  }
  local.join();
  if (local_error) std::rethrow_exception(local_error);
  return results;
}

void MpiExecutor::serve(int active, size_t tasks, size_t total_threads, size_t& next, std::mutex& mutex,
                        std::vector<std::vector<Variant>>& results, const TaskDone& done) {
  while (active > 0) {
    int waiting = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, tag_request, MPI_COMM_WORLD, &waiting, MPI_STATUS_IGNORE);
    if (!waiting) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    int worker = 0;
    const std::vector<char> finished = receive(MPI_ANY_SOURCE, tag_request, worker);
    Reader reader(finished);
    std::vector<std::uint64_t> chunk;
    {
      const std::lock_guard lock(mutex);
      while (!reader.done()) {
        auto [index, variants] = reader.get_task();
        if (done) done(index, variants, true);
        results[index] = std::move(variants);
      }
      // Guided scheduling: a share of what is left, never less than one task per thread.
      const size_t left = tasks - next;
      const size_t size = std::min(left, std::max<size_t>(local_.threads(), left / (2 * total_threads)));
      for (size_t k = 0; k < size; ++k) chunk.push_back(next++);
    }
    if (chunk.empty()) --active;
    std::vector<char> bytes(chunk.size() * sizeof(std::uint64_t));
    if (!chunk.empty()) std::memcpy(bytes.data(), chunk.data(), bytes.size());
    send(bytes, worker, tag_work);
  }
}

void MpiExecutor::share(std::vector<std::vector<Variant>>& results) {
  if (size_ == 1) return;
  Bytes bytes;
  if (rank_ == 0)
    for (size_t task = 0; task < results.size(); ++task) bytes.put_task(task, results[task]);
  std::uint64_t size = bytes.data.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  bytes.data.resize(static_cast<size_t>(size));
  MPI_Bcast(bytes.data.data(), static_cast<int>(size), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank_ == 0) return;
  Reader reader(bytes.data);
  results.clear();
  while (!reader.done()) {
    auto [task, variants] = reader.get_task();
    if (results.size() <= task) results.resize(task + 1);
    results[task] = std::move(variants);
  }
}

}  // namespace linkdyn::study
