// Uses the installed library: loads a model, solves one position, prints the structure.
#include <cstdio>

#include <linkdyn/io/model_file.hpp>
#include <linkdyn/planar/kinematics.hpp>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const linkdyn::planar::Mechanism m = linkdyn::io::load_mechanism(argv[1]);
  linkdyn::planar::Workspace ws(m);
  ws.q[0] = 0.0;
  ws.qd[0] = 10.0;
  if (!linkdyn::planar::solve_kinematics(m, ws).ok()) return 1;
  std::printf("%s residual %.3g\n", m.structure_string().c_str(), linkdyn::planar::constraint_residual(m, ws));
  return linkdyn::planar::constraint_residual(m, ws) < 1e-12 ? 0 : 1;
}
