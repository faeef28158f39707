import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  name: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled control with its hint and its error right under it, tied together for screen readers
 * (aria-describedby, aria-invalid).
 */
export function Field(props: {
  label: ReactNode;
  name: string;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${props.error ? ' field--invalid' : ''}${props.className ? ` ${props.className}` : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, name: props.name, 'aria-invalid': props.error ? true : undefined, 'aria-describedby': describedBy })}
      {props.hint && (
        <p className="field__hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p className="field__error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The error of a whole form or action, announced when it appears. */
export function FormError({ error, requestId }: { error?: string; requestId?: string }) {
  if (!error) return null;
  return (
    <div className="form-error" role="alert">
      <p>{error}</p>
      {requestId && <p className="form-error__id">Request id: {requestId}</p>}
    </div>
  );
}

/** A read that failed, in words, with a way to try it again. */
export function LoadError({ error, onRetry }: { error: { message: string; requestId?: string }; onRetry: () => void }) {
  return (
    <div className="inline-error">
      <FormError error={error.message} requestId={error.requestId} />
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
