import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal question on the native <dialog>: focus moves into it and stays there, Escape cancels, and focus
 * returns to what opened it when it closes.
 */
export function Dialog(props: { open: boolean; onClose: () => void; labelledBy: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const { open, onClose } = props;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      // showModal focuses the first control; a dialog may name a better one (the password, not the username).
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
      return () => {
        if (dialog.open) dialog.close();
        opener?.focus?.();
      };
    }
    return undefined;
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={`dialog${props.className ? ` ${props.className}` : ''}`}
      aria-labelledby={props.labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {props.children}
    </dialog>
  );
}

export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red for what cannot be taken back. */
  danger?: boolean;
  busy?: boolean;
  /** Disables the confirm button (e.g. until the username is typed). */
  canConfirm?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={props.open} onClose={props.onCancel} labelledBy="confirm-title">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          props.onConfirm();
        }}
      >
        <h2 id="confirm-title">{props.title}</h2>
        <div className="dialog__body">{props.children}</div>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={props.onCancel} disabled={props.busy}>
            Cancel
          </button>
          <button
            type="submit"
            className={`button ${props.danger ? 'button--danger' : 'button--primary'}`}
            disabled={props.busy || props.canConfirm === false}
          >
            {props.busy ? 'Working…' : props.confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
