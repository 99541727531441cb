"""mcp-surface for Python: the mcp-surface binary and a test helper.

``check_surface`` holds a live MCP server's advertised surface (tools, prompts,
resources, resource templates, capabilities, instructions) against the committed
snapshot, as ``pkg/surfacetest`` does inside ``go test``: it runs
``mcp-surface snapshot --check`` on the server command, so the comparison and
its wording are the command line's own::

    from mcp_surface import check_surface

    def test_surface():
        check_surface(["python", "-m", "my_server"], "mcp-surface.json")

A difference raises ``AssertionError`` with the diff engine's verdict on its
first line (what pytest's short summary shows), one line per change with the
call that now fails, and how to rewrite the snapshot.
``update=True``, ``MCP_SURFACE_UPDATE=1`` in the environment, or pytest's
``--mcp-surface-update`` (the plugin this package registers) rewrites the
snapshot instead. Only the standard library is used.
"""

import os
import subprocess
import sys

__all__ = ["check_surface", "binary_path", "SurfaceError", "UPDATE_ENV"]

#: The environment variable that, set to 1 (or true), rewrites snapshots.
UPDATE_ENV = "MCP_SURFACE_UPDATE"

#: How a reader of this project runs mcp-surface, for the commands the binary
#: suggests (set by the launchers and check_surface).
CLI_ENV = "MCP_SURFACE_CLI"

# Set by the pytest plugin's --mcp-surface-update.
_update_requested = False
# Set by the pytest plugin while pytest runs.
_under_pytest = False


class SurfaceError(RuntimeError):
    """mcp-surface could not do its job: the server did not start, a list it
    advertises failed, the snapshot could not be read or written."""


def binary_path():
    """The path of the mcp-surface binary this package runs.

    ``MCP_SURFACE_BINARY`` in the environment overrides the one in the wheel.
    """
    override = os.environ.get("MCP_SURFACE_BINARY")
    if override:
        return override
    exe = "mcp-surface.exe" if sys.platform == "win32" else "mcp-surface"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", exe)
    if not os.path.isfile(path):
        raise SurfaceError(
            "mcp-surface: %s is missing: this installation of mcp_surface has no binary; "
            "install the wheel for this platform, or set MCP_SURFACE_BINARY to an mcp-surface binary" % path
        )
    return path


def _update_from_env():
    return os.environ.get(UPDATE_ENV, "").strip().lower() in ("1", "true")


# How long the binary is given to stop after SIGTERM before SIGKILL (its
# watchdog then ends the server), and how long past the timeout given to
# the binary the helper waits before it stops the binary itself: the
# binary's own timeout, and its message, come first.
_KILL_GRACE = 2.0
_TIMEOUT_MARGIN = 1.0


def _run(args, cwd, env, timeout):
    """Run the binary; returns (returncode, stdout, stderr, stopped), where
    stopped says whether the helper had to stop it past the timeout. Any
    exception on the way (a KeyboardInterrupt, pytest-timeout's) stops it
    first, and the server with it."""
    proc = subprocess.Popen(
        args, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        encoding="utf-8", errors="replace",
    )
    stopped = False
    try:
        try:
            out, err = proc.communicate(timeout=None if timeout is None else timeout + _TIMEOUT_MARGIN)
        except subprocess.TimeoutExpired:
            stopped = True
            proc.terminate()
            try:
                out, err = proc.communicate(timeout=_KILL_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
    except BaseException:
        # SIGTERM first: the binary stops its server; SIGKILL if it lingers.
        proc.terminate()
        try:
            proc.wait(timeout=_KILL_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        raise
    return proc.returncode, out, err, stopped


def check_surface(command, snapshot, cwd=None, env=None, update=False, timeout=None):
    """Capture the server ``command`` and compare its surface with ``snapshot``.

    ``command`` is the server command, run directly without a shell, as a list
    of strings (a string is one program without arguments). ``snapshot`` is
    named from this process's working directory; the server runs in ``cwd``
    with this process's environment plus ``env``. Returns the snapshot's
    absolute path when the surface equals it, or once it is rewritten
    (``update=True``, ``MCP_SURFACE_UPDATE=1`` or pytest's
    ``--mcp-surface-update``). Raises ``AssertionError`` with the changes
    when they differ (or the snapshot does not exist), and ``SurfaceError``
    when mcp-surface could not capture the server.

    ``timeout`` (seconds) bounds the server's start and each of its answers
    in the binary (``--startup-timeout``, ``--request-timeout``), which then
    fails with its own message naming what the server did not do in time;
    keep it under a test timeout (pytest-timeout's) so that this message
    comes first. The helper stops the binary itself a second past it, and
    whenever the call is interrupted (Ctrl-C, a test timeout's exception).
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    argv = [command] if isinstance(command, str) else list(command)
    if not argv or not all(isinstance(a, str) for a in argv):
        raise TypeError('check_surface: command must be the server command as a list of strings, e.g. ["python", "server.py"]')
    if not isinstance(snapshot, (str, os.PathLike)) or not os.fspath(snapshot):
        raise TypeError('check_surface: snapshot must name the committed snapshot file, e.g. "mcp-surface.json"')
    path = os.path.abspath(os.fspath(snapshot))
    # The binary runs here, so the snapshot is named as the reader names it;
    # the server runs in cwd.
    shown = os.path.relpath(path)
    if shown.startswith(os.pardir):
        shown = path
    do_update = bool(update) or _update_requested or _update_from_env()
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0):
        raise TypeError("check_surface: timeout must be a positive number of seconds, e.g. 10")
    args = [binary_path(), "snapshot"]
    if not do_update:
        args += ["--check", "--update-hint", _update_hint()]
    if timeout is not None:
        ms = "%dms" % max(1, int(timeout * 1000))
        args += ["--startup-timeout", ms, "--request-timeout", ms]
    args += ["-o", shown]
    if cwd is not None:
        args += ["--cwd", os.fspath(cwd)]
    args += ["--"] + argv
    child_env = dict(os.environ)
    child_env.update(env or {})
    # The request to update is for this helper; the binary is told by its arguments.
    child_env.pop(UPDATE_ENV, None)
    child_env.setdefault(CLI_ENV, "%s -m mcp_surface" % _python())
    code, out, err, stopped = _run(args, None, child_env, timeout)
    res = subprocess.CompletedProcess(args, code, out, err)
    if stopped:
        raise SurfaceError(
            "mcp-surface did not finish within the timeout of %gs and was stopped (%s):\n%s"
            % (timeout, " ".join(argv), (res.stderr or "").rstrip())
        )
    if res.returncode == 0:
        if do_update:
            # What it rewrote, as ``mcp-surface snapshot`` says it.
            sys.stderr.write(res.stderr)
        return path
    if res.returncode == 1 and not do_update:
        # The binary's brief: the verdict first, a line per change, the remedy.
        raise AssertionError(res.stdout.rstrip())
    why = "ended by signal %d" % -res.returncode if res.returncode < 0 else "exit %d" % res.returncode
    raise SurfaceError(
        "mcp-surface could not %s the snapshot of %s (%s):\n%s"
        % ("write" if do_update else "check", " ".join(argv), why, (res.stderr or res.stdout).rstrip())
    )


def _update_hint():
    """What rewrites the snapshot, in the terms of the runner at hand."""
    if _under_pytest:
        return "run `pytest --mcp-surface-update` (or %s=1 pytest)" % UPDATE_ENV
    return "rerun with %s=1 (or update=True)" % UPDATE_ENV


def _python():
    """The interpreter as the reader would type it: ``python`` when that is
    the one on PATH (an active virtual environment), else its path."""
    import shutil

    exe = sys.executable or "python"
    found = shutil.which("python")
    if found and os.path.realpath(found) == os.path.realpath(exe):
        return "python"
    return exe
