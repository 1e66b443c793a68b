"""Leak audit: over many random matches, no seat or spectator is told anything it may not know.

Independent of the server's own redaction (games.dominoes.audience.view): from the referee's log in
the store the test works out, for each audience at each seq, which tiles are hidden from it
(in a hand: every tile of the set not yet played and not in its own hand, so other seats'
tiles and partnership-9's face-down pool; nothing between hands, as hand_ended shows them
all). Then it reads the raw text of EVERY frame that audience's connections received (event,
ack, joined, resumed, watching, tables, error, advice), before the client parses or drops
any, and looks for a hidden tile's name in it. Belief frames name every unseen tile by
design, so they are checked instead against the belief computed from the audience's own
redacted log, and their tile keys against the hidden set.

Seats also probe (play a tile they do not hold: the refusal must read the same whether the
tile is in another hand or in the pool), ask for advice at tables that offer it, list the
tables, and one seat per some tables drops its connection and resumes.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection

from clients.python import DominoClient, SeatView, ServerError
from clients.python.player import STALE_VIEW_CODES
from games.dominoes.belief_partnership import Belief
from games.dominoes.events import Event, TilePlayed, parse_event
from games.dominoes.game import MODEL as BELIEF_MODEL
from games.dominoes.tiles import parse_tile
from games.dominoes.variants import get_variant
from protocol import BeliefMessage, EventMessage, parse_server
from protocol.frames import belief_frame
from server.app import DominoServer
from tests.server.helpers import collect_until

MATCHES = 16
SEATS = ("S", "W", "N", "E")
TILE_NAME = re.compile(r"(?<![\w.-])(\d{1,2})-(\d{1,2})(?![\w.-])")
"""A tile's name in either order, not part of a longer token (a date, a number, a token)."""


class Recording(ClientConnection):
    """A client connection that keeps every text frame it receives and sends, raw."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.received: list[str] = []
        self.sent: list[str] = []

    async def recv(self, decode: bool | None = None) -> Any:  # type: ignore[override]
        frame = await super().recv(decode)
        self.received.append(frame if isinstance(frame, str) else frame.decode())
        return frame

    async def send(self, message: Any, *, text: bool | None = None) -> None:  # type: ignore[override]
        if isinstance(message, str | bytes):
            self.sent.append(message if isinstance(message, str) else message.decode())
        await super().send(message, text=text)


@dataclass
class Habits:
    """What a table's seats do besides playing."""

    advice: bool = False
    resume_seat: str | None = None


@dataclass
class Probe:
    audience: str
    seq: int
    tile: str
    code: str
    message: str


@dataclass
class Match:
    table_id: str
    connections: dict[str, list[Recording]] = field(
        default_factory=lambda: {a: [] for a in (*SEATS, "spectator")})
    probes: list[Probe] = field(default_factory=list)
    advice: Counter[str] = field(default_factory=Counter)
    advice_busy: int = 0


async def _connect(url: str, match: Match | None, audience: str) -> DominoClient:
    client = await DominoClient.connect(url, create_connection=Recording)
    if match is not None:
        match.connections[audience].append(client.ws)  # type: ignore[arg-type]
    return client


def _unknown_to(view: SeatView) -> list[str]:
    """Tiles this seat cannot see: not its own, not played in this hand."""
    state = view.state
    assert state is not None and state.hand is not None
    own = {str(t) for t in state.hand.hands[view.seat] or ()}
    hand = state.hand.number
    played = {e.tile for e in view.events if isinstance(e, TilePlayed) and e.hand == hand}
    return sorted({str(t) for t in state.variant.tiles} - own - played)


async def _seat(url: str, match: Match, client: DominoClient, seat: str, token: str,
                rng: random.Random, habits: Habits) -> None:
    """Play random legal moves to the end, with the table's habits on the side."""
    table_id = match.table_id
    view = SeatView(seat)
    acted_at, advised_hand, listed, moved = -1, 0, False, 0
    while not view.finished:
        message = await client.next_message(30)
        if isinstance(message, EventMessage):
            view.apply(message)
        if not (view.my_turn() and view.last_seq > acted_at and client.feed.empty()):
            continue
        acted_at = view.last_seq
        if not listed:
            await client.list_tables()
            listed = True
        if rng.random() < 0.15:  # a tile it does not hold: refused, and must say no more
            tile = rng.choice(_unknown_to(view))
            try:
                await client.play(table_id, tile)
                raise AssertionError(f"{seat} played {tile}, which it does not hold")
            except ServerError as error:
                match.probes.append(Probe(seat, view.last_seq, tile, error.code,
                                          error.message))
        hand = view.state.hand.number  # type: ignore[union-attr]
        if habits.advice and advised_hand != hand and view.moves():
            advised_hand = hand
            try:
                await client.advise(table_id)
                match.advice[seat] += 1
            except ServerError as error:
                # busy: the shared advice workers were taken (a typed refusal under load)
                assert error.code in STALE_VIEW_CODES | {"no_choice", "rate_limited", "busy"}, \
                    error
                match.advice_busy += error.code == "busy"
        move = view.random_move(rng)
        try:
            if move is None:
                await client.pass_(table_id)
            else:
                await client.play(table_id, str(move.tile), move.end)
        except ServerError as error:
            assert error.code in STALE_VIEW_CODES, error
            continue
        moved += 1
        if seat == habits.resume_seat and moved == 2:  # drop the connection, come back
            await client.close()
            client = await _connect(url, match, seat)
            await client.resume(table_id, token, after_seq=view.last_seq)
    await client.close()


async def _one_match(url: str, rng: random.Random, habits: Habits) -> Match:
    creator = await _connect(url, None, "")
    table_id = await creator.create_table(target=rng.choice([10, 25]),
                                          variant=rng.choice(["partnership-6",
                                                              "partnership-9"]),
                                          advice=habits.advice)
    await creator.close()
    match = Match(table_id)
    clients = {seat: await _connect(url, match, seat) for seat in SEATS}
    watcher = await _connect(url, match, "spectator")
    await watcher.watch(table_id)
    tokens = {seat: (await client.join(table_id, seat, f"player {seat}")).token
              for seat, client in clients.items()}
    await asyncio.gather(*(
        _seat(url, match, clients[seat], seat, tokens[seat], random.Random(rng.random()),
              habits)
        for seat in SEATS))
    await collect_until(
        watcher, lambda m: isinstance(m, EventMessage) and m.event["type"] == "match_ended",
        timeout=30)
    await watcher.close()
    return match


# -- the audit: everything below uses the referee's log, not the server's redaction --------


def _redacted(event: Event, audience: str) -> dict[str, Any]:
    """The event as `audience` may see it, written out here rather than imported."""
    data = event.model_dump(mode="json")
    if data["type"] == "hand_dealt" and data["seat"] != audience:
        data["tiles"] = None
    if data["type"] == "hand_started":
        data["seed"] = None
    return data


def _hidden(referee: list[Event], audience: str) -> list[frozenset[str]]:
    """Index s: the tiles hidden from `audience` once it has seen events 1..s."""
    match_started = referee[0]
    assert match_started.type == "match_started"
    tiles = {str(t) for t in get_variant(match_started.variant).tiles}  # type: ignore[union-attr]
    hidden: list[frozenset[str]] = [frozenset()]
    live, played, own = False, set[str](), set[str]()
    for event in referee:
        if event.type == "hand_started":
            live, played, own = True, set(), set()
        elif event.type == "hand_dealt" and event.seat == audience:  # type: ignore[union-attr]
            own = set(event.tiles or ())  # type: ignore[union-attr]
        elif event.type == "tile_played":
            played.add(event.tile)  # type: ignore[union-attr]
        elif event.type in ("hand_ended", "match_ended"):
            live = False
        hidden.append(frozenset(tiles - played - own) if live else frozenset())
    return hidden


def _named(text: str) -> set[str]:
    return {str(parse_tile(f"{a}-{b}")) for a, b in TILE_NAME.findall(text)}


class Audit:
    """One audience's frames at one table against what it may know."""

    def __init__(self, table_id: str, referee: list[Event], audience: str) -> None:
        self.table_id = table_id
        self.audience = audience
        self.redacted = [_redacted(e, audience) for e in referee]
        self.hidden = _hidden(referee, audience)
        self.belief = Belief(audience)
        self.folded = 0
        self.counts: Counter[str] = Counter()

    def expected_belief(self, seq: int) -> BeliefMessage:
        """The belief from this audience's redacted log alone, up to `seq`."""
        if seq < self.folded:  # an older belief re-sent after a resume
            self.belief, self.folded = Belief(self.audience), 0
        while self.folded < seq:
            self.belief.apply(parse_event(self.redacted[self.folded]))
            self.folded += 1
        frame = belief_frame(self.table_id, {**self.belief.snapshot().to_json_dict(),
                                             "model": BELIEF_MODEL})
        return parse_server(frame)  # type: ignore[return-value]

    def check(self, connection: Recording) -> set[int]:
        """Every frame this connection received; returns the event seqs among them."""
        echoes: dict[Any, set[str]] = {}  # command id -> tiles the command itself named
        for text in connection.sent:
            sent = json.loads(text)
            echoes[sent.get("id")] = _named(text)
        seen_seq, seqs = 0, set()
        for text in connection.received:
            frame = json.loads(text)
            kind = frame["type"]
            self.counts[kind] += 1
            where = (self.audience, kind, text[:300])
            if frame.get("table_id") is not None and kind != "tables":
                assert frame["table_id"] == self.table_id, where
            if kind == "belief":
                self._check_belief(frame, text)
                continue
            if kind == "event":
                seq = seen_seq = frame["seq"]
                seqs.add(seq)
                assert frame["event"] == self.redacted[seq - 1], where
            else:  # a reply: about the seq it names, else the last event before it
                seq = frame.get("seq", frame.get("last_seq", seen_seq))
            allowed = echoes.get(frame.get("id"), set()) if kind == "error" else set()
            leaked = (_named(text) & self.hidden[seq]) - allowed
            assert not leaked, (*where, sorted(leaked))
        return seqs

    def _check_belief(self, frame: dict[str, Any], text: str) -> None:
        seq = frame["seq"]
        assert frame["observer"] == self.audience, text[:200]
        message = parse_server(text)
        assert message == self.expected_belief(seq), (self.audience, seq)
        # its tile keys are what the audience cannot see: no more (a leak would hide one
        # it holds in secret), no fewer (a missing one would say where it is)
        keys = {tile for tiles in frame["marginals"].values() for tile in tiles}
        if keys:
            assert keys == self.hidden[seq], (self.audience, seq, keys ^ self.hidden[seq])
        else:
            assert frame["status"] != "live", (self.audience, seq)


def _check_probes(matches: list[Match], kinds: dict[tuple[str, str, int], str]) -> None:
    """A refused tile the seat does not hold is refused in the same words wherever it is."""
    wording: dict[str, set[str]] = {}
    for match in matches:
        for probe in match.probes:
            if probe.code != "illegal_move":
                assert probe.code in STALE_VIEW_CODES, probe
                continue
            said = probe.message.replace(probe.tile, "<tile>")
            wording.setdefault(probe.audience, set()).add(said)
    for seat, said in wording.items():
        assert len(said) == 1, (seat, said)
    where = Counter(kinds.values())
    assert where["other hand"] >= 10 and where["pool"] >= 3, where


def _where(referee: list[Event], seq: int, tile: str) -> str:
    """Where a probed tile was at `seq`: in another seat's hand, or face down in the pool."""
    hand = None
    for event in referee[:seq]:
        if event.type == "hand_started":
            hand = event.hand  # type: ignore[union-attr]
    for event in referee:
        if event.type == "hand_dealt" and event.hand == hand and tile in (event.tiles or ()):  # type: ignore[union-attr]
            return "other hand"
    return "pool"


async def test_no_message_reveals_a_hidden_tile(server: DominoServer, url: str) -> None:
    rng = random.Random(20240611)
    habits = [Habits(advice=i % 4 == 0, resume_seat="E" if i % 4 == 1 else None)
              for i in range(MATCHES)]
    matches = await asyncio.gather(*(_one_match(url, random.Random(rng.random()), h)
                                     for h in habits))
    assert server.store is not None
    counts: Counter[str] = Counter()
    kinds: dict[tuple[str, str, int], str] = {}
    for match in matches:
        referee = [parse_event(e.payload) for e in server.store.store.read(match.table_id)]
        assert referee[-1].type == "match_ended"
        audits = {audience: Audit(match.table_id, referee, audience)
                  for audience in match.connections}
        for audience, connections in match.connections.items():
            seqs: set[int] = set()
            for connection in connections:
                seqs |= audits[audience].check(connection)
            assert seqs == set(range(1, len(referee) + 1)), audience
            counts += audits[audience].counts
        for probe in match.probes:  # the seat's own idea of unseen is the audit's
            assert probe.tile in audits[probe.audience].hidden[probe.seq], probe
            kinds[(match.table_id, probe.tile, probe.seq)] = _where(referee, probe.seq,
                                                                     probe.tile)
    _check_probes(matches, kinds)
    # every kind of frame was audited, in numbers
    assert counts["event"] > MATCHES * 5 * 25 and counts["belief"] > MATCHES * 5 * 10, counts
    for kind in ("ack", "joined", "resumed", "watching", "tables", "error", "advice"):
        assert counts[kind] > 0, (kind, counts)
    answered = sum(sum(m.advice.values()) for m in matches)
    assert answered >= 1 and answered + sum(m.advice_busy for m in matches) >= 4
