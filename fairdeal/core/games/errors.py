"""The refusals every engine makes: each a GameError with a stable `code` (the problem `type`) and the sentence a
player needs (see fairdeal.core.games.base)."""

from __future__ import annotations


class GameError(Exception):
    """Base of every refusal the engine makes. `code` is a stable slug (used as the problem `type`)."""

    code = "game-error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadSettings(GameError):
    """A rule set, table size or setting that is not offered."""

    code = "bad-settings"


class MalformedMove(GameError):
    """A move that is not well formed: its JSON form is not its kind's one form, or its fields do not fit its kind
    (see MOVE_FORMS), or it is no Move at all."""

    code = "malformed-move"


class IllegalMove(GameError):
    """A well-formed move that the rules do not allow now; the message is the sentence for the player."""

    code = "illegal-move"


class NotYourTurn(IllegalMove):
    code = "not-your-turn"


class NoSuchSeat(IllegalMove):
    """A seat that is not a seat of this table (the service never sends one: seats come from the players)."""

    code = "no-such-seat"


class GameOver(IllegalMove):
    code = "game-over"
