// linkdyn mass BODY.yaml: mass properties of a body made of primitives [002 Sect. 2].
#include <fmt/core.h>

#include <fstream>

#include "commands.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/core/version.hpp"
#include "linkdyn/io/chain_file.hpp"

namespace linkdyn::cli {
namespace {
using namespace spatial;

struct MassOptions {
  std::string body, json;
};

nlohmann::ordered_json matrix_json(const Eigen::MatrixXd& M) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (Eigen::Index j = 0; j < M.cols(); ++j) row.push_back(M(i, j));
    rows.push_back(row);
  }
  return rows;
}

void print_matrix(const char* title, const Eigen::MatrixXd& M) {
  fmt::print("  {}:\n", title);
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    fmt::print("    [");
    for (Eigen::Index j = 0; j < M.cols(); ++j) fmt::print("{}{:>14.6e}", j ? " " : "", M(i, j));
    fmt::print(" ]\n");
  }
}

/// Everything about the body as seen from one frame (`pose` of the frame in the body frame).
nlohmann::ordered_json describe(const MassProperties& body_frame, const std::string& name, const Pose& pose) {
  // The body seen from the frame: transform by the inverse of the frame's pose [002 Eqs. 42, 58-63].
  const MassProperties b = transformed(body_frame, pose.inverse());
  const PrincipalAxes pa = principal_axes(b);
  fmt::print("in frame '{}':\n", name);
  fmt::print("  centre of mass: [{:.9g}, {:.9g}, {:.9g}] m\n", b.com.x(), b.com.y(), b.com.z());
  print_matrix("inertia tensor at the centre of mass, kg m^2 [002 Eq. 43]", b.inertia_com);
  print_matrix("inertia tensor about the frame origin, kg m^2 [002 Eq. 58]", inertia_about_origin(b));
  print_matrix("planar (second-moment) tensor at the centre of mass, kg m^2 [002 Eq. 50]", second_moment_com(b));
  print_matrix("pseudo-inertia tensor about the frame origin [002 Eq. 62]", pseudo_inertia(b));
  fmt::print("  principal moments: {:.9g}, {:.9g}, {:.9g} kg m^2\n", pa.moments(0), pa.moments(1), pa.moments(2));
  print_matrix("principal axes (columns)", pa.axes);
  nlohmann::ordered_json j;
  j["frame"] = name;
  j["com"] = {b.com.x(), b.com.y(), b.com.z()};
  j["inertia_com"] = matrix_json(b.inertia_com);
  j["inertia_origin"] = matrix_json(inertia_about_origin(b));
  j["second_moment_com"] = matrix_json(second_moment_com(b));
  j["pseudo_inertia"] = matrix_json(pseudo_inertia(b));
  j["principal_moments"] = {pa.moments(0), pa.moments(1), pa.moments(2)};
  j["principal_axes"] = matrix_json(pa.axes);
  return j;
}

void run(const MassOptions& o) {
  const io::BodyFile file = io::read_body_file(o.body);
  const MassProperties body = composite_mass_properties(file.parts);
  fmt::print("{}: {} parts ({} subtracted), mass {:.9g} kg\n", file.name, file.parts.size(),
             std::count_if(file.parts.begin(), file.parts.end(), [](const Primitive& p) { return p.sign < 0; }),
             body.mass);
  nlohmann::ordered_json out;
  out["linkdyn_version"] = linkdyn::version;
  out["body"] = file.name;
  out["body_file"] = o.body;
  out["units"] = {{"mass", "kg"}, {"length", "m"}, {"inertia", "kg m^2"}};
  out["mass"] = body.mass;
  nlohmann::ordered_json parts = nlohmann::ordered_json::array();
  for (const Primitive& p : file.parts) {
    const MassProperties m = primitive_mass_properties(p);
    parts.push_back({{"name", p.name}, {"shape", shape_name(p.shape)}, {"sigma", p.sign}, {"mass", m.mass}});
  }
  out["parts"] = parts;
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  frames.push_back(describe(body, "body", Pose::identity()));
  for (const auto& f : file.frames) frames.push_back(describe(body, f.name, f.pose));
  out["frames"] = frames;
  if (!o.json.empty()) {
    io::require_not_an_input(o.json, {o.body}, "--json");
    io::write_file(o.json, [&](std::ostream& file) { file << out.dump(2) << "\n"; });
    fmt::print("wrote {}\n", o.json);
  }
}
}  // namespace

void add_mass_command(CLI::App& app) {
  auto options = std::make_shared<MassOptions>();
  CLI::App* cmd = app.add_subcommand("mass", "Mass properties of a body built from primitives (holes subtracted)");
  cmd->add_option("body", options->body, "Body file (YAML with parts and frames)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--json", options->json, "Write the properties as JSON");
  cmd->callback([options] { run(*options); });
}

}  // namespace linkdyn::cli
