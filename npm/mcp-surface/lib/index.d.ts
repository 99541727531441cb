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
  /**
   * Milliseconds the server is given to start and to answer each request: passed to the binary
   * (`--startup-timeout`, `--request-timeout`), which then fails with its own message naming what
   * the server did not do in time. Set it a little under the test runner's timeout (4000 under
   * vitest's and jest's 5000 ms default), so that this message comes first. The helper stops the
   * binary itself if it is still running a second past it.
   */
  timeout?: number;
  /**
   * Aborting it stops the binary (SIGTERM, then SIGKILL), and with it the server, and rejects.
   * vitest's test context has one (`test('…', ({ signal }) => …)`), aborted when the test times out.
   */
  signal?: AbortSignal;
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
