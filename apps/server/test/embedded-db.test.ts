/**
 * The embedded database belongs to one process. A second opening of the same folder is refused with a
 * clear message instead of corrupting it, and `sheaf users` reaches a running server's database
 * through the server's admin socket.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/adapters/db/pglite.ts';
import { DatabaseInUseError, LOCK_FILE } from '../src/adapters/db/lock.ts';
import { adminSocketPath } from '../src/admin/socket.ts';
import { startServer, type RunningServer } from '../src/boot.ts';
import { loadConfig } from '../src/config.ts';
import { usersCommand } from '../src/cli/users.ts';

const PASSWORD = 'Embedded-db-42';

describe('embedded database', () => {
  let dataDir: string;
  let server: RunningServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-embedded-'));
    const config = loadConfig({}, { DATA_DIR: dataDir, PORT: 0, HOST: '127.0.0.1', MIN_RESPONSE_MS: 0, LOG_LEVEL: 'error', SECRET_KEY: randomBytes(32).toString('base64url'), INBOUND_SMTP_PORT: null });
    server = await startServer(config);
    delete process.env['DATABASE_URL'];
    process.env['DATA_DIR'] = dataDir;
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]): Promise<string> => {
    let out = '';
    await usersCommand((text) => (out += text)).exitOverride().parseAsync(args, { from: 'user' });
    return out;
  };

  it('refuses a second process on the folder while the server has it', async () => {
    await expect(openPglite(path.join(dataDir, 'db'))).rejects.toBeInstanceOf(DatabaseInUseError);
    await expect(openPglite(path.join(dataDir, 'db'))).rejects.toThrow(/open in another Sheaf process/);
  });

  it('sets a plan and lists users through the running server, which sees the change at once', async () => {
    const register = await server.app.inject({
      method: 'POST',
      url: '/v1/users/register',
      payload: { firstName: 'Em', lastName: 'Bedded', email: 'embedded@example.com', password: PASSWORD, confirmPassword: PASSWORD },
    });
    expect(register.statusCode).toBe(201);
    const { token } = register.json() as { token: string };

    expect((await stat(adminSocketPath(dataDir))).mode & 0o777).toBe(0o600);
    expect(await cli('set-plan', 'Embedded@Example.com', 'enterprise')).toBe('embedded@example.com: plan Free -> Enterprise\n');
    const me = await server.app.inject({ method: 'GET', url: '/v1/users/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.json()).toMatchObject({ billingPlan: 'Enterprise', quota: 10_000 });
    expect(await cli('list')).toMatch(/embedded@example\.com\tEnterprise\t0\/10000/);
    await expect(cli('set-plan', 'nobody@example.com', 'Pro')).rejects.toThrow('There is no user with the email address nobody@example.com.');
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = path.join(dataDir, 'stale');
    await mkdir(dir, { recursive: true });
    // A pid far above the kernel's pid_max: no process has it.
    await writeFile(path.join(dir, LOCK_FILE), '4194305\n');
    const db = await openPglite(dir);
    expect(await readFile(path.join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    await db.close();
    await expect(stat(path.join(dir, LOCK_FILE))).rejects.toThrow(/ENOENT/);
  });

  it('opens the folder directly once the server has stopped', async () => {
    await server.close();
    expect(await cli('list')).toContain('embedded@example.com\tEnterprise');
  });
});
