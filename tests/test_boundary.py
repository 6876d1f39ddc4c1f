"""The core/service boundary (docs/design.md): the shared core (fairdeal.core) and the verify command
(fairdeal.verify) are installable alone (click + cryptography) and touch no network, clock, database or global
random state; the core never imports the command line above it."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "fairdeal" / "core"
VERIFY = ROOT / "fairdeal" / "verify"
VERIFIER = (CORE, VERIFY)
STDLIB = set(sys.stdlib_module_names)
THIRD_PARTY_ALLOWED = {"click", "cryptography"}
# Standard modules the verifier must not use: randomness outside the seed, clocks, databases, sockets.
FORBIDDEN = {"random", "sqlite3", "socket", "http", "asyncio", "time"}
# The command line may fetch a finished game's transcript when the user passes its URL, and show a progress bar.
ALLOWED_ONLY_IN = {
    "urllib": {"verify/cli.py", "core/fetch.py"},
    "time": {"verify/common.py", "verify/audit.py", "verify/progress.py", "verify/auditpool.py"},  # CPU reporting
}


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield _top(alias.name), node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield _top(node.module), node.lineno


def _top(module: str) -> str:
    """The import's top package; inside our own package, its sub-package (fairdeal.core, fairdeal.service)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "fairdeal" and len(parts) > 1 else parts[0]


def _verifier_files():
    return [path for folder in VERIFIER for path in folder.rglob("*.py")]


def test_verifier_imports_only_stdlib_click_and_cryptography():
    bad = []
    for path in _verifier_files():
        own = (
            ("fairdeal.core", "__future__")
            if CORE in path.parents
            else ("fairdeal.core", "fairdeal.verify", "__future__")
        )
        for module, line in _imports(path):
            if module in own:
                continue
            allowed_files = ALLOWED_ONLY_IN.get(module)
            if allowed_files is not None and f"{path.parent.name}/{path.name}" in allowed_files:
                continue
            if (
                module in FORBIDDEN
                or (module not in STDLIB and module not in THIRD_PARTY_ALLOWED)
                or allowed_files is not None
            ):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


def test_verifier_never_reads_the_clock_or_os_randomness_outside_seed_generation():
    bad = []
    for path in _verifier_files():
        text = path.read_text()
        for needle in ("datetime.now", "datetime.utcnow", "os.urandom", "secrets."):
            if needle in text and not (needle in ("secrets.", "os.urandom") and path.name == "fairness.py"):
                bad.append(f"{path.relative_to(ROOT)} uses {needle}")
    assert not bad, "\n".join(bad)


def test_verifier_cli_imports_without_the_service_extras():
    # Block the service's dependencies: the verifier must still import and print its help.
    code = (
        "import sys\n"
        "for m in ('flask', 'redis', 'gunicorn', 'werkzeug'): sys.modules[m] = None\n"
        "from fairdeal.verify.cli import main\n"
        "sys.argv = ['fairdeal-verify', '--help']\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Usage" in out.stdout


def test_pyproject_base_install_depends_only_on_click_and_cryptography():
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {d.split(">")[0].split("=")[0].split("[")[0].strip().lower() for d in meta["dependencies"]}
    assert names == {"click", "cryptography"}
    assert {"flask", "redis", "gunicorn"} <= {
        d.split(">")[0].split("[")[0].strip().lower() for d in meta["optional-dependencies"]["service"]
    }
    assert meta["scripts"]["fairdeal-verify"] == "fairdeal.verify.cli:main"
    assert meta["scripts"]["fairdeal"] == "fairdeal.cli:main"
