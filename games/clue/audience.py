"""Redaction per audience: the only gate hidden information passes through.

- `dealt`: each seat sees its own hand, every hand size and the seed's commitment; the
  spectator sees sizes and the commitment only; the envelope and the seed (`secret`) are the
  referee's until `match_ended` opens the envelope and reveals the seed.
- `card_shown`: the card is seen by the suggester it was shown to and by the refuter who
  chose it (their own card); everyone else learns only that a card was shown.
- `accused`: a wrong accusation shows the envelope to the accuser alone (as in the boxed
  game, where the accuser looks in the envelope and puts the cards back).
"""

from __future__ import annotations

from games.clue.events import Accused, CardShown, ClueEvent, Dealt
from games.interface import REFEREE


def view(event: ClueEvent, audience: str) -> ClueEvent:
    if audience == REFEREE:
        return event
    if isinstance(event, Dealt):
        hands = {s: (h if s == audience else None) for s, h in event.hands.items()}
        return event.model_copy(update={"hands": hands, "envelope": None, "secret": None})
    if isinstance(event, CardShown) and audience not in (event.seat, event.to):
        return event.model_copy(update={"card": None})
    if isinstance(event, Accused) and not event.correct and audience != event.seat:
        return event.model_copy(update={"envelope": None})
    return event
