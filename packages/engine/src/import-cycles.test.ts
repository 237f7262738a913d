import { describe, expect, it } from 'vitest';
import { cruise } from 'dependency-cruiser';
import { fileURLToPath } from 'node:url';

// The engine's modules form a tree: a cycle (type imports count) makes load order fragile and
// hides which part depends on which. The repository's lint checks the whole tree; this keeps the
// engine's own check next to its code.
describe('engine import graph', () => {
  it('has no import cycle, type-only imports included', async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const result = await cruise(['packages/engine/src'], {
      baseDir: root,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
    });
    const output = result.output;
    if (typeof output === 'string') throw new Error('expected the JSON result');
    const cycles = output.summary.violations.map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)].join(' -> '));
    expect(cycles).toEqual([]);
  }, 60_000);
});
