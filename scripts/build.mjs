#!/usr/bin/env node
// npm run build: tsc (tsconfig.build.json), then the WebAssembly kernels (scripts/build-wasm.mjs). tsc prints
// nothing while it compiles (10-30 s on a loaded machine), so when stderr is not a terminal a plain line every
// 5 s says it is still compiling, and `make reproduce 2>log` is never silent for long.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** run(args): node with args in the package root, output passed through; resolves with its exit code. */
function run(args) {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('close', (code, signal) => done(code ?? (signal === null ? 1 : 128)));
  });
}

const started = Date.now();
const heartbeat = process.stderr.isTTY
  ? undefined
  : setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stderr.write(`build: compiling TypeScript (tsc, ${seconds} s so far)\n`);
    }, 5000);
const compiled = await run([tsc, '-p', 'tsconfig.build.json']);
clearInterval(heartbeat);
process.exitCode = compiled !== 0 ? compiled : await run([join(root, 'scripts', 'build-wasm.mjs')]);
