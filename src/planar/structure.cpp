#include "planar/structure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
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

/// Finds the groups in structural order: at each step the smallest set of unknown bodies whose
/// pairs with the known bodies balance its unknowns (the first such set in order of size, then of
/// body indices) [001 Fig. 3]. A group is a connected set that touches a known body, so only the
/// frontier (unknown bodies next to known ones) is searched, and a body's candidate is searched
/// again only when a body within 8 steps of it is placed: O(n log n) for a mechanism of bounded
/// pair counts per body.
class StructureFinder {
 public:
  static constexpr int max_group_size = 8;

  StructureFinder(const Mechanism& m, std::vector<Joint>& pairs, std::vector<Driver>& drivers, bool force_generic)
      : m_(m),
        spec_(m.spec()),
        pairs_(pairs),
        drivers_(drivers),
        force_generic_(force_generic),
        known_(spec_.bodies.size(), false),
        pairs_at_(spec_.bodies.size()),
        pins_at_(spec_.bodies.size()),
        neighbours_(spec_.bodies.size()),
        best_(spec_.bodies.size()),
        unknown_(static_cast<int>(spec_.bodies.size()) - 1) {
    known_[0] = true;
    for (int b = 1; b <= unknown_; ++b) dirty_list_.push_back(b);
    size_t pin_pairs = 0;
    for (const CompoundPin& p : spec_.pins) pin_pairs += p.bodies.size() - 1;
    pairs_.reserve(pairs_.size() + pin_pairs);
    for (size_t jn = 0; jn < pairs_.size(); ++jn) index_pair(static_cast<int>(jn));
    for (size_t pin = 0; pin < spec_.pins.size(); ++pin) {
      const CompoundPin& p = spec_.pins[pin];
      for (int b : p.bodies) {
        pins_at_[b].push_back(static_cast<int>(pin));
        for (int o : p.bodies)
          if (o != b) neighbours_[b].push_back(o);
      }
    }
    for (std::vector<int>& n : neighbours_) {
      std::sort(n.begin(), n.end());
      n.erase(std::unique(n.begin(), n.end()), n.end());
    }
  }

  std::vector<std::unique_ptr<Group>> run() {
    for (size_t d = 0; d < drivers_.size(); ++d) add_driver(static_cast<int>(d));
    if (!spec_.structure.empty()) {
      explicit_sequence();
    } else {
      while (unknown_ > 0) {
        refresh_candidates();
        const std::vector<int> set = next_group();
        if (set.empty() || !try_group(set)) stuck();
      }
    }
    return std::move(groups_);
  }

 private:
  void index_pair(int jn) {
    const Joint& jt = pairs_[jn];
    pairs_at_[jt.body[0]].push_back(jn);
    if (jt.body[1] != jt.body[0]) pairs_at_[jt.body[1]].push_back(jn);
    neighbours_[jt.body[0]].push_back(jt.body[1]);
    neighbours_[jt.body[1]].push_back(jt.body[0]);
  }

  void set_known(int body) {
    if (known_[body]) return;
    known_[body] = true;
    --unknown_;
    placed_.push_back(body);
  }

  void add_driver(int d) {
    Driver& drv = drivers_[d];
    if (drv.pin < 0 && m_.relative_driver(d)) {
      // A cylinder's length: one more equation of the group that places its barrel and rod.
      driver_of_pair_[drv.joint] = d;
      return;
    }
    const int body = drv.pin >= 0 ? drv.pin_body : pairs_[drv.joint].other(0);
    if (known_[body]) {
      throw InputError(drv.where, "driver '" + drv.name + "'",
                       "body '" + spec_.bodies[body].name + "' is already moved by another driver",
                       "drive each body with one driver only");
    }
    // A driver on a compound ground pin turns its member about the pin: that pair comes first.
    if (drv.pin >= 0) drv.joint = materialise(drv.pin, 0, body);
    groups_.push_back(drv.type == DriverType::rotational ? make_rotational_driver(m_, d) : make_linear_driver(m_, d));
    set_known(body);
  }

  static bool contains(const std::vector<int>& set, int b) { return std::find(set.begin(), set.end(), b) != set.end(); }

  /// Binary pairs that tie the bodies of `set` to each other or to known bodies, in index order.
  /// (A pair materialised for a pin joins bodies already placed, so it never ties a new set.)
  [[nodiscard]] std::vector<int> joints_of(const std::vector<int>& set) const {
    std::vector<int> out;
    for (int b : set)
      for (int jn : pairs_at_[b]) {
        const int o = pairs_[jn].other(b);
        if (known_[o] || contains(set, o)) out.push_back(jn);
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// Compound pins with a member in `set`, in index order.
  [[nodiscard]] std::vector<int> pins_of(const std::vector<int>& set) const {
    std::vector<int> out;
    for (int b : set) out.insert(out.end(), pins_at_[b].begin(), pins_at_[b].end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  /// Equations that the pairs and compound pins give on the bodies of `set`. A pin is a
  /// hyper-edge: 2 per member in the set when one of its members is already placed, else
  /// 2 (m - 1) for its m members in the set.
  [[nodiscard]] int equations(const std::vector<int>& set) const {
    int n = 0;
    for (int jn : joints_of(set)) n += pairs_[jn].constraint_count() + (driver_of(jn) >= 0 ? 1 : 0);
    for (int pin : pins_of(set)) {
      const CompoundPin& p = spec_.pins[pin];
      const auto in_set =
          static_cast<int>(std::count_if(p.bodies.begin(), p.bodies.end(), [&](int b) { return contains(set, b); }));
      const bool anchored = std::any_of(p.bodies.begin(), p.bodies.end(), [&](int b) { return known_[b]; });
      n += 2 * (anchored ? in_set : in_set - 1);
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
    pair.kind = RevolutePair{};  // the pin's friction acts in its members' bearings
    pair.body = {from, to};
    pair.point = {p.points[a], p.points[b]};
    pair.point_name = {p.point_names[a], p.point_names[b]};
    pair.where = p.where;
    pair.pin = pin;
    pairs_.push_back(std::move(pair));
    index_pair(static_cast<int>(pairs_.size()) - 1);
    return static_cast<int>(pairs_.size()) - 1;
  }

  /// One binary pair per member of `set` at each compound pin: to a placed member (the ground
  /// if it is one, else the first placed in listed order), or, when none is placed yet, from
  /// the first member of the set at the pin to the others. The pairs of a pin form a tree.
  void materialise_pins(const std::vector<int>& set) {
    for (int pin : pins_of(set)) {
      const CompoundPin& p = spec_.pins[pin];
      int anchor = -1;
      for (int b : p.bodies)
        if (known_[b] && (anchor < 0 || b == 0)) anchor = b;
      for (int b : p.bodies) {
        if (!contains(set, b)) continue;
        if (anchor < 0)
          anchor = b;  // the root of this pin's tree
        else
          materialise(pin, anchor, b);
      }
    }
  }

  /// The driver of pair `jn` when it is a relative one (a cylinder's length), else -1.
  [[nodiscard]] int driver_of(int jn) const {
    const auto at = driver_of_pair_.find(jn);
    return at == driver_of_pair_.end() ? -1 : at->second;
  }

  /// Makes the group for `set` if its equations balance its unknowns; false otherwise.
  bool try_group(const std::vector<int>& set) {
    if (equations(set) != 3 * static_cast<int>(set.size())) return false;
    materialise_pins(set);
    const std::vector<int> joints = joints_of(set);
    std::vector<int> driven;
    for (int jn : joints)
      if (driver_of(jn) >= 0) driven.push_back(driver_of(jn));
    if (!driven.empty()) {  // a driving dyad: Newton's method with the drivers' equations
      groups_.push_back(make_generic_group(m_, set, joints, std::move(driven)));
      for (int b : set) set_known(b);
      return true;
    }
    auto type = [&](int jn) { return pairs_[jn].type(); };
    if (set.size() == 1 && !force_generic_ && joints.size() == 2) {
      // A wheel on a ground pivot geared to a known body.
      int pivot = -1, gear = -1;
      for (int jn : joints) {
        if (type(jn) == JointType::revolute && pairs_[jn].other(set[0]) == 0) pivot = jn;
        if (type(jn) == JointType::gear && pairs_[jn].body[1] == set[0]) gear = jn;
      }
      if (pivot >= 0 && gear >= 0) {
        groups_.push_back(make_gear_wheel(m_, set[0], pivot, gear));
        set_known(set[0]);
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
          set_known(i);
          set_known(j);
          return true;
        }
      }
    }
    groups_.push_back(make_generic_group(m_, set, joints));
    for (int b : set) set_known(b);
    return true;
  }

  [[nodiscard]] bool touches_known(int body) const {
    return std::any_of(neighbours_[body].begin(), neighbours_[body].end(), [&](int o) { return known_[o]; });
  }

  /// The first group containing `body` in order of size, then of sorted body indices: connected
  /// sets of unknown bodies grown one neighbour at a time. Empty when none up to `max_size`.
  std::vector<int> first_group_with(int body, int max_size) {
    std::set<std::vector<int>> level{{body}};
    for (int k = 1; k <= max_size && !level.empty(); ++k) {
      for (const std::vector<int>& set : level)
        if (equations(set) == 3 * k) return set;  // std::set: the first in index order
      if (k == max_size) break;
      std::set<std::vector<int>> next;
      for (const std::vector<int>& set : level)
        for (int b : set)
          for (int o : neighbours_[b]) {
            if (known_[o] || contains(set, o)) continue;
            std::vector<int> grown = set;
            grown.insert(std::upper_bound(grown.begin(), grown.end(), o), o);
            next.insert(std::move(grown));
          }
      searched_ += next.size();
      if (searched_ > search_budget) {
        throw InputError(spec_.bodies[body].where, "body '" + spec_.bodies[body].name + "'",
                         fmt::format("the search for its structural group tried over {} sets of bodies", search_budget),
                         "give the groups in order under 'structure:' (docs/model-format.md)");
      }
      level = std::move(next);
    }
    return {};
  }

  /// Forgets the searches of the frontier bodies within max_group_size steps (through unknown
  /// bodies) of the bodies placed since the last call: only their candidate groups can change.
  void refresh_candidates() {
    ++visit_round_;
    std::vector<std::pair<int, int>> reached;  // (body, steps from a placed body)
    for (int b : placed_) {
      visit_mark_[b] = visit_round_;
      reached.emplace_back(b, 0);
      forget(b);
    }
    placed_.clear();
    for (size_t k = 0; k < reached.size(); ++k) {
      const auto [body, steps] = reached[k];
      if (steps == max_group_size) continue;
      for (int o : neighbours_[body]) {
        if (known_[o] || visit_mark_[o] == visit_round_) continue;
        visit_mark_[o] = visit_round_;
        reached.emplace_back(o, steps + 1);
        dirty_list_.push_back(o);
      }
    }
    for (int b : dirty_list_) {
      forget(b);
      if (!known_[b] && touches_known(b)) open_.emplace(0, b);
    }
    dirty_list_.clear();
  }

  /// The first group in order of size, then of body indices: every open frontier body is
  /// searched to size 1, then 2, ..., and the first candidate of a size is taken once every
  /// open body has been searched to that size.
  std::vector<int> next_group() {
    for (int size = 1; size <= max_group_size; ++size) {
      while (!open_.empty() && open_.begin()->first < size) {
        const int body = open_.begin()->second;
        open_.erase(open_.begin());
        std::vector<int> set = first_group_with(body, size);
        if (set.empty()) {
          open_.emplace(size, body);
          searched_to_[body] = size;
          continue;
        }
        best_[body] = set;
        ++candidates_[std::move(set)];
      }
      if (!candidates_.empty() && static_cast<int>(candidates_.begin()->first.size()) <= size)
        return candidates_.begin()->first;
    }
    return {};
  }

  /// Drops what is known of `body`'s search (its candidate or its place among the open bodies).
  void forget(int body) {
    open_.erase({searched_to_[body], body});
    searched_to_[body] = 0;
    if (best_[body].empty()) return;
    const auto at = candidates_.find(best_[body]);
    if (at != candidates_.end() && --at->second == 0) candidates_.erase(at);
    best_[body].clear();
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
    if (unknown_ > 0) stuck();
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

  /// Candidate groups in the order they are taken: smaller first, then by body indices.
  struct SizeThenIndices {
    bool operator()(const std::vector<int>& a, const std::vector<int>& b) const {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    }
  };
  static constexpr size_t search_budget = 2'000'000;

  const Mechanism& m_;
  const MechanismSpec& spec_;
  std::vector<Joint>& pairs_;     // m_.joints(), growing by the pins' pairs
  std::vector<Driver>& drivers_;  // m_.drivers()
  bool force_generic_;
  std::vector<bool> known_;
  std::vector<std::vector<int>> pairs_at_;    // pairs on each body
  std::vector<std::vector<int>> pins_at_;     // compound pins on each body
  std::vector<std::vector<int>> neighbours_;  // bodies sharing a pair or a pin with each body
  std::vector<std::vector<int>> best_;        // each frontier body's first group, if any
  std::vector<int> searched_to_ = std::vector<int>(spec_.bodies.size(), 0);  // size searched without a group
  std::set<std::pair<int, int>> open_;  // (searched_to_, body) of frontier bodies without a candidate
  std::vector<int> dirty_list_;         // bodies whose search is forgotten at the next refresh
  std::vector<int> placed_;             // bodies placed since the last refresh
  std::vector<int> visit_mark_ = std::vector<int>(spec_.bodies.size(), 0);
  int visit_round_ = 0;
  int unknown_;
  size_t searched_ = 0;
  std::map<std::vector<int>, int, SizeThenIndices> candidates_;  // group -> frontier bodies naming it
  std::map<int, int> driver_of_pair_;  // the relative drivers (cylinders' lengths) by their pair
  std::vector<std::unique_ptr<Group>> groups_;
};

}  // namespace

std::vector<std::unique_ptr<Group>> find_structure(const Mechanism& m, std::vector<Joint>& pairs,
                                                   std::vector<Driver>& drivers, bool force_generic) {
  return StructureFinder(m, pairs, drivers, force_generic).run();
}

}  // namespace linkdyn::planar
