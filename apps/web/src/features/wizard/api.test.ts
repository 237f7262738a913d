// @vitest-environment node
/**
 * Polling through the query cache (it replaced lib/polling.ts's loop; the loop's tested behaviour
 * moved here): the merge's progress is asked for a second after each answer and no more once it
 * ended, never two calls at once, backing off while the network fails, at once when the browser is
 * back online, and not after the page stops following it (the call in flight is aborted). The
 * answer that ends the merge refreshes the user, so the navbar's counter chip follows without a
 * reload. The mailing report is polled the same way every REPORT_POLL_MS.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { environmentManager, onlineManager, QueryClient, QueryObserver, type QueryObserverOptions } from '@tanstack/react-query';
import { REPORT_POLL_MS, type MailingReport, type Merge, type TemplateDetail } from '@sheaf/shared';
import { api, ApiError } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { meQuery } from '../../api/routeQuery.ts';
import { mailingReportQuery } from '../email/api.ts';
import { mailingMergeOf, mergeAnswered, mergeQuery, runningMergeOf, THUMBNAIL_CHECK_MS, THUMBNAIL_CHECKS, thumbnailArrivalQuery } from './api.ts';
import { POLL_INTERVAL_MS } from './mergeRules.ts';

const TEMPLATE = 'T'.repeat(20);
const MERGE = 'M'.repeat(20);

const merge = (status: Merge['status'], extra: Partial<Merge> = {}): Merge => ({
  mergeId: MERGE, templateId: TEMPLATE, status, total: 20, done: 5, isCombinedOutput: false, fileName: null, fileSize: null, downloadUrl: null,
  filesDeleted: false, madeViaApi: false, mailingStatus: null, issues: [], error: null, createdAt: '', finishedAt: null, ...extra,
} as Merge);

const offline = () => ApiError.network(new TypeError('Failed to fetch'));
const gone = () => new ApiError({ status: 404, code: 'merge/not-found', message: 'not found' });

/** Server answers in order; `calls` records each call's route and signal. */
function serve(answers: Partial<Record<string, (() => Promise<unknown>)[]>>) {
  const calls: { route: string; signal?: AbortSignal }[] = [];
  vi.spyOn(api, 'call').mockImplementation(((route: string, options?: { signal?: AbortSignal }) => {
    calls.push({ route, signal: options?.signal });
    const next = answers[route]?.shift();
    return next ? next() : Promise.reject(new Error(`no answer left for ${route}`));
  }) as never);
  return { calls, count: (route: string) => calls.filter((call) => call.route === route).length };
}

let queryClient: QueryClient;
const unsubscribers: (() => void)[] = [];
/** Watches a query as a mounted component would (the options as the app's hooks pass them). */
function observe<T = unknown>(options: object): QueryObserver<T> {
  const observer = new QueryObserver<T>(queryClient, options as QueryObserverOptions<T>);
  unsubscribers.push(observer.subscribe(() => undefined));
  return observer;
}

beforeEach(() => {
  vi.useFakeTimers();
  // Node has no window: TanStack Query would take it for a server and never poll.
  environmentManager.setIsServer(() => false);
  queryClient = new QueryClient();
  // As QueryClientProvider does: the cache hears the browser going offline and back online.
  queryClient.mount();
});

afterEach(() => {
  unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
  queryClient.clear();
  queryClient.unmount();
  onlineManager.setOnline(true);
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the merge progress query', () => {
  it('asks a second after each answer while the merge runs, stops when it ends and refreshes the counter', async () => {
    const server = serve({
      getMerge: [merge('generating', { done: 1 }), merge('generating', { done: 10 }), merge('completed', { done: 20, downloadUrl: '/v1/files/abc' })].map((answer) => () => Promise.resolve(answer)),
      me: [() => Promise.resolve({ counter: 20 })],
    });
    queryClient.setQueryData(queryKeys.me, { counter: 0 });
    observe(meQuery()); // the navbar's counter chip
    const progress = observe<Merge>(mergeQuery(TEMPLATE, MERGE));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.count('getMerge')).toBe(1);
    expect(progress.getCurrentResult().data?.done).toBe(1);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(server.count('getMerge')).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.count('getMerge')).toBe(2);
    expect(server.count('me')).toBe(0);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(server.count('getMerge')).toBe(3);
    // The completed view's download link, from the cache.
    expect(progress.getCurrentResult().data).toMatchObject({ status: 'completed', downloadUrl: '/v1/files/abc' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.count('getMerge')).toBe(3);
    expect(server.count('me')).toBe(1);
    expect(queryClient.getQueryData(queryKeys.me)).toEqual({ counter: 20 });
  });

  it('backs off while the network fails, saying so, and goes on with the next answer', async () => {
    const server = serve({ getMerge: [() => Promise.reject(offline()), () => Promise.reject(offline()), () => Promise.resolve(merge('generating'))] });
    const progress = observe<Merge>(mergeQuery(TEMPLATE, MERGE));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.count('getMerge')).toBe(1);
    expect(progress.getCurrentResult().failureReason).toMatchObject({ isNetwork: true });
    await vi.advanceTimersByTimeAsync(2 * POLL_INTERVAL_MS - 1);
    expect(server.count('getMerge')).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.count('getMerge')).toBe(2);
    await vi.advanceTimersByTimeAsync(4 * POLL_INTERVAL_MS - 1);
    expect(server.count('getMerge')).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.count('getMerge')).toBe(3);
    expect(progress.getCurrentResult()).toMatchObject({ failureReason: null, data: { status: 'generating' } });
  });

  it('asks at once when the browser is back online, and never while a call is in flight', async () => {
    let answer: (merge: Merge) => void = () => undefined;
    const server = serve({ getMerge: [() => new Promise<Merge>((resolve) => (answer = resolve)), () => Promise.resolve(merge('generating'))] });
    onlineManager.setOnline(false);
    const progress = observe<Merge>(mergeQuery(TEMPLATE, MERGE));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.count('getMerge')).toBe(0);
    expect(progress.getCurrentResult().fetchStatus).toBe('paused');
    onlineManager.setOnline(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.count('getMerge')).toBe(1);
    // The answer is slow: neither the interval nor another "online" asks again meanwhile.
    await vi.advanceTimersByTimeAsync(5 * POLL_INTERVAL_MS);
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.count('getMerge')).toBe(1);
    answer(merge('generating'));
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(server.count('getMerge')).toBe(2);
  });

  it('stops when the page stops following, aborting the call in flight', async () => {
    const server = serve({ getMerge: [() => new Promise<Merge>(() => undefined)] });
    observe<Merge>(mergeQuery(TEMPLATE, MERGE));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls[0]?.signal?.aborted).toBe(false);
    unsubscribers.splice(0).forEach((unsubscribe) => unsubscribe());
    expect(server.calls[0]?.signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.count('getMerge')).toBe(1);
  });

  it('ends in error, polling no more, when the server refuses for good', async () => {
    const server = serve({ getMerge: [() => Promise.reject(gone())] });
    const progress = observe<Merge>(mergeQuery(TEMPLATE, MERGE));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.count('getMerge')).toBe(1);
    expect(progress.getCurrentResult()).toMatchObject({ status: 'error', error: { code: 'merge/not-found' } });
  });

  it('marks the template list stale when a merge starts, so home asks again and follows the merge to its end', () => {
    queryClient.setQueryData(queryKeys.templates.list(), []);
    mergeAnswered(queryClient, merge('generating'));
    expect(queryClient.getQueryState(queryKeys.templates.list())?.isInvalidated).toBe(true);
  });

  it('takes the start answer of a merge that ended at once, and refreshes the counter', async () => {
    const server = serve({ me: [() => Promise.resolve({ counter: 3 })] });
    queryClient.setQueryData(queryKeys.me, { counter: 0 });
    observe(meQuery());
    mergeAnswered(queryClient, merge('completed', { done: 3 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(queryClient.getQueryData(queryKeys.merges.one(TEMPLATE, MERGE))).toMatchObject({ status: 'completed' });
    expect(server.count('me')).toBe(1);
  });
});

describe("a new template's thumbnail", () => {
  const uploaded = (thumbnailUrl: string | null) => ({ id: TEMPLATE, name: 'a.pdf', isEncrypted: false, thumbnailUrl }) as unknown as TemplateDetail;

  it('is asked for every THUMBNAIL_CHECK_MS until the server has it, and the cached template shows it', async () => {
    queryClient.setQueryData(queryKeys.templates.detail(TEMPLATE), uploaded(null));
    const server = serve({ getTemplate: [() => Promise.resolve(uploaded(null)), () => Promise.resolve(uploaded('/v1/templates/x/thumbnail'))] });
    observe<TemplateDetail>(thumbnailArrivalQuery(TEMPLATE));
    await vi.advanceTimersByTimeAsync(THUMBNAIL_CHECK_MS - 1);
    expect(server.count('getTemplate')).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.count('getTemplate')).toBe(1);
    await vi.advanceTimersByTimeAsync(THUMBNAIL_CHECK_MS);
    expect(server.count('getTemplate')).toBe(2);
    expect(queryClient.getQueryData<TemplateDetail>(queryKeys.templates.detail(TEMPLATE))?.thumbnailUrl).toBe('/v1/templates/x/thumbnail');
    await vi.advanceTimersByTimeAsync(10 * THUMBNAIL_CHECK_MS);
    expect(server.count('getTemplate')).toBe(2);
  });

  it('is given up after THUMBNAIL_CHECKS answers without one', async () => {
    queryClient.setQueryData(queryKeys.templates.detail(TEMPLATE), uploaded(null));
    const server = serve({ getTemplate: Array.from({ length: 50 }, () => () => Promise.resolve(uploaded(null))) });
    observe<TemplateDetail>(thumbnailArrivalQuery(TEMPLATE));
    await vi.advanceTimersByTimeAsync(50 * THUMBNAIL_CHECK_MS);
    expect(server.count('getTemplate')).toBe(THUMBNAIL_CHECKS);
  });
});

describe('merges picked up again after a reload', () => {
  it('finds the wizard\'s own merge still generating, and one whose documents are still being mailed', () => {
    const other = (status: Merge['status'], extra: Partial<Merge> = {}) => merge(status, { mergeId: 'O'.repeat(20), ...extra });
    expect(runningMergeOf([merge('completed'), other('generating')])?.mergeId).toBe('O'.repeat(20));
    expect(runningMergeOf([merge('queued', { madeViaApi: true }), merge('completed')])).toBeNull();
    expect(mailingMergeOf([merge('completed', { mailingStatus: 'sending' })])?.mergeId).toBe(MERGE);
    expect(mailingMergeOf([merge('generating', { mailingStatus: 'queued' }), merge('completed', { mailingStatus: 'completed' })])).toBeNull();
  });
});

describe('the mailing report query', () => {
  const report = (extra: Partial<MailingReport> = {}) => ({ events: [], eventCounts: { total: 2, queued: 2 }, isCancelled: false, mailingStatus: 'sending', error: null, ...extra }) as unknown as MailingReport;

  it('asks every REPORT_POLL_MS after each answer, retrying the network every period, and stops on a server error', async () => {
    const server = serve({
      mailingReport: [() => Promise.resolve(report()), () => Promise.reject(offline()), () => Promise.resolve(report()), () => Promise.reject(new ApiError({ status: 403, code: 'auth/forbidden', message: 'no' }))],
    });
    const poll = observe<MailingReport>(mailingReportQuery(TEMPLATE, MERGE));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.count('mailingReport')).toBe(1);
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS);
    expect(server.count('mailingReport')).toBe(2);
    expect(poll.getCurrentResult().failureReason).toMatchObject({ isNetwork: true });
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS);
    expect(server.count('mailingReport')).toBe(3);
    expect(poll.getCurrentResult().failureReason).toBeNull();
    await vi.advanceTimersByTimeAsync(REPORT_POLL_MS);
    expect(server.count('mailingReport')).toBe(4);
    await vi.advanceTimersByTimeAsync(10 * REPORT_POLL_MS);
    expect(server.count('mailingReport')).toBe(4);
    expect(poll.getCurrentResult()).toMatchObject({ status: 'error', error: { code: 'auth/forbidden' } });
  });
});
