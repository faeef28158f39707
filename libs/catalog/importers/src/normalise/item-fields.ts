import { COMMON_FIELD_RULES, mediaCategory, type FieldRule } from '@mt/domain';
import type { Category } from '../model';

/** Every item field of a category but title and year, common ones first (the rules of @mt/domain). */
export function itemFieldRules(category: Category): ReadonlyArray<readonly [string, FieldRule]> {
  return [...Object.entries(COMMON_FIELD_RULES), ...Object.entries(mediaCategory(category).fields)];
}
