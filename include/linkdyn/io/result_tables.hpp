#pragma once
// The analyses' typed results as tables of named columns with units: the one place where they
// become rows for CSV, JSON and the command line's summaries (column names from the planar
// naming functions: driver_column, KinematicsColumns, add_reaction_columns).
#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::io {

/// t, driver coordinates, per moving body angle, omega, alpha; per tracked point x, y, vx, vy,
/// ax, ay; `singular` (0 regular, 1 rates as limits, 2 a dead point: rates left empty);
/// transmission angles.
Table kinematics_table(const planar::Mechanism& m, const planar::KinematicsResult& r);

/// t, driver coordinates, efforts with and without friction, per pair of the model Fx, Fy, F
/// (prismatic: N and M too; gear: torque) and friction power, per compound pin its members'
/// forces and friction power, friction.power, driver.power, efficiency, iterations,
/// self_locking, singular (1 where the values are limits at a removable singular position).
Table kinetostatics_table(const planar::Mechanism& m, const planar::KinetostaticsResult& r);

}  // namespace linkdyn::io
