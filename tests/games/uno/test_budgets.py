"""The belief's cost bounds: the pruned greedy order is the full greedy order, work budgets
stop walks deterministically, an update past them is the same estimate every time, and
pimc's over-budget deals come from the importance-weighted walks and fit the view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.interface import SPECTATOR
from games.uno.belief import UnoBelief
from games.uno.blocks import BlockProgramme, OverBudget
from games.uno.counting import Position
from games.uno.estimate import guide_blocks, without_checks
from games.uno.game import UNO
from games.uno.pimc import Sampler
from games.uno.state import evolve
from tests.games.uno.helpers import match


def _positions(seed: int, variant: str, observer: str, every: int, until: int
               ) -> list[Position]:
    bots = ("greedy", "random") if variant == "uno-2" else ("random", "random")
    belief = UnoBelief(observer, variant)
    out = []
    for event in match(seed, variant, bots)[:until]:
        belief.apply(UNO.view(event, observer))
        if belief.ledger.ready and event.seq % every == 0:
            out.append(belief.ledger.position())
    return out


def _full_greedy(position: Position) -> list[str]:
    """The reference: at every step count every remaining kind's options in full and take
    the fewest (ties: latest last check first)."""
    prog = BlockProgramme(position, order="last", count=False)
    remaining = list(prog.kinds)
    chosen = []
    while remaining:
        layer = prog._layer(remaining)
        best = min(remaining, key=lambda k: (len(prog._enumerate(k, layer)),
                                             prog.kinds.index(k)))
        chosen.append(best)
        remaining.remove(best)
    return chosen


@pytest.mark.parametrize(("seed", "variant", "observer", "every", "until"),
                         [(13, "uno-2-mini", SPECTATOR, 2, 200),
                          (259, "uno-2-mini", "S", 2, 200),
                          (0, "uno-2", SPECTATOR, 9, 46)])
def test_the_pruned_greedy_order_is_the_full_greedy_order(seed: int, variant: str,
                                                          observer: str, every: int,
                                                          until: int) -> None:
    positions = _positions(seed, variant, observer, every, until)
    assert len(positions) >= 4
    for position in positions:
        assert BlockProgramme(position, order="fewest", count=False).kinds == \
            _full_greedy(position)


def _guide_case() -> tuple[Position, list[str], int, BlockProgramme]:
    """uno-2, the spectator at seq 37: the guide ladder's first fit drops the checks up to
    seq 13; its last rung (every check dropped) fits too. (position, walk order, the last
    seq of a check, the last rung's count)."""
    position = next(p for p in _positions(1, "uno-2", SPECTATOR, 1, 40)
                    if max(s.seq for t in p.timelines.values() for s in t) == 37)
    order = BlockProgramme(position, order="fewest", count=False).kinds
    steps = [s for t in position.timelines.values() for s in t]
    nones = max(s.seq for s in steps if s.what == "none")
    plays = max(s.seq for s in steps if s.what == "play")
    last = BlockProgramme(without_checks(position, nones, plays), budget=1000, order=order)
    return position, order, max(nones, plays), last


def test_a_work_budget_stops_a_count_at_the_same_step_every_time() -> None:
    position, order, until, full = _guide_case()
    loose = without_checks(position, until, until)
    assert full.work > 2000
    spent = []
    for _ in range(2):
        with pytest.raises(OverBudget) as over:
            BlockProgramme(loose, order=order, work=full.work // 2)
        spent.append(over.value.work)
    assert spent[0] == spent[1] and full.work // 2 < spent[0] <= full.work
    assert BlockProgramme(loose, order=order, work=full.work).slots == full.slots


def test_the_greedy_order_stops_inside_one_kinds_options_at_its_work_budget() -> None:
    """The order's budget is checked per composition, not only between kinds: one kind's
    options can run to millions, and a budget in work must bound the work."""
    position = _guide_case()[0]
    free = BlockProgramme(position, order="fewest", count=False)
    assert free.enumerated > 50
    for budget in (5, 20, free.enumerated // 2):
        walk = BlockProgramme(position, order="fewest", count=False, order_work=budget)
        assert walk.enumerated <= budget + 1, (budget, walk.enumerated)
        assert sorted(walk.kinds) == sorted(free.kinds)


def test_a_spent_guide_work_budget_leaves_only_the_last_rung() -> None:
    position, order, until, last = _guide_case()
    free = guide_blocks(position, 1000, order)
    assert free is not None and free[0] == 13
    for _ in range(2):
        spent = guide_blocks(position, 1000, order, work=last.work)
        assert spent is not None and spent[0] == until and spent[1].slots == last.slots


def test_an_estimated_update_is_the_same_every_time() -> None:
    events = match(1, "uno-2", ("greedy", "random"))
    snapshots = []
    for _ in range(2):
        belief = UnoBelief(SPECTATOR, "uno-2")
        for event in events[:46]:
            belief.apply(UNO.view(event, SPECTATOR))
        snapshots.append(belief.snapshot_dict())
    assert snapshots[0]["status"] == "estimate"
    assert snapshots[0] == snapshots[1]


def test_pimc_deals_past_the_budgets_come_from_the_weighted_walks() -> None:
    events = match(41)
    rng = random.Random(2)
    exact = UnoBelief("S", "uno-2-mini")
    tight = UnoBelief("S", "uno-2-mini", budget=1, block_budget=0)
    state = None
    used = 0
    for event in events[:-1]:
        seen = UNO.view(event, "S")
        exact.apply(seen)
        tight.apply(seen)
        state = evolve(state, seen)
        if not tight.ledger.ready or event.seq % 4:
            continue
        possible = exact.snapshot_dict()["marginals"]["N"]
        sampler = Sampler(tight, state)
        assert sampler.blocks is None and sampler.programme is None
        for _ in range(3):
            world = sampler.world(rng)
            everything = Counter(world.deck) + Counter(world.pile) \
                + Counter(world.hands["S"]) + Counter(world.hands["N"])
            assert everything == state.variant.deck.counts()
            assert len(world.hands["N"]) == state.counts["N"]
            assert all(possible.get(kind, 0) > 0 for kind in world.hands["N"])
        used += sampler.weighted is not None and bool(sampler.weighted.draws)
    assert used >= 5
