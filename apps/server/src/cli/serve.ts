/**
 * `sheaf serve [--port N] [--host H] [--data-dir DIR] [--no-jobs]`: the web service with the web app,
 * running the jobs too unless --no-jobs (then `sheaf worker` processes run them; needs DATABASE_URL).
 */
import { Command, InvalidArgumentError } from 'commander';
import path from 'node:path';
import { loadConfig, type Config, type ConfigOverrides } from '../config.ts';

type Write = (text: string) => void;

interface ServeFlags {
  port?: number;
  host?: string;
  dataDir?: string;
  /** False with --no-jobs. */
  jobs: boolean;
}

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) throw new InvalidArgumentError('PORT must be a whole number from 0 to 65535.');
  return number;
}

/** What an operator needs to know once the server listens: where it is and where its data lives. */
export function describeServer(config: Config, url: string, runJobs = true): string {
  const database = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${path.join(config.DATA_DIR, 'db')}`;
  const mail = config.SMTP_URL ? 'account mail: relayed through SMTP_URL' : `account mail: kept in ${config.OUTBOX_DIR} (read it with \`sheaf outbox\`)`;
  const lines = [
    `Sheaf is running at ${url}${config.PUBLIC_URL !== url ? ` (public address ${config.PUBLIC_URL})` : ''}`,
    `  API docs: ${url}/v1/docs`,
    `  database: ${database}`,
    `  files:    ${config.BLOB_DIR}`,
    `  ${mail}`,
    `  jobs:     ${runJobs ? 'run here' : 'run by `sheaf worker` processes (--no-jobs)'}${config.REDIS_URL ? ', queued on Redis (REDIS_URL)' : ''}`,
    'Press Ctrl+C to stop.',
  ];
  return `${lines.join('\n')}\n`;
}

export function serveCommand(write: Write = (text) => process.stdout.write(text)): Command {
  return new Command('serve')
    .description('Run the web service and the web app (settings from environment variables; see .env.example)')
    .option('--port <n>', 'port to listen on (PORT; default 3000)', port)
    .option('--host <host>', 'interface to listen on (HOST; default 127.0.0.1)')
    .option('--data-dir <dir>', 'folder for the embedded database, files and outbox (DATA_DIR; default .data)')
    .option('--no-jobs', 'serve HTTP only; `sheaf worker` processes run the jobs (needs DATABASE_URL)')
    .action(async (flags: ServeFlags) => {
      const overrides: ConfigOverrides = {
        ...(flags.port !== undefined ? { PORT: flags.port } : {}),
        ...(flags.host ? { HOST: flags.host } : {}),
        ...(flags.dataDir ? { DATA_DIR: flags.dataDir } : {}),
      };
      const config = loadConfig(process.env, overrides);
      // Loaded here so `sheaf --help` and `sheaf merge` do not load the whole server.
      const { startServer } = await import('../boot.ts');
      const server = await startServer(config, { handleSignals: true, runJobs: flags.jobs });
      write(describeServer(server.ctx.config, server.url, flags.jobs));
    });
}
