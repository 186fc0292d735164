#pragma once
// The command line: one file per command.
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include <memory>
#include <cstdio>
#include <string>

#include "linkdyn/core/progress.hpp"
#include "linkdyn/core/units.hpp"
#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/io/svg_plot.hpp"
#include "linkdyn/report/plots.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::cli {

void add_check_command(CLI::App& app);
void add_kinematics_command(CLI::App& app);
void add_kinetostatics_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_reduce_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_robot_command(CLI::App& app);
void add_mass_command(CLI::App& app);
void add_flex_command(CLI::App& app);
void add_study_command(CLI::App& app);

// Text helpers shared by the commands.
/// Prints the sweep's intervals and events.
void print_sweep_events(const planar::Mechanism& m, const planar::SweepSummary& summary);
/// Significant digits of the CSV files (0: full double precision), set by --digits.
extern int csv_digits;
/// Adds --digits to a command that writes CSV files.
void add_digits_option(CLI::App* command);
/// The files a planar model reads: the model file, its load tables and tabulated motion laws.
std::vector<std::string> model_inputs(const planar::MechanismSpec& spec);
/// Writes the table as CSV and/or JSON with `metadata` (when the paths are given), each whole or
/// not at all (io::write_file); an output that is one of `inputs` is refused (InputError).
void write_table_files(const Table& table, const std::string& csv, const std::string& json,
                       const nlohmann::ordered_json& metadata, const std::vector<std::string>& inputs);
/// A column's range over the rows and where its magnitude peaks, gathered chunk by chunk: the
/// summaries printed on the terminal.
struct ColumnRange {
  double lo = INFINITY, hi = -INFINITY, peak = -1.0, t_peak = 0.0;
};
/// Widens `ranges` (one per column) by the rows; where a magnitude peaks is the first column's
/// value (the time), or with first_row >= 0 the row's number counted from first_row.
void update_ranges(const Table& rows, std::vector<ColumnRange>& ranges, long first_row = -1);
/// InputError when an output (option, path; empty paths skipped) is one of `inputs`, or two
/// outputs are the same file.
void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs,
                        const std::vector<std::string>& inputs);
/// The table files of an analysis (CSV and/or JSON, when the paths are given), written as the
/// rows are computed (io::TableStream: memory independent of the number of rows). Opened before
/// the analysis runs (an output that is one of `inputs` is refused then); finish() completes
/// them with the JSON's metadata and says what was written.
class TableFiles {
 public:
  /// `csv_option`: the option that named the CSV file, for messages.
  TableFiles(const Table& columns, const std::string& csv, const std::string& json,
             const std::vector<std::string>& inputs, const std::string& csv_option = "--csv");
  /// Appends the rows, or with --every K every K-th row of the run (the first, then each K-th).
  void append(const Table& rows);
  /// Completes the files (with --every, the run's last row too, and "every": K in the metadata).
  /// `says`: where "wrote FILE" goes (stderr when stdout carries a table).
  void finish(nlohmann::ordered_json metadata, std::FILE* says = stdout);
  /// Rows per chunk of a streamed analysis: about 8 MB of values.
  Eigen::Index chunk_rows() const;

 private:
  std::string csv_, json_;
  long every_ = 1;
  size_t seen_ = 0;  ///< rows of the run appended so far (written or skipped)
  Table last_;       ///< with --every: the last row seen, when the stride skipped it
  std::unique_ptr<io::TableStream> stream_;
};
/// Every how many rows the table files keep (--every, default 1: all).
extern long output_every;
/// Adds --every to a command that writes a table of rows.
void add_every_option(CLI::App* command);
/// The JSON metadata of a planar analysis: the model, version, analysis, structure, the sweep's
/// intervals and events, and `extra`.
nlohmann::ordered_json analysis_metadata(const planar::Mechanism& m, const std::string& model_file,
                                         const std::string& analysis, const planar::SweepSummary& sweep,
                                         const nlohmann::ordered_json& extra);
/// Writes the table as CSV and/or JSON (when the paths are given). The JSON metadata carries
/// the model, version, analysis, structure, the sweep's intervals and events, and `extra`.
void write_outputs(const planar::Mechanism& m, const std::string& model_file, const std::string& analysis,
                   const Table& table, const planar::SweepSummary& sweep, const std::string& csv,
                   const std::string& json, const nlohmann::ordered_json& extra);
/// Writes one SVG per plot into `dir` (when given).
void write_plots(const std::string& dir, const std::vector<io::Plot>& plots);
void write_plots(const std::string& dir, const std::vector<report::Chart>& charts);
/// Option checks with plain messages ("must be greater than 0, not '0'") instead of CLI11's
/// range with the largest double written out.
extern const CLI::Validator positive;
extern const CLI::Validator non_negative;
/// A number in (0, 1): a relative tolerance.
extern const CLI::Validator fraction;
/// Reads "<number>" (SI) or "<number> <unit>" / "<number><unit>" of `kind` as the model file
/// does ("300 ms", "30rpm") and hands the option its SI value; a wrong unit is refused with the
/// accepted ones.
CLI::Validator in_si(Quantity kind);
/// --along POINT:ANGLE (the angle with its unit: a bare number is refused).
report::PointDirection point_direction(const std::string& text);
/// The SI value of a driver coordinate's option text: an angle or a length (order 0), an angular
/// or linear speed (order 1), as the driver is rotational or prismatic; InputError naming
/// `option` otherwise.
double driver_quantity(const planar::Driver& driver, const std::string& text, int order, const std::string& option);

/// While it lives, the sweeps of this thread show their progress on stderr once they have run
/// for two seconds (on a terminal: one line redrawn each second; else a line each 10 s).
class SweepProgress {
 public:
  explicit SweepProgress(const std::string& what);

 private:
  ProgressScope scope_;
};

/// The most output rows a command computes (--max-steps, default 10^6): a larger request is
/// refused before any work with the number and the option to raise it.
extern long max_steps;
/// Adds --method (auto, reduced, full, kane) and --rtol to a command that simulates.
void add_method_options(CLI::App* command, std::string& method, double& rel_tol);
/// Adds --max-steps to a command that computes rows.
void add_max_steps_option(CLI::App* command);
/// InputError when `count` (what `source`, read at `where`, asks for, as `what` says) exceeds
/// `limit`, the value of option `limit_option` that raises it.
void require_within(long count, long limit, const std::string& limit_option, const SourceLocation& where,
                    const std::string& source, const std::string& what);
/// require_within for --max-steps: rows, or table points as `what` says.
void require_within_max_steps(long steps, const SourceLocation& where, const std::string& source,
                              const std::string& what = "steps");
/// The analysis grid (the model's, or `steps` rows) within --max-steps, assembled at its start.
planar::TimeGrid bounded_analysis_grid(const planar::Mechanism& m, int steps);
using planar::driver_values;
using planar::require_start_assembly;

}  // namespace linkdyn::cli
