// The probe sampler's own thread (see startProbeSampler): GET `url` every `intervalMs`, one at a time,
// until the parent says stop; then the latencies (ms) go back to it.
import { parentPort, workerData } from 'node:worker_threads';
import { HttpClient } from './http-client';

export interface ProbeWorkerData {
  url: string;
  intervalMs: number;
}

const { url, intervalMs } = workerData as ProbeWorkerData;
const port = parentPort;
if (!port) throw new Error('probe-worker runs as a worker thread (startProbeSampler)');

const client = new HttpClient(1);
const latencies: number[] = [];
let running = true;
port.once('message', () => (running = false));

const sample = async (): Promise<void> => {
  while (running) {
    const started = Date.now();
    try {
      const answer = await client.send(url, { timeoutMs: 5000 });
      latencies.push(answer.status === 200 ? answer.ms : Number.POSITIVE_INFINITY);
    } catch {
      latencies.push(Number.POSITIVE_INFINITY);
    }
    const wait = intervalMs - (Date.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  client.close();
  port.postMessage(latencies);
};

void sample();
