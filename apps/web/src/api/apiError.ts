/**
 * A failed API call, as the UI sees it: the catalogue code (translated by src/i18n/errors.ts), the
 * English message, its parameters and per-field codes of a form. Network failures and cancelled
 * calls are ApiErrors too, flagged so callers can stay silent (cancelled) or say "offline".
 */
import type { ErrorResponse } from '@sheaf/shared';

export const NETWORK_ERROR_CODE = 'generic/network';
export const CANCELLED_CODE = 'cancelled';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly params: Record<string, string | number>;
  readonly fields: Record<string, string>;
  readonly isNetwork: boolean;
  readonly isCancelled: boolean;
  /** The server's x-request-id of the failed call (support quotes it to find the logs). */
  readonly requestId: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    params?: Record<string, string | number>;
    fields?: Record<string, string>;
    isNetwork?: boolean;
    isCancelled?: boolean;
    requestId?: string;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.params = init.params ?? {};
    this.fields = init.fields ?? {};
    this.isNetwork = init.isNetwork ?? false;
    this.isCancelled = init.isCancelled ?? false;
    this.requestId = init.requestId;
  }

  static network(cause?: unknown): ApiError {
    const error = new ApiError({ status: 0, code: NETWORK_ERROR_CODE, message: 'There was some network error, please try again', isNetwork: true });
    if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause });
    return error;
  }

  static cancelled(): ApiError {
    return new ApiError({ status: 0, code: CANCELLED_CODE, message: 'The request was cancelled', isCancelled: true });
  }

  static unauthenticated(): ApiError {
    return new ApiError({ status: 401, code: 'auth/unauthenticated', message: 'Your session has ended. Please log in again.' });
  }

  /** From an error response; a body that is not our JSON shape becomes a generic error. */
  static fromResponse(status: number, body: unknown, requestId?: string | null): ApiError {
    const data = (body && typeof body === 'object' ? body : {}) as Partial<ErrorResponse>;
    const id = requestId ? { requestId } : {};
    if (typeof data.code === 'string') {
      return new ApiError({ status, code: data.code, message: data.message ?? data.code, params: data.params, fields: data.fields, ...id });
    }
    return new ApiError({ status, code: 'generic/something-wrong', message: 'Something went wrong - Please try again', ...id });
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** What the UI keeps of any failure to show it later: the catalogue code, message and parameters. */
export function errorDetailsOf(error: unknown): { code: string; message: string; params?: Record<string, string | number> } {
  if (error instanceof ApiError) return { code: error.code, message: error.message, params: error.params };
  return { code: 'generic/something-wrong', message: String(error) };
}
