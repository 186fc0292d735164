// The model file's elastic links: sections, segments, supports, damping, attached masses, and
// the inertia of the bodies they bend (from flex).
#include <cmath>
#include <optional>

#include "io/model_parser.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

/// A link's cross-section for its stresses (flex::SectionProperties): all 0 without `section:`,
/// only the modulus with `section: {modulus: W}`.
flex::SectionProperties ModelParser::section_shape(const YAML::Node& link, const std::string& link_entity) {
  flex::SectionProperties out;
  const YAML::Node n = field(link, "section");
  if (!n) return out;
  const std::string entity = link_entity + ".section";
  in_.require_map(n, entity);
  const std::string hint =
      "write section: {shape: rectangle, width: 20 mm, height: 6 mm} (height in the mechanism's plane), "
      "{shape: tube, outer: , inner: }, {shape: I, height: , width: , flange: , web: } or {modulus: W in m^3}";
  if (!field(n, "shape")) {
    in_.allow_only(n, entity, {"modulus"});
    out.modulus = in_.non_negative(n, "modulus", entity, Quantity::plain, true);
    if (!(out.modulus > 0.0)) in_.fail(n, entity, "the section modulus must be positive", hint);
    return out;
  }
  const std::string shape = in_.text(field(n, "shape"), entity + ".shape");
  const auto length = [&](const char* key, bool required = true) {
    const double v = in_.non_negative(n, key, entity, Quantity::length, required);
    if (required && !(v > 0.0)) in_.fail(n[key], entity, std::string(key) + " must be positive", hint);
    return v;
  };
  if (shape == "rectangle") {
    in_.allow_only(n, entity, {"shape", "width", "height"});
    const double b = length("width"), h = length("height");
    return flex::rectangle_section(b, h);
  }
  if (shape == "tube") {
    in_.allow_only(n, entity, {"shape", "outer", "inner"});
    const double D = length("outer"), d = length("inner", false);
    if (!(d < D)) in_.fail(n["inner"], entity, "the inner diameter is not below the outer one", hint);
    return flex::tube_section(D, d);
  }
  if (shape == "I") {
    in_.allow_only(n, entity, {"shape", "height", "width", "flange", "web"});
    const double h = length("height"), b = length("width"), tf = length("flange"), tw = length("web");
    if (!(2.0 * tf < h) || !(tw <= b))
      in_.fail(n, entity, "the flanges or the web do not fit the height and width", hint);
    return flex::i_section(h, b, tf, tw);
  }
  in_.fail(field(n, "shape"), entity, "unknown shape '" + shape + "'", hint);
}

/// E, rho, A and I (A and I may come from a `section:` shape, or agree with it within 1 %) and
/// the section modulus, of a link or of one of its segments (E, rho: the link's when given).
flex::BeamSection ModelParser::beam_section(const YAML::Node& n, const std::string& entity, double E, double rho) {
  const flex::SectionProperties shape = section_shape(n, entity);
  flex::BeamSection out{E, rho, 0.0, 0.0, shape.modulus};
  double* values[4] = {&out.E, &out.rho, &out.A, &out.I};
  const char* keys[4] = {"E", "rho", "A", "I"};
  const char* units[4] = {"Pa", "kg/m^3", "m^2", "m^4"};
  for (int k = 0; k < 4; ++k) {
    const bool inherited = k < 2 && *values[k] > 0.0 && !field(n, keys[k]);  // the link's E or rho
    if (inherited) continue;
    const bool from_shape = k >= 2 && shape.area > 0.0;  // A and I may come from the section's shape
    *values[k] = in_.non_negative(n, keys[k], entity, Quantity::plain, !from_shape);
    if (from_shape && !field(n, keys[k])) {
      *values[k] = k == 2 ? shape.area : shape.second_moment;
    } else if (from_shape) {
      const double derived = k == 2 ? shape.area : shape.second_moment;
      if (std::abs(*values[k] - derived) > 0.01 * derived)
        in_.fail(n[keys[k]], entity,
                 fmt::format("{} = {:.6g} {} differs from the section's {:.6g} {} by more than 1 %", keys[k],
                             *values[k], units[k], derived, units[k]),
                 fmt::format("leave {} out (the section gives it) or correct the section", keys[k]));
    }
    if (!(*values[k] > 0.0))
      in_.fail(n[keys[k]] ? n[keys[k]] : n, entity, std::string(keys[k]) + " must be positive",
               std::string("give ") + keys[k] + " > 0 in " + units[k]);
  }
  return out;
}

/// Elastic links for `linkdyn flex` (docs/model-format.md, docs/elastic-links.md).
void ModelParser::elastic_links(const YAML::Node& node) {
  each_named(
      node, "elastic_links", elastic_links_, "elastic link",
      [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
        const YAML::Node& n = value;
        in_.require_map(n, entity);
        in_.allow_only(n, entity,
                       {"body", "from", "to", "E", "rho", "A", "I", "section", "elements", "supports",
                        "geometric_stiffness", "damping", "masses", "segments"});
        flex::ElasticLinkSpec e;
        e.name = name;
        e.where = in_.where(key);
        const YAML::Node body = in_.required(n, "body", entity, "name the body that bends");
        e.body = body_ref(body, entity);
        if (e.body == 0) in_.fail(body, entity, "the ground does not bend", "name a moving body");
        const char* ends[2] = {"from", "to"};
        for (int k = 0; k < 2; ++k) {
          const YAML::Node p = in_.required(
              n, ends[k], entity,
              std::string("name the point of the body at the beam's ") + (k == 0 ? "first" : "second") + " end");
          e.point_name[k] = in_.text(p, entity + "." + ends[k]);
          e.point[k] = point_ref(e.body, e.point_name[k], p, entity);
        }
        if (const YAML::Node list = field(n, "segments")) {
          // Piecewise sections: E and rho from the link unless a segment gives its own; A, I or
          // the section per segment.
          for (const char* key : {"A", "I", "section", "elements"})
            if (field(n, key))
              in_.fail(field(n, key), entity, std::string("gives ") + key + " and segments",
                       std::string("give ") + key + " in each segment");
          const std::string hint =
              "write segments: [{length: 0.1 m, elements: 4, section: {shape: tube, outer: 30 mm, inner: 24 mm}}, "
              "...]";
          if (!list.IsSequence() || list.size() == 0) in_.fail(list, entity, "segments must be a list", hint);
          const double E = in_.non_negative(n, "E", entity, Quantity::plain, false),
                       rho = in_.non_negative(n, "rho", entity, Quantity::plain, false);
          for (const YAML::Node& item : list) {
            const std::string where = entity + ".segments";
            in_.require_map(item, where);
            in_.allow_only(item, where, {"length", "elements", "E", "rho", "A", "I", "section"});
            flex::LinkSegment segment;
            segment.where = in_.where(item);
            segment.beam.length = in_.non_negative(item, "length", where, Quantity::length, true);
            if (!(segment.beam.length > 0.0))
              in_.fail(item["length"], where, "a segment's length must be positive", hint);
            segment.beam.elements =
                field(item, "elements") ? in_.integer(field(item, "elements"), where + ".elements", 1) : 2;
            segment.beam.section = beam_section(item, where, E, rho);
            e.segments.push_back(segment);
          }
          int elements = 0;
          for (const flex::LinkSegment& segment : e.segments) elements += segment.beam.elements;
          if (elements > 200) in_.fail(list, entity, "more than 200 elements", "give fewer elements per segment");
          e.elements = elements;
          const flex::BeamSection& first = e.segments.front().beam.section;
          e.E = first.E, e.rho = first.rho, e.A = first.A, e.I = first.I, e.section_modulus = first.W;
        } else {
          const flex::BeamSection section = beam_section(n, entity, 0.0, 0.0);
          e.E = section.E, e.rho = section.rho, e.A = section.A, e.I = section.I, e.section_modulus = section.W;
        }
        if (field(n, "elements")) {
          e.elements = in_.integer(field(n, "elements"), entity + ".elements", 1);
          // Dense assembly: a few hundred elements are far beyond what a link's low modes need.
          if (e.elements > 200)
            in_.fail(field(n, "elements"), entity, "more than 200 elements",
                     "give elements <= 200 (10 give the first three modes to 0.1 %)");
        }
        const YAML::Node supports = in_.required(
            n, "supports", entity, "give supports: [pinned, sliding] (clamped, pinned, sliding or free per end)");
        if (!supports.IsSequence() || supports.size() != 2)
          in_.fail(supports, entity, "supports must list the two ends", "write supports: [pinned, sliding]");
        for (int k = 0; k < 2; ++k) {
          const std::string s = in_.text(supports[k], entity + ".supports");
          if (s == "clamped")
            e.supports[k] = flex::BeamSupport::clamped;
          else if (s == "pinned")
            e.supports[k] = flex::BeamSupport::pinned;
          else if (s == "sliding")
            e.supports[k] = flex::BeamSupport::sliding;
          else if (s == "free")
            e.supports[k] = flex::BeamSupport::free;
          else
            in_.fail(supports[k], entity, "unknown support '" + s + "'", "use clamped, pinned, sliding or free");
        }
        if (const YAML::Node d = field(n, "damping")) {
          // Rayleigh {alpha, beta} or {ratio} for the first two modes (docs/elastic-links.md).
          in_.allow_only(d, entity + ".damping", {"alpha", "beta", "ratio"});
          const std::string hint = "write damping: {ratio: 0.02} or damping: {alpha: 1/s, beta: s}";
          if (field(d, "ratio")) {
            if (field(d, "alpha") || field(d, "beta"))
              in_.fail(d, entity, "damping gives a ratio and Rayleigh coefficients", hint);
            e.damping_ratio = in_.non_negative(d, "ratio", entity + ".damping", Quantity::plain, true);
            if (!(e.damping_ratio < 1.0))
              in_.fail(field(d, "ratio"), entity, "a damping ratio of 1 or more leaves no vibration", hint);
          } else {
            e.damping_alpha = in_.non_negative(d, "alpha", entity + ".damping", Quantity::plain, false);
            e.damping_beta = in_.non_negative(d, "beta", entity + ".damping", Quantity::plain, false);
          }
        }
        if (const YAML::Node list = field(n, "masses")) {
          const std::string hint = "write masses: [{at: 0.5 m, mass: 0.2, inertia: 1e-5}] (at: from the first end)";
          if (!list.IsSequence()) in_.fail(list, entity, "masses must be a list", hint);
          for (const YAML::Node& item : list) {
            const std::string where = entity + ".masses";
            in_.require_map(item, where);
            in_.allow_only(item, where, {"at", "mass", "inertia"});
            flex::AttachedMass a;
            a.at = in_.non_negative(item, "at", where, Quantity::length, true);
            a.mass = in_.non_negative(item, "mass", where, Quantity::plain, true);
            a.inertia = in_.non_negative(item, "inertia", where, Quantity::plain, false);
            a.where = in_.where(item);
            e.masses.push_back(a);
          }
        }
        if (const YAML::Node g = field(n, "geometric_stiffness")) {
          const std::string v = in_.text(g, entity + ".geometric_stiffness");
          if (v != "true" && v != "false")
            in_.fail(g, entity, "geometric_stiffness must be true or false", "write geometric_stiffness: true");
          e.geometric_stiffness = v == "true";
        }
        elastic_links_.push_back(std::move(e));
      });
  for (size_t b = 1; b < spec_.bodies.size(); ++b) beam_inertia(static_cast<int>(b));
}

/// A body that bends has the inertia of its beams (flex::beam_body_inertia): its mass, inertia
/// and com are set from them; values the model gives must agree within 1 % (of the mass, the
/// inertia, the length), else InputError naming both: a body mass of 0 under a beam made the end
/// forces, hence the axial force and the geometric stiffness, wrong.
void ModelParser::beam_inertia(int b) {
  const std::optional<flex::BeamBodyInertia> beams = flex::beam_body_inertia(elastic_links_, b);
  if (!beams) return;
  const double mass = beams->mass, inertia = beams->inertia, length = beams->length;
  const Vec2 com = beams->com;
  Body& body = spec_.bodies[static_cast<size_t>(b)];
  const YAML::Node given = field(bodies_node_, body.name.c_str());
  const std::string entity = "body '" + body.name + "'", link = "elastic link '" + beams->link->name + "'";
  const std::string fix = "remove the entry (the beam gives it) or make the two agree within 1 %";
  if (const YAML::Node v = field(given, "mass"); !v)
    body.mass = mass;
  else if (std::abs(body.mass - mass) > 0.01 * mass)
    in_.fail(v, entity,
             !beams->attached_masses
                 ? fmt::format("mass {:g} kg differs from rho A L = {:g} kg of its {}", body.mass, mass, link)
                 : fmt::format("mass {:g} kg differs from the {:g} kg of its {} (rho A L and its attached masses)",
                               body.mass, mass, link),
             fix);
  if (const YAML::Node v = field(given, "inertia"); !v)
    body.inertia = inertia;
  else if (std::abs(body.inertia - inertia) > 0.01 * inertia)
    in_.fail(
        v, entity,
        fmt::format("inertia {:g} kg m^2 differs from m L^2 / 12 = {:g} kg m^2 of its {}", body.inertia, inertia, link),
        fix);
  if (const YAML::Node v = field(given, "com"); !v)
    body.com = com;
  else if ((body.com - com).norm() > 0.01 * length)
    in_.fail(v, entity,
             fmt::format("com ({:g}, {:g}) m differs from the mid-chord ({:g}, {:g}) m of its {}", body.com.x(),
                         body.com.y(), com.x(), com.y(), link),
             fix);
}

}  // namespace linkdyn::io
