"""Interoperability: the service's checkpoint, tiles, entry bundles, inclusion and consistency proofs and a
witness's cosignature, checked by Go's golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog (code nobody on
this project wrote), built offline from Debian's golang-go and golang-golang-x-mod-dev (scripts/test installs
them). The Go program is tests/interop/tlogcheck/main.go. In CI (CI=true) a missing Go is a failure."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys

import pytest

from fairdeal.core import checkpoint, keys, note, witness
from tests.service.client import Api
from tests.service.http import Http, serving

HERE = os.path.dirname(os.path.abspath(__file__))
GOCODE = "/usr/share/gocode"
ORIGIN = "interop.test/fairdeal-log"
FILLER = 300  # leaves before the service starts: one full level-0 tile, a partial one, a level-1 tile


@pytest.fixture(scope="module")
def tlogcheck(tmp_path_factory):
    go = shutil.which("go")
    missing = None
    if go is None:
        missing = "Go is not installed (apt-get install golang-go golang-golang-x-mod-dev; scripts/test does it)"
    elif not os.path.isdir(f"{GOCODE}/src/golang.org/x/mod/sumdb/tlog"):
        missing = "golang.org/x/mod is not installed (apt-get install golang-golang-x-mod-dev)"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(missing)
        pytest.skip(missing)
    out = tmp_path_factory.mktemp("go")
    # GOPATH mode: the packages come from Debian's /usr/share/gocode, nothing from the network; Go's own build
    # cache (default: ~/.cache/go-build) makes a second run's build quick
    env = dict(os.environ, GO111MODULE="off", GOPATH=f"{out}:{GOCODE}", GOFLAGS="", GOPROXY="off", CGO_ENABLED="0")
    binary = out / "tlogcheck"
    subprocess.run(
        [go, "build", "-o", str(binary), "."], cwd=os.path.join(HERE, "tlogcheck"), env=env, check=True, timeout=600
    )
    return str(binary)


def _fill(data_dir, n: int) -> None:
    """n well-formed commitment leaves, written straight into the embedded store before the service starts."""
    from fairdeal.core.canonical import canonical_json
    from fairdeal.service.store.sqlite import SqliteStore

    os.makedirs(data_dir, exist_ok=True)
    store = SqliteStore(str(data_dir / "fairdeal.sqlite3"))
    for i in range(n):
        h = hashlib.sha256(str(i).encode()).hexdigest()
        leaf = canonical_json(
            {
                "type": "commitment",
                "game_id": f"filler-{i:04d}",
                "commit": h,
                "commitment": h,
                "time": "2026-11-29T17:00:00Z",
            }
        ).decode()
        assert store.append_with_leaf(f"filler-{i:04d}", 0, "{}", 0.0, "commitment", leaf).status == "ok"
    store.close()


def _run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)


def _verify_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "fairdeal.verify.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_go_checks_the_checkpoint_tiles_proofs_and_a_cosignature(tlogcheck, tmp_path):
    data = tmp_path / "data"
    _fill(data, FILLER)
    skey, wvkey = witness.new_key("witness.test/w1")
    keyfile = tmp_path / "witness.key"
    keyfile.write_text(skey + "\n")
    with serving(data, None, workers=1, FAIRDEAL_LOG_ORIGIN=ORIGIN, FAIRDEAL_LOG_WITNESSES=wvkey) as base:
        api = Api(Http(base))
        key = api.get("/keys").get_json()["current"]
        vkey = checkpoint.vkey(ORIGIN, key)

        first = _run(tlogcheck, "-url", base, "-vkey", vkey)
        assert first.returncode == 0, first.stdout + first.stderr
        assert first.stdout.startswith(f"OK origin={ORIGIN} size={FILLER} entries={FILLER} ")
        text, _ = note.parse(api.get("/log/checkpoint").get_data())
        old = checkpoint.parse_text(text)

        # the log grows by a real game's commitment; the witness cosigns, Go checks the cosignature and the
        # consistency from the first checkpoint, by the service's proof and by its own from the tiles
        table = api.table(api.player(), rule_set="spades")
        assert "checkpoint" in api.get(f"/log/games/{table['id']}").get_json()
        cosigned = _verify_cli("log", base, "--key", key, "--witness", str(keyfile))
        assert cosigned.returncode == 0, cosigned.stdout + cosigned.stderr
        assert "WITNESS cosigned" in cosigned.stdout and "the service keeps it" in cosigned.stdout
        second = _run(
            tlogcheck,
            "-url",
            base,
            "-vkey",
            vkey,
            "-witness",
            wvkey,
            "-old-size",
            str(old.size),
            "-old-root",
            note.b64(old.root),
        )
        assert second.returncode == 0, second.stdout + second.stderr
        assert f"size={FILLER + 1} " in second.stdout
        assert "cosignatures=1" in second.stdout and f"consistent-from={FILLER}" in second.stdout

        # and Go refuses what it should: another log key, a root the log never had, a witness that did not sign
        stranger = checkpoint.vkey(ORIGIN, keys.public_key_text(keys.generate_private_key()))
        _, other_vkey = witness.new_key("witness.test/w2")
        for args, says in (
            (["-vkey", stranger], "checkpoint does not verify"),
            (["-vkey", vkey, "-old-size", str(old.size), "-old-root", note.b64(bytes(32))], "consistency proof"),
            (["-vkey", vkey, "-witness", other_vkey], "checkpoint"),
        ):
            bad = _run(tlogcheck, "-url", base, *args)
            assert bad.returncode == 1 and bad.stdout.startswith("FAIL") and says in bad.stdout, bad.stdout


def test_go_verifies_the_documented_checkpoint_and_cosignature_vectors(tlogcheck, tmp_path):
    from tests.verifier.vectors import vectors_of

    (v,) = vectors_of("log.md", "checkpoint")
    (cv,) = vectors_of("log.md", "cosignature")
    cosigned = tmp_path / "cosigned.note"
    cosigned.write_text(cv["cosigned"], encoding="utf-8")
    got = _run(tlogcheck, "-note", str(cosigned), "-vkey", v["vkey"], "-witness", cv["vkey"])
    assert got.returncode == 0, got.stdout + got.stderr
    assert got.stdout.strip() == f"OK origin={v['origin']} size={v['size']} root={v['root']} cosignatures=1"
    bare = tmp_path / "bare.note"
    bare.write_text(v["note"], encoding="utf-8")
    assert _run(tlogcheck, "-note", str(bare), "-vkey", v["vkey"]).returncode == 0
    missing = _run(tlogcheck, "-note", str(bare), "-vkey", v["vkey"], "-witness", cv["vkey"])
    assert missing.returncode == 1 and "no valid cosignature" in missing.stdout
    changed = tmp_path / "changed.note"
    changed.write_text(v["note"].replace("\n2\n", "\n3\n"), encoding="utf-8")
    bad = _run(tlogcheck, "-note", str(changed), "-vkey", v["vkey"])
    assert bad.returncode == 1 and "does not verify" in bad.stdout
