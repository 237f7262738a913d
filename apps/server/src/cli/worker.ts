/**
 * `sheaf worker [--health-port N]`: runs jobs (merges, mailings) and serves no API. Needs the database
 * the API processes use (DATABASE_URL) and, when set, their Redis (REDIS_URL). SIGTERM: takes no new
 * job, finishes or hands back those in flight, exits.
 */
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig, type ConfigOverrides } from '../config.ts';

type Write = (text: string) => void;

interface WorkerFlags {
  healthPort?: number;
  host?: string;
  dataDir?: string;
}

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) throw new InvalidArgumentError('the port must be a whole number from 0 to 65535.');
  return number;
}

export function workerCommand(write: Write = (text) => process.stdout.write(text)): Command {
  return new Command('worker')
    .description('Run background jobs (merges, mailings) without serving the API; needs DATABASE_URL (see .env.example)')
    .option('--health-port <n>', 'serve /healthz and /readyz on this port (for orchestrators); none by default', port)
    .option('--host <host>', 'interface of the health port (HOST; default 127.0.0.1)')
    .option('--data-dir <dir>', 'folder for scratch files and local storage (DATA_DIR; default .data)')
    .action(async (flags: WorkerFlags) => {
      const overrides: ConfigOverrides = {
        ...(flags.host ? { HOST: flags.host } : {}),
        ...(flags.dataDir ? { DATA_DIR: flags.dataDir } : {}),
      };
      const config = loadConfig(process.env, overrides);
      const { startWorker } = await import('../boot.ts');
      const worker = await startWorker(config, { handleSignals: true, ...(flags.healthPort !== undefined ? { healthPort: flags.healthPort } : {}) });
      const health = worker.healthPort !== undefined ? `; health at http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${worker.healthPort}/readyz` : '';
      write(`Sheaf worker running jobs (${worker.ctx.jobs.backend === 'redis' ? 'queue: Redis (REDIS_URL)' : 'queue: the database'})${health}. Stop with SIGTERM or Ctrl+C.\n`);
    });
}
