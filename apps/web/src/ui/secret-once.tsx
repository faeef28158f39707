import { useState, type ReactNode } from 'react';

/**
 * A secret shown once (a token, a hook's URL): it is not stored anywhere and cannot be shown again, so it
 * takes the focus, can be copied in one press, and stays until the person says they have it.
 */
export function SecretOnce(props: { title: ReactNode; value: string; valueLabel: string; children?: ReactNode; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="secret" aria-labelledby="secret-title" tabIndex={-1} ref={(node) => node?.focus()}>
      <h2 id="secret-title">{props.title}</h2>
      {props.children ?? <p>Copy it now: it is shown only this once.</p>}
      <div className="secret__value">
        <code id="secret-value" aria-label={props.valueLabel}>
          {props.value}
        </code>
        <button type="button" className="button button--primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p role="status" className="secret__copied">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying is not allowed here: select it and copy it yourself.' : ''}
      </p>
      <button type="button" className="button" onClick={props.onDone}>
        I have copied it
      </button>
    </section>
  );
}
