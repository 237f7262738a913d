#!/usr/bin/env node
// The `sheaf` command runs the compiled server (apps/server/dist, made by scripts/build-server.mjs with
// esbuild): no TypeScript compiler at start-up. When the build is missing or older than the sources
// (a fresh `npm install`, a `git pull`, an edit) it is rebuilt first, which takes about a second.
// Development and tests run the TypeScript sources under tsx instead.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuild } from '../../../scripts/build-server.mjs';
import { mapStackTracesLazily } from './source-maps.mjs';

// Said on a terminal only: scripts and tests read stderr for the command's own messages.
const entry = await ensureServerBuild({ quiet: !process.stderr.isTTY });
// Stack traces name the .ts sources (the build writes linked source maps, read when a trace needs one).
mapStackTracesLazily(path.dirname(entry));
if (process.env.SHEAF_DEBUG_ENTRY) process.stderr.write(`sheaf: running ${entry}\n`);
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv);
