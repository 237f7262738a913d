/** The `sheaf` command line: one subcommand per file under cli/. */
import { Command, CommanderError } from 'commander';
import { isSheafError } from '@sheaf/shared';
import { mergeCommand } from './merge.ts';
import { outboxCommand } from './outbox.ts';
import { serveCommand } from './serve.ts';
import { supportCommand } from './support.ts';
import { usersCommand } from './users.ts';
import { workerCommand } from './worker.ts';

/** Exit codes: 0 done, 1 bad input (a catalogue error), 2 usage, 3 done but some rows were skipped. */
/** The command tree (also read by the deployment examples' test: their commands and flags must exist). */
export function sheafProgram(setExitCode: (code: number) => void = () => undefined): Command {
  const program = new Command('sheaf')
    .description('Sheaf: mail merge for documents')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  // Subcommands do not inherit exitOverride or the output settings unless told to.
  program.addCommand(mergeCommand(setExitCode).copyInheritedSettings(program));
  program.addCommand(serveCommand().copyInheritedSettings(program));
  program.addCommand(workerCommand().copyInheritedSettings(program));
  program.addCommand(outboxCommand().copyInheritedSettings(program));
  program.addCommand(usersCommand().copyInheritedSettings(program));
  program.addCommand(supportCommand().copyInheritedSettings(program));
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = sheafProgram((code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (isSheafError(error)) {
      process.stderr.write(`sheaf: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`sheaf: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
