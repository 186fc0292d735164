#include "linkdyn/spatial/control.hpp"

#include "linkdyn/spatial/chain.hpp"

namespace linkdyn::spatial {

void add_pd_torques(const Chain& chain, const PdGains& gains, VectorIn q_ref, VectorIn qd_ref, VectorIn q, VectorIn qd,
                    Eigen::Ref<Eigen::VectorXd> tau) {
  for (int d = 0; d < chain.dof; ++d) {
    const int link = chain.dof_link[size_t(d)];
    if (chain.joint(link).type == JointType::free_flyer) continue;
    tau(d) += gains.kp(d) * (q_ref(d) - q(chain.q_index[size_t(link)])) +
              gains.kd(d) * (qd_ref(d) - qd(d));  // tau = Kp e + Kd e'
  }
}

}  // namespace linkdyn::spatial
