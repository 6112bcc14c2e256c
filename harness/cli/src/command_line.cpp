// The scalefuzz command line on CLI11: dispatch to a command of the table,
// its options parsed and checked by CLI11, "did you mean" for mistyped
// commands and options, help built from the declarations, and every error
// mapped to the one exit-code table (exit_codes.hpp).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "scalefuzz/harness/campaign.hpp"
#include "scalefuzz/harness/closest_name.hpp"
#include "scalefuzz/harness/terminal_text.hpp"

namespace scalefuzz::cli {

namespace {

std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const auto& c : commands()) names.emplace_back(c.name);
  return names;
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options())
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
  return names;
}

bool looks_like_option(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  return !(std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.');  // -1, -.5 are values
}

std::string hint(const std::string& word, const std::vector<std::string>& known) {
  std::string best = harness::closest_name(word, known);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

void print_overview(std::ostream& out) {
  out << "usage: scalefuzz COMMAND [OPTIONS]\n"
         "       scalefuzz --version | --help\n\n"
         "Launches an MPI application again and again under a recording and noise-injecting\n"
         "PMPI library, stores every run, and reports races, scale anomalies, hangs and crashes.\n\n"
         "commands:\n";
  for (const auto& c : commands()) {
    std::string name = c.name;
    name.resize(12, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nRun 'scalefuzz COMMAND --help' for a command's options.\nExit codes:\n";
  for (const auto& e : kExitCodeTable) out << "  " << e.code << (e.code < 10 ? "    " : "  ") << e.meaning << "\n";
}

int fail(const std::string& who, const std::string& message, int code, bool usage_hint) {
  std::cerr << harness::terminal_safe(who + ": " + message) << "\n";
  if (usage_hint) std::cerr << "Run '" << who << " --help' for usage.\n";
  return code;
}

// Parses `args` (what follows the command name) into the options `app`
// declared, the "--" tail into `call`; UsageError naming the argument (with a
// "did you mean" for a mistyped option) on failure. False for -h/--help.
bool parse_command_line(CLI::App& app, const Command& command, const std::vector<std::string>& args,
                        Invocation& call) {
  std::vector<std::string> head = args;
  if (command.takes_tail) {
    auto dashes = std::find(args.begin(), args.end(), "--");
    if (dashes != args.end()) {
      head.assign(args.begin(), dashes);
      call.tail.assign(dashes + 1, args.end());
    }
  }
  std::vector<std::string> reversed(head.rbegin(), head.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    return false;
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  for (const auto& extra : app.remaining()) {
    if (looks_like_option(extra)) {
      const std::string name = extra.substr(0, extra.find('='));
      throw UsageError("unknown option '" + name + "'" + hint(name, option_names(app)));
    }
    if (extra == "--") throw UsageError("unexpected '--'");
    throw UsageError("unexpected argument '" + extra + "'");
  }
  return true;
}

// The option's type name as declared: CLI11 appends ":" and each check's
// description, and the declared name may hold a ':' itself ("RANK:CALL").
std::string type_name_without_checks(const CLI::Option& option) {
  std::string type = option.get_type_name();
  auto& opt = const_cast<CLI::Option&>(option);  // get_validator has no const overload in CLI11 2.1
  std::string checks;
  for (int i = 0;; ++i) {
    try {
      const std::string description = opt.get_validator(i)->get_description();
      if (!description.empty()) checks += ":" + description;
    } catch (const CLI::OptionNotFound&) {
      break;
    }
  }
  if (!checks.empty() && type.size() >= checks.size() && type.compare(type.size() - checks.size(), checks.size(), checks) == 0)
    type.resize(type.size() - checks.size());
  return type;
}

// The text of `scalefuzz NAME --help`, built from the options `app` declared.
std::string command_help(const Command& command, const CLI::App& app) {
  std::ostringstream out;
  out << "usage: scalefuzz " << command.name << " " << command.synopsis << "\n\n" << command.description << "\n";
  auto column = [](std::string s) {
    s = "  " + s;
    if (s.size() < 24) s.resize(24, ' ');
    else s += "  ";
    return s;
  };
  auto indented = [](const std::string& text) {
    std::string out;
    for (char c : text) out += c == '\n' ? std::string("\n") + std::string(24, ' ') : std::string(1, c);
    return out;
  };
  for (const CLI::Option* opt : app.get_options()) {
    if (!(opt->get_positional() && opt->get_lnames().empty())) continue;
    out << column(opt->get_name()) << indented(opt->get_description()) << "\n";
  }
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional() && opt->get_lnames().empty()) continue;
    std::string names;
    for (const auto& s : opt->get_snames()) names += "-" + s + ", ";
    for (const auto& l : opt->get_lnames()) names += "--" + l + ", ";
    names.resize(names.size() - 2);
    if (opt->get_type_size() != 0) names += " " + type_name_without_checks(*opt);
    out << column(names) << indented(opt->get_description()) << "\n";
  }
  out << "\nExit: " << command.exit_codes << ".\n";
  return out.str();
}

}  // namespace

int scalefuzz_main(const std::vector<std::string>& args) {
  if (args.empty()) {
    print_overview(std::cerr);
    return kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_overview(std::cout);
    return kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "scalefuzz " << SCALEFUZZ_VERSION << "\n";
    return kExitOk;
  }
  const auto& table = commands();
  auto command = std::find_if(table.begin(), table.end(), [&](const Command& c) { return args[0] == c.name; });
  if (command == table.end()) {
    const std::string what = looks_like_option(args[0]) ? "unknown option '" : "unknown command '";
    std::cerr << harness::terminal_safe("scalefuzz: " + what + args[0] + "'" +
                               hint(args[0], looks_like_option(args[0]) ? std::vector<std::string>{"--help", "--version"}
                                                                        : command_names()))
              << "\n\n";
    print_overview(std::cerr);
    return kExitUsage;
  }
  const std::string who = std::string("scalefuzz ") + command->name;
  try {
    CLI::App app{"", who};
    app.set_help_flag("-h,--help", "print this help and exit");
    app.allow_extras();  // unknown arguments are reported by parse_command_line, with a hint
    const EntryPoint entry = command->declare(app);
    Invocation call{who, {}};
    for (auto arg = args.begin() + 1; arg != args.end(); ++arg) call.command_line += " " + *arg;
    if (!parse_command_line(app, *command, std::vector<std::string>(args.begin() + 1, args.end()), call)) {
      std::cout << command_help(*command, app);
      return kExitOk;
    }
    return entry(call);
  } catch (const UsageError& e) {
    return fail(who, e.what(), kExitUsage, true);
  } catch (const harness::CampaignError& e) {
    return fail(who, e.what(), kExitUsage, false);
  } catch (const InfraError& e) {
    return fail(who, e.what(), kExitInfra, false);
  } catch (const std::exception& e) {
    return fail(who, workflows::unexpected_failure(e), kExitInfra, false);
  }
}

}  // namespace scalefuzz::cli
