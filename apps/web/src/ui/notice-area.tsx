import { useSyncExternalStore } from 'react';
import { useServices } from '../app/services';

/** The page's one live region: what just happened, with Undo when it can be taken back. */
export function NoticeArea() {
  const { notices } = useServices();
  const items = useSyncExternalStore(notices.subscribe, notices.list, notices.list);
  return (
    <div className="notices" role="status" aria-live="polite">
      {items.map((notice) => (
        <div key={notice.id} className={`notice notice--${notice.tone}`}>
          <span>{notice.text}</span>
          {notice.action && (
            <button
              type="button"
              className="button button--small"
              onClick={() => {
                notices.dismiss(notice.id);
                void notice.action?.run();
              }}
            >
              {notice.action.label}
            </button>
          )}
          <button type="button" className="notice__close" aria-label="Dismiss" onClick={() => notices.dismiss(notice.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
