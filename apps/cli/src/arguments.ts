import { InvalidArgumentError } from 'commander';
import { SCOPES } from './api-values';
import type { Scope } from '@mt/api-client';

/** Parsers of option values: a bad value is a usage error (exit 2) before any request is sent. */

export const integer = (min: number, max: number) => (text: string): number => {
  if (!/^-?\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
  return Number(text);
};

/** A number, or `none` to clear the field (null). */
export const integerOrNone = (min: number, max: number) => (text: string): number | null =>
  text === 'none' ? null : integer(min, max)(text);

export function date(text: string): string | null {
  if (text === 'none') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw new InvalidArgumentError('expected a date YYYY-MM-DD (or none)');
  }
  return text;
}

export const textOrNone = (text: string): string | null => (text === 'none' ? null : text);

export function scopes(text: string): Scope[] {
  const names = text.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(SCOPES as readonly string[]).includes(name));
  if (!names.length || unknown.length) throw new InvalidArgumentError(`expected a comma-separated list of ${SCOPES.join(', ')}`);
  return [...new Set(names)] as Scope[];
}

const OBJECT_ID = /^[0-9a-fA-F]{24}$/;

/** Ids of catalog entries: 24 hexadecimal characters each, duplicates dropped (the bulk API refuses them). */
export function entryIds(values: readonly string[]): string[] {
  const ids = values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  const bad = ids.filter((id) => !OBJECT_ID.test(id));
  if (bad.length) {
    const shown = bad.slice(0, 5).join(', ') + (bad.length > 5 ? `, … (${bad.length} in all)` : '');
    throw new InvalidArgumentError(`not an entry id (24 hexadecimal characters): ${shown}`);
  }
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

export const isEntryId = (text: string): boolean => OBJECT_ID.test(text);
