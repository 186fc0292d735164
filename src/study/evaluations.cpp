// The journal of a study (written as variants finish, read by --resume) and its progress.
#include "study/evaluations.hpp"

#include "study/hash.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace linkdyn::study {
namespace {

constexpr const char* journal_magic = "linkdyn-study-journal 1";

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string key(std::span<const double> x) {
  return {reinterpret_cast<const char*>(x.data()), x.size() * sizeof(double)};
}

/// Reads one number of a journal line; false at the end of the line or on garbage.
bool read_number(const char*& at, const char* end, double& value) {
  while (at < end && *at == ' ') ++at;
  const auto [next, error] = std::from_chars(at, end, value);
  if (error != std::errc() || next == at) return false;
  at = next;
  return true;
}

/// A journal line back into a variant; false for a line cut short by a kill.
bool parse_line(const std::string& line, size_t parameters, size_t metrics, Variant& v) {
  const char* at = line.data();
  const char* end = line.data() + line.size();
  v.parameters.resize(parameters), v.metrics.resize(metrics);
  for (double& p : v.parameters)
    if (!read_number(at, end, p)) return false;
  for (double& m : v.metrics)
    if (!read_number(at, end, m)) return false;
  while (at < end && *at == ' ') ++at;
  int status = -1;
  const auto [next, error] = std::from_chars(at, end, status);
  if (error != std::errc() || next == at || status < 0 || status >= status_count) return false;
  at = next;
  v.status = static_cast<Status>(status);
  if (at == end || *at != ' ') return false;
  v.reason.assign(at + 1, end);
  return true;
}

}  // namespace

Evaluations::Evaluations(const io::Study& study, const io::ModelTemplate& model, const StudyOptions& options,
                         bool writes)
    : options_(options), start_(std::chrono::steady_clock::now()), last_(start_) {
  if (options.journal.empty()) return;
  const std::string header = fmt::format(
      "{} {:016x}", journal_magic, fnv1a(model.text(), fnv1a(file_text(study.file))));  // these files, byte for byte
  const bool exists = std::filesystem::exists(options.journal);
  if (exists && !options.resume && writes)
    throw InputError({options.journal, 0}, "journal",
                     "an interrupted run of a study left this journal of its finished variants",
                     "add --resume to continue that run, or remove the file to start again");
  if (exists && options.resume) {
    // Whole lines only: a line a kill cut short (no newline) is dropped, and cut off the file
    // before the journal is appended to.
    const std::string text = file_text(options.journal);
    const size_t whole = text.rfind('\n') + 1;  // 0 when there is no newline
    std::istringstream lines(text.substr(0, whole));
    std::string line;
    if (!std::getline(lines, line) || line != header)
      throw InputError({options.journal, 1}, "journal",
                       "belongs to another study, or the study or its model changed since it was written",
                       "remove the file to start again (or restore the files of the interrupted run)");
    Variant v;
    while (std::getline(lines, line))
      if (parse_line(line, study.parameters.size(), study.metrics.size(), v)) cache_.emplace(key(v.parameters), v);
    if (writes && whole < text.size()) std::filesystem::resize_file(options.journal, whole);
  }
  if (!writes) return;
  journal_ = std::fopen(options.journal.c_str(), exists && options.resume ? "a" : "w");
  if (!journal_)
    throw InputError({options.journal, 0}, "journal", "cannot be written", "check the folder of the outputs");
  if (!(exists && options.resume)) fmt::print(journal_, "{}\n", header);
  std::fflush(journal_);
}

Evaluations::~Evaluations() {
  if (journal_) std::fclose(journal_);
}

void Evaluations::append(const Variant& v) {
  if (!journal_) return;
  std::string line;
  for (double p : v.parameters) line += fmt::format("{} ", p);
  for (double m : v.metrics) line += fmt::format("{} ", m);
  std::string reason = v.reason;
  std::replace(reason.begin(), reason.end(), '\n', ' ');
  line += fmt::format("{} {}\n", static_cast<int>(v.status), reason);
  const std::lock_guard lock(journal_mutex_);
  std::fputs(line.c_str(), journal_);
  std::fflush(journal_);  // a kill loses at most the line being written
}

void Evaluations::tick(size_t count) {
  done_ += count;
  const std::unique_lock lock(progress_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (!options_.progress || now - last_ < std::chrono::milliseconds(500)) return;
  last_ = now;
  options_.progress({done_, total_, std::chrono::duration<double>(now - start_).count()});
}

Variant Evaluations::evaluate(VariantEvaluator& evaluator, std::span<const double> x) {
  if (const auto hit = cache_.find(key(x)); hit != cache_.end()) {
    tick(1);
    return hit->second;
  }
  Variant v = evaluator.evaluate(x);
  append(v);
  tick(1);
  return v;
}

void Evaluations::record(const std::vector<Variant>& variants) {
  for (const Variant& v : variants)
    if (!cache_.contains(key(v.parameters))) append(v);
  tick(variants.size());
}

}  // namespace linkdyn::study
