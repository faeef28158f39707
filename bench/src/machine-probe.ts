// The machine probe alone (about 1 s): node tools/build/build-app.mjs bench src/machine-probe.ts && node dist/bench/machine-probe.js
import { describeMachine, probeMachine } from './machine/probe';

const machine = probeMachine();
process.stdout.write(`${describeMachine(machine)}\n${JSON.stringify(machine)}\n`);
