/**
 * Where a user goes once signed in or signed up (docs/web-app.md#routes): the page they were going to,
 * else a same-site ?next= path, else /billing when the address chose a plan (?plan=Pro, kept so the
 * billing page can mark it), else home.
 */

/** A path on this site ("/billing"), never another origin ("//evil.example", "https://...", "/\\evil"). */
export function isSitePath(value: string | null | undefined): value is string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return false;
  // Control characters (a tab or newline inside "/\t/evil.example") are dropped by URL parsing.
  return [...value].every((character) => character.charCodeAt(0) > 0x1f);
}

export function afterSignIn(from: string | undefined, search: URLSearchParams): string {
  if (isSitePath(from)) return from;
  const next = search.get('next');
  if (isSitePath(next)) return next;
  const plan = search.get('plan');
  if (plan) return `/billing?${new URLSearchParams({ plan }).toString()}`;
  return '/';
}
