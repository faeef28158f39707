import { useCallback, useRef, useState } from 'react';
import { describeError, type DescribedError } from './describe-error';

/** A form's submission: one at a time, its error in words and per field, and whether it is running. */
export function useSubmit<Args extends unknown[], Result>(action: (...args: Args) => Promise<Result>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<DescribedError | undefined>();
  const running = useRef(false);
  const actionRef = useRef(action);
  actionRef.current = action;

  const submit = useCallback(async (...args: Args): Promise<Result | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setPending(true);
    setError(undefined);
    try {
      return await actionRef.current(...args);
    } catch (caught) {
      setError(describeError(caught));
      return undefined;
    } finally {
      running.current = false;
      setPending(false);
    }
  }, []);

  return { submit, pending, error, fields: error?.fields ?? {}, setError };
}
