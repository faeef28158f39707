import { useRef, type KeyboardEvent } from 'react';

/**
 * A tab strip (WAI-ARIA tabs): one tab in the Tab order, arrow keys, Home and End move between them and
 * select (the panel is cheap to show).
 */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: Array<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  panelId: string;
  idPrefix: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = props.tabs.findIndex((t) => t.value === props.value);
  const move = (event: KeyboardEvent, at: number) => {
    const last = props.tabs.length - 1;
    const target =
      event.key === 'ArrowRight' ? (at === last ? 0 : at + 1) : event.key === 'ArrowLeft' ? (at === 0 ? last : at - 1) : event.key === 'Home' ? 0 : event.key === 'End' ? last : undefined;
    if (target === undefined) return;
    event.preventDefault();
    refs.current[target]?.focus();
    props.onChange(props.tabs[target]!.value);
  };
  return (
    <div role="tablist" aria-label={props.label} className="tabs">
      {props.tabs.map((tab, at) => (
        <button
          key={tab.value}
          ref={(node) => {
            refs.current[at] = node;
          }}
          type="button"
          role="tab"
          id={`${props.idPrefix}-${tab.value}`}
          aria-selected={at === index}
          aria-controls={props.panelId}
          tabIndex={at === index ? 0 : -1}
          className="tabs__tab"
          onClick={() => props.onChange(tab.value)}
          onKeyDown={(event) => move(event, at)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
