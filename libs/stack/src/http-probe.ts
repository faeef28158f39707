import { request } from 'node:http';

export interface ProbeAnswer {
  status: number;
  body: string;
}

/** One GET without keep-alive; rejects on connection errors and after `timeoutMs`. */
export function httpGet(url: string, timeoutMs = 1500): Promise<ProbeAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
