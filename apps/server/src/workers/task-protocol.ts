/**
 * The messages between a pool (worker threads: pool.ts; child processes: child-pool.ts) and the code
 * that runs its tasks: a task's input goes out with an id, its value or its catalogue error comes back.
 */
import { SheafError, isSheafError, type ErrorCode, type ErrorParams } from '@sheaf/shared';

export type TaskReply<T> = { id: number; ok: true; value: T } | { id: number; ok: false; code: string; params: ErrorParams };

export interface TaskLimits {
  timeoutMs: number;
  /** Worker threads: the V8 heap; child processes: all resident memory. */
  maxMemoryMb: number;
  /** The errors a timeout or exhausted memory become. */
  timeoutError: () => SheafError;
  memoryError: () => SheafError;
}

/** Runs one task; an error that is not from the catalogue becomes `fallbackCode` with a short detail. */
export async function answerTask<In, Out>(task: (input: In) => Promise<Out>, id: number, input: In, fallbackCode: ErrorCode): Promise<TaskReply<Out>> {
  try {
    return { id, ok: true, value: await task(input) };
  } catch (error) {
    return isSheafError(error)
      ? { id, ok: false, code: error.code, params: error.params }
      : { id, ok: false, code: fallbackCode, params: { detail: (error instanceof Error ? error.message : String(error)).slice(0, 200) } };
  }
}

/** The pool side of a failed reply: the catalogue error again. */
export function replyError(reply: Extract<TaskReply<unknown>, { ok: false }>): SheafError {
  return new SheafError(reply.code as ErrorCode, reply.params);
}
