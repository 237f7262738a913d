/**
 * The deployment examples (deploy/: systemd units, the Kubernetes manifest) are not run here (no
 * container engine, no systemd in CI), so they are checked for what would break them silently: YAML
 * syntax and shape, settings the server does not know (a typo there is ignored at run time), and
 * `sheaf` commands or flags that do not exist.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../apps/server/src/config.ts';
import { sheafProgram } from '../apps/server/src/cli/main.ts';

const DEPLOY = path.resolve(import.meta.dirname, '../deploy');
/** Read by Node itself, not by Sheaf's config. */
const NODE_VARIABLES = new Set(['NODE_ENV']);

const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  data?: Record<string, unknown>;
  stringData?: Record<string, unknown>;
  spec?: { template?: { spec?: { containers?: Container[] } } };
}
interface Container {
  args?: string[];
  env?: Array<{ name: string }>;
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
}

function manifest(): K8sObject[] {
  const documents = parseAllDocuments(read('kubernetes/sheaf.yaml'));
  for (const document of documents) expect(document.errors.map(String)).toEqual([]);
  return documents.map((document) => document.toJS() as K8sObject);
}

/** True when `sheaf` has the subcommand args[0] and every --flag that follows (values are not checked). */
function acceptsCommand(args: string[]): boolean {
  const command = sheafProgram().commands.find((candidate) => candidate.name() === args[0]);
  if (!command) return false;
  return args.slice(1).filter((arg) => arg.startsWith('--')).every((flag) => command.options.some((option) => option.long === flag));
}

describe('deployment examples', () => {
  it('the Kubernetes manifest is valid YAML of named, typed objects', () => {
    const objects = manifest();
    expect(objects.map((object) => object.kind)).toEqual(['Secret', 'ConfigMap', 'Deployment', 'Deployment', 'Service', 'PodDisruptionBudget']);
    for (const object of objects) {
      expect(object.apiVersion).toMatch(/^(v1|apps\/v1|policy\/v1)$/);
      expect(object.metadata?.name).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('names only settings the server reads', () => {
    const names: string[] = [];
    for (const object of manifest()) {
      names.push(...Object.keys(object.data ?? {}), ...Object.keys(object.stringData ?? {}));
      for (const container of object.spec?.template?.spec?.containers ?? []) names.push(...(container.env ?? []).map((entry) => entry.name));
    }
    for (const line of read('systemd/sheaf.env').split('\n')) {
      const match = /^([A-Z0-9_]+)=/.exec(line);
      if (match) names.push(match[1]!);
    }
    for (const unit of ['systemd/sheaf-web@.service', 'systemd/sheaf-worker@.service']) {
      for (const match of read(unit).matchAll(/^Environment=([A-Z0-9_]+)=/gm)) names.push(match[1]!);
    }
    expect(names.length).toBeGreaterThan(10);
    const unknown = names.filter((name) => !SETTING_NAMES.includes(name) && !NODE_VARIABLES.has(name));
    expect(unknown).toEqual([]);
  });

  it('runs sheaf commands that exist, probed at the health routes', () => {
    const commands: string[][] = [];
    for (const object of manifest()) {
      for (const container of object.spec?.template?.spec?.containers ?? []) {
        commands.push(container.args ?? []);
        expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
        expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      }
    }
    for (const unit of ['systemd/sheaf-web@.service', 'systemd/sheaf-worker@.service']) {
      const exec = /^ExecStart=\S+ apps\/server\/bin\/sheaf\.mjs (.+)$/m.exec(read(unit));
      expect(exec, unit).not.toBeNull();
      commands.push(exec![1]!.split(' '));
    }
    expect(commands).toContainEqual(['serve', '--no-jobs']);
    expect(commands.some((args) => args[0] === 'worker')).toBe(true);
    for (const args of commands) expect(acceptsCommand(args), args.join(' ')).toBe(true);
    // The check itself refuses what does not exist.
    expect(acceptsCommand(['serve', '--no-such-flag'])).toBe(false);
    expect(acceptsCommand(['no-such-command'])).toBe(false);
  });
});
