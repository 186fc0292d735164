// linkdyn: the command line. Exit codes: 0 ok, 2 bad input, 3 analysis cannot proceed.
#include <fmt/core.h>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "linkdyn/core/error.hpp"
#include "linkdyn/core/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "linkdyn: kinematics and dynamics of mechanisms.\n"
      "Run 'linkdyn <command> --help' for a command's options."};
  app.set_version_flag("--version", std::string(linkdyn::version));
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : linkdyn::InputError::exit_code;
  } catch (const linkdyn::InputError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return linkdyn::InputError::exit_code;
  } catch (const linkdyn::AnalysisError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
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
