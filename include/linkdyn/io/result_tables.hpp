#pragma once
// The analyses' typed results as tables of named columns with units: the one place where they
// become rows for CSV, JSON and the command line's summaries (column names from the planar
// naming functions: driver_column, KinematicsColumns, add_reaction_columns). It sees the
// results and the models they belong to, never the analyses that make them.
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/dynamics/machine.hpp"
#include "linkdyn/dynamics/simulation_result.hpp"
#include "linkdyn/flex/elastic_link.hpp"
#include "linkdyn/flex/link_results.hpp"
#include "linkdyn/planar/kinematics_result.hpp"
#include "linkdyn/planar/kinetostatics_result.hpp"
#include "linkdyn/spatial/chain.hpp"
#include "linkdyn/spatial/chain_simulation_result.hpp"

namespace linkdyn::io {

/// t, driver coordinates, per moving body angle, omega, alpha; per tracked point x, y, vx, vy,
/// ax, ay; `singular` (0 regular, 1 rates as limits, 2 a dead point: rates left empty);
/// transmission angles.
[[nodiscard]] Table kinematics_table(const planar::Mechanism& m, const planar::KinematicsResult& r);

/// t, driver coordinates, efforts with and without friction, per pair of the model Fx, Fy, F
/// (prismatic: N and M too; gear: torque) and friction power, per compound pin its members'
/// forces and friction power, friction.power, driver.power, efficiency, iterations,
/// self_locking, singular (1 where the values are limits at a removable singular position).
[[nodiscard]] Table kinetostatics_table(const planar::Mechanism& m, const planar::KinetostaticsResult& r);

/// t, driver coordinates, then per link <link>.omega, <link>.epsilon, <link>.axial_force.mid, and
/// for k = 1..modes <link>.lambda<k>, <link>.f<k>, and with the gyroscopic problem <link>.fg<k>,
/// <link>.sigma<k>.
[[nodiscard]] Table eigen_cycle_table(const planar::Mechanism& m, const std::vector<flex::ElasticLink>& links,
                                      const flex::EigenCycleResult& r);

/// t, driver coordinates, <link>.mid.w, <link>.mid.u, <link>.end.w, <link>.axial_force.mid, then
/// per node <link>.n<k>.w and <link>.n<k>.u.
[[nodiscard]] Table response_table(const planar::Mechanism& m, const flex::ElasticLink& link,
                                   const flex::LinkResponse& r);

/// t; each driver's coordinate (<driver>.angle | .position), then each one's rate (.omega |
/// .velocity), then each one's acceleration (.alpha | .acceleration); motor currents
/// (<actuator>.current); actuator efforts (<actuator>.torque | .force); constraint actions (by
/// name); the pairs' friction powers (<element>.friction_power, friction.power); energies
/// (energy.kinetic, energy.potential, work.<actuator>, work.<load>, friction.loss,
/// energy.residual); stuck; then the kinematics columns of kinematics_table (without driver and
/// singular columns) when the simulation recorded them, and every pair's reaction columns of
/// kinetostatics_table (without friction powers) when it recorded the reactions.
[[nodiscard]] Table simulation_table(const dynamics::DynamicSystem& system, const dynamics::SimulationResult& r);

/// t, <coordinate>.q (Chain::q_names), <dof>.qd, <dof>.qdd, <dof>.tau (Chain::v_names; tau the
/// driving forces applied), kinetic_energy, potential_energy.
[[nodiscard]] Table chain_simulation_table(const spatial::Chain& chain, const spatial::ChainSimulationResult& r);

/// The unit of a velocity coordinate's value of derivative order 0..4 (rad or m, then per s^k),
/// or with `force` of its driving force (N m or N, then per s^k).
[[nodiscard]] std::string dof_unit(const spatial::Chain& chain, int dof, int order, bool force = false);

}  // namespace linkdyn::io
