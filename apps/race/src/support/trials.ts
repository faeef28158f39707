/** Trials per race when RACE_TRIALS is not set: enough for `npm test` to catch a regression quickly. */
export const DEFAULT_TRIALS = 6;

/** RACE_TRIALS (a positive integer), else the default; anything else stops the run with a clear message. */
export function trialCount(raw = process.env['RACE_TRIALS']): number {
  if (raw === undefined || raw === '') return DEFAULT_TRIALS;
  const count = Number(raw);
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`RACE_TRIALS must be a positive integer, got '${raw}'`);
  return count;
}

/** A test's timeout (it only catches a hang): start-up allowance plus a generous per-trial budget for a loaded machine. */
export const timeoutFor = (trials: number, perTrialMs: number): number => 60_000 + trials * perTrialMs;

export interface TrialFailure {
  trial: number;
  problems: string[];
}

export interface TrialsOutcome {
  trials: number;
  failures: TrialFailure[];
  /** One line for the log and the report: "finding 1 (…): 0 of 100 trials failed". */
  summary: string;
}

/**
 * Runs `trial` `trials` times one after the other; a trial returns the problems it found (none = it held).
 * Every trial runs even after a failure, so the summary tells how often the race is lost.
 */
export async function runTrials(
  name: string,
  trials: number,
  trial: (index: number) => Promise<string[]>,
): Promise<TrialsOutcome> {
  const failures: TrialFailure[] = [];
  for (let index = 0; index < trials; index++) {
    const problems = await trial(index);
    if (problems.length) failures.push({ trial: index, problems });
  }
  const summary = `${name}: ${failures.length} of ${trials} trials failed`;
  console.log(summary);
  return { trials, failures, summary };
}

export function describeFailures(failures: TrialFailure[], max = 5): string {
  return failures
    .slice(0, max)
    .map((failure) => {
      const shown = failure.problems.slice(0, 3).join('; ');
      const more = failure.problems.length > 3 ? ` (+${failure.problems.length - 3} more)` : '';
      return `  trial ${failure.trial}: ${shown}${more}`;
    })
    .join('\n');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts `work` after `delayMs` (a request launched at a chosen offset of a race). */
export const after = async <T>(delayMs: number, work: () => Promise<T>): Promise<T> => {
  if (delayMs > 0) await sleep(delayMs);
  return work();
};
