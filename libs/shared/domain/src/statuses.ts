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
