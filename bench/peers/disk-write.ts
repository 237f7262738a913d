/**
 * The disk's own sequential write speed, the ceiling for any per-row tool that writes its documents:
 * `<outDir> <megabytes>`: writes that many 1 MB chunks to one file, fsyncs once, deletes the file.
 */
import { closeSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { randomFillSync } from 'node:crypto';
import { printResult } from './candidate.ts';

const [outDir, megabytes] = process.argv.slice(2);
if (!outDir || !megabytes) throw new Error('usage: <outDir> <megabytes>');
const chunk = randomFillSync(new Uint8Array(1024 * 1024)); // incompressible, like PDF streams
const file = path.join(outDir, 'disk-write.bin');
const started = performance.now();
const fd = openSync(file, 'w');
for (let i = 0; i < Number(megabytes); i++) writeSync(fd, chunk);
fsyncSync(fd);
closeSync(fd);
const seconds = (performance.now() - started) / 1000;
unlinkSync(file);
printResult({ workload: 'disk-write', tool: 'disk', units: Number(megabytes), unitName: 'MB', seconds, bytesOut: Number(megabytes) * chunk.length });
