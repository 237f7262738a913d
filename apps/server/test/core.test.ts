/**
 * The server's foundations: configuration, ids, secrets and signed links, the blob store, the
 * databases (same values on PGlite and PostgreSQL, serialised transactions, migrations) and the outbox.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { newId } from '../src/ids.ts';
import { decryptSecret, encryptSecret, signLink, verifyLink } from '../src/crypto/secrets.ts';
import { LocalBlobStore } from '../src/adapters/blobs/local.ts';
import { openDb } from '../src/adapters/db/open.ts';
import { migrate } from '../src/adapters/db/migrate.ts';
import type { Db } from '../src/adapters/db/types.ts';
import { OutboxMailer, readOutbox, readOutboxMail } from '../src/adapters/mail/outbox.ts';
import { outboxCommand } from '../src/cli/outbox.ts';
import { createPostgresDatabase, forEachDatabase } from './harness.ts';

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sheaf-core-'));
  temps.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('configuration', () => {
  it('fills every default from an empty environment and freezes the result', async () => {
    const dir = await tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      PORT: 3000, HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dir, DATABASE_URL: undefined,
      BLOB_DIR: path.join(dir, 'files'), OUTBOX_DIR: path.join(dir, 'outbox'), SMTP_URL: undefined,
      MAIL_FROM: 'Sheaf <no-reply@localhost>', MIN_RESPONSE_MS: 500, ACCESS_TOKEN_TTL_S: 900,
      REFRESH_TOKEN_TTL_S: 2_592_000, API_HOSTS: [], LOG_LEVEL: 'info', TRUST_PROXY: false, MERGE_CONCURRENCY: 1, EDITION: 'web',
    });
    expect(config.WEB_DIST).toMatch(/apps\/web\/dist$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads typed values from the environment', async () => {
    const config = loadConfig({
      DATA_DIR: await tempDir(), PORT: '8080', API_HOSTS: 'https://a.example.com/, https://b.example.com', TRUST_PROXY: 'true',
      EDITION: 'desktop', SECRET_KEY: 'x'.repeat(40), SMTP_URL: 'smtp://mail.example.com:25',
    });
    expect(config).toMatchObject({ PORT: 8080, PUBLIC_URL: 'http://localhost:8080', API_HOSTS: ['https://a.example.com', 'https://b.example.com'], TRUST_PROXY: true, EDITION: 'desktop' });
  });

  it('makes large merges in ranges only where ranges can run side by side', async () => {
    const dataDir = await tempDir();
    // One process on the embedded database, one merge at a time: ranges would only add the assembly.
    expect(loadConfig({ DATA_DIR: dataDir }).MERGE_RANGE_ROWS).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/sheaf' }).MERGE_RANGE_ROWS).toBe(2000);
    expect(loadConfig({ DATA_DIR: dataDir, MERGE_CONCURRENCY: '2' }).MERGE_RANGE_ROWS).toBe(2000);
    expect(loadConfig({ DATA_DIR: dataDir, MERGE_RANGE_ROWS: '500' }).MERGE_RANGE_ROWS).toBe(500);
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://db/sheaf', MERGE_RANGE_ROWS: '0' }).MERGE_RANGE_ROWS).toBe(0);
  });

  it('names every bad variable at once', async () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: await tempDir(), PORT: 'eighty', SECRET_KEY: 'short', EDITION: 'mobile', API_HOSTS: 'not a url', DATABASE_URL: 'mysql://db', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    for (const name of ['PORT', 'SECRET_KEY', 'EDITION', 'API_HOSTS', 'DATABASE_URL', 'LOG_LEVEL']) expect(message).toContain(name);
    expect((error as ConfigError).problems.length).toBeGreaterThanOrEqual(6);
  });

  it('generates a secret key once, stores it privately and reuses it', async () => {
    const dir = await tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'secret.key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.SECRET_KEY).toBe(first.SECRET_KEY);
    expect(Buffer.from(second.jwtKey).equals(Buffer.from(first.jwtKey))).toBe(true);
    expect(first.jwtKey).toHaveLength(32);
    expect(Buffer.from(first.jwtKey).equals(Buffer.from(first.encryptionKey))).toBe(false);
    // Another installation gets another key.
    expect(loadConfig({ DATA_DIR: await tempDir() }).SECRET_KEY).not.toBe(first.SECRET_KEY);
  });

  it('derives the same keys from the same SECRET_KEY without writing a key file', async () => {
    const dir = await tempDir();
    const a = loadConfig({ DATA_DIR: dir, SECRET_KEY: 's'.repeat(32) });
    const b = loadConfig({ DATA_DIR: await tempDir(), SECRET_KEY: 's'.repeat(32) });
    expect(Buffer.from(a.encryptionKey).equals(Buffer.from(b.encryptionKey))).toBe(true);
    await expect(stat(path.join(dir, 'secret.key'))).rejects.toThrow(/ENOENT/);
  });
});

describe('ids, secrets and signed links', () => {
  const key = new Uint8Array(32).fill(7);

  it('makes 20-character letter-and-digit ids that do not repeat', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('encrypts secrets so only the key opens them and any change is detected', () => {
    const value = encryptSecret(key, 'smtp password ü');
    expect(value.startsWith('v1:')).toBe(true);
    expect(value).not.toContain('smtp');
    expect(encryptSecret(key, 'smtp password ü')).not.toBe(value);
    expect(decryptSecret(key, value)).toBe('smtp password ü');
    const body = value.slice(3);
    const flipped = `v1:${body.slice(0, 20)}${body[20] === 'A' ? 'B' : 'A'}${body.slice(21)}`;
    expect(() => decryptSecret(key, flipped)).toThrow();
    expect(() => decryptSecret(new Uint8Array(32).fill(8), value)).toThrow();
    expect(() => decryptSecret(key, value.slice(0, 10))).toThrow();
  });

  it('signs links that verify until they expire and fail when altered', () => {
    const token = signLink(key, { m: 'merge1' }, 60);
    expect(verifyLink(key, token)).toEqual({ m: 'merge1' });
    expect(verifyLink(new Uint8Array(32), token)).toBeNull();
    const [body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: { m: 'merge2' }, exp: 9_999_999_999 })).toString('base64url');
    expect(verifyLink(key, `${forged}.${signature}`)).toBeNull();
    expect(verifyLink(key, `${body}.${signature}x`)).toBeNull();
    expect(verifyLink(key, signLink(key, { m: 'merge1' }, -1))).toBeNull();
    expect(verifyLink(key, 'garbage')).toBeNull();
  });
});

describe('local blob store', () => {
  let root: string;
  let store: LocalBlobStore;
  beforeAll(async () => {
    root = await tempDir();
    store = new LocalBlobStore(path.join(root, 'files'));
  });

  it('stores, streams, copies and deletes blobs by key and by prefix', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7 template');
    expect(await store.put('templates/t1/template.pdf', bytes)).toEqual({ size: bytes.length });
    expect(Buffer.from(await store.get('templates/t1/template.pdf')).toString()).toBe('%PDF-1.7 template');
    await store.put('templates/t1/images/logo.png', Readable.from([Buffer.from('png'), Buffer.from('data')]));
    const { stream, size } = await store.stream('templates/t1/images/logo.png');
    expect(size).toBe(7);
    expect(Buffer.concat(await stream.toArray()).toString()).toBe('pngdata');
    await store.copy('templates/t1/template.pdf', 'templates/t2/template.pdf');
    expect(await store.exists('templates/t2/template.pdf')).toBe(true);
    await store.deletePrefix('templates/t1/');
    expect(await store.exists('templates/t1/template.pdf')).toBe(false);
    expect(await store.exists('templates/t1/images/logo.png')).toBe(false);
    expect(await store.exists('templates/t2/template.pdf')).toBe(true);
    await store.delete('templates/t2/template.pdf');
    await store.delete('templates/t2/template.pdf');
    expect(await store.exists('templates/t2/template.pdf')).toBe(false);
    await expect(store.get('templates/t2/template.pdf')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.stream('missing')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses keys that could reach outside its folder', async () => {
    await writeFile(path.join(root, 'outside.txt'), 'keep');
    for (const key of ['../outside.txt', 'a/../../outside.txt', '/etc/passwd', 'a\\..\\b', 'a//b', '', './a', 'C:/x', 'a/b.partial']) {
      await expect(store.put(key, new Uint8Array([1])), key).rejects.toThrow(/invalid blob key/);
      await expect(store.get(key), key).rejects.toThrow(/invalid blob key/);
    }
    await expect(store.deletePrefix('..')).rejects.toThrow(/invalid blob key/);
    expect(await readFile(path.join(root, 'outside.txt'), 'utf8')).toBe('keep');
  });

  it('never leaves a half-written blob: a failed write keeps the previous version and no temp file', async () => {
    await store.put('merges/m1/out.zip', new TextEncoder().encode('version one'));
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial bytes of version two'));
        this.destroy(new Error('disk unplugged'));
      },
    });
    await expect(store.put('merges/m1/out.zip', failing)).rejects.toThrow('disk unplugged');
    expect(Buffer.from(await store.get('merges/m1/out.zip')).toString()).toBe('version one');
    expect(await readdir(path.join(root, 'files/merges/m1'))).toEqual(['out.zip']);
  });
});

forEachDatabase((kind) => {
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (kind === 'postgres') {
      const created = await createPostgresDatabase();
      drop = created.drop;
      db = await openDb({ DATABASE_URL: created.url, DATA_DIR: await tempDir() });
    } else {
      db = await openDb({ DATABASE_URL: 'memory://', DATA_DIR: await tempDir() });
    }
  });
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('migrates once: a second run applies nothing and the schema is there', async () => {
    expect(await migrate(db)).toContain('001_initial.sql');
    expect(await migrate(db)).toEqual([]);
    const tables = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.map((row) => row.table_name)).toEqual(expect.arrayContaining(['users', 'templates', 'merges', 'jobs', 'schema_migrations']));
  });

  it('applies a new migration once, and a failing one not at all', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'more'));
    const migrations = path.join(dir, 'more');
    // The real migrations first (already applied by the test before), then the test's own after them.
    const real = path.join(import.meta.dirname, '../src/adapters/db/migrations');
    const realNames = (await readdir(real)).filter((name) => name.endsWith('.sql')).sort();
    for (const name of realNames) await writeFile(path.join(migrations, name), await readFile(path.join(real, name), 'utf8'));
    await writeFile(path.join(migrations, '900_notes.sql'), 'CREATE TABLE notes (id text PRIMARY KEY);\nINSERT INTO notes VALUES (\'a;b\');');
    expect(await migrate(db, migrations)).toEqual(['900_notes.sql']);
    expect(await migrate(db, migrations)).toEqual([]);
    await writeFile(path.join(migrations, '901_broken.sql'), 'CREATE TABLE broken (id text);\nSELECT no_such_function();');
    await expect(migrate(db, migrations)).rejects.toThrow();
    const broken = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'broken'");
    expect(broken).toEqual([]);
    const names = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(names.map((row) => row.name)).toEqual([...realNames, '900_notes.sql']);
  });

  it('returns dates, JSON and counts the same way', async () => {
    const [row] = await db.query<{ at: Date; doc: unknown; n: number; i: number }>(
      "SELECT '2026-01-02T03:04:05Z'::timestamptz AS at, $1::jsonb AS doc, count(*) AS n, 5::int AS i FROM (VALUES (1)) AS one",
      [JSON.stringify([{ a: 1 }])],
    );
    expect(row!.at).toBeInstanceOf(Date);
    expect(row!.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(row!.doc).toEqual([{ a: 1 }]);
    expect(row!.n).toBe(1);
    expect(row!.i).toBe(5);
  });

  it('keeps other statements out of an open transaction and rolls back on error', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS serial_check (id text PRIMARY KEY)');
    await db.query("INSERT INTO serial_check VALUES ('committed')");
    let outside: Promise<Array<{ n: number }>> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO serial_check VALUES ('uncommitted')");
        outside = db.query<{ n: number }>("SELECT count(*) AS n FROM serial_check WHERE id = 'uncommitted'");
        await tx.query('SELECT 1');
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect((await outside!)[0]!.n).toBe(0);
    expect(await db.transaction(async (tx) => (await tx.query<{ n: number }>('SELECT count(*) AS n FROM serial_check'))[0]!.n)).toBe(1);
  });

  if (kind === 'postgres') {
    it('lets two processes migrate a new database at the same time, each migration once', async () => {
      const created = await createPostgresDatabase();
      const [a, b] = await Promise.all([openDb({ DATABASE_URL: created.url, DATA_DIR: '.' }), openDb({ DATABASE_URL: created.url, DATA_DIR: '.' })]);
      try {
        const results = await Promise.all([migrate(a), migrate(b)]);
        expect(results.flat().filter((name) => name === '001_initial.sql')).toHaveLength(1);
      } finally {
        await Promise.all([a.close(), b.close()]);
        await created.drop();
      }
    });
  }
});

describe('outbox', () => {
  it('keeps each account mail as an .eml file listed in outbox.jsonl', async () => {
    const dir = await tempDir();
    const mailer = new OutboxMailer(dir, 'Sheaf <no-reply@localhost>');
    await mailer.send({ to: 'ana@example.com', subject: 'Reset your password', text: 'Open http://localhost/reset?token=abc' });
    await mailer.send({ to: 'bo@example.com', subject: 'Second', text: 'two' });
    const entries = await readOutbox(dir);
    expect(entries.map((entry) => [entry.to, entry.subject])).toEqual([['ana@example.com', 'Reset your password'], ['bo@example.com', 'Second']]);
    const eml = await readOutboxMail(dir, entries[0]!);
    expect(eml).toMatch(/^To: ana@example\.com$/m);
    expect(eml).toMatch(/^Subject: Reset your password$/m);
    expect(eml).toContain('reset?token=abc');
    expect((await stat(path.join(dir, entries[0]!.file))).mode & 0o777).toBe(0o600);
    expect(await readOutbox(await tempDir())).toEqual([]);
  });

  it('`sheaf outbox` lists the latest mails first and `show N` prints one', async () => {
    const dataDir = await tempDir();
    const mailer = new OutboxMailer(path.join(dataDir, 'outbox'), 'Sheaf <no-reply@localhost>');
    await mailer.send({ to: 'first@example.com', subject: 'Older', text: 'one' });
    await mailer.send({ to: 'second@example.com', subject: 'Newer', text: 'two' });
    // A reset link longer than a quoted-printable line (76 characters), with an `=` of its own.
    const link = `http://localhost:3000/resetPassword?token=${'a1b2c3d4'.repeat(12)}&lang=de`;
    await mailer.send({ to: 'third@example.com', subject: 'Passwort zurücksetzen', text: `Öffnen Sie ${link} – danke.` });
    const run = async (...args: string[]) => {
      let out = '';
      await outboxCommand((text) => (out += text), { DATA_DIR: dataDir }).exitOverride().parseAsync(args, { from: 'user' });
      return out;
    };
    const listing = (await run()).split('\n');
    expect(listing[0]).toMatch(/^\s+1 .*third@example\.com {2}Passwort zurücksetzen$/);
    expect(listing[1]).toMatch(/^\s+2 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}second@example\.com {2}Newer$/);
    expect(listing[2]).toMatch(/^\s+3 .*first@example\.com {2}Older$/);
    expect(listing[3]).toContain('3 mails');
    expect(await run('show', '3')).toMatch(/^To: first@example\.com$/m);
    // `show` prints the text decoded: the whole link on one line, accents as written, the subject readable.
    const shown = await run('show', '1');
    expect(shown).toContain(link);
    expect(shown).toContain('Öffnen Sie');
    expect(shown).toMatch(/^Subject: Passwort zurücksetzen$/m);
    // `--raw` is the MIME source, where the link is cut by quoted-printable soft breaks.
    const raw = await run('show', '1', '--raw');
    expect(raw).toMatch(/^Content-Transfer-Encoding: quoted-printable$/m);
    expect(raw).not.toContain(link);
    await expect(run('show', '4')).rejects.toThrow('There is no mail 4');
    let empty = '';
    await outboxCommand((text) => (empty += text), { DATA_DIR: await tempDir() }).parseAsync([], { from: 'user' });
    expect(empty).toMatch(/^The outbox is empty/);
  });
});
