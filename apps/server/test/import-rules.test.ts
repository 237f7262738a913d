/**
 * The import rules `npm run lint` checks (.dependency-cruiser.cjs): they catch what they are meant to
 * catch (on a small made-up tree), and the repository keeps them (no cycle, type imports included;
 * server modules only through index.ts; services never import http/; shared and engine never an app).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: IForbiddenRuleType[] };

async function violations(baseDir: string, paths: string[]): Promise<string[]> {
  const result = await cruise(paths, { ruleSet: { forbidden: config.forbidden }, validate: true, baseDir, tsPreCompilationDeps: true }, { extensions: ['.ts', '.tsx'] });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe('the import rules', () => {
  let dir: string;
  const files: Record<string, string> = {
    'apps/server/src/modules/a/index.ts': "export { run } from './service.ts';\n",
    'apps/server/src/modules/a/service.ts':
      "import { secret } from '../b/repository.ts';\nimport { open } from '../b/index.ts';\nimport type { X } from '../../http/route.ts';\nexport const run = (x?: X) => secret + open + String(x);\n",
    'apps/server/src/modules/a/routes.ts': "import type { X } from '../../http/route.ts';\nexport type R = X;\n",
    'apps/server/src/modules/b/repository.ts': 'export const secret = 1;\n',
    'apps/server/src/modules/b/index.ts': 'export const open = 2;\n',
    'apps/server/src/http/route.ts': "import type { Y } from './upload.ts';\nexport type X = Y;\n",
    'apps/server/src/http/upload.ts': "import type { X } from './route.ts';\nexport type Y = X | 1;\n",
    'apps/server/src/boot.ts': "import { secret } from './modules/b/repository.ts';\nimport { run } from './modules/a/index.ts';\nexport const boot = () => run() + secret;\n",
    'apps/server/test/seed.test.ts': "import { secret } from '../src/modules/b/repository.ts';\nimport { run } from '../src/modules/a/service.ts';\nexport const seeded = secret + run();\n",
    'apps/server/src/modules/merges/service.ts': "import { send } from '../email/index.ts';\nexport const done = send;\n",
    'apps/server/src/modules/email/index.ts': 'export const send = 1;\n',
    'packages/shared/src/bad.ts': "import { run } from '../../../apps/server/src/modules/a/index.ts';\nexport const z = run;\n",
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sheaf-imports-'));
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('catches a cycle through type imports, a reach into another module, an upward module import, a service importing http/ and the contract importing an app', async () => {
    expect((await violations(dir, ['apps', 'packages'])).sort()).toEqual([
      'contract-and-engine-not-apps: packages/shared/src/bad.ts -> apps/server/src/modules/a/index.ts',
      'module-through-index: apps/server/src/boot.ts -> apps/server/src/modules/b/repository.ts',
      'module-to-module-through-index: apps/server/src/modules/a/service.ts -> apps/server/src/modules/b/repository.ts',
      // merges sits below email: even through email's index.ts it may not import it.
      'module-layers-merges: apps/server/src/modules/merges/service.ts -> apps/server/src/modules/email/index.ts',
      'no-circular: apps/server/src/http/route.ts -> apps/server/src/http/upload.ts', // reported once per cycle
      'services-not-http: apps/server/src/modules/a/service.ts -> apps/server/src/http/route.ts',
      // A test may seed through repository.ts, nothing else of a module.
      'tests-seed-through-repository: apps/server/test/seed.test.ts -> apps/server/src/modules/a/service.ts',
    ].sort());
  });

  it('hold in the repository', async () => {
    const found = await violations(root, ['packages', 'apps/server', 'apps/web/src']);
    expect(found).toEqual([]);
  }, 120_000);
});
