/**
 * The five statuses of a list entry (docs/api.md "Your list in a category"), in the order the API
 * documents and validates them. The stored values never change; what people read are the labels.
 */
export const LIST_STATUSES = ['watching', 'completed', 'on_hold', 'dropped', 'plan_to_watch'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/** The status a new list entry gets when none is given. */
export const DEFAULT_LIST_STATUS: ListStatus = 'plan_to_watch';

export type StatusLabels = Readonly<Record<ListStatus, string>>;

/** Labels of a category that names none of its own. */
export const DEFAULT_STATUS_LABELS: StatusLabels = {
  watching: 'In progress',
  completed: 'Completed',
  on_hold: 'On hold',
  dropped: 'Dropped',
  plan_to_watch: 'Planned',
};

export const isListStatus = (value: unknown): value is ListStatus =>
  typeof value === 'string' && (LIST_STATUSES as readonly string[]).includes(value);

/** `Want to watch`, `want-to-watch`, `WANT_TO_WATCH` → `want_to_watch`: how a person may type a status. */
const foldStatusWords = (text: string) => text.trim().toLowerCase().replace(/[\s_-]+/g, '_');

/**
 * The status a person means by `text`: a stored value (`completed`), a label of their category
 * (`watched` in movies), or a label that means one status in every other set given (`read`). Undefined
 * when nothing, or more than one status, matches.
 */
export function listStatusFromWords(text: string, own: StatusLabels, others: readonly StatusLabels[] = []): ListStatus | undefined {
  const words = foldStatusWords(text);
  if (isListStatus(words)) return words;
  const matching = (labels: StatusLabels) => LIST_STATUSES.filter((status) => foldStatusWords(labels[status]) === words);
  const mine = matching(own);
  if (mine.length === 1) return mine[0];
  const elsewhere = new Set(others.flatMap(matching));
  return elsewhere.size === 1 ? [...elsewhere][0] : undefined;
}
