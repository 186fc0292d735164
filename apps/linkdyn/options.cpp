// Options and progress shared by the commands: --digits, --max-steps and the grid it bounds,
// positive / non-negative checks, the progress line of long sweeps.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

#include "commands.hpp"

namespace linkdyn::cli {

int csv_digits = 0;

void add_digits_option(CLI::App* command) {
  command->add_option("--digits", csv_digits, "Significant digits in the CSV file (default: full double precision)")
      ->check(CLI::Range(1, 17));
}

namespace {
/// A finite number > 0 (>= 0 when `zero_allowed`) and below `below`.
CLI::Validator sign_check(bool zero_allowed, double below = std::numeric_limits<double>::infinity()) {
  return CLI::Validator(
      [zero_allowed, below](std::string& text) -> std::string {
        double value = 0.0;
        const char* const end = text.data() + text.size();
        const auto [at, error] = std::from_chars(text.data() + (text.starts_with('+') ? 1 : 0), end, value);
        if (at == end && (error == std::errc::result_out_of_range || !std::isfinite(value)))
          return "'" + text + "' is not a finite number";
        if (at != end || error != std::errc()) return "'" + text + "' is not a number";
        if ((zero_allowed ? value >= 0.0 : value > 0.0) && value < below) return "";
        return fmt::format("must be {}{}, not '{}'", zero_allowed ? "zero or more" : "greater than 0",
                           std::isinf(below) ? "" : fmt::format(" and less than {:g}", below), text);
      },
      zero_allowed        ? "NONNEGATIVE"
      : std::isinf(below) ? "POSITIVE"
                          : fmt::format("(0, {:g})", below));
}
}  // namespace

const CLI::Validator positive = sign_check(false);
const CLI::Validator non_negative = sign_check(true);
const CLI::Validator fraction = sign_check(false, 1.0);

CLI::Validator in_si(Quantity kind) {
  return CLI::Validator(
      [kind](std::string& text) {
        std::string problem;
        const std::optional<double> value = parse_quantity(text, kind, problem);
        if (!value) return problem;
        text = fmt::format("{}", *value);
        return std::string();
      },
      "NUMBER [" + accepted_units(kind) + "]");
}

double driver_quantity(const planar::Driver& driver, const std::string& text, int order, const std::string& option) {
  const bool rotational = driver.type == planar::DriverType::rotational;
  const Quantity kind = order == 0 ? (rotational ? Quantity::angle : Quantity::length)
                                   : (rotational ? Quantity::angular_velocity : Quantity::velocity);
  std::string problem;
  const std::optional<double> value = parse_quantity(text, kind, problem);
  if (!value)
    throw InputError({}, option, problem,
                     fmt::format("give a number in SI ({}) or with a unit ({}) for driver '{}'", si_unit(kind),
                                 accepted_units(kind), driver.name));
  return *value;
}

report::PointDirection point_direction(const std::string& text) {
  const size_t colon = text.rfind(':');
  const std::string fix = "give POINT:ANGLE with the angle's unit, e.g. T:90deg or T:-0.5rad";
  if (colon == std::string::npos || colon == 0) throw InputError({}, "--along " + text, "is not POINT:ANGLE", fix);
  const std::string angle = text.substr(colon + 1);
  // A bare number is refused: 90 would be 90 rad where degrees were likely meant.
  if (angle.find_first_of("abcdefghijklmnopqrstuvwxyz") == std::string::npos)
    throw InputError({}, "--along " + text, "the angle has no unit", fix);
  std::string problem;
  const std::optional<double> value = parse_quantity(angle, Quantity::angle, problem);
  if (!value) throw InputError({}, "--along " + text, problem, fix);
  return {text.substr(0, colon), *value};
}

namespace {
ProgressSink sweep_progress_sink(const std::string& what) {
  using Clock = std::chrono::steady_clock;
  struct State {
    Clock::time_point start = Clock::now(), loop_start = start;
    long loop_first = 0, previous = -1;
    double last = 0.0;  // when the last line was shown (s since start), 0: none yet
  };
  const bool tty = isatty(fileno(stderr)) != 0;
  auto state = std::make_shared<State>();
  return [=](long done, long total) {
    State& s = *state;
    const Clock::time_point now = Clock::now();
    if (done < s.previous) s.loop_start = now, s.loop_first = done;  // a new loop (a second pass)
    s.previous = done;
    if (done + 1 >= total) {  // the last row: the line makes way for the results
      if (tty && s.last > 0.0) fmt::print(stderr, "\r{:90}\r", "");
      return;
    }
    const double elapsed = std::chrono::duration<double>(now - s.start).count();
    if (elapsed < 2.0 || (s.last > 0.0 && elapsed - s.last < (tty ? 1.0 : 10.0))) return;
    s.last = elapsed;
    // The time left from this loop's own rate.
    const double loop_seconds = std::chrono::duration<double>(now - s.loop_start).count();
    const double rows_done = static_cast<double>(done - s.loop_first);
    const double left = rows_done > 0.0 ? loop_seconds * static_cast<double>(total - done) / rows_done : 0.0;
    fmt::print(stderr, "{}{}: {} of {} rows ({:.0f} %), about {:.0f} s left{}", tty ? "\r" : "", what, done, total,
               100.0 * static_cast<double>(done) / static_cast<double>(std::max(total, 1L)), left, tty ? "   " : "\n");
    std::fflush(stderr);
  };
}
}  // namespace

SweepProgress::SweepProgress(const std::string& what) : scope_(sweep_progress_sink(what)) {}

long max_steps = 1'000'000;

long output_every = 1;

void add_every_option(CLI::App* command) {
  command
      ->add_option("--every", output_every,
                   "Write every K-th row to the --csv/--json files (the first, each K-th and the last); the "
                   "summary still covers every row")
      ->check(positive)
      ->capture_default_str();
}

void add_method_options(CLI::App* command, std::string& method, double& rel_tol) {
  command
      ->add_option("--method", method,
                   "The direct dynamics' method: reduced (tabulated reduced model, fast, one DOF), full (whole "
                   "constrained model), kane (Kane's equations [004 App. B], any DOF) or auto (reduced for one DOF "
                   "where its tables converge, else kane, with a note)")
      ->check(CLI::IsMember({"auto", "reduced", "full", "kane"}))
      ->capture_default_str();
  command
      ->add_option("--rtol", rel_tol,
                   "Relative tolerance of the direct dynamics' integration (the reduced model's tables follow it)")
      ->check(fraction)
      ->capture_default_str();
}

void add_max_steps_option(CLI::App* command) {
  command
      ->add_option("--max-steps", max_steps,
                   "The most output rows (or table points, or flex's Newmark steps) computed: a larger request "
                   "(--steps, the model's steps:, --table-points, --substeps) is refused up front")
      ->check(positive)
      ->capture_default_str();
}

void require_within(long count, long limit, const std::string& limit_option, const SourceLocation& where,
                    const std::string& source, const std::string& what) {
  if (count > limit)
    throw InputError(where, source,
                     fmt::format("asks for {} {}, more than {} {} (time and memory grow with them)", count, what,
                                 limit_option, limit),
                     fmt::format("lower the {}, or raise {} if you mean it", what, limit_option));
}

void require_within_max_steps(long steps, const SourceLocation& where, const std::string& source,
                              const std::string& what) {
  require_within(steps, max_steps, "--max-steps", where, source, what);
}

planar::TimeGrid bounded_analysis_grid(const planar::Mechanism& m, int steps) {
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  if (steps > 0)
    require_within_max_steps(grid.steps, {}, "--steps");
  else
    require_within_max_steps(grid.steps, {m.spec().where.file, 0}, "the drivers' motion law (steps:)");
  return grid;
}

}  // namespace linkdyn::cli
