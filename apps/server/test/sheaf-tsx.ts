/**
 * `sheaf` on the TypeScript sources (node --import tsx), for tests that start it as a process: the same
 * command line as bin/sheaf.mjs without depending on the compiled build being current.
 */
import { main } from '../src/cli/main.ts';

process.exitCode = await main(process.argv);
