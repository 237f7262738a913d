/**
 * One run of the data check while the dialog is open: the stream is started on mount and aborted on
 * unmount (the dialog closed); issues reach React in batches (batcher.ts); the run ends done (with
 * its result for the wizard's state) or failed with the spec's message.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import type { DataCheckRequest } from '@sheaf/shared';
import { createBatcher } from './batcher.ts';
import { checkFailure, streamDataCheck, type CheckFailure } from './api.ts';
import { toRows, type IssueRow } from './issues.ts';

export type RunStatus =
  /** Nothing found yet: the skeleton shows. */
  | { kind: 'loading' }
  /** Some issues shown, more may come. */
  | { kind: 'streaming' }
  | { kind: 'done' }
  | ({ kind: 'failed' } & CheckFailure);

export interface DataCheckRun {
  status: RunStatus;
  issues: readonly IssueRow[];
}

export function useDataCheckRun(templateId: string, request: DataCheckRequest, onDone: (issues: readonly IssueRow[]) => void): DataCheckRun {
  const [run, setRun] = useState<DataCheckRun>({ status: { kind: 'loading' }, issues: [] });
  const done = useEffectEvent(onDone);
  const body = JSON.stringify(request);

  useEffect(() => {
    const controller = new AbortController();
    let all: IssueRow[] = [];
    const batcher = createBatcher<IssueRow>((items) => {
      all = all.concat(items);
      const issues = all;
      setRun({ status: { kind: 'streaming' }, issues });
    });
    let nextId = 0;
    streamDataCheck(templateId, JSON.parse(body) as DataCheckRequest, {
      signal: controller.signal,
      onIssues: (issues) => {
        batcher.add(toRows(issues, nextId));
        nextId += issues.length;
      },
    }).then(
      () => {
        batcher.flush();
        const issues = all;
        setRun({ status: { kind: 'done' }, issues });
        done(issues);
      },
      (error: unknown) => {
        batcher.flush();
        const failure = checkFailure(error);
        const issues = all;
        if (failure) setRun({ status: { kind: 'failed', ...failure }, issues });
      },
    );
    return () => {
      batcher.cancel();
      controller.abort();
    };
  }, [templateId, body]);

  return run;
}
