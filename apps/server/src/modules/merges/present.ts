/** Merge rows as the API shows them (the shared Merge schema), with a time-limited download link. */
import type { Merge } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { followUpOf } from './hooks.ts';
import { downloadToken } from './links.ts';
import { listMerges, type MergeRow } from './repository.ts';

/** Merge.mailingStatus of each row, from the mailing (hooks.ts); null for all when nothing emails. */
export async function mailingStatusesOf(ctx: AppContext, ownerId: string, rows: readonly MergeRow[]): Promise<Map<string, Merge['mailingStatus']>> {
  const followUp = followUpOf(ctx);
  if (followUp && rows.length) return followUp.statuses(ownerId, rows);
  return new Map(rows.map((row) => [row.id, null]));
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** `mailingStatus`: known already (a list); otherwise looked up. */
export async function toMergeDto(ctx: AppContext, row: MergeRow, mailingStatus?: Merge['mailingStatus']): Promise<Merge> {
  const mailing = mailingStatus !== undefined ? mailingStatus : ((await mailingStatusesOf(ctx, row.owner_id, [row])).get(row.id) ?? null);
  const downloadable = row.status === 'completed' && !row.files_deleted && row.file_name !== null;
  return {
    mergeId: row.id,
    templateId: row.template_id,
    status: row.status,
    total: row.total,
    done: row.done,
    isCombinedOutput: row.is_combined_output,
    fileName: row.file_name,
    fileSize: row.file_size,
    downloadUrl: downloadable ? `/v1/files/${await downloadToken(ctx, row.id, row.owner_id)}` : null,
    filesDeleted: row.files_deleted,
    madeViaApi: row.made_via_api,
    mailingStatus: mailing,
    issues: row.issues ?? [],
    error: row.error,
    createdAt: iso(row.created_at)!,
    finishedAt: iso(row.finished_at),
  };
}

/** The history of each template, newest first (for the home list); templates without merges get []. */
export async function listMergesForTemplates(ctx: AppContext, ownerId: string, templateIds: readonly string[]): Promise<Map<string, Merge[]>> {
  const byTemplate = new Map<string, Merge[]>(templateIds.map((id) => [id, []]));
  const rows = await listMerges(ctx.db, ownerId, templateIds);
  const mailings = await mailingStatusesOf(ctx, ownerId, rows);
  for (const row of rows) {
    byTemplate.get(row.template_id)?.push(await toMergeDto(ctx, row, mailings.get(row.id) ?? null));
  }
  return byTemplate;
}
