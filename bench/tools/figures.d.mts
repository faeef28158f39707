// Types of figures.mjs (plain JS so that compare.mjs runs without a build) for the TypeScript report.

/** One file's reading of a figure. */
export interface Reading {
  /** The median the report shows (or the ratio / difference of two medians). */
  value: number;
  /** Every repetition, when there were several and the file records them. */
  runs?: number[];
  /** (max − min) ÷ median of the runs. */
  spread?: number;
  /** For a ratio or difference of two medians: what its runs are (the same repetition's pair, e.g. "per-run pat ÷ jwt"). */
  basis?: string;
}

export interface Figure {
  id: string;
  label: string;
  unit: string;
  better: 'higher' | 'lower';
  /** One per file given to figures(), undefined where that file lacks the figure. */
  readings: Array<Reading | undefined>;
}

export function figures(...files: readonly unknown[]): Figure[];
export function formatNumber(value: number): string;
export function formatPercent(fraction: number): string;
export function formatReading(reading: Reading): string;
export function formatSpread(reading: Reading): string;
