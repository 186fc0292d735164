#include "linkdyn/core/error.hpp"

#include <fmt/format.h>

namespace linkdyn {
namespace {
std::string compose(const SourceLocation& where, const std::string& entity, const std::string& problem,
                    const std::string& fix) {
  std::string place;
  if (!where.file.empty()) place = where.line > 0 ? fmt::format("{}:{}: ", where.file, where.line) : where.file + ": ";
  return fmt::format("{}{}{}{}{}", place, entity.empty() ? "" : entity + ": ", problem, fix.empty() ? "" : "; ", fix);
}
}  // namespace

InputError::InputError(const SourceLocation& where, const std::string& entity, const std::string& problem,
                       const std::string& fix)
    : std::runtime_error(compose(where, entity, problem, fix)), where_(where), entity_(entity) {}

}  // namespace linkdyn
