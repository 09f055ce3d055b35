import type { Command } from 'commander';

/** The words that call a command, as a user types them: `handbook graph show`. */
function commandLine(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/** A command and every command under it, at any depth. */
function* commandTree(command: Command): Generator<Command> {
  yield command;
  for (const child of command.commands) yield* commandTree(child);
}

/** What is wrong when commander shows a command group's help as an error. */
function missingCommand(group: Command): string {
  const [first, topic] = group.args;
  if (first === 'help' && topic !== undefined) return `unknown command '${topic}'`;
  return group.parent ? `missing command for '${group.name()}'` : 'missing command';
}

/**
 * Commander's message for a command line it refused, in the CLI's one-line error format.
 * Commander writes `error: unknown option '--jsn'` and, when it has one, its suggestion on a
 * line of its own, `(Did you mean --json?)`; both become one sentence, then the hint.
 */
function formatUsageError(command: Command, text: string): string {
  const [problem = '', ...suggestions] = text.replace(/^error: /, '').trim().split('\n');
  const sentences = [problem, ...suggestions.map((line) => line.replace(/^\((.*)\)$/, '$1'))].map((sentence) => sentence.replace(/\.$/, ''));
  const about = command.commands.length > 0 ? 'its commands' : 'its usage';
  return `handbook: ${sentences.join('. ')} (run \`${commandLine(command)} --help\` for ${about})\n`;
}

/**
 * Makes commander's own parse errors follow the CLI's rule for errors: one line on stderr,
 * `handbook: <what is wrong>` and what to do, and a CommanderError thrown instead of an exit,
 * for `run` to map to an exit code (commander gives help and version exitCode 0, refusals 1).
 * Call it once every command is added: commander copies a parent's settings into a command
 * only when the command is added, so each command of the tree is configured here.
 */
export function reportUsageErrors(program: Command): Command {
  // Commander prints help as an error only for a command group called without one of its
  // commands, or asked for help on a command it lacks (`handbook help nothing`); help after
  // other errors stays off. That help opens with the error line.
  program.addHelpText('beforeAll', ({ error, command }) => (error ? `handbook: ${missingCommand(command)} (pick one of the commands below)` : ''));
  for (const command of commandTree(program)) {
    command
      .exitOverride()
      .showSuggestionAfterError()
      .configureOutput({ outputError: (text, write) => write(formatUsageError(command, text)) });
  }
  return program;
}
