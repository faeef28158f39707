import { startProviderReplay } from './provider-replay';

/**
 * Runs the provider replay server on its own (`npm run providers:replay`), for a stack without internet access:
 * prints the variables that point the services at it, and stops on Ctrl-C.
 */
async function main(): Promise<void> {
  const port = Number(process.env['PORT'] ?? 8999);
  const replay = await startProviderReplay({ port });
  // The gateway fetches images only from public addresses unless told this local host is meant.
  const env = Object.entries({ ...replay.env, IMAGE_ALLOW_PRIVATE_HOSTS: 'true' })
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  process.stdout.write(`provider replay listening on ${replay.url}\nstart the stack with:\n  ${env} npm start\n`);
  const stop = () => void replay.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
