#pragma once
// Errors reported to users: bad input (exit code 2) and analyses that cannot proceed (exit code 3).
#include <stdexcept>
#include <string>
#include <vector>

namespace linkdyn {

/// Where an entity was read from: file and 1-based line (0 when built in code).
struct SourceLocation {
  std::string file;
  int line = 0;
};

/// Bad input: names the file, line, entity, what is wrong and how to fix it. Exit code 2.
class InputError : public std::runtime_error {
 public:
  InputError(const SourceLocation& where, const std::string& entity, const std::string& problem,
             const std::string& fix);
  [[nodiscard]] const SourceLocation& where() const { return where_; }
  [[nodiscard]] const std::string& entity() const { return entity_; }
  static constexpr int exit_code = 2;

 private:
  SourceLocation where_;
  std::string entity_;
};

/// An analysis that cannot proceed (cannot assemble, singular, no convergence). Exit code 3.
class AnalysisError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  static constexpr int exit_code = 3;
};

/// For "did you mean" hints: the name among `names` nearest to `name` within two edits
/// (Levenshtein distance), or empty.
[[nodiscard]] std::string nearest_name(const std::string& name, const std::vector<std::string>& names);

}  // namespace linkdyn
