/**
 * Tenant isolation of senders: another account can neither see, read, verify, change, delete nor send
 * through a sender, and answers look the same as for a sender that does not exist. Also: a sender a
 * mailing in progress uses cannot be deleted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sender } from '@sheaf/shared';
import { senderDelivery } from '../src/modules/senders/index.ts';
import { forEachDatabase, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { NAME_PLACEHOLDERS, peopleCsv, templateWithSheet } from './merge-support.ts';
import { accountOn, latestCode, startSmtpSink, type SmtpSink } from './senders-support.ts';

const USER = 'owner@example.com';
const PASS = 'owner-smtp-password';

forEachDatabase((database) => {
  let server: TestServer;
  let sink: SmtpSink;
  let owner: TestAccount;
  let stranger: TestAccount;
  let smtp: Sender;
  let spoof: Sender;

  beforeAll(async () => {
    server = await startTestServer({ database, config: { SMTP_ALLOW_PRIVATE_HOSTS: true } });
    sink = await startSmtpSink({ accept: { user: USER, pass: PASS } });
    owner = await accountOn(server, 'Enterprise');
    stranger = await accountOn(server, 'Enterprise');
    smtp = (await server.inject('POST', '/senders', {
      token: owner.token, body: { method: 'smtp', email: 'owner@example.com', server: '127.0.0.1', port: sink.port, username: USER, password: PASS },
    })).json.sender;
    spoof = (await server.inject('POST', '/senders', { token: owner.token, body: { method: 'spoof', email: 'owner.real@example.com', identifier: 'Owner' } })).json.sender;
  });
  afterAll(async () => {
    await sink?.close();
    await server?.close();
  });

  const notFound = (response: { status: number; json: { code: string } }) => {
    expect(response.status).toBe(404);
    expect(response.json.code).toBe('sender/not-found');
  };

  it('does not list or read another account\'s senders', async () => {
    expect((await server.inject('GET', '/senders', { token: stranger.token })).json.senders).toEqual([]);
    notFound(await server.inject('GET', `/senders/${smtp.id}`, { token: stranger.token }));
    notFound(await server.inject('GET', `/senders/${spoof.id}`, { token: stranger.token }));
  });

  it('does not verify another account\'s sender, not even with its code', async () => {
    const code = await latestCode(server, 'owner.real@example.com');
    notFound(await server.inject('POST', '/senders/verify', { token: stranger.token, body: { id: spoof.id, code } }));
    notFound(await server.inject('POST', '/senders/verify', { token: stranger.token, body: { id: smtp.id, password: 'guess' } }));
    const [row] = await server.ctx.db.query<{ is_verified: boolean; code_attempts: number }>('SELECT is_verified, code_attempts FROM senders WHERE id = $1', [spoof.id]);
    expect(row).toEqual({ is_verified: false, code_attempts: 0 });
  });

  it('does not change or delete another account\'s sender', async () => {
    notFound(await server.inject('PATCH', `/senders/${smtp.id}`, { token: stranger.token, body: { notifications: 'all' } }));
    notFound(await server.inject('DELETE', `/senders/${smtp.id}`, { token: stranger.token }));
    const mine = (await server.inject('GET', `/senders/${smtp.id}`, { token: owner.token })).json as Sender;
    expect(mine).toMatchObject({ id: smtp.id, notifications: 'failed', isVerified: true });
  });

  it('does not send through another account\'s sender', async () => {
    await expect(senderDelivery(server.ctx, stranger.uid, smtp.id)).rejects.toMatchObject({ code: 'email/sender-gone' });
    expect((await senderDelivery(server.ctx, owner.uid, smtp.id)).route).toMatchObject({ kind: 'smtp', auth: { user: USER } });
  });

  it('keeps addresses per account: the same SMTP address may be another account\'s sender too', async () => {
    const theirs = await server.inject('POST', '/senders', {
      token: stranger.token, body: { method: 'smtp', email: 'owner@example.com', server: '127.0.0.1', port: sink.port, username: USER, password: PASS },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.json.senders).toHaveLength(1);
  });

  it('refuses to delete a sender while a mailing of it is in progress', async () => {
    const templateId = await templateWithSheet(server, owner.token, peopleCsv(2), NAME_PLACEHOLDERS);
    await server.ctx.db.query(`INSERT INTO merges (id, template_id, owner_id, status, request) VALUES ('mergeinprogress00001', $1, $2, 'completed', '{}'::jsonb)`, [templateId, owner.uid]);
    await server.ctx.db.query(
      `INSERT INTO mailings (merge_id, owner_id, template_id, sender_id, status) VALUES ('mergeinprogress00001', $1, $2, $3, 'sending')`,
      [owner.uid, templateId, smtp.id],
    );
    const refused = await server.inject('DELETE', `/senders/${smtp.id}`, { token: owner.token });
    expect(refused.status).toBe(409); // busy until the mailing ends, like a template in use (docs/errors.md)
    expect(refused.json).toMatchObject({ code: 'sender/in-use', message: 'The sender cannot be deleted because there is a mail merge in progress' });
    await server.ctx.db.query(`UPDATE mailings SET status = 'completed' WHERE merge_id = 'mergeinprogress00001'`);
    expect((await server.inject('DELETE', `/senders/${smtp.id}`, { token: owner.token })).status).toBe(200);
  });
});
