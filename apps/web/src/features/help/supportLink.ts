/** Links to the support request on /help, with what an error screen knows filled in (docs/support.md). */
export interface SupportPrefill {
  topic?: 'support' | 'improvement';
  /** The failed call's request id, quoted in the message. */
  requestId?: string;
}

export function supportLink(prefill: SupportPrefill = {}): string {
  const search = new URLSearchParams();
  if (prefill.topic === 'improvement') search.set('topic', 'improvement');
  if (prefill.requestId) search.set('requestId', prefill.requestId);
  const query = search.toString();
  return `/help${query ? `?${query}` : ''}#support`;
}

/** The prefill a /help URL carries; a request id that is not one (letters, digits, . _ : -) is ignored. */
export function readSupportPrefill(search: string): SupportPrefill {
  const params = new URLSearchParams(search);
  const requestId = params.get('requestId') ?? undefined;
  return {
    topic: params.get('topic') === 'improvement' ? 'improvement' : 'support',
    ...(requestId && /^[A-Za-z0-9._:-]{1,128}$/.test(requestId) ? { requestId } : {}),
  };
}
