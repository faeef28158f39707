import { z } from 'zod';

/** A MongoDB ObjectId in hex (docs/api.md "Conventions"): 24 hexadecimal digits, either case. */
export const OBJECT_ID_HEX = /^[0-9a-fA-F]{24}$/;

export const isObjectIdHex = (value: unknown): value is string => typeof value === 'string' && OBJECT_ID_HEX.test(value);

/** A MongoDB ObjectId in hex, normalised to lower case. */
export const objectIdString = () =>
  z
    .string()
    .regex(OBJECT_ID_HEX, 'must be a 24-character hexadecimal id')
    .transform((value) => value.toLowerCase());

/** An integer in a query string: digits only (no "1e3", no " 5", no silent clamping). */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d{1,15}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
