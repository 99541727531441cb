'use strict';
// checkSurface: the surface guard inside a JavaScript test, as
// pkg/surfacetest is inside `go test`. It runs `mcp-surface snapshot --check`
// (or, to update, `mcp-surface snapshot`) on the server command, so the
// comparison and its wording are the CLI's own.

const { spawn } = require('node:child_process');
const path = require('node:path');
const { binaryPath } = require('./binary.js');

const UPDATE_ENV = 'MCP_SURFACE_UPDATE';

function updateFromEnv() {
  const v = (process.env[UPDATE_ENV] || '').toLowerCase();
  return v === '1' || v === 'true';
}

function run(bin, args, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', (e) => reject(new Error(`mcp-surface: running ${bin}: ${e.message}`)));
    child.on('close', (code, signal) => resolve({
      code,
      signal,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8'),
    }));
  });
}

async function checkSurface(options) {
  const { command, snapshot, cwd, env, update } = options || {};
  const argv = typeof command === 'string' ? [command] : command;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) {
    throw new TypeError('checkSurface: command must be the server command as an array of strings, e.g. ["node", "dist/index.js"]');
  }
  if (typeof snapshot !== 'string' || snapshot === '') {
    throw new TypeError('checkSurface: snapshot must name the committed snapshot file, e.g. "mcp-surface.json"');
  }
  // The snapshot is named from this process's working directory, like
  // every fs path; the server runs in cwd.
  const file = path.resolve(snapshot);
  const doUpdate = update === true || (update === undefined && updateFromEnv());
  const args = doUpdate ? ['snapshot', '-o', file, '--', ...argv] : ['snapshot', '--check', '-o', file, '--', ...argv];
  const childEnv = { ...process.env, ...(env || {}) };
  // The update request is for this helper; the binary is told by its arguments.
  delete childEnv[UPDATE_ENV];
  const res = await run(binaryPath(), args, cwd, childEnv);
  const shown = argv.join(' ');
  if (res.code === 0) {
    return { snapshot: file, updated: doUpdate };
  }
  if (res.code === 1 && !doUpdate) {
    const diff = res.stdout.trimEnd();
    throw new Error(`${diff}\n\nIf the change is intended, run the test with update: true or ${UPDATE_ENV}=1 and commit ${snapshot}.`);
  }
  const why = res.signal ? `ended by ${res.signal}` : `exit ${res.code}`;
  throw new Error(`mcp-surface could not ${doUpdate ? 'write' : 'check'} the snapshot of ${shown} (${why}):\n${(res.stderr || res.stdout).trimEnd()}`);
}

module.exports = { checkSurface, binaryPath, UPDATE_ENV };
