import { closeSync, fstatSync, openSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { median, round } from '../stats';

// Why: figures of runs on different machines are not comparable — page faults and syscalls can cost many
// times a usual machine's while plain JS runs at usual speed (README "The machine probe") — so every run records these.

/**
 * What memory, the kernel and the CPU cost on the machine a run was made on: medians of a few tries, in CPU
 * time of this process (user + system), so that other processes waiting for the same cores do not count.
 */
export interface MachineProbe {
  /** µs per minor page fault: first touch of fresh memory, one byte per 4 kB page, minus the same loop over touched memory. */
  page_fault_us: number;
  /** Faults counted (process.resourceUsage) per 4 kB page touched: 1 unless the kernel maps huge pages. */
  faults_per_page: number;
  /** µs per fs.fstatSync of an open file: one cheap syscall plus Node's binding and its Stats object. */
  syscall_us: number;
  /** µs per SHA-256 of 1 kB (createHash, update, digest): CPU only, no syscall, no fresh memory. */
  sha256_1kb_us: number;
}

const PAGE = 4096;
/** 32 MiB, a mapping of its own from the kernel: 8 192 pages, enough faults to measure, few enough to be quick. */
const FRESH_BYTES = 32 * 2 ** 20;
const TRIES = 5;
const LOOP = 5000;

/** CPU time this process has used, µs (precise on Linux: the scheduler's own count). */
function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function touchPages(buffer: Buffer): void {
  for (let i = 0; i < buffer.length; i += PAGE) buffer[i] = 1;
}

/** µs per fault and faults per page of one fresh allocation (unzeroed, so no page is touched before the loop). */
function pageFaultTry(): { us: number; faultsPerPage: number } {
  const buffer = Buffer.allocUnsafeSlow(FRESH_BYTES);
  const faultsBefore = process.resourceUsage().minorPageFault;
  const started = cpuUs();
  touchPages(buffer);
  const firstTouch = cpuUs();
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  touchPages(buffer);
  const loopOnly = cpuUs() - firstTouch;
  return { us: (firstTouch - started - loopOnly) / faults, faultsPerPage: faults / (FRESH_BYTES / PAGE) };
}

/** µs per call of `work`, median of the tries (after one discarded try that warms up the JIT). */
function usPerCall(work: () => void): number {
  const tries: number[] = [];
  for (let attempt = 0; attempt <= TRIES; attempt++) {
    const started = cpuUs();
    for (let i = 0; i < LOOP; i++) work();
    if (attempt > 0) tries.push((cpuUs() - started) / LOOP);
  }
  return median(tries);
}

/** About 1 s of CPU here (much less on a usual machine); run it while nothing else of the bench is running. */
export function probeMachine(): MachineProbe {
  const faultTries = Array.from({ length: TRIES }, pageFaultTry);
  const fd = openSync(process.execPath, 'r');
  let syscallUs: number;
  try {
    syscallUs = usPerCall(() => fstatSync(fd));
  } finally {
    closeSync(fd);
  }
  const kilobyte = Buffer.alloc(1024, 7);
  return {
    page_fault_us: round(median(faultTries.map((t) => t.us)), 2),
    faults_per_page: round(median(faultTries.map((t) => t.faultsPerPage)), 2),
    syscall_us: round(syscallUs, 2),
    sha256_1kb_us: round(
      usPerCall(() => createHash('sha256').update(kilobyte).digest()),
      2,
    ),
  };
}

/** One line for the reports' headers. */
export function describeMachine(machine: MachineProbe): string {
  return (
    `machine probe: page fault ${machine.page_fault_us} µs (${machine.faults_per_page} per 4 kB page), ` +
    `syscall (fstat) ${machine.syscall_us} µs, SHA-256 of 1 kB ${machine.sha256_1kb_us} µs`
  );
}
