#include "core/command_line.hpp"

#include "core/errors.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace jobsched {

namespace {

/* Help is each command's own text (options, outputs, exit statuses), kept as the app's footer: CLI11's generated
 * listing would lose the outputs and exit statuses. */
class UsageFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string, CLI::AppFormatMode) const override
  {
    return app->get_footer();
  }
};

/* "run" or "plan mtat": the words that chose `app`. */
std::string command_path(const CLI::App* app)
{
  std::string path;
  for (; app != nullptr && app->get_parent() != nullptr; app = app->get_parent())
    path = app->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

/* CLI11's wording for the two mistakes people make most, in the words jobsched's commands always used. */
std::string parse_error_message(const CLI::ParseError& e)
{
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    auto colon = what.find(": ");
    if (colon != std::string::npos) {
      const std::string name = what.substr(0, colon);
      const std::string rest = what.substr(colon + 2);
      if (rest.size() > 8 && rest.compare(rest.size() - 8, 8, " missing") == 0) return name + " needs a value";
      const std::string at_most = "At Most 1 required but received ";
      if (rest.rfind(at_most, 0) == 0) {
        const std::string times = rest.substr(at_most.size());
        return name + " is given " + (times == "2" ? std::string("twice") : times + " times");
      }
    }
  }
  return what;
}

/* The command that the leading words of `args` choose (the root when none does). */
const CLI::App* command_named(const CLI::App& root, const std::vector<std::string>& args)
{
  const CLI::App* app = &root;
  for (const std::string& word : args) {
    if (word.empty() || word[0] == '-') break;
    try {
      app = app->get_subcommand(word);
    } catch (const CLI::Error&) {
      break;
    }
  }
  return app;
}

/* CLI11 reads "--cfg=" as "--cfg" without its value, and takes the next word as the value ("run S.yaml --cfg= --out
 * DIR" said "unexpected argument 'DIR'"; "--log= --quiet" refused '--quiet' as a --log): an option written with '='
 * and nothing after it is refused first, named as written. Words after "--" are not options. */
void refuse_empty_values(const CLI::App& root, const std::vector<std::string>& args)
{
  for (const std::string& word : args) {
    if (word == "--") return;
    if (word.size() > 3 && word.compare(0, 2, "--") == 0 && word.find('=') == word.size() - 1) {
      const std::string path = command_path(command_named(root, args));
      throw InputError((path.empty() ? "" : path + ": ") + word + ": empty value (see jobsched " +
                       (path.empty() ? "" : path + " ") + "--help)");
    }
  }
}

} // namespace

CommandLine::CommandLine(const std::string& usage, CommandAction run_without_command)
    : app_(std::make_unique<CLI::App>("jobsched", "jobsched"))
{
  app_->formatter(std::make_shared<UsageFormatter>());
  app_->footer(usage);
  app_->allow_extras();
  // One command per command line: CLI11 otherwise reads a word that names another command as that command wherever it
  // comes ("jobsched plot run", a run's folder named run, ran `jobsched run`). With at most one sub-command at each
  // level (inherited by the commands added below), a word after the command is the command's own argument.
  app_->require_subcommand(0, 1);
  commands_[app_.get()] = std::move(run_without_command);
}

CommandLine::~CommandLine() = default;

CLI::App* CommandLine::add_command(CLI::App& parent, const std::string& name, const std::string& usage,
                                   CommandAction run)
{
  CLI::App* command = parent.add_subcommand(name);
  command->footer(usage);
  command->allow_extras();
  commands_[command] = std::move(run);
  return command;
}

int CommandLine::run(const std::vector<std::string>& args)
{
  CLI::App* chosen = app_.get();
  refuse_empty_values(*app_, args);
  try {
    // CLI11 reads its arguments from the back.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app_->parse(reversed);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app_->help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    for (auto chain = app_->get_subcommands(); !chain.empty(); chain = chain.front()->get_subcommands())
      chosen = chain.front();
    const std::string path = command_path(chosen);
    throw InputError((path.empty() ? "" : path + ": ") + parse_error_message(e) + " (see jobsched " +
                     (path.empty() ? "" : path + " ") + "--help)");
  }
  // The deepest sub-command chosen runs; any word that no command along the way knew is refused first.
  std::vector<CLI::App*> chain{app_.get()};
  for (auto subs = app_->get_subcommands(); !subs.empty(); subs = subs.front()->get_subcommands())
    chain.push_back(subs.front());
  chosen = chain.back();
  const std::string path = command_path(chosen);
  for (const CLI::App* app : chain)
    for (const std::string& word : app->remaining()) {
      const std::string see = " (see jobsched " + (path.empty() ? "" : path + " ") + "--help)";
      if (word.size() > 1 && word[0] == '-')
        throw InputError((path.empty() ? "" : path + ": ") + "unknown option " +
                         quoted_value(word.substr(0, word.find('='))) + see);
      if (chain.size() == 1) throw InputError("unknown command " + quoted_value(word) + " (see jobsched --help)");
      throw InputError(path + ": unexpected argument " + quoted_value(word) + see);
    }
  return commands_.at(chosen)(*chosen);
}

int run_one_command(const std::string& name, const std::function<void(CommandLine&)>& add,
                    const std::vector<std::string>& args)
{
  CommandLine cli("", [name](const CLI::App&) -> int { throw InputError("no command given (expected " + name + ")"); });
  add(cli);
  std::vector<std::string> full{name};
  full.insert(full.end(), args.begin(), args.end());
  return cli.run(full);
}

} // namespace jobsched
