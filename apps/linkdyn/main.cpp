// linkdyn: the command line. Exit codes: 0 ok, 2 bad input (a non-finite number too), 3 the
// analysis cannot proceed (or the request does not fit in memory), 130 stopped by Ctrl-C, 1 a
// defect of linkdyn.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <csignal>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "build_info.hpp"
#include "commands.hpp"
#include "linkdyn/core/error.hpp"
#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/core/units.hpp"
#include "linkdyn/core/version.hpp"

namespace {

/// Ctrl-C: the running analysis stops at its next row or step and the command ends cleanly
/// (exit 130); a second Ctrl-C ends the process at once.
extern "C" void on_interrupt(int) {
  linkdyn::request_stop();
  std::signal(SIGINT, SIG_DFL);
}

/// Every option value that reads as a number must be finite: "nan", "inf" and "1e999" are
/// refused whatever the option (a NaN would otherwise pass range checks, or mean "unset"); a
/// real-valued option is also held to |x| < 1e12 like the model's numbers (linkdyn::
/// max_input_magnitude).
void refuse_non_finite_numbers(CLI::App& app) {
  const auto checker = [](bool real) {
    return CLI::Validator(
        [real](std::string& text) -> std::string {
          double value = 0.0;
          const char* const end = text.data() + text.size();
          const auto [at, error] = std::from_chars(text.data() + (text.starts_with('+') ? 1 : 0), end, value);
          if (at != end) return "";
          if (error == std::errc::result_out_of_range || (error == std::errc() && !std::isfinite(value)))
            return "'" + text + "' is not a finite number";
          return real && error == std::errc() ? linkdyn::magnitude_problem(value, text) : "";
        },
        "");
  };
  for (CLI::Option* option : app.get_options())
    if (option->get_expected_max() > 0) option->check(checker(option->get_type_name() == "FLOAT"));
  for (CLI::App* command : app.get_subcommands({})) refuse_non_finite_numbers(*command);
}

/// A misspelt command or option, answered with the nearest name and where the list is; empty
/// when the command line has neither (CLI11's own message stands).
std::string unknown_name_hint(CLI::App& app, int argc, char** argv) {
  std::vector<std::string> commands;
  for (CLI::App* command : app.get_subcommands({})) commands.push_back(command->get_name());
  std::string all;
  for (const std::string& c : commands) all += (all.empty() ? "" : ", ") + c;
  if (argc < 2) return "a command is required: " + all + " ('linkdyn --help' says what each does)";
  if (argv[1][0] == '-') return {};
  const std::string verb = argv[1];
  CLI::App* command = nullptr;
  for (CLI::App* c : app.get_subcommands({}))
    if (c->get_name() == verb) command = c;
  if (!command) {
    const std::string nearest = linkdyn::nearest_name(verb, commands);
    return fmt::format("unknown command '{}'{}; the commands are: {}", verb,
                       nearest.empty() ? "" : " (did you mean '" + nearest + "'?)", all);
  }
  // A command with commands of its own (robot): a missing or misspelt one, with the list.
  std::vector<std::string> subcommands;
  for (CLI::App* sub : command->get_subcommands({})) subcommands.push_back(sub->get_name());
  if (!subcommands.empty()) {
    std::string list;
    for (const std::string& c : subcommands) list += (list.empty() ? "" : ", ") + c;
    if (argc < 3 || argv[2][0] == '-')
      return fmt::format("'{}' needs one of its commands: {} ('linkdyn {} --help' says what each does)", verb, list,
                         verb);
    if (std::find(subcommands.begin(), subcommands.end(), argv[2]) == subcommands.end()) {
      const std::string nearest = linkdyn::nearest_name(argv[2], subcommands);
      return fmt::format("unknown '{}' command '{}'{}; its commands are: {}", verb, argv[2],
                         nearest.empty() ? "" : " (did you mean '" + nearest + "'?)", list);
    }
  }
  // The first --option that the command (or its own subcommand) does not have.
  std::vector<std::string> options;
  std::vector<CLI::App*> scopes{command};
  if (argc > 2)
    for (CLI::App* sub : command->get_subcommands({}))
      if (sub->get_name() == argv[2]) scopes.push_back(sub);
  for (CLI::App* scope : scopes)
    for (const CLI::Option* option : scope->get_options())
      for (const std::string& name : option->get_lnames()) options.push_back("--" + name);
  for (int k = 2; k < argc; ++k) {
    std::string word = argv[k];
    if (!word.starts_with("--")) continue;
    word = word.substr(0, word.find('='));
    if (std::find(options.begin(), options.end(), word) != options.end()) continue;
    const std::string nearest = linkdyn::nearest_name(word, options);
    const std::string name = scopes.back()->get_name() == verb ? verb : verb + " " + scopes.back()->get_name();
    return fmt::format("'{}' has no option '{}'{}; 'linkdyn {} --help' lists them", name, word,
                       nearest.empty() ? "" : " (did you mean '" + nearest + "'?)", name);
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "linkdyn: kinematics and dynamics of mechanisms.\n"
      "Run 'linkdyn <command> --help' for a command's options."};
  app.set_version_flag("--version", fmt::format("linkdyn {} (commit {})\nbuilt with {}", linkdyn::version,
                                                LINKDYN_BUILD_COMMIT, LINKDYN_BUILD_DEPENDENCIES));
  app.require_subcommand(1, 1);
  linkdyn::cli::add_check_command(app);
  linkdyn::cli::add_kinematics_command(app);
  linkdyn::cli::add_kinetostatics_command(app);
  linkdyn::cli::add_report_command(app);
  linkdyn::cli::add_reduce_command(app);
  linkdyn::cli::add_simulate_command(app);
  linkdyn::cli::add_robot_command(app);
  linkdyn::cli::add_mass_command(app);
  linkdyn::cli::add_flex_command(app);
  linkdyn::cli::add_study_command(app);
  refuse_non_finite_numbers(app);
  std::signal(SIGINT, on_interrupt);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      if (const std::string hint = unknown_name_hint(app, argc, argv); !hint.empty()) {
        fmt::print(stderr, "error: {}\n", hint);
        return linkdyn::InputError::exit_code;
      }
    }
    const int code = app.exit(e);
    return code == 0 ? 0 : linkdyn::InputError::exit_code;
  } catch (const linkdyn::Interrupted& e) {
    fmt::print(stderr, "{}\nThe files reported as written above are whole; no other file was written or changed.\n",
               e.what());
    return linkdyn::Interrupted::exit_code;
  } catch (const linkdyn::InputError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return linkdyn::InputError::exit_code;
  } catch (const linkdyn::AnalysisError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return linkdyn::AnalysisError::exit_code;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr,
               "error: not enough memory for this request; lower the number of steps (--steps, the model's "
               "steps:) or of rows\n");
    return linkdyn::AnalysisError::exit_code;
  } catch (const std::length_error& e) {
    fmt::print(stderr, "error: the request is too large ({}); lower the number of steps or rows\n", e.what());
    return linkdyn::AnalysisError::exit_code;
  } catch (const std::exception& e) {
    // Not a diagnosis of the input or the analysis: a defect of linkdyn (exit 1).
    fmt::print(stderr,
               "internal error: {}\nThis is a defect of linkdyn, not of your model: please report it with the "
               "command and the model file.\n",
               e.what());
    return 1;
  }
  return 0;
}
