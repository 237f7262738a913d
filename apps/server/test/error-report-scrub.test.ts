/** The last look at a server error report before it leaves (docs/support.md#error-reports). */
import { describe, expect, it } from 'vitest';
import type { ErrorEvent } from '@sentry/node';
import { scrub, scrubText } from '../src/http/logger.ts';
import { scrubEvent } from '../src/adapters/reporting/scrub.ts';

const scrubbers = { text: scrubText, value: scrub };

describe('scrubEvent', () => {
  it('drops request data, breadcrumbs and local variables, keeps the user by id only, masks credentials and cuts long texts', () => {
    const event = {
      type: undefined,
      request: { url: 'https://sheaf.example/v1/files/secret-token?x=1', headers: { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz' }, cookies: { sid: 'c' }, data: '{"password":"p"}' },
      breadcrumbs: [{ message: 'GET /v1/users/me' }],
      user: { id: 'u1', email: 'ada@example.com', ip_address: '203.0.113.9' },
      message: 'failed with postgres://sheaf:hunter2@db/sheaf',
      exception: {
        values: [{
          type: 'Error',
          value: `Bearer abcdefghijklmnopqrstuvwxyz ${'x'.repeat(2000)}`,
          stacktrace: { frames: [{ filename: 'a.ts', vars: { fileBytes: 'PDF-CONTENT' } }] },
        }],
      },
      extra: { apiKey: 'k-123', note: 'smtp://u:pw@relay' },
      contexts: { job: { attempt: 1, token: 't' } },
    } as unknown as ErrorEvent;
    const out = JSON.stringify(scrubEvent(event, scrubbers));
    for (const secret of ['secret-token', 'authorization', 'cookies', 'password', 'GET /v1/users/me', 'ada@example.com', '203.0.113.9', 'hunter2', 'abcdefghijklmnopqrstuvwxyz', 'PDF-CONTENT', 'k-123', ':pw@', '"t"']) {
      expect(out, secret).not.toContain(secret);
    }
    expect(event.user).toEqual({ id: 'u1' });
    expect(event.exception!.values![0]!.value!.length).toBeLessThanOrEqual(501);
    expect(event.contexts).toEqual({ job: { attempt: 1, token: '[redacted]' } });
  });
});
