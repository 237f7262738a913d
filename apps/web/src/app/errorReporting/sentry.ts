/**
 * The browser's reporter through the official SDK (@sentry/browser), in a chunk of its own loaded only
 * when the server hands a DSN (GET /config sentryDsnWeb): installations without one never download it.
 * Sends the error, the release, the page's path (no query), the user's id (no email) and the request id
 * of a failed call; no breadcrumbs, no request data.
 */
import {
  BrowserClient, dedupeIntegration, defaultStackParser, getCurrentScope, globalHandlersIntegration, linkedErrorsIntegration, makeFetchTransport,
  setCurrentClient, type BrowserOptions, type ErrorEvent, type EventHint,
} from '@sentry/browser';
import { ApiError } from '../../api/apiError.ts';
import { DeliveryTracker, type SdkReporter } from './delivery.ts';
import { isReportable } from './rules.ts';

export interface SentrySetup {
  dsn: string;
  release: string;
  /** The signed-in user's id at the time of a report (undefined: signed out). */
  userId: () => string | undefined;
  /** How long a report waits for the service's answer before it counts as not sent. */
  deliveryTimeoutMs?: number;
  /** Tests replace the transport's maker (default: fetch). */
  makeTransport?: BrowserOptions['transport'];
}

const MAX_TEXT = 500;
const cut = (text: string | undefined) => (text && text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** Only what docs/support.md lists leaves the browser. */
export function scrubBrowserEvent(event: ErrorEvent): ErrorEvent {
  if (event.request?.url) {
    const url = event.request.url.split(/[?#]/)[0];
    event.request = { url };
  } else delete event.request;
  delete event.breadcrumbs;
  event.user = event.user?.id ? { id: event.user.id } : undefined;
  for (const exception of event.exception?.values ?? []) exception.value = cut(exception.value);
  return event;
}

export function createSentryReporter(setup: SentrySetup): SdkReporter {
  const tracker = new DeliveryTracker();
  const makeTransport = setup.makeTransport ?? makeFetchTransport;
  const client = new BrowserClient({
    dsn: setup.dsn,
    release: setup.release,
    environment: 'production',
    stackParser: defaultStackParser,
    transport: (options) => {
      const inner: ReturnType<typeof makeFetchTransport> = makeTransport(options);
      return {
        ...inner,
        async send(envelope) {
          const eventId = (envelope[0] as { event_id?: string }).event_id;
          try {
            const response = await inner.send(envelope);
            tracker.settle(eventId, response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300);
            return response;
          } catch (error) {
            tracker.settle(eventId, false);
            throw error;
          }
        },
      };
    },
    integrations: [
      linkedErrorsIntegration(),
      dedupeIntegration(),
      // Uncaught errors and rejections of the page (not in a test without a window).
      ...(typeof window !== 'undefined' ? [globalHandlersIntegration()] : []),
    ],
    // The user by id only (set in beforeSend): no IP address inferred by the service, no cookies, headers or query.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, urlQueryParams: false, stackFrameVariables: false },
    maxBreadcrumbs: 0,
    sendClientReports: false,
    beforeSend(event: ErrorEvent, hint: EventHint) {
      if (!isReportable(hint.originalException)) {
        tracker.settle(event.event_id, false);
        return null;
      }
      const user = setup.userId();
      if (user) event.user = { id: user };
      return scrubBrowserEvent(event);
    },
  });
  setCurrentClient(client);
  client.init();

  return {
    async capture(error: unknown): Promise<boolean> {
      const scope = getCurrentScope().clone();
      if (error instanceof ApiError && error.requestId) scope.setTag('request_id', error.requestId);
      if (typeof location !== 'undefined') scope.setTag('page', location.pathname);
      const eventId = scope.captureException(error);
      return tracker.wait(eventId, setup.deliveryTimeoutMs ?? 10_000);
    },
    flush: (timeoutMs: number) => client.flush(timeoutMs),
  };
}
