/** Previous / Next with where we are; buttons keep their place whether or not they apply (no shift). */
export function Pager(props: {
  label: string;
  summary: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav className="pager" aria-label={props.label}>
      <button type="button" className="button" onClick={props.onPrevious} disabled={!props.hasPrevious}>
        ← Previous
      </button>
      <span className="pager__summary">{props.summary}</span>
      <button type="button" className="button" onClick={props.onNext} disabled={!props.hasNext}>
        Next →
      </button>
    </nav>
  );
}
