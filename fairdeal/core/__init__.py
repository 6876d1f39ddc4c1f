"""fairdeal's shared core: the fairness protocol, transcripts (written, read, verified), the rules engines and the
transparency log, with no I/O of its own beyond reading what it is handed (docs/design.md).

The names below are its public face, for the service, the client and anyone checking games in their own
program; each is re-exported from the module that defines it (as Flask's package does), so
`from fairdeal.core import verify_transcript` and `from fairdeal.core.checks import verify_transcript` are the same
function. The modules stay importable on their own for everything else.

    verify a game       verify_transcript(data, key=...) -> Report; load_transcript(path or URL); render_report
    read one            parse_transcript, read_transcript, TranscriptError
    write one           new_transcript, make_commit, make_seat, make_seating, make_start, add_seating, add_start,
                        append_move, finish, sign_record; LiveGame (the game its records say, through the engine)
    the rules           make_rules, rules_from_json, rules_class, available; Rules, Move and the game errors
    seeds and keys      new_server_seed, commitment, game_seed, PROTOCOL; generate_private_key, public_key_text,
                        load_public_key, private_key_from_hex, key_id; KeySet
"""

from fairdeal.core.canonical import canonical_json as canonical_json
from fairdeal.core.checks import verify_transcript as verify_transcript
from fairdeal.core.fairness import PROTOCOL as PROTOCOL
from fairdeal.core.fairness import commitment as commitment
from fairdeal.core.fairness import game_seed as game_seed
from fairdeal.core.fairness import new_server_seed as new_server_seed
from fairdeal.core.fetch import InputError as InputError
from fairdeal.core.fetch import load_transcript as load_transcript
from fairdeal.core.games import available as available
from fairdeal.core.games import make_rules as make_rules
from fairdeal.core.games import rules_class as rules_class
from fairdeal.core.games import rules_from_json as rules_from_json
from fairdeal.core.games.base import BadSettings as BadSettings
from fairdeal.core.games.base import GameError as GameError
from fairdeal.core.games.base import GameOver as GameOver
from fairdeal.core.games.base import IllegalMove as IllegalMove
from fairdeal.core.games.base import MalformedMove as MalformedMove
from fairdeal.core.games.base import Move as Move
from fairdeal.core.games.base import NotYourTurn as NotYourTurn
from fairdeal.core.games.base import Rules as Rules
from fairdeal.core.keys import generate_private_key as generate_private_key
from fairdeal.core.keys import key_id as key_id
from fairdeal.core.keys import load_public_key as load_public_key
from fairdeal.core.keys import private_key_from_hex as private_key_from_hex
from fairdeal.core.keys import public_key_text as public_key_text
from fairdeal.core.keysets import KeySet as KeySet
from fairdeal.core.reader import TranscriptError as TranscriptError
from fairdeal.core.reader import parse_transcript as parse_transcript
from fairdeal.core.reader import read_transcript as read_transcript
from fairdeal.core.replay import LiveGame as LiveGame
from fairdeal.core.replay import ReplayError as ReplayError
from fairdeal.core.reporttext import render_report as render_report
from fairdeal.core.results import CHECK_IDS as CHECK_IDS
from fairdeal.core.results import Check as Check
from fairdeal.core.results import Report as Report
from fairdeal.core.writer import add_seating as add_seating
from fairdeal.core.writer import add_start as add_start
from fairdeal.core.writer import append_move as append_move
from fairdeal.core.writer import finish as finish
from fairdeal.core.writer import make_commit as make_commit
from fairdeal.core.writer import make_seat as make_seat
from fairdeal.core.writer import make_seating as make_seating
from fairdeal.core.writer import make_start as make_start
from fairdeal.core.writer import new_transcript as new_transcript
from fairdeal.core.writer import sign_record as sign_record

__all__ = [
    "CHECK_IDS",
    "PROTOCOL",
    "BadSettings",
    "Check",
    "GameError",
    "GameOver",
    "IllegalMove",
    "InputError",
    "KeySet",
    "LiveGame",
    "MalformedMove",
    "Move",
    "NotYourTurn",
    "Report",
    "ReplayError",
    "Rules",
    "TranscriptError",
    "add_seating",
    "add_start",
    "append_move",
    "available",
    "canonical_json",
    "commitment",
    "finish",
    "game_seed",
    "generate_private_key",
    "key_id",
    "load_public_key",
    "load_transcript",
    "make_commit",
    "make_rules",
    "make_seat",
    "make_seating",
    "make_start",
    "new_server_seed",
    "new_transcript",
    "parse_transcript",
    "private_key_from_hex",
    "public_key_text",
    "read_transcript",
    "render_report",
    "rules_class",
    "rules_from_json",
    "sign_record",
    "verify_transcript",
]
