"""What `fairdeal play` keeps of a seat so that the player can come back to it (`fairdeal play --resume ID`):
the service, the player's token, the seat, the client seed and nonce (to reveal if the table is still waiting for
it), and the receipts of its moves. One file per seat, in the state folder (FAIRDEAL_STATE, else
$XDG_STATE_HOME/fairdeal, else ~/.local/state/fairdeal), readable by its owner only: the token is the seat.

And the names of saved transcripts: one per seat or watcher, never overwriting another's file in the folder.
"""

from __future__ import annotations

import glob
import json
import os
from typing import Any


def state_dir() -> str:
    if os.environ.get("FAIRDEAL_STATE"):
        return os.environ["FAIRDEAL_STATE"]
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "fairdeal")


def seat_file(game_id: str, seat: int) -> str:
    return os.path.join(state_dir(), f"seat-{game_id}-{seat}.json")


def save(state: dict[str, Any]) -> str:
    """Write the seat's state (atomically: a crash leaves the old file or the new one)."""
    path = seat_file(state["game_id"], state["seat"])
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(state, f)
    os.replace(tmp, path)
    return path


def load(game_id: str, seat: int | None = None) -> dict[str, Any]:
    """The saved state of one's seat at `game_id`; ValueError saying what is missing."""
    if seat is not None:
        paths = [seat_file(game_id, seat)] if os.path.exists(seat_file(game_id, seat)) else []
    else:
        paths = sorted(glob.glob(os.path.join(glob.escape(state_dir()), f"seat-{glob.escape(game_id)}-*.json")))
    if not paths:
        raise ValueError(
            f"No seat at table {game_id} is saved in {state_dir()} (it is written when you sit down "
            f"with fairdeal play; FAIRDEAL_STATE names another folder)."
        )
    if len(paths) > 1:
        seats = ", ".join(p.rsplit("-", 1)[1].split(".")[0] for p in paths)
        raise ValueError(f"You have seats {seats} at table {game_id}: say which with --seat.")
    with open(paths[0], encoding="utf-8") as f:
        return json.load(f)


def forget(game_id: str, seat: int) -> None:
    try:
        os.remove(seat_file(game_id, seat))
    except FileNotFoundError:
        pass


def transcript_name(game_id: str, seat: int | None, folder: str = ".") -> str:
    """The default file for a game's transcript: fairdeal-game-<id>-seat<N>.json for a seat,
    fairdeal-game-<id>-watch.json for a watcher; with -2, -3 ... added when that name is taken by another file,
    so the host, a joiner and watchers in one folder each keep their own."""
    stem = f"fairdeal-game-{game_id}-" + (f"seat{seat}" if seat is not None else "watch")
    path, n = os.path.join(folder, stem + ".json"), 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(folder, f"{stem}-{n}.json")
    return path
