/**
 * Fault injection for the merge worker (tests only, never imported by the engine): a folder to name in
 * SHEAF_PREBUILT_WORKERS (workerEntry.ts) whose mergeWorker.mjs is the real merge worker, made to die
 * as SHEAF_TEST_MERGE_WORKER_DIES says when the worker starts:
 *
 *   exit      the thread exits right after posting its first batch (an unexpected exit)
 *   throw     an uncaught error right after its first batch
 *   release   the thread exits when its merge is over and it waits, kept warm, for the next one
 *   (unset)   it does not die
 *
 * The folder's other entries are the build's own (linked), so other workers start as usual.
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsBootstrap, workerEntry } from './workerEntry.ts';

export type MergeWorkerDeath = 'exit' | 'throw' | 'release';

export const MERGE_WORKER_DIES = 'SHEAF_TEST_MERGE_WORKER_DIES';

const FAULTS = `
import { parentPort } from 'node:worker_threads';
const how = process.env.${MERGE_WORKER_DIES};
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (message, transfer) => {
  post(message, transfer);
  if (message?.type !== 'batch') return;
  if (how === 'exit') process.exit(3);
  // As soon as the worker's current step returns (its next await): a setImmediate could wait until the
  // worker had made every batch, when credits were already queued (seen under load), and not break it.
  if (how === 'throw') process.nextTick(() => { throw new Error('injected: the merge worker broke mid-merge'); });
};
// Wrapped, not a listener of its own: one added now would take the messages sent before the worker's own listener.
const on = parentPort.on.bind(parentPort);
parentPort.on = (event, listener) => on(event, how !== 'release' || event !== 'message' ? listener : (command) => {
  if (command?.type === 'release') process.exit(0);
  listener(command);
});
`;

/** Makes the folder (removed by the returned function); the real worker is the one SHEAF_PREBUILT_WORKERS names now, or the sources. */
export function dyingMergeWorkers(): { dir: string; remove: () => void } {
  const real = workerEntry(new URL('./mergeWorker.ts', import.meta.url));
  const start = real.pathname.endsWith('.ts') ? tsBootstrap(real) : `import(${JSON.stringify(real.href)});`;
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-dying-worker-'));
  writeFileSync(path.join(dir, 'mergeWorker.mjs'), `${FAULTS}\nawait ${start}\n`);
  if (!real.pathname.endsWith('.ts')) {
    const build = path.dirname(fileURLToPath(real));
    for (const name of readdirSync(build)) if (name.endsWith('.mjs') && name !== 'mergeWorker.mjs') symlinkSync(path.join(build, name), path.join(dir, name));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
