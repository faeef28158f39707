import { useId } from 'react';

export interface Bar {
  key: string;
  label: string;
  value: number;
}

const WIDTH = 320;
const HEIGHT = 160;
const AXIS = 18;
const TOP = 14;

/**
 * A bar chart as plain SVG: one image for sight (role="img" with a one-line summary), the same numbers as a
 * table for screen readers and anyone who wants them exactly. It scales with its container (viewBox), so it
 * fits from 360 px up.
 */
export function BarChart({ title, bars, summary }: { title: string; bars: Bar[]; summary: string }) {
  const id = useId();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = bars.length ? WIDTH / bars.length : WIDTH;
  const barWidth = Math.max(2, slot * 0.7);
  const plot = HEIGHT - AXIS - TOP;
  // At most about a dozen labels and values fit under the bars; with more, every n-th is written.
  const every = Math.ceil(bars.length / 12);
  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart__title">
        {title}
      </figcaption>
      <svg className="chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}: ${summary}`} preserveAspectRatio="xMidYMid meet">
        <line className="chart__axis" x1={0} x2={WIDTH} y1={HEIGHT - AXIS} y2={HEIGHT - AXIS} />
        {bars.map((bar, at) => {
          const height = (bar.value / max) * plot;
          const x = at * slot + (slot - barWidth) / 2;
          const y = HEIGHT - AXIS - height;
          return (
            <g key={bar.key}>
              <rect className="chart__bar" x={x} y={y} width={barWidth} height={height} />
              {bar.value > 0 && every === 1 && (
                <text className="chart__value" x={x + barWidth / 2} y={y - 3} textAnchor="middle">
                  {bar.value}
                </text>
              )}
              {(at % every === 0 || at === bars.length - 1) && (
                <text className="chart__label" x={x + barWidth / 2} y={HEIGHT - 5} textAnchor="middle">
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.key}>
              <th scope="row">{bar.label}</th>
              <td>{bar.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
