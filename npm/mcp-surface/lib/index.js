'use strict';
// checkSurface: the surface guard inside a JavaScript test, as
// pkg/surfacetest is inside `go test`. It runs `mcp-surface snapshot --check`
// (or, to update, `mcp-surface snapshot`) on the server command, so the
// judgement (the diff engine's) and its wording are the CLI's own: the
// verdict first, one line per change, and how to rewrite the snapshot in
// this runner's terms.

const { spawn } = require('node:child_process');
const path = require('node:path');
const { binaryPath } = require('./binary.js');

const UPDATE_ENV = 'MCP_SURFACE_UPDATE';
// How a reader of this project runs mcp-surface, for the commands the
// binary suggests.
const CLI_ENV = 'MCP_SURFACE_CLI';

// updateHint is what rewrites the snapshot, as the test was run: the npm
// script that runs the tests (`npm test`), else the option.
function updateHint() {
  const script = process.env.npm_lifecycle_event;
  if (script === 'test') {
    return `run \`${UPDATE_ENV}=1 npm test\` (or pass update: true)`;
  }
  if (script && /^[\w:.-]+$/.test(script)) {
    return `run \`${UPDATE_ENV}=1 npm run ${script}\` (or pass update: true)`;
  }
  return `rerun the test with ${UPDATE_ENV}=1 (or pass update: true)`;
}

function updateFromEnv() {
  const v = (process.env[UPDATE_ENV] || '').toLowerCase();
  return v === '1' || v === 'true';
}

// The binaries still running, so that they are ended with this process
// (a test runner's worker that exits, normally or not): the binary stops
// its server on SIGTERM. A worker killed outright is seen by the binary
// itself, which stops when its parent exits.
const live = new Set();
process.once('exit', () => {
  for (const child of live) {
    child.kill('SIGTERM');
  }
});

// How long a binary is given to stop after SIGTERM, before SIGKILL (its
// watchdog then ends the server).
const KILL_GRACE_MS = 2000;
// How long past the timeout given to the binary the helper waits before it
// stops the binary itself: the binary's own timeout, and its message,
// come first.
const TIMEOUT_MARGIN_MS = 1000;

function run(bin, args, cwd, env, { timeout, signal } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    live.add(child);
    const out = [];
    const err = [];
    let stopped = null; // why the helper stopped the binary, if it did
    let killTimer = null;
    const stop = (why) => {
      if (stopped !== null) {
        return;
      }
      stopped = why;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    const timer = timeout === undefined ? null : setTimeout(() => stop('timeout'), timeout + TIMEOUT_MARGIN_MS);
    const onAbort = () => stop('abort');
    if (signal) {
      signal.addEventListener('abort', onAbort, { once: true });
    }
    const done = () => {
      live.delete(child);
      clearTimeout(timer);
      clearTimeout(killTimer);
      if (signal) {
        signal.removeEventListener('abort', onAbort);
      }
    };
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', (e) => {
      done();
      reject(new Error(`mcp-surface: running ${bin}: ${e.message}`));
    });
    child.on('close', (code, sig) => {
      done();
      resolve({
        code,
        signal: sig,
        stopped,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

async function checkSurface(options) {
  const { command, snapshot, cwd, env, update, timeout, signal } = options || {};
  const argv = typeof command === 'string' ? [command] : command;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) {
    throw new TypeError('checkSurface: command must be the server command as an array of strings, e.g. ["node", "dist/index.js"]');
  }
  if (typeof snapshot !== 'string' || snapshot === '') {
    throw new TypeError('checkSurface: snapshot must name the committed snapshot file, e.g. "mcp-surface.json"');
  }
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new TypeError('checkSurface: timeout must be a positive number of milliseconds, e.g. 4000 under a 5000 ms test timeout');
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError("checkSurface: signal must be an AbortSignal, e.g. vitest's test context signal");
  }
  signal?.throwIfAborted();
  // The snapshot is named from this process's working directory, like
  // every fs path, and so is the binary's; the server runs in cwd.
  const file = path.resolve(snapshot);
  const rel = path.relative(process.cwd(), file);
  const shownFile = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
  const doUpdate = update === true || (update === undefined && updateFromEnv());
  // The timeout bounds the server's start and each of its answers in the
  // binary itself, so that it fails with its own message (what the server
  // did not do in time) before the test runner's generic one.
  const limits = timeout === undefined ? [] : ['--startup-timeout', `${Math.ceil(timeout)}ms`, '--request-timeout', `${Math.ceil(timeout)}ms`];
  const args = ['snapshot'];
  if (!doUpdate) {
    args.push('--check', '--update-hint', updateHint());
  }
  args.push(...limits, '-o', shownFile);
  if (cwd !== undefined) {
    args.push('--cwd', String(cwd));
  }
  args.push('--', ...argv);
  const childEnv = { ...process.env, ...(env || {}) };
  // The update request is for this helper; the binary is told by its arguments.
  delete childEnv[UPDATE_ENV];
  if (!childEnv[CLI_ENV]) {
    childEnv[CLI_ENV] = 'npx mcp-surface';
  }
  const res = await run(binaryPath(), args, undefined, childEnv, { timeout, signal });
  const shown = argv.join(' ');
  if (res.stopped === 'abort') {
    throw new Error(`mcp-surface was stopped: the check of ${shown} was aborted (${signal.reason}):\n${res.stderr.trimEnd()}`, { cause: signal.reason });
  }
  if (res.stopped === 'timeout' && res.code !== 1 && res.code !== 0) {
    throw new Error(`mcp-surface did not finish within the timeout of ${timeout} ms and was stopped (${shown}):\n${res.stderr.trimEnd()}`);
  }
  if (res.code === 0) {
    if (doUpdate) {
      // What it rewrote, as `mcp-surface snapshot` says it.
      process.stderr.write(res.stderr);
    }
    return { snapshot: file, updated: doUpdate };
  }
  if (res.code === 1 && !doUpdate) {
    // The binary's brief: the verdict first, a line per change, the remedy.
    const err = new Error(res.stdout.trimEnd());
    err.name = 'SurfaceChangedError';
    throw err;
  }
  const why = res.signal ? `ended by ${res.signal}` : `exit ${res.code}`;
  throw new Error(`mcp-surface could not ${doUpdate ? 'write' : 'check'} the snapshot of ${shown} (${why}):\n${(res.stderr || res.stdout).trimEnd()}`);
}

module.exports = { checkSurface, binaryPath, UPDATE_ENV };
