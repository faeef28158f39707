import path from 'node:path';
import type { Scope, User } from '@mt/api-client';
import { configDir, isExposed, readJsonFile, withDirLock, writePrivateFile } from './config-dir';

/** What `mt login` keeps for one server. The only secret is `token`; the rest is safe to show. */
export interface StoredCredential {
  token: string;
  token_id: string;
  token_name: string;
  /** The first 8 characters (docs/api.md "Personal access tokens": safe to display). */
  prefix: string;
  scopes: Scope[];
  expires_at: string;
  created_at: string;
  user: Pick<User, 'id' | 'username'>;
}

/** credentials.json: the credential of each server `mt login` was used with, keyed by base URL. */
interface CredentialsFile {
  version: 1;
  servers: Record<string, StoredCredential>;
}

/** config.json: settings without secrets. */
interface ConfigFile {
  version: 1;
  /** The server `mt` talks to when neither --url nor MT_URL says otherwise (the last one logged in to). */
  url?: string;
}

/**
 * The config directory (`$XDG_CONFIG_HOME/media-tracker/`): `config.json` (the default server) and
 * `credentials.json` (the tokens). Both are 0600 in a 0700 directory; only credentials.json holds a secret.
 */
export class Settings {
  readonly dir: string;
  readonly configFile: string;
  readonly credentialsFile: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
    this.configFile = path.join(this.dir, 'config.json');
    this.credentialsFile = path.join(this.dir, 'credentials.json');
  }

  defaultUrl(): string | undefined {
    return readJsonFile<ConfigFile>(this.configFile)?.url;
  }

  setDefaultUrl(url: string): void {
    withDirLock(this.dir, () => {
      const config = readJsonFile<ConfigFile>(this.configFile) ?? { version: 1 };
      writePrivateFile(this.configFile, `${JSON.stringify({ ...config, version: 1, url }, null, 2)}\n`);
    });
  }

  credential(url: string): StoredCredential | undefined {
    return this.readCredentials().servers[url];
  }

  saveCredential(url: string, credential: StoredCredential): void {
    withDirLock(this.dir, () => {
      const file = this.readCredentials();
      file.servers[url] = credential;
      writePrivateFile(this.credentialsFile, `${JSON.stringify(file, null, 2)}\n`);
    });
  }

  forgetCredential(url: string): void {
    withDirLock(this.dir, () => {
      const file = this.readCredentials();
      if (!(url in file.servers)) return;
      delete file.servers[url];
      writePrivateFile(this.credentialsFile, `${JSON.stringify(file, null, 2)}\n`);
    });
  }

  /** True when credentials.json can be read by others (copied with the wrong mode): the caller warns. */
  credentialsExposed(): boolean {
    return isExposed(this.credentialsFile);
  }

  private readCredentials(): CredentialsFile {
    const file = readJsonFile<CredentialsFile>(this.credentialsFile);
    return file && typeof file.servers === 'object' && file.servers ? file : { version: 1, servers: {} };
  }
}
