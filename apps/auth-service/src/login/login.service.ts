import { errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import type { IssuedJwt, JwtSigner } from '../jwt/jwt-signer';
import { OutageLog } from '../shared/warn-throttle';
import type { AdminNames } from '../users/admin-names';
import type { PasswordHasher } from '../users/password-hasher';
import type { UserRecord, UsersRepository } from '../users/users.repository';
import type { LoginFailuresRepository } from './login-failures.repository';

/**
 * Whose failures a login attempt counts against: the account, whichever of its names (username or email)
 * was typed; an unknown name counts against itself (lower-cased), so it locks exactly like an account.
 */
export function lockoutSubject(login: string, user: Pick<UserRecord, 'id'> | undefined): string {
  return user ? `user:${user.id}` : `name:${login.toLowerCase()}`;
}

export interface LoginResult {
  jwt: IssuedJwt;
  user: UserRecord;
}

export interface LoginServiceDependencies {
  users: UsersRepository;
  hasher: PasswordHasher;
  signer: JwtSigner;
  failures: LoginFailuresRepository;
  logger: Logger;
  adminNames: AdminNames;
}

/**
 * Login by username or email. Unknown user and wrong password are one 401 with the same work
 * (a dummy argon2 verification). The lockout fails open when Redis is down: argon2's cost still
 * slows guessing, and the gateway's rate limits still apply; a warning is logged.
 */
export class LoginService {
  private readonly users: UsersRepository;
  private readonly hasher: PasswordHasher;
  private readonly signer: JwtSigner;
  private readonly failures: LoginFailuresRepository;
  private readonly logger: Logger;
  private readonly adminNames: AdminNames;
  private readonly lockoutOutage: OutageLog;

  constructor(dependencies: LoginServiceDependencies) {
    ({ users: this.users, hasher: this.hasher, signer: this.signer, failures: this.failures, logger: this.logger, adminNames: this.adminNames } = dependencies);
    this.lockoutOutage = new OutageLog(this.logger, 'redis unavailable: login lockout is not enforced');
  }

  async login(login: string, password: string): Promise<LoginResult> {
    // One read gives the hash to check and the cut-off the JWT is bound to: a password change or deletion
    // committed after this read makes the JWT minted below fail at the gateway, whatever its issue time.
    const user = await this.users.findByLogin(login);
    const subject = lockoutSubject(login, user);
    const lockedMs = await this.guard(() => this.failures.lockedForMs(subject), 0);
    if (lockedMs > 0) throw errors.rateLimited(lockedMs / 1000, 'too many failed logins; try again later');
    const valid = user ? await this.hasher.verify(user.passwordHash, password) : await this.hasher.verifyAgainstDummy(password);
    if (!user || !valid) {
      await this.guard(() => this.failures.recordFailure(subject), undefined);
      throw errors.unauthorized('invalid username or password');
    }
    await this.guard(() => this.failures.clear(subject), undefined);
    if (this.hasher.needsRehash(user.passwordHash)) void this.upgradeHash(user, password);
    // ADMIN_USERNAMES: an account that held a listed, unclaimed name before it was listed gets the role here.
    const signedIn = await this.adminNames.promoteIfEntitled(user);
    return { jwt: this.signer.sign(signedIn.id, signedIn.jwtCutoffMs, signedIn.role), user: signedIn };
  }

  private async guard<T>(operation: () => Promise<T>, fallback: T): Promise<T> {
    try {
      const result = await operation();
      this.lockoutOutage.succeeded();
      return result;
    } catch (error) {
      this.lockoutOutage.failed(error);
      return fallback;
    }
  }

  /** The cost parameters were raised since this hash was made: store a stronger one. */
  private async upgradeHash(user: UserRecord, password: string): Promise<void> {
    try {
      await this.users.replaceHash(user.id, user.passwordHash, await this.hasher.hash(password));
    } catch (error) {
      this.logger.warn({ reason: (error as Error).message }, 'password hash upgrade failed');
    }
  }
}
