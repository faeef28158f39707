import express from 'express';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceServer } from './run-service';

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the service server', () => {
  it("creates each request and response with its app's prototypes, before express sees them", async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.status(201).json({ path: req.path, ip: req.ip });
    });
    const server = createServiceServer(app);
    const seen: Array<{ request: boolean; response: boolean }> = [];
    // Runs before the app's own listener: what the server made, not what express switched it to.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ request: Object.getPrototypeOf(req) === app.request, response: Object.getPrototypeOf(res) === app.response });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await get((server.address() as AddressInfo).port, '/hello?x=1');
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({ path: '/hello', ip: '127.0.0.1' });
      expect(seen).toEqual([{ request: true, response: true }]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
