#include "planar/structure.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {

int gruebler_dof(const MechanismSpec& spec) {
  int dof = 3 * (static_cast<int>(spec.bodies.size()) - 1);
  for (const Joint& j : spec.joints) dof -= j.constraint_count();
  return dof;
}

namespace {

std::string names_of(const MechanismSpec& spec, const std::vector<int>& bodies) {
  std::string out;
  for (int b : bodies) out += (out.empty() ? "" : ", ") + spec.bodies[b].name;
  return out;
}

class StructureFinder {
 public:
  StructureFinder(const Mechanism& m, bool force_generic)
      : m_(m), spec_(m.spec()), force_generic_(force_generic), known_(spec_.bodies.size(), false) {
    known_[0] = true;
  }

  std::vector<std::unique_ptr<Group>> run() {
    for (size_t d = 0; d < spec_.drivers.size(); ++d) add_driver(static_cast<int>(d));
    if (!spec_.structure.empty()) {
      explicit_sequence();
    } else {
      while (unknown_count() > 0) {
        if (!add_next_group()) stuck();
      }
    }
    return std::move(groups_);
  }

 private:
  int unknown_count() const { return static_cast<int>(std::count(known_.begin(), known_.end(), false)); }

  void add_driver(int d) {
    const Driver& drv = spec_.drivers[d];
    const Joint& jt = spec_.joints[drv.joint];
    const int body = jt.body[0] == 0 ? jt.body[1] : jt.body[0];
    if (known_[body]) {
      throw InputError(drv.where, "driver '" + drv.name + "'",
                       "body '" + spec_.bodies[body].name + "' is already moved by another driver",
                       "drive each body with one driver only");
    }
    groups_.push_back(drv.type == DriverType::rotational ? make_rotational_driver(m_, d)
                                                         : make_linear_driver(m_, d));
    known_[body] = true;
  }

  /// Joints that tie the bodies of `set` to each other or to known bodies.
  std::vector<int> joints_of(const std::vector<int>& set) const {
    auto in_set = [&](int b) { return std::find(set.begin(), set.end(), b) != set.end(); };
    std::vector<int> out;
    for (size_t jn = 0; jn < spec_.joints.size(); ++jn) {
      const Joint& jt = spec_.joints[jn];
      const bool a = in_set(jt.body[0]), b = in_set(jt.body[1]);
      if ((a && (b || known_[jt.body[1]])) || (b && known_[jt.body[0]])) {
        out.push_back(static_cast<int>(jn));
      }
    }
    return out;
  }

  int equations(const std::vector<int>& joints) const {
    int n = 0;
    for (int jn : joints) n += spec_.joints[jn].constraint_count();
    return n;
  }

  /// Makes the group for `set` if its equations balance its unknowns; false otherwise.
  bool try_group(const std::vector<int>& set) {
    const std::vector<int> joints = joints_of(set);
    if (equations(joints) != 3 * static_cast<int>(set.size())) return false;
    auto type = [&](int jn) { return spec_.joints[jn].type; };
    if (set.size() == 1 && !force_generic_ && joints.size() == 2) {
      // A wheel on a ground pivot geared to a known body.
      int pivot = -1, gear = -1;
      for (int jn : joints) {
        if (type(jn) == JointType::revolute && spec_.joints[jn].other(set[0]) == 0) pivot = jn;
        if (type(jn) == JointType::gear && spec_.joints[jn].body[1] == set[0]) gear = jn;
      }
      if (pivot >= 0 && gear >= 0) {
        groups_.push_back(make_gear_wheel(m_, set[0], pivot, gear));
        known_[set[0]] = true;
        return true;
      }
    }
    if (set.size() == 2 && joints.size() == 3 &&
        std::none_of(joints.begin(), joints.end(), [&](int jn) { return type(jn) == JointType::gear; })) {
      // Order the joints as i-known, i-j, j-known.
      const int i = set[0], j = set[1];
      int ji = -1, jij = -1, jj = -1;
      for (int jn : joints) {
        const Joint& jt = spec_.joints[jn];
        if (jt.connects(i) && jt.connects(j)) jij = jn;
        else if (jt.connects(i)) ji = jn;
        else jj = jn;
      }
      if (ji >= 0 && jij >= 0 && jj >= 0) {
        if (std::all_of(joints.begin(), joints.end(), [&](int jn) { return type(jn) == JointType::prismatic; })) {
          const Joint& jt = spec_.joints[jij];
          throw InputError(jt.where, "bodies '" + names_of(spec_, set) + "'",
                           "three prismatic pairs (PPP) do not fix a dyad's position",
                           "make one of the pairs revolute");
        }
        if (!force_generic_) {
          groups_.push_back(make_dyad(m_, i, j, ji, jij, jj));
          known_[i] = known_[j] = true;
          return true;
        }
      }
    }
    groups_.push_back(make_generic_group(m_, set, joints));
    for (int b : set) known_[b] = true;
    return true;
  }

  bool connected(const std::vector<int>& set) const {
    std::vector<int> reached{set[0]};
    for (size_t k = 0; k < reached.size(); ++k)
      for (const Joint& jt : spec_.joints)
        if (jt.connects(reached[k])) {
          const int o = jt.other(reached[k]);
          if (std::find(set.begin(), set.end(), o) != set.end() &&
              std::find(reached.begin(), reached.end(), o) == reached.end())
            reached.push_back(o);
        }
    return reached.size() == set.size();
  }

  /// The smallest set of unknown bodies that the known ones fix.
  bool add_next_group() {
    std::vector<int> unknown;
    for (size_t b = 0; b < known_.size(); ++b)
      if (!known_[b]) unknown.push_back(static_cast<int>(b));
    const int max_size = std::min<int>(static_cast<int>(unknown.size()), 8);
    for (int k = 1; k <= max_size; ++k) {
      std::vector<int> pick;
      bool found = false;
      std::function<void(size_t)> choose = [&](size_t from) {
        if (found) return;
        if (static_cast<int>(pick.size()) == k) {
          if (connected(pick) && equations(joints_of(pick)) == 3 * k) found = try_group(pick);
          return;
        }
        for (size_t u = from; u < unknown.size() && !found; ++u) {
          pick.push_back(unknown[u]);
          choose(u + 1);
          pick.pop_back();
        }
      };
      choose(0);
      if (found) return true;
    }
    return false;
  }

  void explicit_sequence() {
    for (const auto& names : spec_.structure) {
      std::vector<int> set;
      for (const std::string& n : names) {
        const int b = spec_.find_body(n);
        if (b <= 0) {
          throw InputError(spec_.structure_where, "structure",
                           "'" + n + "' is not a moving body", "list bodies defined under 'bodies'");
        }
        set.push_back(b);
      }
      if (std::all_of(set.begin(), set.end(), [&](int b) { return known_[b]; })) continue;
      if (std::any_of(set.begin(), set.end(), [&](int b) { return known_[b]; })) {
        throw InputError(spec_.structure_where, "structure group [" + names_of(spec_, set) + "]",
                         "some of its bodies are already placed by earlier groups",
                         "list each body in one group only, after the groups it hangs on");
      }
      const int eq = equations(joints_of(set));
      if (eq != 3 * static_cast<int>(set.size()) || !try_group(set)) {
        throw InputError(spec_.structure_where, "structure group [" + names_of(spec_, set) + "]",
                         "its pairs with the bodies placed before it give " + std::to_string(eq) +
                             " equations for " + std::to_string(3 * set.size()) + " unknowns",
                         "reorder the sequence or regroup the bodies");
      }
    }
    if (unknown_count() > 0) stuck();
  }

  [[noreturn]] void stuck() const {
    std::vector<int> left;
    for (size_t b = 0; b < known_.size(); ++b)
      if (!known_[b]) left.push_back(static_cast<int>(b));
    throw InputError(spec_.bodies[left[0]].where, "bodies '" + names_of(spec_, left) + "'",
                     "cannot be placed by the drivers: no group of them is fixed by the bodies "
                     "already known",
                     "check that the drivers act on bodies pinned to the ground and that every "
                     "loop closes");
  }

  const Mechanism& m_;
  const MechanismSpec& spec_;
  bool force_generic_;
  std::vector<bool> known_;
  std::vector<std::unique_ptr<Group>> groups_;
};

}  // namespace

std::vector<std::unique_ptr<Group>> find_structure(const Mechanism& m, bool force_generic) {
  return StructureFinder(m, force_generic).run();
}

}  // namespace linkdyn::planar
