/** Options of {@link checkSurface}. */
export interface CheckSurfaceOptions {
  /** The server command, run directly without a shell: `["node", "dist/index.js"]`. A string is one program with no arguments. */
  command: string[] | string;
  /** The committed snapshot file, named from the test process's working directory (not from `cwd`). */
  snapshot: string;
  /** The directory the server runs in; the test process's by default. */
  cwd?: string;
  /** Variables added to (or replacing those of) the test process's environment for the server. */
  env?: Record<string, string>;
  /** Rewrite the snapshot instead of comparing with it. Unset: `MCP_SURFACE_UPDATE=1` (or `true`) in the environment does the same. */
  update?: boolean;
}

/** What {@link checkSurface} resolves with. */
export interface CheckSurfaceResult {
  /** The snapshot file's absolute path. */
  snapshot: string;
  /** Whether the snapshot was rewritten. */
  updated: boolean;
}

/**
 * Starts the server, captures its surface (tools, prompts, resources, resource
 * templates, capabilities, instructions) and compares it with the snapshot.
 * Resolves when they are equal (or, updating, once the snapshot is written and
 * what changed is printed to stderr); rejects with an `Error` (named
 * `SurfaceChangedError`) when they differ, whose message is the diff engine's
 * verdict on its first line ("2 tools break existing clients: mcp-surface.json
 * no longer matches the server"), one line per change with the call that now
 * fails, and how to rewrite the snapshot; with the tool's own error when the
 * server could not be captured.
 */
export function checkSurface(options: CheckSurfaceOptions): Promise<CheckSurfaceResult>;

/** The path of the mcp-surface binary this package runs (`MCP_SURFACE_BINARY` overrides it). */
export function binaryPath(): string;

/** The environment variable that, set to 1, makes {@link checkSurface} rewrite snapshots. */
export const UPDATE_ENV: 'MCP_SURFACE_UPDATE';
