#include "planar/structure.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {

int gruebler_dof(const MechanismSpec& spec) {
  int dof = 3 * (static_cast<int>(spec.bodies.size()) - 1);
  for (const Joint& j : spec.joints) dof -= j.constraint_count();
  for (const CompoundPin& p : spec.pins) dof -= 2 * (static_cast<int>(p.bodies.size()) - 1);  // k - 1 pairs
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
  StructureFinder(const Mechanism& m, std::vector<Joint>& pairs, std::vector<Driver>& drivers, bool force_generic)
      : m_(m),
        spec_(m.spec()),
        pairs_(pairs),
        drivers_(drivers),
        force_generic_(force_generic),
        known_(spec_.bodies.size(), false) {
    known_[0] = true;
    size_t pin_pairs = 0;
    for (const CompoundPin& p : spec_.pins) pin_pairs += p.bodies.size() - 1;
    pairs_.reserve(pairs_.size() + pin_pairs);
  }

  std::vector<std::unique_ptr<Group>> run() {
    for (size_t d = 0; d < drivers_.size(); ++d) add_driver(static_cast<int>(d));
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
    Driver& drv = drivers_[d];
    const int body = drv.pin >= 0 ? drv.pin_body : pairs_[drv.joint].other(0);
    if (known_[body]) {
      throw InputError(drv.where, "driver '" + drv.name + "'",
                       "body '" + spec_.bodies[body].name + "' is already moved by another driver",
                       "drive each body with one driver only");
    }
    // A driver on a compound ground pin turns its member about the pin: that pair comes first.
    if (drv.pin >= 0) drv.joint = materialise(drv.pin, 0, body);
    groups_.push_back(drv.type == DriverType::rotational ? make_rotational_driver(m_, d) : make_linear_driver(m_, d));
    known_[body] = true;
  }

  static bool contains(const std::vector<int>& set, int b) { return std::find(set.begin(), set.end(), b) != set.end(); }

  /// Binary pairs that tie the bodies of `set` to each other or to known bodies. (A pair
  /// materialised for a pin joins bodies already placed, so it never ties a new set.)
  std::vector<int> joints_of(const std::vector<int>& set) const {
    std::vector<int> out;
    for (size_t jn = 0; jn < pairs_.size(); ++jn) {
      const Joint& jt = pairs_[jn];
      const bool a = contains(set, jt.body[0]), b = contains(set, jt.body[1]);
      if ((a && (b || known_[jt.body[1]])) || (b && known_[jt.body[0]])) {
        out.push_back(static_cast<int>(jn));
      }
    }
    return out;
  }

  /// Equations that the pairs and compound pins give on the bodies of `set`. A pin is a
  /// hyper-edge: 2 per member in the set when one of its members is already placed, else
  /// 2 (m - 1) for its m members in the set.
  int equations(const std::vector<int>& set) const {
    int n = 0;
    for (int jn : joints_of(set)) n += pairs_[jn].constraint_count();
    for (const CompoundPin& p : spec_.pins) {
      const auto in_set =
          static_cast<int>(std::count_if(p.bodies.begin(), p.bodies.end(), [&](int b) { return contains(set, b); }));
      const bool anchored = std::any_of(p.bodies.begin(), p.bodies.end(), [&](int b) { return known_[b]; });
      if (in_set > 0) n += 2 * (anchored ? in_set : in_set - 1);
    }
    return n;
  }

  /// Appends the binary revolute pair between members `from` and `to` of compound pin `pin`
  /// (from = body[0]); returns its index.
  int materialise(int pin, int from, int to) {
    const CompoundPin& p = spec_.pins[pin];
    const int a = p.member(from), b = p.member(to);
    Joint pair;
    pair.name = p.name;
    pair.type = JointType::revolute;
    pair.body = {from, to};
    pair.point = {p.points[a], p.points[b]};
    pair.point_name = {p.point_names[a], p.point_names[b]};
    pair.where = p.where;
    pair.pin = pin;
    pairs_.push_back(std::move(pair));
    return static_cast<int>(pairs_.size()) - 1;
  }

  /// One binary pair per member of `set` at each compound pin: to a placed member (the ground
  /// if it is one, else the first placed in listed order), or, when none is placed yet, from
  /// the first member of the set at the pin to the others. The pairs of a pin form a tree.
  void materialise_pins(const std::vector<int>& set) {
    for (size_t pin = 0; pin < spec_.pins.size(); ++pin) {
      const CompoundPin& p = spec_.pins[pin];
      int anchor = -1;
      for (int b : p.bodies)
        if (known_[b] && (anchor < 0 || b == 0)) anchor = b;
      for (int b : p.bodies) {
        if (!contains(set, b)) continue;
        if (anchor < 0)
          anchor = b;  // the root of this pin's tree
        else
          materialise(static_cast<int>(pin), anchor, b);
      }
    }
  }

  /// Makes the group for `set` if its equations balance its unknowns; false otherwise.
  bool try_group(const std::vector<int>& set) {
    if (equations(set) != 3 * static_cast<int>(set.size())) return false;
    materialise_pins(set);
    const std::vector<int> joints = joints_of(set);
    auto type = [&](int jn) { return pairs_[jn].type; };
    if (set.size() == 1 && !force_generic_ && joints.size() == 2) {
      // A wheel on a ground pivot geared to a known body.
      int pivot = -1, gear = -1;
      for (int jn : joints) {
        if (type(jn) == JointType::revolute && pairs_[jn].other(set[0]) == 0) pivot = jn;
        if (type(jn) == JointType::gear && pairs_[jn].body[1] == set[0]) gear = jn;
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
        const Joint& jt = pairs_[jn];
        if (jt.connects(i) && jt.connects(j))
          jij = jn;
        else if (jt.connects(i))
          ji = jn;
        else
          jj = jn;
      }
      if (ji >= 0 && jij >= 0 && jj >= 0) {
        if (std::all_of(joints.begin(), joints.end(), [&](int jn) { return type(jn) == JointType::prismatic; })) {
          const Joint& jt = pairs_[jij];
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
    auto reach = [&](int o) {
      if (contains(set, o) && !contains(reached, o)) reached.push_back(o);
    };
    for (size_t k = 0; k < reached.size(); ++k) {
      for (const Joint& jt : pairs_)
        if (jt.connects(reached[k])) reach(jt.other(reached[k]));
      for (const CompoundPin& p : spec_.pins)
        if (p.member(reached[k]) >= 0)
          for (int o : p.bodies) reach(o);
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
          if (connected(pick) && equations(pick) == 3 * k) found = try_group(pick);
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
          throw InputError(spec_.structure_where, "structure", "'" + n + "' is not a moving body",
                           "list bodies defined under 'bodies'");
        }
        set.push_back(b);
      }
      if (std::all_of(set.begin(), set.end(), [&](int b) { return known_[b]; })) continue;
      if (std::any_of(set.begin(), set.end(), [&](int b) { return known_[b]; })) {
        throw InputError(spec_.structure_where, "structure group [" + names_of(spec_, set) + "]",
                         "some of its bodies are already placed by earlier groups",
                         "list each body in one group only, after the groups it hangs on");
      }
      const int eq = equations(set);
      if (eq != 3 * static_cast<int>(set.size()) || !try_group(set)) {
        throw InputError(spec_.structure_where, "structure group [" + names_of(spec_, set) + "]",
                         "its pairs with the bodies placed before it give " + std::to_string(eq) + " equations for " +
                             std::to_string(3 * set.size()) + " unknowns",
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
  std::vector<Joint>& pairs_;     // m_.joints(), growing by the pins' pairs
  std::vector<Driver>& drivers_;  // m_.drivers()
  bool force_generic_;
  std::vector<bool> known_;
  std::vector<std::unique_ptr<Group>> groups_;
};

}  // namespace

std::vector<std::unique_ptr<Group>> find_structure(const Mechanism& m, std::vector<Joint>& pairs,
                                                   std::vector<Driver>& drivers, bool force_generic) {
  return StructureFinder(m, pairs, drivers, force_generic).run();
}

}  // namespace linkdyn::planar
