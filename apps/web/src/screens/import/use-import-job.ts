import { useEffect, useState } from 'react';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { getImport, isFinished, type ImportJob } from '../../api/list-io-calls';
import type { WebApi } from '../../api/web-api';

/** How often a running job is read again: soon after it starts, then every second and a half. */
export const FIRST_POLL_MS = 400;
export const POLL_MS = 1500;

export type JobState = { job: ImportJob; error?: DescribedError };

/**
 * Follows one import job until it finishes: polls GET …/list/imports/{id}, and stops (aborting the request
 * in flight) when the screen goes away or follows another job. A failed read is shown and retried.
 */
export function useImportJob(api: WebApi, category: string, initial: ImportJob | undefined): JobState | undefined {
  const [state, setState] = useState<JobState | undefined>(initial && { job: initial });

  useEffect(() => {
    if (!initial) {
      setState(undefined);
      return;
    }
    setState({ job: initial });
    if (isFinished(initial)) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const job = await getImport(api, category, initial.id, controller.signal);
        if (controller.signal.aborted) return;
        setState({ job });
        if (!isFinished(job)) timer = setTimeout(() => void poll(), POLL_MS);
      } catch (error) {
        if (isAbort(error) || controller.signal.aborted) return;
        setState((s) => s && { job: s.job, error: describeError(error) });
        timer = setTimeout(() => void poll(), POLL_MS * 2);
      }
    };
    timer = setTimeout(() => void poll(), FIRST_POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // Each start of a job gives a new object: following it again is right even when the id were the same.
  }, [api, category, initial]);

  return state;
}
