import { generatePat } from '@mt/tokens';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { CatalogEntry, TestUser } from './api-fixtures';
import { OWN_FIELDS } from './api-fixtures';
import {
  claimsFor,
  es256,
  hs256,
  publicPemOfJwk,
  unsigned,
  withBadSignature,
  withSwappedClaims,
} from './forged-jwts';
import { CATEGORIES, type Category } from './resilience-stack';

/** Where a hostile request is sent: the gateway (the public face) or straight to a service. */
export type Target = 'gateway' | 'auth-service' | 'registry-service' | 'catalog-movies';

export interface HostileCase {
  /** The table's group: the summary counts per group. */
  group: string;
  name: string;
  target: Target;
  method: string;
  path: string;
  /** Bearer credential. */
  token?: string;
  /** A JSON body (serialised), or `raw` bytes with `contentType`. */
  json?: unknown;
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** A chunked body of this many bytes (no Content-Length): the service's parser must enforce the limit. */
  chunkedBytes?: number;
  /** Bytes written as they are to a socket (CR/LF in headers, bad framing): the whole request. */
  wire?: string | Buffer;
  expectStatus: number;
  /** On 400: a `details` entry must name this field (or a path inside it). */
  detailPath?: string;
  /** Extra checks on the answer; returns a problem or undefined. */
  check?: (answer: {
    status: number;
    body: unknown;
    headers: { get(name: string): string | null };
  }) => string | undefined;
}

export interface HostileFixtures {
  userA: TestUser;
  userB: TestUser;
  /** PAT of A with the default scopes (no `account`). */
  patDefault: { id: string; token: string };
  /** PAT of A with `list:read` only. */
  patListRead: { id: string; token: string };
  /** PAT of A, revoked. */
  patRevoked: string;
  /** Per category: A's entry on A's list, A's entry not on any list, B's entry. */
  entries: Record<Category, { onList: CatalogEntry; free: CatalogEntry; ofB: CatalogEntry }>;
  /** The seeded movie titles (for regular-expression searches: each query's expected hits). */
  movieTitles: { matrix: string; alien: string; zodiac: string };
  signingKey: KeyObject;
  kid: string;
  publicJwk: Record<string, unknown>;
}

type FieldKind =
  'string' | 'int' | 'strings' | 'date' | 'status' | 'id' | 'ids' | 'isbn' | 'scopes' | 'email';

interface BodyEndpoint {
  label: string;
  method: string;
  path: string;
  token?: string;
  base: Record<string, unknown>;
  fields: Record<string, FieldKind>;
}

/** A value of the wrong JSON type for each kind of field. */
const WRONG_TYPE: Record<FieldKind, unknown> = {
  string: 12345,
  email: ['a@example.com'],
  int: '12',
  strings: 'not-a-list',
  date: 20240101,
  status: true,
  id: 123456789012,
  ids: 'ffffffffffffffffffffffff',
  isbn: 9780441478125,
  scopes: 'list:read',
};

/** MongoDB query operators where a value belongs: each must be a 400, never a query. */
const OPERATORS: Array<[string, unknown]> = [
  ['$ne', { $ne: null }],
  ['$gt', { $gt: '' }],
];

const OBJECT_ID_UNKNOWN = 'ffffffffffffffffffffffff';
const MiB = 1024 * 1024;

/** `{"<key>": <value>, ...base}` as JSON text: object literals cannot carry an own `__proto__` key. */
const withRawKey = (key: string, valueJson: string, base: Record<string, unknown>) =>
  `{"${key}":${valueJson}${Object.keys(base).length ? `,${JSON.stringify(base).slice(1, -1)}` : ''}}`;

const nested = (depth: number, open: string, close: string, leaf = '1') =>
  `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;

const hasAllow = (answer: { headers: { get(name: string): string | null } }) =>
  answer.headers.get('allow') ? undefined : 'no Allow header on a 405';

/** Builds the table from the fixtures: every endpoint of docs/api.md, every field, every kind of hostile input. */
export function buildHostileCases(fx: HostileFixtures): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (c: Omit<HostileCase, 'target'> & { target?: Target }) =>
    cases.push({ target: 'gateway', ...c });
  const A = fx.userA;
  const B = fx.userB;

  // ── the body endpoints, with a valid base body each (so the one bad field is the only reason for a 400)
  const bodyEndpoints: BodyEndpoint[] = [
    {
      label: 'register',
      method: 'POST',
      path: '/api/v1/auth/register',
      base: {
        username: 'hostile_newcomer',
        email: 'hostile_newcomer@example.com',
        password: 'a perfectly fine password',
      },
      fields: { username: 'string', email: 'email', password: 'string' },
    },
    {
      label: 'login',
      method: 'POST',
      path: '/api/v1/auth/login',
      // A's real credentials: an accepted injection would log in (200), not just fail.
      base: { username: A.username, password: A.password },
      fields: { username: 'string', password: 'string' },
    },
    {
      label: 'update profile',
      method: 'PUT',
      path: '/api/v1/auth/me',
      token: A.jwt,
      base: { username: `${A.username}x`, email: `x${A.email}` },
      fields: { username: 'string', email: 'email' },
    },
    {
      label: 'change password',
      method: 'PUT',
      path: '/api/v1/auth/password',
      token: A.jwt,
      base: { current_password: A.password, new_password: `${A.password}-changed` },
      fields: { current_password: 'string', new_password: 'string' },
    },
    {
      label: 'create token',
      method: 'POST',
      path: '/api/v1/auth/tokens',
      token: A.jwt,
      base: { name: 'hostile token', scopes: ['list:read'], expires_in_days: 5 },
      fields: { name: 'string', scopes: 'scopes', expires_in_days: 'int' },
    },
  ];
  for (const category of CATEGORIES) {
    const own = OWN_FIELDS[category];
    const ownKinds: Record<string, FieldKind> = Object.fromEntries(
      Object.entries(own).map(([name, value]) => [
        name,
        name === 'isbn'
          ? 'isbn'
          : Array.isArray(value)
            ? 'strings'
            : typeof value === 'number'
              ? 'int'
              : 'string',
      ]),
    );
    const entryFields: Record<string, FieldKind> = {
      title: 'string',
      year: 'int',
      description: 'string',
      genres: 'strings',
      ...ownKinds,
    };
    const entryBase = {
      title: `Hostile ${category}`,
      year: 2001,
      description: 'd',
      genres: ['Drama'],
      ...own,
    };
    const listFields: Record<string, FieldKind> = {
      status: 'status',
      score: 'int',
      progress: 'int',
      notes: 'string',
      started_at: 'date',
      finished_at: 'date',
    };
    const listBase = {
      status: 'watching',
      score: 7,
      progress: 3,
      notes: 'n',
      started_at: '2024-01-01',
      finished_at: '2024-02-01',
    };
    const { onList, free } = fx.entries[category];
    bodyEndpoints.push(
      {
        label: `create ${category}`,
        method: 'POST',
        path: `/api/v1/${category}`,
        token: A.jwt,
        base: entryBase,
        fields: entryFields,
      },
      {
        label: `patch ${category}`,
        method: 'PATCH',
        path: `/api/v1/${category}/${free.id}`,
        token: A.jwt,
        base: entryBase,
        fields: entryFields,
      },
      {
        label: `add to ${category} list`,
        method: 'POST',
        path: `/api/v1/${category}/list`,
        token: A.jwt,
        base: { item_id: free.id, ...listBase },
        fields: { item_id: 'id', ...listFields },
      },
      {
        label: `patch ${category} list entry`,
        method: 'PATCH',
        path: `/api/v1/${category}/list/${onList.id}`,
        token: A.jwt,
        base: listBase,
        fields: listFields,
      },
      {
        label: `${category} bulk-status`,
        method: 'POST',
        path: `/api/v1/${category}/bulk-status`,
        token: A.jwt,
        base: { item_ids: [onList.id], status: 'dropped' },
        fields: { item_ids: 'ids', status: 'status' },
      },
      {
        label: `${category} bulk-delete`,
        method: 'POST',
        path: `/api/v1/${category}/bulk-delete`,
        token: A.jwt,
        base: { item_ids: [onList.id] },
        fields: { item_ids: 'ids' },
      },
    );
  }

  for (const endpoint of bodyEndpoints) {
    const { label, method, path, token, base } = endpoint;
    for (const [field, kind] of Object.entries(endpoint.fields)) {
      for (const [name, operator] of OPERATORS) {
        add({
          group: 'operator in a field',
          name: `${label}: ${field} = {${name}}`,
          method,
          path,
          token,
          json: { ...base, [field]: operator },
          expectStatus: 400,
          detailPath: field,
        });
      }
      if (kind === 'strings' || kind === 'ids' || kind === 'scopes') {
        add({
          group: 'operator in a field',
          name: `${label}: ${field} = [{$gt}]`,
          method,
          path,
          token,
          json: { ...base, [field]: [{ $gt: '' }] },
          expectStatus: 400,
          detailPath: field,
        });
      }
      add({
        group: 'wrong type',
        name: `${label}: ${field} as ${typeof WRONG_TYPE[kind]}`,
        method,
        path,
        token,
        json: { ...base, [field]: WRONG_TYPE[kind] },
        expectStatus: 400,
        detailPath: field,
      });
    }
    // Keys that must never become anything but an unknown field.
    add({
      group: 'prototype keys',
      name: `${label}: __proto__ key`,
      method,
      path,
      token,
      raw: withRawKey('__proto__', '{"polluted":true}', base),
      contentType: 'application/json',
      expectStatus: 400,
    });
    add({
      group: 'prototype keys',
      name: `${label}: constructor.prototype key`,
      method,
      path,
      token,
      raw: withRawKey('constructor', '{"prototype":{"polluted":true}}', base),
      contentType: 'application/json',
      expectStatus: 400,
    });
    add({
      group: 'operator keys',
      name: `${label}: $where key`,
      method,
      path,
      token,
      json: { $where: 'sleep(1000) || true', ...base },
      expectStatus: 400,
    });
    add({
      group: 'operator keys',
      name: `${label}: $set key`,
      method,
      path,
      token,
      json: { ...base, $set: { password_hash: 'x' } },
      expectStatus: 400,
    });
    add({
      group: 'bad JSON',
      name: `${label}: truncated JSON`,
      method,
      path,
      token,
      raw: JSON.stringify(base).slice(0, -3),
      contentType: 'application/json',
      expectStatus: 400,
    });
    add({
      group: 'wrong content type',
      name: `${label}: text/plain`,
      method,
      path,
      token,
      raw: JSON.stringify(base),
      contentType: 'text/plain',
      expectStatus: 415,
    });
    add({
      group: 'oversized body',
      name: `${label}: 1 MiB + 1 byte`,
      method,
      path,
      token,
      raw: `{"x":"${'a'.repeat(MiB - 7)}"}`,
      contentType: 'application/json',
      expectStatus: 413,
    });
  }

  // ── malformed JSON and top-level values, on an anonymous and an authenticated endpoint
  const badJson: Array<[string, string]> = [
    ['a lone brace', '{'],
    ['a missing value', '{"title":}'],
    ['single quotes', "{'title':'x'}"],
    ['a trailing comma', '{"title":"x",}'],
    ['trailing garbage', '{"title":"x"}}'],
    ['NaN', '{"title":NaN}'],
    ['a bare string', '"title"'],
    ['null', 'null'],
    ['an array', '[{"title":"x"}]'],
    ['a number', '42'],
    ['an empty object', '{}'],
    ['an empty body', ''],
    ['a comment', '{"title":"x" /* hi */}'],
    ['invalid UTF-8', '{"title":"\xff\xfe"}'],
  ];
  for (const [name, raw] of badJson) {
    const body =
      name === 'invalid UTF-8'
        ? Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])
        : raw;
    add({
      group: 'bad JSON',
      name: `create movie: ${name}`,
      method: 'POST',
      path: '/api/v1/movies',
      token: A.jwt,
      raw: body,
      contentType: 'application/json',
      expectStatus: 400,
    });
    add({
      group: 'bad JSON',
      name: `register: ${name}`,
      method: 'POST',
      path: '/api/v1/auth/register',
      raw: body,
      contentType: 'application/json',
      expectStatus: 400,
    });
  }

  // ── deep nesting (a recursive parser or sanitizer would overflow its stack) and huge strings
  for (const [name, raw] of [
    ['arrays 10,000 deep in title', `{"title":${nested(10_000, '[', ']')}}`],
    ['arrays 200,000 deep in title', `{"title":${nested(200_000, '[', ']')}}`],
    ['objects 50,000 deep', nested(50_000, '{"a":', '}', '{}')],
  ] as const) {
    add({
      group: 'deep nesting',
      name: `create movie: ${name}`,
      method: 'POST',
      path: '/api/v1/movies',
      token: A.jwt,
      raw,
      contentType: 'application/json',
      expectStatus: 400,
    });
  }
  add({
    group: 'deep nesting',
    name: 'register: objects 50,000 deep in username',
    method: 'POST',
    path: '/api/v1/auth/register',
    raw: `{"username":${nested(50_000, '{"a":', '}', '{}')}}`,
    contentType: 'application/json',
    expectStatus: 400,
  });
  const huge: Array<[string, string, Record<string, unknown>, string | undefined, string]> = [
    ['create movie: title of 301 characters', '/api/v1/movies', { title: 't'.repeat(301) }, A.jwt, 'title'],
    ['create movie: title of 900 KiB', '/api/v1/movies', { title: 't'.repeat(900 * 1024) }, A.jwt, 'title'],
    [
      'create movie: description of 5001 characters',
      '/api/v1/movies',
      { title: 'x', description: 'd'.repeat(5001) },
      A.jwt,
      'description',
    ],
    [
      'create movie: 21 genres',
      '/api/v1/movies',
      { title: 'x', genres: Array.from({ length: 21 }, (_, i) => `g${i}`) },
      A.jwt,
      'genres',
    ],
    [
      'create book: 21 authors',
      '/api/v1/books',
      { title: 'x', authors: Array.from({ length: 21 }, (_, i) => `a${i}`) },
      A.jwt,
      'authors',
    ],
    [
      'register: username of 10,000 characters',
      '/api/v1/auth/register',
      { username: 'u'.repeat(10_000), email: 'big@example.com', password: 'long enough pw' },
      undefined,
      'username',
    ],
    [
      'register: email of 255 characters',
      '/api/v1/auth/register',
      { username: 'biggie', email: `${'e'.repeat(243)}@example.com`, password: 'long enough pw' },
      undefined,
      'email',
    ],
    [
      'register: password of 129 characters',
      '/api/v1/auth/register',
      { username: 'biggie', email: 'biggie@example.com', password: 'p'.repeat(129) },
      undefined,
      'password',
    ],
    [
      'login: password of 500 KiB',
      '/api/v1/auth/login',
      { username: A.username, password: 'p'.repeat(500 * 1024) },
      undefined,
      'password',
    ],
    [
      'add to list: notes of 2001 characters',
      '/api/v1/movies/list',
      { item_id: fx.entries.movies.free.id, notes: 'n'.repeat(2001) },
      A.jwt,
      'notes',
    ],
  ];
  for (const [name, path, json, token, detailPath] of huge)
    add({ group: 'huge values', name, method: 'POST', path, token, json, expectStatus: 400, detailPath });

  // ── oversized bodies: declared, chunked (no Content-Length), and a lie about the length
  add({
    group: 'oversized body',
    name: 'create movie: 2 MiB',
    method: 'POST',
    path: '/api/v1/movies',
    token: A.jwt,
    raw: `{"title":"${'a'.repeat(2 * MiB)}"}`,
    contentType: 'application/json',
    expectStatus: 413,
  });
  add({
    group: 'oversized body',
    name: 'register: 1.5 MiB chunked',
    method: 'POST',
    path: '/api/v1/auth/register',
    chunkedBytes: 1.5 * MiB,
    expectStatus: 413,
  });
  add({
    group: 'oversized body',
    name: 'create movie: 1.5 MiB chunked',
    method: 'POST',
    path: '/api/v1/movies',
    token: A.jwt,
    chunkedBytes: 1.5 * MiB,
    expectStatus: 413,
  });
  add({
    group: 'oversized body',
    name: 'register: Content-Length of 10 GB, 20 bytes sent',
    method: 'POST',
    path: '/api/v1/auth/register',
    wire: 'POST /api/v1/auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\nConnection: close\r\n\r\n{"username":"x"}   ',
    expectStatus: 413,
  });

  // ── content types
  for (const contentType of [
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'text/html',
    'application/javascript',
  ]) {
    add({
      group: 'wrong content type',
      name: `create movie: ${contentType}`,
      method: 'POST',
      path: '/api/v1/movies',
      token: A.jwt,
      raw: '{"title":"x"}',
      contentType,
      expectStatus: 415,
    });
  }
  add({
    group: 'wrong content type',
    name: 'register: a body without Content-Type',
    method: 'POST',
    path: '/api/v1/auth/register',
    raw: Buffer.from('{"username":"x"}'),
    expectStatus: 415,
  });
  add({
    group: 'wrong content type',
    name: 'login: form-encoded credentials',
    method: 'POST',
    path: '/api/v1/auth/login',
    raw: `username=${A.username}&password=${encodeURIComponent(A.password)}`,
    contentType: 'application/x-www-form-urlencoded',
    expectStatus: 415,
  });

  // ── query parameters: operators, wrong values, unknown and repeated parameters
  const catalogParams: Record<string, string[]> = {
    q: ['', 'q'.repeat(201), '***'],
    genre: [''],
    year: ['abc', '1869', '2101', '1999.5'],
    page: ['0', '-1', '1.5', '1e3'],
    limit: ['0', '101', 'ten'],
    sort: ['password_hash', 'relevance'],
    order: ['sideways'],
  };
  for (const category of CATEGORIES) {
    for (const [param, values] of Object.entries(catalogParams)) {
      add({
        group: 'operator in a query',
        name: `${category} search: ${param}[$ne]`,
        method: 'GET',
        path: `/api/v1/${category}?${param}[$ne]=x`,
        expectStatus: 400,
      });
      if (category !== 'movies') continue;
      for (const value of values)
        add({
          group: 'bad query',
          name: `${category} search: ${param}=${value.slice(0, 20)}`,
          method: 'GET',
          path: `/api/v1/${category}?${param}=${encodeURIComponent(value)}`,
          expectStatus: 400,
          detailPath: param,
        });
    }
  }
  const listParams: Record<string, string[]> = {
    status: ['deleted'],
    page: ['0'],
    limit: ['101'],
    sort: ['notes'],
    order: ['up'],
  };
  for (const [param, values] of Object.entries(listParams)) {
    add({
      group: 'operator in a query',
      name: `movies list: ${param}[$gt]`,
      method: 'GET',
      path: `/api/v1/movies/list?${param}[$gt]=`,
      token: A.jwt,
      expectStatus: 400,
    });
    for (const value of values)
      add({
        group: 'bad query',
        name: `movies list: ${param}=${value}`,
        method: 'GET',
        path: `/api/v1/movies/list?${param}=${value}`,
        token: A.jwt,
        expectStatus: 400,
        detailPath: param,
      });
  }
  add({
    group: 'bad query',
    name: 'movies search: an unknown parameter',
    method: 'GET',
    path: '/api/v1/movies?titel=x',
    expectStatus: 400,
  });
  add({
    group: 'bad query',
    name: 'movies search: page given twice',
    method: 'GET',
    path: '/api/v1/movies?page=1&page=2',
    expectStatus: 400,
  });
  add({
    group: 'prototype keys',
    name: 'movies search: __proto__ parameter',
    method: 'GET',
    path: '/api/v1/movies?__proto__[polluted]=1',
    expectStatus: 400,
  });
  add({
    group: 'prototype keys',
    name: 'movies search: constructor parameter',
    method: 'GET',
    path: '/api/v1/movies?constructor[prototype][polluted]=1',
    expectStatus: 400,
  });

  // ── regular-expression metacharacters in q: valid searches, matched as words, never as a pattern
  const titles = fx.movieTitles;
  const regexSearches: Array<[string, string[]]> = [
    ['matrix.*', [titles.matrix]],
    ['.*matrix', [titles.matrix]],
    ['(matrix|.*)', [titles.matrix]],
    ['^alien$', [titles.alien]],
    ['[a-z]+', []],
    ['\\w+', []],
    ['zod\\', [titles.zodiac]],
    ['.+?', []],
    [`(a+)+$${'a'.repeat(60)}!`, []],
    ['{"$regex": ".*"}', []],
    ['$where', []],
    ['heat|jaws', []],
  ];
  for (const [q, expected] of regexSearches) {
    // '.+?' and '*' have no letter or digit: the contract's q needs one (400); the others are searches.
    const status = /[\p{L}\p{N}]/u.test(q) ? 200 : 400;
    add({
      group: 'regex metacharacters in q',
      name: `movies search: q=${q.slice(0, 24)}`,
      method: 'GET',
      path: `/api/v1/movies?q=${encodeURIComponent(q)}&limit=100`,
      expectStatus: status,
      check:
        status === 200
          ? (answer) => {
              const page = answer.body as { data?: Array<{ title: string }>; total?: number };
              const found = (page.data ?? []).map((entry) => entry.title).sort();
              return JSON.stringify(found) === JSON.stringify([...expected].sort())
                ? undefined
                : `expected exactly ${JSON.stringify(expected)}, found ${JSON.stringify(found)} (total ${page.total})`;
            }
          : undefined,
    });
  }

  // ── ids: malformed (400) and unknown (404) in every path and body that takes one
  const badIds = [
    'not-an-id',
    '123',
    'ZZZZZZZZZZZZZZZZZZZZZZZZ',
    `${OBJECT_ID_UNKNOWN}0`,
    '%24ne',
    '%7B%22%24ne%22%3Anull%7D',
  ];
  for (const id of badIds) {
    add({
      group: 'invalid id',
      name: `get movie ${id}`,
      method: 'GET',
      path: `/api/v1/movies/${id}`,
      expectStatus: 400,
    });
    add({
      group: 'invalid id',
      name: `patch book ${id}`,
      method: 'PATCH',
      path: `/api/v1/books/${id}`,
      token: A.jwt,
      json: { title: 'x' },
      expectStatus: 400,
    });
    add({
      group: 'invalid id',
      name: `get tvshows list entry ${id}`,
      method: 'GET',
      path: `/api/v1/tvshows/list/${id}`,
      token: A.jwt,
      expectStatus: 400,
    });
    add({
      group: 'invalid id',
      name: `delete movies list entry ${id}`,
      method: 'DELETE',
      path: `/api/v1/movies/list/${id}`,
      token: A.jwt,
      expectStatus: 400,
    });
    add({
      group: 'invalid id',
      name: `revoke token ${id}`,
      method: 'DELETE',
      path: `/api/v1/auth/tokens/${id}`,
      token: A.jwt,
      expectStatus: 400,
    });
  }
  for (const [name, method, path, json] of [
    ['get movie', 'GET', `/api/v1/movies/${OBJECT_ID_UNKNOWN}`, undefined],
    ['patch tvshow', 'PATCH', `/api/v1/tvshows/${OBJECT_ID_UNKNOWN}`, { title: 'x' }],
    ['get books list entry', 'GET', `/api/v1/books/list/${OBJECT_ID_UNKNOWN}`, undefined],
    ['delete movies list entry', 'DELETE', `/api/v1/movies/list/${OBJECT_ID_UNKNOWN}`, undefined],
    ['revoke token', 'DELETE', `/api/v1/auth/tokens/${OBJECT_ID_UNKNOWN}`, undefined],
    ['add to list', 'POST', '/api/v1/movies/list', { item_id: OBJECT_ID_UNKNOWN }],
  ] as const) {
    add({
      group: 'unknown id',
      name: `${name}: unknown id`,
      method,
      path,
      token: A.jwt,
      json,
      expectStatus: 404,
    });
  }
  const onList = fx.entries.movies.onList.id;
  for (const [name, item_ids] of [
    ['empty', []],
    ['a duplicate', [onList, onList]],
    ['501 ids', Array.from({ length: 501 }, (_, i) => i.toString(16).padStart(24, '0'))],
    ['one malformed among valid', [onList, 'nope']],
  ] as const) {
    add({
      group: 'invalid id',
      name: `movies bulk-delete: ${name}`,
      method: 'POST',
      path: '/api/v1/movies/bulk-delete',
      token: A.jwt,
      json: { item_ids },
      expectStatus: 400,
      detailPath: 'item_ids',
    });
    add({
      group: 'invalid id',
      name: `movies bulk-status: ${name}`,
      method: 'POST',
      path: '/api/v1/movies/bulk-status',
      token: A.jwt,
      json: { item_ids, status: 'dropped' },
      expectStatus: 400,
      detailPath: 'item_ids',
    });
  }

  // ── semantic rules
  add({
    group: 'semantic rules',
    name: 'add to list: finished before started',
    method: 'POST',
    path: '/api/v1/movies/list',
    token: A.jwt,
    json: { item_id: fx.entries.movies.free.id, started_at: '2024-05-02', finished_at: '2024-05-01' },
    expectStatus: 400,
  });
  add({
    group: 'semantic rules',
    name: 'add to list: 30 February',
    method: 'POST',
    path: '/api/v1/movies/list',
    token: A.jwt,
    json: { item_id: fx.entries.movies.free.id, started_at: '2024-02-30' },
    expectStatus: 400,
    detailPath: 'started_at',
  });
  add({
    group: 'semantic rules',
    name: 'add to list: score 11',
    method: 'POST',
    path: '/api/v1/movies/list',
    token: A.jwt,
    json: { item_id: fx.entries.movies.free.id, score: 11 },
    expectStatus: 400,
    detailPath: 'score',
  });
  add({
    group: 'semantic rules',
    name: 'add to list: progress -1',
    method: 'POST',
    path: '/api/v1/movies/list',
    token: A.jwt,
    json: { item_id: fx.entries.movies.free.id, progress: -1 },
    expectStatus: 400,
    detailPath: 'progress',
  });
  add({
    group: 'semantic rules',
    name: 'create book: bad ISBN checksum',
    method: 'POST',
    path: '/api/v1/books',
    token: A.jwt,
    json: { title: 'x', isbn: '978-0-441-47812-6' },
    expectStatus: 400,
    detailPath: 'isbn',
  });
  add({
    group: 'semantic rules',
    name: 'patch movie: empty body',
    method: 'PATCH',
    path: `/api/v1/movies/${fx.entries.movies.free.id}`,
    token: A.jwt,
    json: {},
    expectStatus: 400,
  });
  add({
    group: 'semantic rules',
    name: 'update profile: empty body',
    method: 'PUT',
    path: '/api/v1/auth/me',
    token: A.jwt,
    json: {},
    expectStatus: 400,
  });
  add({
    group: 'semantic rules',
    name: 'create token: unknown scope',
    method: 'POST',
    path: '/api/v1/auth/tokens',
    token: A.jwt,
    json: { name: 'x', scopes: ['admin'] },
    expectStatus: 400,
    detailPath: 'scopes',
  });
  add({
    group: 'semantic rules',
    name: 'create token: 367 days',
    method: 'POST',
    path: '/api/v1/auth/tokens',
    token: A.jwt,
    json: { name: 'x', expires_in_days: 367 },
    expectStatus: 400,
    detailPath: 'expires_in_days',
  });

  // ── conflicts: nothing may be created twice
  add({
    group: 'conflicts',
    name: 'register: A’s username in upper case',
    method: 'POST',
    path: '/api/v1/auth/register',
    json: {
      username: A.username.toUpperCase(),
      email: 'someone.else@example.com',
      password: 'long enough pw',
    },
    expectStatus: 409,
  });
  add({
    group: 'conflicts',
    name: 'register: A’s email in upper case',
    method: 'POST',
    path: '/api/v1/auth/register',
    json: { username: 'someone_else', email: A.email.toUpperCase(), password: 'long enough pw' },
    expectStatus: 409,
  });
  add({
    group: 'conflicts',
    name: 'update profile: B’s username',
    method: 'PUT',
    path: '/api/v1/auth/me',
    token: A.jwt,
    json: { username: B.username },
    expectStatus: 409,
  });
  add({
    group: 'conflicts',
    name: 'create movie: duplicate title with accents and case',
    method: 'POST',
    path: '/api/v1/movies',
    token: A.jwt,
    json: { title: 'THÉ MÁTRIX', year: 1999 },
    expectStatus: 409,
    check: (answer) =>
      typeof (answer.body as Record<string, unknown>)['existing_id'] === 'string'
        ? undefined
        : 'no existing_id in the 409 payload',
  });
  add({
    group: 'conflicts',
    name: 'add to list: already on the list',
    method: 'POST',
    path: '/api/v1/movies/list',
    token: A.jwt,
    json: { item_id: onList },
    expectStatus: 409,
  });
  add({
    group: 'conflicts',
    name: 'create token: name already used',
    method: 'POST',
    path: '/api/v1/auth/tokens',
    token: A.jwt,
    json: { name: 'default scopes' },
    expectStatus: 409,
  });

  // ── other users' things: 403 (catalog entry) or 404 (list entries, tokens), and bulk reports them as not found
  add({
    group: 'other user',
    name: 'B patches A’s movie',
    method: 'PATCH',
    path: `/api/v1/movies/${fx.entries.movies.free.id}`,
    token: B.jwt,
    json: { title: 'Mine now' },
    expectStatus: 403,
  });
  add({
    group: 'other user',
    name: 'A patches B’s book',
    method: 'PATCH',
    path: `/api/v1/books/${fx.entries.books.ofB.id}`,
    token: A.jwt,
    json: { title: 'Mine now' },
    expectStatus: 403,
  });
  add({
    group: 'other user',
    name: 'B reads A’s list entry',
    method: 'GET',
    path: `/api/v1/movies/list/${onList}`,
    token: B.jwt,
    expectStatus: 404,
  });
  add({
    group: 'other user',
    name: 'B patches A’s list entry',
    method: 'PATCH',
    path: `/api/v1/movies/list/${onList}`,
    token: B.jwt,
    json: { score: 1 },
    expectStatus: 404,
  });
  add({
    group: 'other user',
    name: 'B deletes A’s list entry',
    method: 'DELETE',
    path: `/api/v1/movies/list/${onList}`,
    token: B.jwt,
    expectStatus: 404,
  });
  add({
    group: 'other user',
    name: 'B revokes A’s token',
    method: 'DELETE',
    path: `/api/v1/auth/tokens/${fx.patDefault.id}`,
    token: B.jwt,
    expectStatus: 404,
  });
  add({
    group: 'other user',
    name: 'B bulk-deletes A’s list entries',
    method: 'POST',
    path: '/api/v1/movies/bulk-delete',
    token: B.jwt,
    json: { item_ids: [onList] },
    expectStatus: 200,
    check: (answer) =>
      JSON.stringify(answer.body) === JSON.stringify({ deleted: 0, not_found: [onList] })
        ? undefined
        : `expected nothing deleted, got ${JSON.stringify(answer.body)}`,
  });
  add({
    group: 'other user',
    name: 'B bulk-moves A’s list entries',
    method: 'POST',
    path: '/api/v1/movies/bulk-status',
    token: B.jwt,
    json: { item_ids: [onList], status: 'dropped' },
    expectStatus: 200,
    check: (answer) =>
      JSON.stringify(answer.body) === JSON.stringify({ updated: 0, not_found: [onList] })
        ? undefined
        : `expected nothing updated, got ${JSON.stringify(answer.body)}`,
  });

  // ── wrong login: one indistinguishable 401
  add({
    group: 'wrong login',
    name: 'login: A with a wrong password',
    method: 'POST',
    path: '/api/v1/auth/login',
    json: { username: A.username, password: 'not the password' },
    expectStatus: 401,
  });
  add({
    group: 'wrong login',
    name: 'login: unknown user',
    method: 'POST',
    path: '/api/v1/auth/login',
    json: { username: 'nobody_at_all', password: 'whatever123' },
    expectStatus: 401,
  });
  add({
    group: 'wrong login',
    name: 'change password: wrong current password',
    method: 'PUT',
    path: '/api/v1/auth/password',
    token: A.jwt,
    json: { current_password: 'not the password', new_password: 'a new long password' },
    expectStatus: 403,
  });

  // ── forged and broken credentials, on a protected and on a public endpoint
  const claims = claimsFor(A.id);
  const publicPem = publicPemOfJwk(fx.publicJwk);
  const { signingKey, kid } = fx;
  // Same kid, another key: the gateway must use the published key, not trust the header.
  const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const nowS = Math.floor(Date.now() / 1000);
  const forged: Array<[string, string]> = [
    ['alg none', unsigned({ kid }, claims)],
    [
      'alg none, upper case',
      `${Buffer.from(JSON.stringify({ alg: 'NONE', kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
    ],
    ['HS256 signed with the published public key (PEM)', hs256({ kid }, claims, publicPem)],
    ['HS256 signed with the published JWK', hs256({ kid }, claims, JSON.stringify(fx.publicJwk))],
    [
      'expired (signed with the real key)',
      es256(
        { alg: 'ES256', kid },
        claimsFor(A.id, { iat: nowS - 7200, iat_ms: (nowS - 7200) * 1000, exp: nowS - 3600 }),
        signingKey,
      ),
    ],
    [
      'another audience (signed with the real key)',
      es256({ alg: 'ES256', kid }, claimsFor(A.id, { aud: 'another-api' }), signingKey),
    ],
    [
      'wrong issuer (signed with the real key)',
      es256({ alg: 'ES256', kid }, claimsFor(A.id, { iss: 'evil-issuer' }), signingKey),
    ],
    ['bad signature', withBadSignature(A.jwt)],
    ['B’s signature over A’s claims', withSwappedClaims(B.jwt, claims)],
    ['signed by another key with the real kid', es256({ alg: 'ES256', kid }, claims, otherKey)],
    ['unknown kid', es256({ alg: 'ES256', kid: 'no-such-key' }, claims, signingKey)],
    ['no kid', es256({ alg: 'ES256' }, claims, signingKey)],
    [
      'jku pointing elsewhere',
      es256({ alg: 'ES256', kid: 'attacker', jku: 'http://127.0.0.1:9/jwks' }, claims, otherKey),
    ],
    ['RS256 header on an ES256 signature', es256({ alg: 'RS256', kid }, claims, signingKey)],
    [
      'without sub (signed with the real key)',
      es256({ alg: 'ES256', kid }, { ...claims, sub: undefined }, signingKey),
    ],
    [
      'without exp (signed with the real key)',
      es256({ alg: 'ES256', kid }, { ...claims, exp: undefined }, signingKey),
    ],
    [
      'iat_ms not a number (signed with the real key)',
      es256({ alg: 'ES256', kid }, { ...claims, iat_ms: 'yesterday' }, signingKey),
    ],
    ['two segments', A.jwt.split('.').slice(0, 2).join('.')],
    ['garbage', 'abc.def.ghi'],
    ['5000 characters', 'x'.repeat(5000)],
  ];
  const [algNone, , hs256WithPem] = forged.map(([, token]) => token);
  for (const [name, token] of forged) {
    add({
      group: 'forged JWT',
      name: `GET /auth/me with a JWT: ${name}`,
      method: 'GET',
      path: '/api/v1/auth/me',
      token,
      expectStatus: 401,
    });
  }
  for (const [name, token] of forged.slice(0, 8)) {
    add({
      group: 'forged JWT',
      name: `public search with a JWT: ${name}`,
      method: 'GET',
      path: '/api/v1/movies',
      token,
      expectStatus: 401,
    });
  }
  add({
    group: 'forged JWT',
    name: 'create movie with an alg-none JWT',
    method: 'POST',
    path: '/api/v1/movies',
    token: algNone,
    json: { title: 'Forged', year: 2000 },
    expectStatus: 401,
  });
  add({
    group: 'forged JWT',
    name: 'delete account with an HS256 JWT',
    method: 'DELETE',
    path: '/api/v1/auth/me',
    token: hs256WithPem,
    expectStatus: 401,
  });

  const pat = fx.patDefault.token;
  const lastChar = pat.slice(-1);
  const badChecksum = `${pat.slice(0, -1)}${lastChar === 'A' ? 'B' : 'A'}`;
  const flippedBody = `${pat.slice(0, 10)}${pat[10] === 'a' ? 'b' : 'a'}${pat.slice(11)}`;
  const pats: Array<[string, string]> = [
    ['a bad checksum', badChecksum],
    ['one random character changed', flippedBody],
    ['one character short', pat.slice(0, -1)],
    ['one character long', `${pat}0`],
    ['upper-case prefix', `MTP_${pat.slice(4)}`],
    ['well-formed but unknown', generatePat()],
    ['revoked', fx.patRevoked],
    ['only the prefix', 'mtp_'],
  ];
  for (const [name, token] of pats) {
    add({
      group: 'bad PAT',
      name: `GET /movies/list with a PAT: ${name}`,
      method: 'GET',
      path: '/api/v1/movies/list',
      token,
      expectStatus: 401,
    });
  }
  add({
    group: 'bad PAT',
    name: 'public catalog read with a bad-checksum PAT',
    method: 'GET',
    path: '/api/v1/books',
    token: badChecksum,
    expectStatus: 401,
  });

  // ── scopes: a PAT may do only what its scopes allow (and never delete the account without `account`)
  for (const [name, method, path, json, token] of [
    [
      'list:read PAT creates a movie',
      'POST',
      '/api/v1/movies',
      { title: 'Scoped', year: 2000 },
      fx.patListRead.token,
    ],
    [
      'list:read PAT adds to a list',
      'POST',
      '/api/v1/movies/list',
      { item_id: fx.entries.movies.free.id },
      fx.patListRead.token,
    ],
    [
      'list:read PAT bulk-deletes',
      'POST',
      '/api/v1/movies/bulk-delete',
      { item_ids: [onList] },
      fx.patListRead.token,
    ],
    ['list:read PAT reads the profile', 'GET', '/api/v1/auth/me', undefined, fx.patListRead.token],
    ['default PAT deletes the account', 'DELETE', '/api/v1/auth/me', undefined, pat],
    [
      'default PAT changes the password',
      'PUT',
      '/api/v1/auth/password',
      { current_password: A.password, new_password: 'pwned password' },
      pat,
    ],
    ['default PAT updates the profile', 'PUT', '/api/v1/auth/me', { username: 'pwned' }, pat],
    ['default PAT lists tokens', 'GET', '/api/v1/auth/tokens', undefined, pat],
    [
      'default PAT creates a token',
      'POST',
      '/api/v1/auth/tokens',
      { name: 'escalate', scopes: ['account'] },
      pat,
    ],
    ['default PAT revokes a token', 'DELETE', `/api/v1/auth/tokens/${fx.patListRead.id}`, undefined, pat],
  ] as const) {
    add({ group: 'missing scope', name, method, path, token, json, expectStatus: 403 });
  }

  // ── Authorization header shapes
  for (const [name, value] of [
    ['Basic credentials', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer'],
    ['Bearer with two tokens', `Bearer ${A.jwt} ${A.jwt}`],
    ['a token without a scheme', A.jwt],
    ['Bearer and 10,000 characters', `Bearer ${'y'.repeat(10_000)}`],
  ] as const) {
    add({
      group: 'bad Authorization',
      name: `GET /auth/me: ${name}`,
      method: 'GET',
      path: '/api/v1/auth/me',
      headers: { authorization: value },
      expectStatus: 401,
    });
  }

  // ── identity spoofing: headers only the gateway may set, sent by a client or straight to a service
  const spoofed = {
    'x-mt-user-id': A.id,
    'x-mt-auth-type': 'jwt',
    'x-mt-scopes': 'profile:read catalog:write list:read list:write account',
    'x-mt-token-id': 'forged',
    'x-mt-identity-ts': String(Date.now()),
    'x-mt-identity-sig': 'Zm9yZ2Vk',
  };
  add({
    group: 'identity spoofing',
    name: 'gateway: identity headers without a credential',
    method: 'GET',
    path: '/api/v1/auth/me',
    headers: spoofed,
    expectStatus: 401,
  });
  add({
    group: 'identity spoofing',
    name: 'gateway: identity headers next to B’s JWT (stripped: B’s profile)',
    method: 'GET',
    path: '/api/v1/auth/me',
    token: B.jwt,
    headers: spoofed,
    expectStatus: 200,
    check: (answer) =>
      (answer.body as { id?: string }).id === B.id ? undefined : 'the spoofed identity was used',
  });
  add({
    group: 'identity spoofing',
    name: 'auth service directly: forged identity',
    target: 'auth-service',
    method: 'GET',
    path: '/api/v1/auth/me',
    headers: spoofed,
    expectStatus: 401,
  });
  add({
    group: 'identity spoofing',
    name: 'auth service directly: delete account with forged identity',
    target: 'auth-service',
    method: 'DELETE',
    path: '/api/v1/auth/me',
    headers: spoofed,
    expectStatus: 401,
  });
  add({
    group: 'identity spoofing',
    name: 'catalog directly: create with forged identity',
    target: 'catalog-movies',
    method: 'POST',
    path: '/api/v1/movies',
    headers: spoofed,
    json: { title: 'Spoofed', year: 2000 },
    expectStatus: 401,
  });
  add({
    group: 'identity spoofing',
    name: 'catalog directly: list with forged identity',
    target: 'catalog-movies',
    method: 'GET',
    path: '/api/v1/movies/list',
    headers: spoofed,
    expectStatus: 401,
  });
  add({
    group: 'internal endpoints',
    name: 'auth directly: introspect without the secret',
    target: 'auth-service',
    method: 'POST',
    path: '/internal/introspect',
    json: { token: pat },
    expectStatus: 401,
  });
  add({
    group: 'internal endpoints',
    name: 'auth directly: introspect with a wrong secret',
    target: 'auth-service',
    method: 'POST',
    path: '/internal/introspect',
    headers: { 'x-mt-internal-secret': 'x'.repeat(48) },
    json: { token: pat },
    expectStatus: 401,
  });
  add({
    group: 'internal endpoints',
    name: 'auth directly: JWT cut-off without the secret',
    target: 'auth-service',
    method: 'GET',
    path: `/internal/users/${A.id}/jwt-cutoff`,
    expectStatus: 401,
  });
  add({
    group: 'internal endpoints',
    name: 'registry directly: register a rogue instance',
    target: 'registry-service',
    method: 'PUT',
    path: '/internal/instances/rogue-1',
    json: { category: 'movies', base_url: 'http://127.0.0.1:9' },
    expectStatus: 401,
  });
  add({
    group: 'internal endpoints',
    name: 'registry directly: read the route table',
    target: 'registry-service',
    method: 'GET',
    path: '/internal/routes',
    expectStatus: 401,
  });
  for (const path of ['/internal/jwks', '/internal/introspect', '/internal/routes']) {
    add({
      group: 'internal endpoints',
      name: `gateway: ${path}`,
      method: path === '/internal/introspect' ? 'POST' : 'GET',
      path,
      json: path === '/internal/introspect' ? { token: pat } : undefined,
      expectStatus: 404,
    });
  }
  // An encoded slash stays inside one segment: the catalog sees a malformed id, not a path to /internal.
  add({
    group: 'internal endpoints',
    name: 'gateway: /api/v1/movies/..%2f..%2f..%2finternal%2froutes',
    method: 'GET',
    path: '/api/v1/movies/..%2f..%2f..%2finternal%2froutes',
    expectStatus: 400,
  });
  // fetch would normalise these dot segments away: sent as they are.
  for (const path of [
    '/api/v1/auth/%2e%2e/%2e%2e/%2e%2e/internal/jwks',
    '/api/v1/auth/../../../internal/jwks',
    '/api/v1/movies/%2E%2E/%2E%2E/%2E%2E/internal/routes',
  ]) {
    add({
      group: 'internal endpoints',
      name: `gateway: ${path}`,
      method: 'GET',
      path: '(raw)',
      wire: `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      expectStatus: 404,
    });
  }

  // ── routes and methods
  add({
    group: 'unknown route',
    name: 'an unknown API path',
    method: 'GET',
    path: '/api/v1/nothing-here',
    expectStatus: 404,
  });
  add({
    group: 'unknown route',
    name: 'an unknown category',
    method: 'GET',
    path: '/api/v1/comics',
    expectStatus: 404,
  });
  add({
    group: 'unknown route',
    name: 'a category with a CRLF in the path',
    method: 'GET',
    path: '/api/v1/movies%0d%0aSet-Cookie:%20pwned=1',
    expectStatus: 404,
    check: (answer) => (answer.headers.get('set-cookie') ? 'a Set-Cookie header was injected' : undefined),
  });
  for (const [method, path] of [
    ['DELETE', '/api/v1/categories'],
    ['PUT', '/api/v1/movies'],
    ['POST', '/api/v1/auth/me'],
    ['GET', '/api/v1/auth/login'],
    ['PATCH', '/api/v1/movies/bulk-delete'],
    ['DELETE', '/api/v1/books'],
  ] as const) {
    add({
      group: 'wrong method',
      name: `${method} ${path}`,
      method,
      path,
      token: A.jwt,
      expectStatus: 405,
      check: hasAllow,
    });
  }

  // ── request ids: an invalid one is replaced, never echoed
  for (const [name, value] of [
    ['200 characters', 'r'.repeat(200)],
    ['a space', 'abc def'],
    ['a tab', 'abc\tdef'],
  ] as const) {
    add({
      group: 'request id',
      name: `X-Request-Id with ${name}`,
      method: 'GET',
      path: '/api/v1/nothing-here',
      headers: { 'x-request-id': value },
      expectStatus: 404,
      check: (answer) =>
        answer.headers.get('x-request-id') === value ? 'the invalid request id was echoed' : undefined,
    });
  }

  // ── bytes Node's HTTP parser refuses: the services answer those themselves (run-service.ts)
  const head = (extra: string, path = '/api/v1/categories') =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;
  const wires: Array<[string, string | Buffer, number]> = [
    ['a bare CR inside a header value', head('X-Note: a\rb\r\n'), 400],
    ['a bare LF inside a header value', head('X-Note: a\nInjected: b\r\n'), 400],
    ['a NUL inside a header value', head('X-Note: a\0b\r\n'), 400],
    ['a space inside a header name', head('Bad Header: x\r\n'), 400],
    [
      'Content-Length and Transfer-Encoding together (smuggling)',
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\nGET /internal/jwks HTTP/1.1\r\nHost: localhost\r\n\r\n',
      400,
    ],
    [
      'two different Content-Lengths',
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\nConnection: close\r\n\r\n{}',
      400,
    ],
    ['a 20 KiB header', head(`X-Big: ${'b'.repeat(20 * 1024)}\r\n`), 400],
    ['an obsolete line folding', head('X-Note: a\r\n folded\r\n'), 400],
    ['not HTTP at all', 'HELLO THERE\r\n\r\n', 400],
  ];
  for (const [name, wire, status] of wires)
    add({ group: 'raw bytes', name, method: 'GET', path: '(raw)', wire, expectStatus: status });
  add({
    group: 'raw bytes',
    // Node reads a request line without a version as HTTP/0.9: the "injected" text is just another request
    // header, so this is an ordinary read, and nothing of it comes back as a response header.
    name: 'CRLF injected into the request line',
    method: 'GET',
    path: '(raw)',
    wire: 'GET /api/v1/categories\r\nX-Injected: 1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    expectStatus: 200,
    check: (answer) =>
      answer.headers.get('x-injected')
        ? 'the injected line came back as a header'
        : Array.isArray(answer.body)
          ? undefined
          : 'not the categories',
  });
  add({
    group: 'raw bytes',
    name: 'a request id with CRLF and a Set-Cookie line (two headers on the wire)',
    method: 'GET',
    path: '(raw)',
    wire: head('X-Request-Id: raw-crlf-1\r\nSet-Cookie: pwned=1\r\n', '/api/v1/nothing-here'),
    expectStatus: 404,
    check: (answer) =>
      answer.headers.get('set-cookie')
        ? 'the Set-Cookie line reached the response'
        : answer.headers.get('x-request-id') === 'raw-crlf-1'
          ? undefined
          : 'request id not kept',
  });

  return cases;
}
