import { CATEGORIES, type Category } from '@mt/importers';
import type { CategoryDefinition } from './categories';

/**
 * Whether the category's lists can be exported and imported: the file formats (`@mt/importers`: columns,
 * external ids, source mappings) are defined for the shipped categories. A category added through
 * CATEGORY_MODULE gets every other endpoint, and no export/import until its formats exist.
 */
export function hasListFileFormats(category: CategoryDefinition): boolean {
  return (CATEGORIES as readonly string[]).includes(category.id as Category);
}
