"""The audit of `view`: what each audience receives against what it may see, worked out
from the referee's events alone (not from the game's own redaction rules).

An audience's view of an event must be the referee's event with some values blanked (None):
nothing added, nothing changed. A value some audience does not get is private; then:
- the spectator gets no private value, and every value the spectator gets every seat gets;
- a private value reaches only the seats the event names: the seat whose key it sits under
  (a hand in a map of hands), else the seats the event's own fields name (the seat that was
  dealt or drew, the player who showed a card and the one it was shown to);
- a secret (a value of 32 hex digits or more that the spectator does not get: a deal's
  seed) reaches nobody, in any field of any event, until an event reveals it to every
  audience at once, and then only when nobody is to act (between deals, or at the end);
- privacy does not depend on whose the value is: a value private in one event is private in
  every event of its type with the same flags (true/false fields) where it sits at the same
  place, whichever seat the event names (a leak of one seat's hand to all is found so);
- something besides secrets is private (a game of hidden items that shows them all leaks).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.interface import SPECTATOR, Game

SECRET = re.compile(r"^[0-9a-f]{32,}$")
Path = tuple[str, ...]


@dataclass
class Findings:
    """Everything the audit found wrong, by kind (empty lists: nothing hidden leaks)."""

    problems: list[str] = field(default_factory=list)
    private_values: int = 0
    private_items: int = 0
    secrets: int = 0
    reveals: int = 0

    def add(self, problem: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(problem)


def _blanked(referee: Any, seen: Any, path: Path) -> Iterator[tuple[Path, bool]]:
    """(path, received) for each value of the referee's event; raises AssertionError where the
    view is not the referee's event with values blanked."""
    if seen is None and referee is not None:
        yield path, False
        return
    if isinstance(referee, Mapping) and isinstance(seen, Mapping):
        assert set(referee) == set(seen), (path, sorted(set(referee) ^ set(seen)))
        for key in referee:
            yield from _blanked(referee[key], seen[key], (*path, str(key)))
        return
    assert seen == referee, (path, referee, seen)
    yield path, True


def _at(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def secrets_in(value: Any) -> Iterator[str]:
    """Every secret-looking value (32 hex digits or more) in a JSON value."""
    if isinstance(value, str) and SECRET.match(value):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from secrets_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from secrets_in(item)


def audit(game: Game, events: list[Any], seats: tuple[str, ...]) -> Findings:
    """Audit every audience's view of every event of one referee log."""
    found = Findings()
    audiences = (*seats, SPECTATOR)
    state: Any = None
    secrets: dict[str, int] = {}  # secret -> seq of the event that carries it
    texts: dict[str, list[str]] = {a: [] for a in audiences}
    shapes: dict[tuple[Any, ...], set[bool]] = {}  # where a value sits -> private or not
    for event in events:
        referee = game.event_to_dict(event)
        views = {a: game.event_to_dict(game.view(event, a)) for a in audiences}
        for a, data in views.items():
            texts[a].append(json.dumps(data))
        received: dict[Path, set[str]] = {}
        for a, data in views.items():
            try:
                for path, got in _blanked(referee, data, ()):
                    if got:
                        received.setdefault(path, set()).add(a)
                    else:
                        received.setdefault(path, set())
            except AssertionError as error:
                found.add(f"seq {event.seq} {event.type}: {a}'s view is not a redaction: {error}")
        named = {v for k, v in referee.items() if isinstance(v, str) and v in seats}
        flags = tuple(sorted((k, v) for k, v in referee.items() if isinstance(v, bool)))
        for path, who in received.items():
            value = _at(referee, path)
            if value is not None:
                place = tuple("<seat>" if k in seats else k for k in path)
                shapes.setdefault((event.type, flags, place), set()).add(who != set(audiences))
            if who == set(audiences):
                continue  # public
            found.private_values += 1
            found.private_items += not any(True for _ in secrets_in(value))
            if SPECTATOR in who:
                found.add(f"seq {event.seq} {event.type} {'.'.join(path)}: the spectator gets "
                          f"it but not {sorted(set(audiences) - who)}")
            owners = [k for k in path if k in seats]
            entitled = {owners[-1]} if owners else named
            if not who <= entitled:
                found.add(f"seq {event.seq} {event.type} {'.'.join(path)}: reaches "
                          f"{sorted(who - entitled)}, who may not see it")
            for secret in secrets_in(_at(referee, path)):
                if SPECTATOR not in who:
                    secrets.setdefault(secret, event.seq)
        state = game.evolve(state, event)
        for secret, since in secrets.items():
            holders = [a for a in audiences if secret in texts[a][-1]]
            if not holders:
                continue
            if set(holders) != set(audiences):
                found.add(f"seq {event.seq} {event.type}: the secret of seq {since} reaches "
                          f"{holders} alone")
            elif game.to_act(state):
                found.add(f"seq {event.seq} {event.type}: the secret of seq {since} is "
                          f"revealed while {game.to_act(state)} may still act")
            else:
                found.reveals += 1
    found.secrets = len(secrets)
    for (kind, _flags, place), private in shapes.items():
        if len(private) > 1:
            found.add(f"{kind} {'.'.join(place)}: private for some seats, public for others")
    if not found.private_items:
        found.add("nothing but secrets is private: every hidden item is shown to all")
    return found
