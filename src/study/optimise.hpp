#pragma once
// One optimisation run through NLopt: a derivative-free global method, then a local one from
// the best design it found [NLopt: ISRES, COBYLA by default].
#include <functional>
#include <optional>

#include "linkdyn/study/study.hpp"

namespace linkdyn::study {

/// What a run minimises: sum_k weight_k (sense_k f_k - offset_k) / scale_k (a scale of 0 is
/// replaced by |f_k| at the start), subject to the study's constraints and, for an
/// epsilon-constraint run, sense_2 f_2 <= epsilon.
struct RunGoal {
  int run = 0;
  std::vector<double> weight, offset, scale;  ///< per objective
  std::optional<double> epsilon;
};

using Evaluate = std::function<Variant(std::span<const double> parameters)>;

/// Runs the optimisation on the calling thread; every evaluation is appended to `history`
/// (run and phase set). Returns the index in `history` of the best feasible design (or of the
/// least infeasible one), and whether it is feasible.
[[nodiscard]] std::pair<size_t, bool> optimise(const io::Study& study, const RunGoal& goal, const Evaluate& evaluate,
                                               std::vector<Variant>& history);

/// A variant's objective values, sense applied (minimised), or nothing when it failed.
[[nodiscard]] std::optional<std::vector<double>> objective_values(const io::Study& study, const Variant& v);
/// Whether a variant meets every constraint of the study and of the run's goal.
[[nodiscard]] bool feasible(const io::Study& study, const RunGoal& goal, const Variant& v);

/// Checks the optimiser's algorithm names (InputError naming the study file).
void check_optimiser(const io::Study& study);

}  // namespace linkdyn::study
