"""How holders and DP time grow along long batch histories (figures for docs/inference.md).

    .venv/bin/python -m clients.bench.batches

Two simulated games played at random by their matching rule, one observer (seat S, whose
draws are known): an Uno-like game (72 cards, two copies of each colour x 1-9, a seat with
nothing fitting passes and draws one) and a four-seat dominoes draw game (28 tiles, 5 each,
draw one at a time until a tile fits). Rows are measured, never asserted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

from inference.batches import Holdings
from inference.counting import count_key
from inference.items import Copy, copies

SEATS = ("S", "W", "N", "E")


@dataclass(frozen=True)
class Row:
    turn: int
    batches: int
    holders: int
    classes: int
    layout_ms: float
    dp_ms: float


def measure(h: Holdings, turn: int) -> Row:
    """One layout and one uncached solve of its key (the cache would hide the cost)."""
    start = time.perf_counter()
    layout = h.layout()
    mid = time.perf_counter()
    key = layout.position.key()
    if key is not None:
        count_key.__wrapped__(key)
    end = time.perf_counter()
    return Row(turn, len(h.batches), len(layout.position.holders),
               len(key[0]) if key else 0, (mid - start) * 1e3, (end - mid) * 1e3)


def uno_like(seed: int, turns: int = 100, every: int = 10) -> Iterator[tuple[Holdings, Row]]:
    """An Uno-like history, measured every `every` turns."""
    rng = random.Random(seed)
    items = copies({f"{c}{v}": 2 for c in "rgby" for v in range(1, 10)})
    deck = items[:]
    rng.shuffle(deck)
    hands: dict[str, list[Copy[str]]] = {s: [] for s in SEATS}
    h: Holdings[Copy[str]] = Holdings(items, SEATS)
    for s in SEATS:
        batch = [deck.pop() for _ in range(7)]
        hands[s] += batch
        h.deal(s, 7, batch if s == "S" else None)
    top = deck.pop()  # turned face up to start the pile
    h.set_aside("pile", 1)
    h.reveal("pile", top)

    def fits(card: Copy[str], top: Copy[str]) -> bool:
        return card.kind[0] == top.kind[0] or card.kind[1:] == top.kind[1:]

    for turn in range(1, turns + 1):
        if len(deck) < 2:
            return
        s = SEATS[turn % 4]
        playable = [t for t in hands[s] if fits(t, top)]
        if playable:
            top = rng.choice(playable)
            hands[s].remove(top)
            h.play(s, top)
        else:
            h.exclude(s, partial(fits, top=top))
            batch = [deck.pop()]
            hands[s] += batch
            h.draw(s, 1, batch if s == "S" else None)
        if turn % every == 0:
            yield h, measure(h, turn)


def dominoes_draw(seed: int) -> Iterator[tuple[Holdings, Row]]:
    """A four-seat dominoes draw game, measured after every play."""
    rng = random.Random(seed)
    items = [(a, b) for a in range(7) for b in range(a, 7)]
    deck = items[:]
    rng.shuffle(deck)
    hands: dict[str, list[tuple[int, int]]] = {s: [] for s in SEATS}
    h: Holdings[tuple[int, int]] = Holdings(items, SEATS, source="boneyard")
    for s in SEATS:
        batch = [deck.pop() for _ in range(5)]
        hands[s] += batch
        h.deal(s, 5, batch if s == "S" else None)
    ends: tuple[int, int] | None = None
    turn = passes = 0

    def shows(ends: tuple[int, int] | None) -> Callable[[tuple[int, int]], bool]:
        return lambda t: ends is None or ends[0] in t or ends[1] in t

    while passes < 4 and all(hands.values()):
        s = SEATS[turn % 4]
        turn += 1
        playable = [t for t in hands[s] if shows(ends)(t)]
        while not playable and deck:
            h.exclude(s, shows(ends))
            batch = [deck.pop()]
            hands[s] += batch
            h.draw(s, 1, batch if s == "S" else None)
            playable = [t for t in hands[s] if shows(ends)(t)]
        if not playable:
            h.exclude(s, shows(ends))
            passes += 1
            continue
        passes = 0
        tile = rng.choice(playable)
        hands[s].remove(tile)
        h.play(s, tile)
        if ends is None:
            ends = tile
        else:
            a, b = ends
            if a in tile:
                ends = (tile[1] if tile[0] == a else tile[0], b)
            else:
                ends = (a, tile[1] if tile[0] == b else tile[0])
        yield h, measure(h, turn)


def main() -> None:
    print("uno-like: seed turn batches holders free_classes layout_ms dp_ms")
    for seed in (1, 2, 3):
        for _, r in uno_like(seed):
            print(f"  {seed} {r.turn:4d} {r.batches:4d} {r.holders:4d} {r.classes:4d}"
                  f" {r.layout_ms:8.1f} {r.dp_ms:10.1f}", flush=True)
    print("dominoes draw game: seed turns final batches/holders/classes, worst dp_ms")
    for seed in range(1, 6):
        rows = [r for _, r in dominoes_draw(seed)]
        worst = max(rows, key=lambda r: r.dp_ms)
        last = rows[-1]
        print(f"  {seed} {last.turn:3d} {last.batches}/{last.holders}/{last.classes}"
              f"  {worst.dp_ms:.2f} ms at turn {worst.turn} ({worst.holders} holders,"
              f" {worst.classes} classes)")


if __name__ == "__main__":
    main()
