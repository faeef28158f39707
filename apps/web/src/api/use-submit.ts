import { useCallback, useRef, useState } from 'react';
import { describeError, type DescribedError } from './describe-error';

/**
 * A form's submission: one at a time, its error in words and per field, and whether it is running.
 * `fields` names the fields the form shows errors under (any other detail is put in the form's message).
 */
export function useSubmit<Args extends unknown[], Result>(action: (...args: Args) => Promise<Result>, options: { fields?: readonly string[] } = {}) {
  const shownFields = useRef(options.fields);
  shownFields.current = options.fields;
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
      setError(describeError(caught, shownFields.current));
      return undefined;
    } finally {
      running.current = false;
      setPending(false);
    }
  }, []);

  return { submit, pending, error, fields: error?.fields ?? {}, setError };
}
