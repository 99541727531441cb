"""Write the platform wheel of mcp_surface with the standard library alone.

Called by scripts/pack.sh; no setuptools, no network. The wheel follows the
binary distribution format (PyPA): the package files, the binary under
mcp_surface/bin/, and mcp_surface-<version>.dist-info/ with METADATA, WHEEL,
entry_points.txt (the console script and the pytest plugin), LICENSE and
RECORD. Entries are sorted and dated from SOURCE_DATE_EPOCH, so the same
inputs give the same bytes.

    python3 build_wheel.py --version 1.2.3 --platform linux/amd64 \
        --binary path/to/mcp-surface --license LICENSE --out DIR
"""

import argparse
import base64
import hashlib
import os
import re
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

# GOOS/GOARCH to the wheel's platform tags. The binaries are static
# (CGO_ENABLED=0), so one Linux wheel serves glibc and musl alike; Go 1.26
# needs macOS 12.
PLATFORM_TAGS = {
    "linux/amd64": ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "musllinux_1_1_x86_64"],
    "linux/arm64": ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"],
    "darwin/amd64": ["macosx_12_0_x86_64"],
    "darwin/arm64": ["macosx_12_0_arm64"],
    "windows/amd64": ["win_amd64"],
    "windows/arm64": ["win_arm64"],
}

SUMMARY = "Guard the advertised surface of an MCP server: capture, validate, snapshot and diff tools/list; a pytest helper"


def pep440(version):
    """The Python spelling of a release version: 1.2.3, 1.3.0-rc.1 -> 1.3.0rc1,
    0.0.0-dev.gabc1234 (an untagged checkout) -> 0.0.0.dev0+gabc1234."""
    v = version[1:] if version.startswith("v") else version
    m = re.fullmatch(r"(\d+\.\d+\.\d+)(?:-(alpha|beta|rc)\.?(\d+))?", v)
    if m:
        pre = {"alpha": "a", "beta": "b", "rc": "rc"}.get(m.group(2) or "", "")
        return m.group(1) + (pre + m.group(3) if pre else "")
    m = re.fullmatch(r"(\d+\.\d+\.\d+)-dev\.([0-9a-z]+)", v)
    if m:
        return "%s.dev0+%s" % (m.group(1), m.group(2))
    raise SystemExit(
        "build_wheel: version %r has no Python form: use 1.2.3, 1.2.3-rc.1 (alpha, beta, rc) or 0.0.0-dev.<commit>" % version
    )


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def main():
    ap = argparse.ArgumentParser(description="write the mcp_surface wheel for one platform")
    ap.add_argument("--version", required=True)
    ap.add_argument("--platform", required=True, help="GOOS/GOARCH: " + ", ".join(sorted(PLATFORM_TAGS)))
    ap.add_argument("--binary", required=True)
    ap.add_argument("--license", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.platform not in PLATFORM_TAGS:
        raise SystemExit("build_wheel: no wheel tag for %s: the platforms are %s" % (a.platform, ", ".join(sorted(PLATFORM_TAGS))))

    version = pep440(a.version)
    tags = PLATFORM_TAGS[a.platform]
    name = "mcp_surface-%s-py3-none-%s.whl" % (version, ".".join(tags))
    info = "mcp_surface-%s.dist-info" % version
    exe = "mcp-surface.exe" if a.platform.startswith("windows/") else "mcp-surface"

    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    metadata = "\n".join([
        "Metadata-Version: 2.1",
        "Name: mcp-surface",
        "Version: " + version,
        "Summary: " + SUMMARY,
        "Home-page: https://github.com/mcp-surface/mcp-surface",
        "Project-URL: Source, https://github.com/mcp-surface/mcp-surface",
        "License: MIT",
        "Keywords: mcp,model-context-protocol,snapshot,breaking-changes,pytest",
        "Classifier: Framework :: Pytest",
        "Classifier: License :: OSI Approved :: MIT License",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Topic :: Software Development :: Testing",
        "Requires-Python: >=3.8",
        "Description-Content-Type: text/markdown",
        "",
        readme,
    ])
    wheel = "\n".join(["Wheel-Version: 1.0", "Generator: mcp-surface scripts/pack.sh", "Root-Is-Purelib: false"]
                      + ["Tag: py3-none-" + t for t in tags]) + "\n"
    entry_points = "[console_scripts]\nmcp-surface = mcp_surface.__main__:main\n\n[pytest11]\nmcp_surface = mcp_surface.pytest_plugin\n"

    files = []  # (archive name, bytes, executable)
    pkg = os.path.join(HERE, "mcp_surface")
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py") or fn == "py.typed":
            with open(os.path.join(pkg, fn), "rb") as f:
                files.append(("mcp_surface/" + fn, f.read(), False))
    with open(a.binary, "rb") as f:
        files.append(("mcp_surface/bin/" + exe, f.read(), True))
    with open(a.license, "rb") as f:
        files.append((info + "/LICENSE", f.read(), False))
    files.append((info + "/METADATA", metadata.encode("utf-8"), False))
    files.append((info + "/WHEEL", wheel.encode("utf-8"), False))
    files.append((info + "/entry_points.txt", entry_points.encode("utf-8"), False))
    record = "".join("%s,%s,%d\n" % (n, record_hash(d), len(d)) for n, d, _ in files) + info + "/RECORD,,\n"
    files.append((info + "/RECORD", record.encode("utf-8"), False))

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    stamp = time.gmtime(max(epoch, 315532800))[:6]  # zip dates start in 1980
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, name)
    with zipfile.ZipFile(path + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
        for n, d, executable in files:
            zi = zipfile.ZipInfo(n, date_time=stamp)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = (0o100755 if executable else 0o100644) << 16
            z.writestr(zi, d)
    os.replace(path + ".tmp", path)
    print(path)


if __name__ == "__main__":
    sys.exit(main())
