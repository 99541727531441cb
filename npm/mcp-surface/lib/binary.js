'use strict';
// Where the platform's mcp-surface binary is: in the @mcp-surface/cli-<os>-<arch>
// package npm installed beside this one (an optional dependency whose os and
// cpu fields match this machine), or where MCP_SURFACE_BINARY says.

const fs = require('node:fs');
const path = require('node:path');

// The platforms the release publishes a package for (scripts/pack.sh).
const platforms = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

function binaryPath() {
  const override = process.env.MCP_SURFACE_BINARY;
  if (override) {
    return override;
  }
  const platform = `${process.platform}-${process.arch}`;
  const pkg = `@mcp-surface/cli-${platform}`;
  const exe = process.platform === 'win32' ? 'mcp-surface.exe' : 'mcp-surface';
  if (!platforms.includes(platform)) {
    throw new Error(`mcp-surface: no binary is published for ${platform} (there are ${platforms.join(', ')}); ` +
      'build one with `go install github.com/mcp-surface/mcp-surface@latest` and set MCP_SURFACE_BINARY to its path');
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`mcp-surface: the package ${pkg}, which holds the binary for this platform, is not installed; ` +
      'it is an optional dependency of mcp-surface: reinstall without --no-optional (or --omit=optional), ' +
      'or set MCP_SURFACE_BINARY to an mcp-surface binary');
  }
  const bin = path.join(dir, 'bin', exe);
  if (process.platform !== 'win32') {
    // A package manager that drops the mode bits leaves the binary
    // unexecutable: restore them once.
    try {
      fs.accessSync(bin, fs.constants.X_OK);
    } catch {
      try {
        fs.chmodSync(bin, 0o755);
      } catch {
        // spawn reports the problem with the path.
      }
    }
  }
  return bin;
}

module.exports = { binaryPath, platforms };
