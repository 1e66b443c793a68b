"""Prove any audience's log of any game fair and legal: the deals from their committed seeds,
every move by the rules.

The log is rebuilt as the referee wrote it, run by run, with the game's own pure rules:
- a deal (the referee's step) is re-dealt from the seed its deal revealed later in the log,
  after checking that sha256(seed) is the commitment published before it;
- a referee step that commits nothing draws no fresh randomness (the committed seed fixed it:
  Uno's reshuffles) and is re-decided as it is;
- a move is the command the event names (`Dealing.command_for`), else any legal move of a
  seat to act whose events this audience sees exactly as logged (a card shown to others).
Every event the rules give must be, through the game's `view`, exactly the logged event. A
deal whose seed is not revealed yet (a hand in play) ends the proof there: the rest of the
log is only folded. Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.fairness.dealing import Dealing, dealing_of
from games.fairness.scheme import Scheme
from games.fairness.shuffle import commitment
from games.interface import JSON, REFEREE, SPECTATOR, Game, LogProblem, RuleViolation, match_seats

NO_SECRET = "0" * 64
"""What a referee step that commits nothing is given: its randomness comes from a committed
seed, so the game must not use this."""


class Unprovable(Exception):
    """A log that cannot be proved fair at all: its game declares no dealing, or its deals
    were made before seeds were committed (only the referee's own log can be re-decided)."""


@dataclass(frozen=True)
class Proof:
    """What `prove` showed, for a person to read."""

    audience: str
    scheme: str
    deals: int
    """Deals re-dealt from a seed that hashes to the commitment published before them."""
    derived: int
    """Referee steps fixed by a committed seed without one of their own (Uno's reshuffles)."""
    uncommitted: int
    """Deals re-dealt from the seed a referee's log carries, in a scheme that committed none."""
    upto: int
    """Every event up to this seq was re-decided."""
    open_at: int | None
    """The seq of a deal whose seed is not revealed yet: from there the log is only folded."""
    over: bool
    state: Any = field(default=None, repr=False, compare=False)
    """The referee's state rebuilt up to `upto` (None before match_started)."""


@dataclass(frozen=True)
class _At:
    """A point of the rebuilt referee log: the next logged event and the state before it."""

    index: int
    state: Any
    deals: int = 0
    derived: int = 0
    uncommitted: int = 0


@dataclass(frozen=True)
class _Open:
    """The deal at `index` has no revealed seed: the proof stops there."""

    at: _At


def audience_of(game: Game, events: Sequence[Any]) -> str:
    """Whose log this is: the audience whose `view` leaves every event as it is. The
    spectator is tried first (its log, which hides every hand, is also unchanged by a seat's
    view), the referee last (its view changes nothing)."""
    logged = [_dict(game, e) for e in events]
    seats = match_seats(game, events[0]) if events else ()
    for audience in (SPECTATOR, *seats):
        if all(_dict(game, game.view(e, audience)) == d
               for e, d in zip(events, logged, strict=True)):
            return audience
    return REFEREE


def prove(game: Game, events: Sequence[Any], audience: str | None = None) -> Proof:
    """Prove `events` (one audience's whole log, or its start) fair and legal; LogProblem
    at the first event that is not, Unprovable for a log no seed can prove."""
    dealing = dealing_of(game)
    if dealing is None:
        raise Unprovable(f"{game.name} declares no fair dealing")
    if not events:
        raise LogProblem(1, "an empty log")
    try:
        scheme = dealing.scheme(events[0])
    except ValueError as error:
        raise LogProblem(events[0].seq, str(error)) from None
    who = audience or audience_of(game, events)
    return _Prover(game, dealing, scheme, who, events).run()


class _Prover:
    def __init__(self, game: Game, dealing: Dealing, scheme: Scheme, audience: str,
                 events: Sequence[Any]) -> None:
        self.game, self.dealing, self.scheme, self.audience = game, dealing, scheme, audience
        self.events = events
        self.logged = [_dict(game, e) for e in events]
        self.seeds: dict[str, tuple[str, int]] = {}
        for event in events:
            carried = dealing.seed(event)
            if carried is not None:
                self.seeds.setdefault(carried.deal, (carried.seed, event.seq))

    def run(self) -> Proof:
        """Depth first over the ways the log can be rebuilt (one, unless a view hides a move
        whose choices lead to different states); the deepest failure is the one reported."""
        stack = [_At(0, None)]
        deepest: LogProblem | None = None
        while stack:
            at = stack.pop()
            if at.index == len(self.events):
                return self._proof(at, None, self.game.is_over(at.state))
            try:
                after = self._next(at)
            except LogProblem as problem:
                if deepest is None or problem.seq > deepest.seq:
                    deepest = problem
                continue
            if isinstance(after, _Open):
                return self._folded(after.at)
            stack.extend(reversed(after))
        assert deepest is not None
        raise deepest

    def _proof(self, at: _At, open_at: int | None, over: bool) -> Proof:
        return Proof(self.audience, self.scheme.name, at.deals, at.derived, at.uncommitted,
                     at.index, open_at, over, at.state)

    def _folded(self, at: _At) -> Proof:
        """The log from an unrevealed deal on: folded as this audience saw it."""
        state: Any = None
        for position, event in enumerate(self.events, start=1):
            if event.seq != position:
                raise LogProblem(event.seq, f"seq {event.seq} where {position} belongs")
            try:
                state = self.game.evolve(state, event)
            except (ValueError, KeyError) as error:
                raise LogProblem(event.seq, f"unreadable: {error}") from None
        opened = self.events[at.index].seq
        if self.game.is_over(state):
            raise LogProblem(opened, "the match is over, but the seed committed here was "
                                     "never revealed")
        return self._proof(at, opened, False)

    # --- one run ------------------------------------------------------------------------
    def _next(self, at: _At) -> list[_At] | _Open:
        event = self.events[at.index]
        if event.seq != at.index + 1:
            raise LogProblem(event.seq, f"seq {event.seq} where {at.index + 1} belongs")
        game, state = self.game, at.state
        if state is None:
            command = self.dealing.command_for(event)
            if command is None:
                raise LogProblem(event.seq, "a match log starts with match_started")
            return [self._run(at, command, "the rules")]
        if game.is_over(state):
            raise LogProblem(event.seq, f"{event.type} after the match ended")
        if not game.to_act(state):
            return self._referee(at)
        command = self.dealing.command_for(event)
        if command is not None:
            return [self._run(at, command, "the rules")]
        return self._search(at)

    def _referee(self, at: _At) -> list[_At] | _Open:
        """The referee's step: a deal from its revealed, committed seed."""
        event = self.events[at.index]
        committed = self.dealing.commitment(event)
        carried = self.dealing.seed(event)
        if committed is not None:
            revealed = self.seeds.get(committed.deal)
            if revealed is None:
                return _Open(at)
            seed, seen_at = revealed
            if commitment(seed) != committed.sha256:
                where = "this event's seed" if seen_at == event.seq \
                    else f"the seed revealed at seq {seen_at}"
                raise LogProblem(event.seq, f"{committed.deal}: the commitment "
                                            f"{committed.sha256[:16]}… is not sha256 of {where}: "
                                            "the deal was not committed to this seed")
            tally = {"deals": at.deals + 1}
            why = f"the rules, dealing from the seed revealed at seq {seen_at}"
        elif carried is not None:
            seed, tally, why = carried.seed, {"uncommitted": at.uncommitted + 1}, "the rules"
        elif self.scheme.commits:
            seed, tally = NO_SECRET, {"derived": at.derived + 1}
            why = "the rules, from the seed committed before"
        else:
            raise Unprovable(
                f"this {self.game.name} log's deals were made with its old scheme "
                f"({self.scheme.name}), whose seeds were never committed: only the referee's "
                "log, which holds them, can be checked")
        step = self.game.referee_step(at.state, seed)
        if step is None:
            raise LogProblem(event.seq, f"{event.type}: the referee has no step to take here")
        done = self._run(at, step, why)
        return [_At(done.index, done.state, **{**_tally(at), **tally})]

    def _search(self, at: _At) -> list[_At]:
        """A move this audience does not see whole: every legal move it could have been."""
        found: list[_At] = []
        for seat in self.game.to_act(at.state):
            for move in self.game.legal_moves(at.state, seat):
                try:
                    after = self._run(at, move, "the rules")
                except LogProblem:
                    continue
                if all(after.state != other.state for other in found):
                    found.append(after)
        if not found:
            event = self.events[at.index]
            seats = ", ".join(self.game.to_act(at.state))
            raise LogProblem(event.seq, f"{event.type}: no legal move of {seats} gives this "
                                        f"event as {self.audience} sees it")
        return found

    def _run(self, at: _At, command: Any, why: str) -> _At:
        """Decide `command`; each event it gives, seen by the audience, must be the logged one."""
        event = self.events[at.index]
        try:
            decided = self.game.decide(at.state, command)
        except RuleViolation as error:
            raise LogProblem(event.seq, f"{error.code}: {error.message}") from None
        except (ValueError, KeyError) as error:
            raise LogProblem(event.seq, f"unreadable: {error}") from None
        state = at.state
        for position, made in enumerate(decided, start=at.index):
            if position >= len(self.events):
                raise LogProblem(position + 1, f"the log stops before {made.type}")
            stamped = made.model_copy(update={"seq": position + 1})
            seen = _dict(self.game, self.game.view(stamped, self.audience))
            if seen != self.logged[position]:
                raise LogProblem(position + 1, _difference(seen, self.logged[position], why))
            state = self.game.evolve(state, stamped)
        return _At(at.index + len(decided), state, **_tally(at))


def _tally(at: _At) -> dict[str, int]:
    return {"deals": at.deals, "derived": at.derived, "uncommitted": at.uncommitted}


def _dict(game: Game, event: Any) -> JSON:
    return game.event_to_dict(event)


def _difference(rules: JSON, log: JSON, why: str) -> str:
    """Which fields of an event differ from what the rules give: short enough to read."""
    if rules.get("type") != log.get("type"):
        return f"{why} give {rules.get('type')} here, the log has {log.get('type')}"
    fields = sorted(k for k in rules.keys() | log.keys() if rules.get(k) != log.get(k))
    parts = [f"{k}: {why} give {rules.get(k)!r}, the log has {log.get(k)!r}" for k in fields]
    return f"{log['type']} differs in " + "; ".join(parts)
