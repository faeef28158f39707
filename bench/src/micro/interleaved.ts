import { median } from '../stats';

/** One contender of a micro-benchmark: `op` does one unit of work (a verification, a log line). */
export interface Contender {
  name: string;
  op: () => unknown;
}

export interface ContenderResult {
  name: string;
  opsPerSecond: number;
  wallMicrosPerOp: number;
  cpuMicrosPerOp: number;
}

/**
 * Runs every contender `rounds` times, `opsPerRound` operations each, interleaved (the order rotates each
 * round, so neither profits from a quieter moment of a loaded machine), after one warm-up round; reports the
 * medians over the rounds of wall-clock ops/s and of process CPU per operation.
 */
export async function compareInterleaved(
  contenders: readonly Contender[],
  { rounds = 15, opsPerRound = 2000 }: { rounds?: number; opsPerRound?: number } = {},
): Promise<ContenderResult[]> {
  const samples = contenders.map((contender) => ({ contender, wall: [] as number[], cpu: [] as number[] }));
  for (let round = -1; round < rounds; round++) {
    const start = Math.max(round, 0) % samples.length;
    for (const { contender, wall, cpu } of [...samples.slice(start), ...samples.slice(0, start)]) {
      const { op } = contender;
      const cpuBefore = process.cpuUsage();
      const wallBefore = process.hrtime.bigint();
      for (let i = 0; i < opsPerRound; i++) {
        const result = op();
        if (result instanceof Promise) await result;
      }
      const wallMicros = Number(process.hrtime.bigint() - wallBefore) / 1e3;
      const cpuUsed = process.cpuUsage(cpuBefore);
      if (round < 0) continue; // warm-up
      wall.push(wallMicros / opsPerRound);
      cpu.push((cpuUsed.user + cpuUsed.system) / opsPerRound);
    }
  }
  return samples.map(({ contender, wall, cpu }) => {
    const wallMicrosPerOp = median(wall);
    return {
      name: contender.name,
      opsPerSecond: 1e6 / wallMicrosPerOp,
      wallMicrosPerOp,
      cpuMicrosPerOp: median(cpu),
    };
  });
}

export function printResults(title: string, results: readonly ContenderResult[]): void {
  console.log(`\n${title}`);
  console.log('| contender | ops/s (median) | wall µs/op | CPU µs/op |');
  console.log('| :-- | --: | --: | --: |');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${Math.round(r.opsPerSecond).toLocaleString('en')} | ${r.wallMicrosPerOp.toFixed(2)} | ${r.cpuMicrosPerOp.toFixed(2)} |`,
    );
  }
}
