#!/usr/bin/env node
// The `sheaf` command. Sources are TypeScript; tsx compiles them on the fly (cached), so the command
// works straight after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
