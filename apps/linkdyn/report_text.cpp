// Text shared by the commands: driver values, sweep events.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "commands.hpp"
#include "linkdyn/core/version.hpp"
#include "linkdyn/io/table_writer.hpp"

namespace linkdyn::cli {

void print_sweep_events(const planar::Mechanism& m, const planar::SweepSummary& summary) {
  if (summary.absent > 0) {
    fmt::print("the mechanism assembles on {} of {} steps, over t in", summary.steps - summary.absent, summary.steps);
    for (const auto& [a, b] : summary.intervals) fmt::print(" [{:.6g}, {:.6g}] s", a, b);
    fmt::print("\n");
  }
  if (summary.limits > 0)
    fmt::print(
        "{} step(s) at a removable singular position (a bifurcation passed on the branch): rates there are their "
        "limits\n"
        "  (column singular = 1)\n",
        summary.limits);
  for (const planar::SweepEvent& e : summary.events) {
    fmt::print("  t = {:.9g} s ({}): {}\n", e.t, driver_values(m, e.q), e.message);
  }
}

std::vector<std::string> model_inputs(const planar::MechanismSpec& spec) {
  std::vector<std::string> files{spec.where.file};
  for (const planar::Load& load : spec.loads)
    if (load.table) files.push_back(load.table->file);
  for (const planar::Driver& driver : spec.drivers)
    if (const auto* table = std::get_if<planar::TableLaw>(&driver.law)) files.push_back(table->file);
  return files;
}

void write_table_files(const Table& table, const std::string& csv, const std::string& json,
                       const nlohmann::ordered_json& metadata, const std::vector<std::string>& inputs) {
  TableFiles files(table, csv, json, inputs);
  files.finish(metadata);
}

void update_ranges(const Table& rows, std::vector<ColumnRange>& ranges, long first_row) {
  for (size_t r = 0; r < rows.rows(); ++r)
    for (size_t c = 0; c < rows.width(); ++c) {
      const double v = rows.at(r, c);
      if (!std::isfinite(v)) continue;
      ColumnRange& range = ranges[c];
      range.lo = std::min(range.lo, v), range.hi = std::max(range.hi, v);
      if (std::abs(v) > range.peak)
        range.peak = std::abs(v),
        range.t_peak = first_row < 0 ? rows.at(r, 0) : static_cast<double>(first_row + static_cast<long>(r));
    }
}

void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs,
                        const std::vector<std::string>& inputs) {
  for (size_t k = 0; k < outputs.size(); ++k) {
    const auto& [option, path] = outputs[k];
    if (path.empty()) continue;
    io::require_not_an_input(path, inputs, option);
    for (size_t e = 0; e < k; ++e)
      if (io::same_file(path, outputs[e].second))
        throw InputError({path, 0}, option, "is the same file as " + outputs[e].first + " (" + outputs[e].second + ")",
                         "give each output its own file");
  }
}

TableFiles::TableFiles(const Table& columns, const std::string& csv, const std::string& json,
                       const std::vector<std::string>& inputs, const std::string& csv_option)
    : csv_(csv), json_(json), every_(output_every) {
  check_output_paths({{csv_option, csv}, {"--json", json}}, inputs);
  last_.columns = columns.columns;
  last_.units = columns.units;
  stream_ = std::make_unique<io::TableStream>(last_, csv, json, csv_digits);
  append(columns);
}

void TableFiles::append(const Table& rows) {
  if (every_ <= 1) {
    stream_->append(rows);
    return;
  }
  Table kept;
  kept.columns = last_.columns;
  const size_t width = rows.width();
  last_.values.clear();
  for (size_t r = 0; r < rows.rows(); ++r, ++seen_) {
    const auto row = rows.values.begin() + static_cast<std::ptrdiff_t>(r * width);
    if (seen_ % static_cast<size_t>(every_) == 0)
      kept.values.insert(kept.values.end(), row, row + static_cast<std::ptrdiff_t>(width));
    else if (r + 1 == rows.rows())
      last_.values.assign(row, row + static_cast<std::ptrdiff_t>(width));
  }
  stream_->append(kept);
}

Eigen::Index TableFiles::chunk_rows() const {
  return std::clamp<Eigen::Index>((Eigen::Index{1} << 20) / std::max<Eigen::Index>(1, stream_->width()), 64, 16384);
}

void TableFiles::finish(nlohmann::ordered_json metadata, std::FILE* says) {
  if (every_ > 1) {
    stream_->append(last_);  // the run's last row, when the stride skipped it
    metadata["every"] = every_;
  }
  stream_->finish(metadata.dump());
  if (!csv_.empty()) fmt::print(says, "wrote {} ({} rows x {} columns)\n", csv_, stream_->rows(), stream_->width());
  if (!json_.empty()) fmt::print(says, "wrote {}\n", json_);
}

nlohmann::ordered_json analysis_metadata(const planar::Mechanism& m, const std::string& model_file,
                                         const std::string& analysis, const planar::SweepSummary& sweep,
                                         const nlohmann::ordered_json& extra) {
  nlohmann::ordered_json meta;
  meta["model"] = m.spec().name;
  meta["model_file"] = model_file;
  meta["linkdyn_version"] = linkdyn::version;
  meta["analysis"] = analysis;
  meta["structure"] = m.structure_string();
  meta["dof"] = m.dof();
  nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
  for (const auto& [a, b] : sweep.intervals) intervals.push_back({a, b});
  meta["intervals"] = intervals;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const planar::SweepEvent& e : sweep.events)
    events.push_back({{"t", e.t},
                      {"q", e.q},
                      {"kind", e.kind == planar::SweepEvent::singular ? "singular" : "assembly_limit"},
                      {"message", e.message}});
  meta["events"] = events;
  for (const auto& [key, value] : extra.items()) meta[key] = value;
  return meta;
}

void write_outputs(const planar::Mechanism& m, const std::string& model_file, const std::string& analysis,
                   const Table& table, const planar::SweepSummary& sweep, const std::string& csv,
                   const std::string& json, const nlohmann::ordered_json& extra) {
  write_table_files(table, csv, json, analysis_metadata(m, model_file, analysis, sweep, extra), model_inputs(m.spec()));
}

void write_plots(const std::string& dir, const std::vector<io::Plot>& plots) {
  if (dir.empty()) return;
  const std::vector<std::string> paths = io::write_svg_files(dir, plots);
  fmt::print("wrote {} plot(s) in {}\n", paths.size(), dir);
}

void write_plots(const std::string& dir, const std::vector<report::Chart>& charts) {
  if (!dir.empty()) write_plots(dir, report::plots(charts));
}

}  // namespace linkdyn::cli
