#!/usr/bin/env node
'use strict';
// The mcp-surface command: runs the platform's binary with the same
// arguments, standard streams and environment, forwards the signals that
// are sent to this process alone, ends the binary when its own parent
// exits, and exits as the binary did (its exit code, or the signal that
// ended it).

const { spawn } = require('node:child_process');
const { binaryPath } = require('../lib/binary.js');

let bin;
try {
  bin = binaryPath();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
}

// The commands the binary suggests are said as this project runs it.
const env = process.env.MCP_SURFACE_CLI ? process.env : { ...process.env, MCP_SURFACE_CLI: 'npx mcp-surface' };
const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', env });

// A Ctrl-C at a terminal reaches the whole foreground process group, the
// binary included: forwarding it as well would be a second interrupt, which
// the binary takes as "stop at once". So SIGINT is forwarded only when no
// terminal could have sent it; SIGTERM and SIGHUP, sent to one process, are
// always forwarded.
const fromTerminal = process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY;
const forwarded = ['SIGTERM', 'SIGHUP', 'SIGINT'];
const handlers = new Map();
for (const sig of forwarded) {
  const handler = () => {
    if (sig === 'SIGINT' && fromTerminal) {
      return;
    }
    child.kill(sig);
  };
  handlers.set(sig, handler);
  process.on(sig, handler);
}

// The binary stops when its own parent (this process) exits, but this
// process would outlive its parent: node has no parent-death event, so
// the parent is looked at a few times a second, and its exit is passed on
// as SIGTERM (the binary stops its server and exits; the exit below
// follows). process.ppid is read anew each time: it changes to the
// reaper's pid once the parent is gone.
const parent = process.ppid;
const watch = parent > 1 ? setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(watch);
    child.kill('SIGTERM');
  }
}, 200) : null;
watch?.unref();

child.on('error', (err) => {
  process.stderr.write(`mcp-surface: running ${bin}: ${err.message}\n`);
  process.exit(2);
});

child.on('exit', (code, signal) => {
  clearInterval(watch);
  for (const [sig, handler] of handlers) {
    process.removeListener(sig, handler);
  }
  if (signal) {
    // Die of the same signal, so that the caller sees what the binary saw.
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 2);
});
