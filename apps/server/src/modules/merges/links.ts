/**
 * Download links: GET /v1/files/<token> works without a bearer token (a plain <a download>), so the
 * token itself names the merge and its owner, signed and valid for an hour.
 */
import { SheafError } from '@sheaf/shared';
import { signLink, verifyLink } from '../../crypto/secrets.ts';
import type { AppContext } from '../../context.ts';

const LINK_TTL_SECONDS = 3600;

interface LinkClaims {
  /** merge id */
  m: string;
  /** owner id */
  o: string;
}

export async function downloadToken(ctx: AppContext, mergeId: string, ownerId: string): Promise<string> {
  return signLink(ctx.config.jwtKey, { m: mergeId, o: ownerId } satisfies LinkClaims, LINK_TTL_SECONDS);
}

/** The merge a token names; an expired, altered or foreign token is refused. */
export async function readDownloadToken(ctx: AppContext, token: string): Promise<{ mergeId: string; ownerId: string }> {
  const claims = (await verifyLink(ctx.config.jwtKey, token)) as Partial<LinkClaims> | null | undefined;
  if (!claims || typeof claims.m !== 'string' || typeof claims.o !== 'string') throw new SheafError('merge/link-expired');
  return { mergeId: claims.m, ownerId: claims.o };
}
