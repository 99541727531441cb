"""``mcp-surface`` and ``python -m mcp_surface``: run the binary in the wheel
with the same arguments; on POSIX the binary replaces this process, so its exit
code and the signals sent to it are the binary's own, and so is its parent:
the binary stops when the process that started this one exits (on Linux)."""

import os
import subprocess
import sys

from mcp_surface import SurfaceError, binary_path


def main():
    try:
        path = binary_path()
    except SurfaceError as err:
        sys.stderr.write("%s\n" % err)
        return 2
    args = [path] + sys.argv[1:]
    # The commands the binary suggests are said as the reader ran this one.
    env = dict(os.environ)
    if not env.get("MCP_SURFACE_CLI"):
        run_as_module = os.path.basename(sys.argv[0]) == "__main__.py"
        env["MCP_SURFACE_CLI"] = "python -m mcp_surface" if run_as_module else "mcp-surface"
    if sys.platform != "win32":
        try:
            os.execve(path, args, env)
        except OSError as err:
            sys.stderr.write("mcp-surface: running %s: %s\n" % (path, err))
            return 2
    # Windows has no exec: wait for the binary and exit as it did. Ctrl-C
    # reaches the whole console, the binary included, which stops cleanly.
    child = subprocess.Popen(args, env=env)
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:
            continue


if __name__ == "__main__":
    sys.exit(main())
