import mongoose, { type Connection } from 'mongoose';
import {
  ARGON2_MIN_MEMORY_KIB,
  ARGON2_MIN_TIME_COST,
  PasswordHasher,
  UsersRepository,
} from '../service-code';
import { HttpClient, mapLimit } from '../load/http-client';
import { required } from '../required';

export interface BenchUser {
  id: string;
  username: string;
  password: string;
}

export interface SeededUsers {
  /** Registered through the gateway; owns the list; the JWT and PAT belong to it. */
  main: BenchUser;
  all: BenchUser[];
  viaApi: number;
  direct: number;
  /** Distinct argon2id hashes shared by the directly inserted users. */
  distinctHashes: number;
  seconds: number;
}

interface UserAnswer {
  id: string;
}

const usernameOf = (index: number) => `bench_user_${String(index).padStart(4, '0')}`;

/**
 * `total` users. The first `viaApi` register through the gateway (POST /api/v1/auth/register, the whole
 * real path: validation, argon2id, insert). The rest are inserted with the auth service's own
 * UsersRepository (same document, same indexes), their passwords hashed with the auth service's own
 * PasswordHasher at the service's default cost: argon2id is deliberately ~30+ ms of CPU per hash, and
 * a thousand of them would only burn half a minute of the run. They share `distinctHashes` hashes
 * (user i has password i mod distinctHashes); a login costs the same whichever hash it checks.
 */
export async function seedUsers(options: {
  gatewayUrl: string;
  mongoUrl: string;
  dbName: string;
  total: number;
  viaApi: number;
  distinctHashes: number;
}): Promise<SeededUsers> {
  const started = performance.now();
  const client = new HttpClient(8);
  const register = async (index: number): Promise<BenchUser> => {
    const username = usernameOf(index);
    const password = `bench-password-${index}`;
    const user = await client.json<UserAnswer>(`${options.gatewayUrl}/api/v1/auth/register`, 201, {
      method: 'POST',
      json: { username, email: `${username}@bench.example`, password },
    });
    return { id: user.id, username, password };
  };
  const viaApi = await mapLimit(
    Array.from({ length: options.viaApi }, (_, i) => i),
    4,
    register,
  );
  client.close();

  const connection: Connection = await mongoose
    .createConnection(options.mongoUrl, {
      dbName: options.dbName,
      maxPoolSize: 16,
      autoIndex: false,
      autoCreate: false,
    })
    .asPromise();
  try {
    const users = new UsersRepository(connection);
    const hasher = new PasswordHasher({ memoryCost: ARGON2_MIN_MEMORY_KIB, timeCost: ARGON2_MIN_TIME_COST });
    const passwords = Array.from({ length: options.distinctHashes }, (_, i) => `bench-shared-password-${i}`);
    const hashes = await mapLimit(passwords, 4, (password) => hasher.hash(password));
    const indexes = Array.from({ length: options.total - options.viaApi }, (_, i) => options.viaApi + i);
    const direct = await mapLimit(indexes, 16, async (index) => {
      const username = usernameOf(index);
      const slot = index % options.distinctHashes;
      const record = await users.create({
        username,
        email: `${username}@bench.example`,
        passwordHash: required(hashes[slot], 'hash'),
      });
      return { id: record.id, username, password: required(passwords[slot], 'password') };
    });
    return {
      main: required(viaApi[0], 'the benchmark user'),
      all: [...viaApi, ...direct],
      viaApi: viaApi.length,
      direct: direct.length,
      distinctHashes: options.distinctHashes,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await connection.close();
  }
}
