"""The pytest plugin of mcp_surface (registered under the ``pytest11`` entry
point): ``pytest --mcp-surface-update`` makes every ``check_surface`` of the
run rewrite its snapshot instead of comparing with it."""

import mcp_surface


def pytest_addoption(parser):
    group = parser.getgroup("mcp-surface")
    group.addoption(
        "--mcp-surface-update",
        action="store_true",
        default=False,
        dest="mcp_surface_update",
        help="rewrite the snapshots of mcp_surface.check_surface instead of comparing with them (or set MCP_SURFACE_UPDATE=1)",
    )


def pytest_configure(config):
    mcp_surface._update_requested = bool(config.getoption("mcp_surface_update"))
    mcp_surface._under_pytest = True


def pytest_unconfigure(config):
    mcp_surface._update_requested = False
    mcp_surface._under_pytest = False
