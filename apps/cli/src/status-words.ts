import type { ListStatus } from '@mt/api-client';
import { Option } from 'commander';
import { ALL_STATUS_LABELS, LIST_STATUSES, listStatusFromWords, statusLabelsOfId } from '@mt/domain';
import { usageError } from './errors';

export const STATUS_HELP = "the stored value or the category's own word (watched, reading, want to read…)";

/** A status as a person types it: the stored value or the category's label (`--status watched`), like the web app says it. */
export function resolveStatus(category: string, text: string): ListStatus {
  const labels = statusLabelsOfId(category);
  const status = listStatusFromWords(text, labels, ALL_STATUS_LABELS);
  if (status) return status;
  const accepted = LIST_STATUSES.map((value) => `${value} (${labels[value]})`).join(', ');
  throw usageError(`unknown status '${text}' for ${category}: one of ${accepted}`);
}

/**
 * `-s, --status <status>`: completion offers the stored values, yet any word is taken (commander's
 * `choices()` would refuse the labels), and resolved with the category by resolveStatus.
 */
export function statusOption(description: string): Option {
  const option = new Option('-s, --status <status>', description);
  option.argChoices = [...LIST_STATUSES];
  return option;
}
