// @vitest-environment node
/**
 * Browser error reports (docs/support.md#error-reports): what is reported (the quota-exceeded answer
 * dropped as the spec says, catalogue 4xx and network failures too), and "support has been notified"
 * only after a report was actually delivered: reportError answers true only when the service (a local
 * endpoint receiving envelopes through the real SDK) accepted it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/apiError.ts';
import { RecentErrors } from '../../api/recentErrors.ts';
import { DeliveryTracker } from './delivery.ts';
import { createErrorReporting, type SdkReporter } from './index.ts';
import { isReportable } from './rules.ts';
import { createSentryReporter } from './sentry.ts';

const apiError = (status: number, code: string) => new ApiError({ status, code, message: code, requestId: `req-${status}` });

describe('what the browser reports', () => {
  it('drops the quota-exceeded answer (merge/insufficient-credits) whatever its status', () => {
    expect(isReportable(apiError(400, 'merge/insufficient-credits'))).toBe(false);
    expect(isReportable(apiError(402, 'merge/insufficient-credits'))).toBe(false);
    expect(isReportable(apiError(500, 'merge/insufficient-credits'))).toBe(false);
  });

  it('reports unexpected failures, not errors the user can act on, network failures or cancelled calls', () => {
    expect(isReportable(apiError(500, 'generic/something-wrong'))).toBe(true);
    expect(isReportable(apiError(503, 'template/office-unavailable'))).toBe(true);
    expect(isReportable(apiError(400, 'sheet/too-many-rows'))).toBe(false);
    expect(isReportable(apiError(404, 'template/not-found'))).toBe(false);
    expect(isReportable(ApiError.network())).toBe(false);
    expect(isReportable(ApiError.cancelled())).toBe(false);
    expect(isReportable(new TypeError('x is undefined'))).toBe(true);
  });
});

describe('reportError', () => {
  const fakeSdk = (delivered: boolean) => {
    const captured: unknown[] = [];
    const sdk: SdkReporter = { capture: async (error) => (captured.push(error), delivered), flush: async () => true };
    return { sdk, captured };
  };

  it('answers false (no "notified") when reporting is off, and keeps the error for a support request', async () => {
    const buffer = new RecentErrors();
    const reporting = createErrorReporting(buffer);
    expect(await reporting.report(new TypeError('boom'))).toBe(false);
    expect(buffer.list()).toEqual([expect.objectContaining({ kind: 'render', code: 'TypeError', message: 'boom' })]);
  });

  it('answers what the SDK says about delivery, reports each error object once, and never sends a dropped one', async () => {
    const delivered = fakeSdk(true);
    const on = createErrorReporting(new RecentErrors());
    on.start(async () => delivered.sdk);
    const error = new Error('render failed');
    expect(await on.report(error)).toBe(true);
    expect(await on.report(error)).toBe(true);
    expect(delivered.captured).toEqual([error]);
    expect(await on.report(apiError(402, 'merge/insufficient-credits'))).toBe(false);
    expect(delivered.captured).toHaveLength(1);

    const lost = fakeSdk(false);
    const failing = createErrorReporting(new RecentErrors());
    failing.start(async () => lost.sdk);
    expect(await failing.report(new Error('not delivered'))).toBe(false);
  });

  it('answers false when the SDK could not be loaded', async () => {
    const reporting = createErrorReporting(new RecentErrors());
    reporting.start(() => Promise.reject(new Error('chunk failed')));
    expect(await reporting.report(new Error('x'))).toBe(false);
  });
});

describe('delivery tracking', () => {
  it('settles a waiting report, and counts no answer in time as not delivered', async () => {
    const tracker = new DeliveryTracker();
    const waiting = tracker.wait('e1', 5_000);
    tracker.settle('e1', true);
    expect(await waiting).toBe(true);
    expect(await tracker.wait('e1', 10)).toBe(true);
    expect(await tracker.wait('never', 10)).toBe(false);
  });
});

describe('the SDK against a local endpoint', () => {
  let status = 200;
  const bodies: string[] = [];
  let server: http.Server;
  let dsn = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dsn = `http://webkey@127.0.0.1:${(server.address() as AddressInfo).port}/2`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers true only once the service accepted the report, with the release and the user id but no IP address', async () => {
    const reporter = createSentryReporter({ dsn, release: '7.7.7', userId: () => 'user-42', deliveryTimeoutMs: 5_000 });
    status = 200;
    bodies.length = 0;
    expect(await reporter.capture(apiError(500, 'generic/something-wrong'))).toBe(true);
    const event = bodies.find((body) => body.includes('"type":"event"'));
    expect(event).toBeDefined();
    expect(event).toContain('"release":"7.7.7"');
    expect(event).toContain('"id":"user-42"');
    expect(event).toContain('req-500');
    // No IP address inferred by the service, no request data.
    expect(event).toContain('"infer_ip":"never"');
    expect(event).not.toContain('"request"');

    // The service refuses it: not "notified".
    status = 500;
    expect(await reporter.capture(new Error('refused by the service'))).toBe(false);

    // The quota-exceeded answer never leaves.
    status = 200;
    bodies.length = 0;
    expect(await reporter.capture(apiError(402, 'merge/insufficient-credits'))).toBe(false);
    await reporter.flush(2_000);
    await vi.waitFor(() => expect(bodies.filter((body) => body.includes('insufficient-credits'))).toEqual([]));
  });
});
