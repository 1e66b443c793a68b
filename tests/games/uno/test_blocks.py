"""The block count (batches no remaining kind tells apart, merged) against the per-batch
programme, exactly, on every position of reduced-deck games and on uno-2 positions; its
sampler against its own marginals; the estimate against exact values within its bars; and
positions the old budget could only relax now exact."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.interface import SPECTATOR
from games.uno.belief import UnoBelief, _exact_body
from games.uno.blocks import BlockProgramme
from games.uno.counting import Programme, state_bound
from games.uno.estimate import wilson
from games.uno.game import UNO
from tests.games.uno.helpers import match


def _same(position, integers: bool = True, order: str = "last") -> int:
    old = Programme(position, exact=integers).result()
    new = BlockProgramme(position, order=order).result()
    assert new.total == old.total
    for holder, row in old.expected.items():
        for kind, value in row.items():
            assert new.expected[holder][kind] == value, (holder, kind)
            assert [p for p in new.at_least[holder][kind] if p] == \
                [p for p in old.at_least[holder][kind] if p], (holder, kind)
    return 1


@pytest.mark.parametrize("order", ["last", "fewest"])
@pytest.mark.parametrize("seed", [13, 259])
@pytest.mark.parametrize("observer", ["S", "N", SPECTATOR])
def test_blocks_equal_the_programme_on_the_reduced_deck(seed: int, observer: str,
                                                         order: str) -> None:
    events = match(seed)
    belief = UnoBelief(observer, "uno-2-mini")
    checked = 0
    for event in events[:-1]:
        belief.apply(UNO.view(event, observer))
        if belief.ledger.ready:
            checked += _same(belief.ledger.position(), order=order)
    assert checked == len(events) - 4


@pytest.mark.parametrize("order", ["last", "fewest"])
def test_blocks_equal_the_programme_on_uno_2(order: str) -> None:
    events = match(0, "uno-2", ("greedy", "random"))
    checked = 0
    for observer in ("S", SPECTATOR):
        belief = UnoBelief(observer, "uno-2")
        for event in events[:40]:
            belief.apply(UNO.view(event, observer))
            position = belief.ledger.position() if belief.ledger.ready else None
            if position is not None and event.seq % 3 == 0 and state_bound(position) <= 4096:
                checked += _same(position, order=order)
    assert checked >= 10


def test_the_block_sampler_draws_the_posterior() -> None:
    events = match(41)
    belief = UnoBelief("S", "uno-2-mini")
    for event in events[:30]:
        belief.apply(UNO.view(event, "S"))
    programme = BlockProgramme(belief.ledger.position())
    exact = programme.result()
    rng = random.Random(3)
    n = 3000
    seen: Counter[str] = Counter()
    for _ in range(n):
        hands, deck = programme.sample(rng)
        assert sum(hands["N"].values()) == belief.ledger.state.counts["N"]
        assert sum(deck.values()) == belief.ledger.state.deck_count
        seen.update(k for k, c in hands["N"].items() if c)
    for kind, p in exact.at_least_one["N"].items():
        assert abs(seen[kind] / n - float(p)) <= 4 * wilson(float(p), n) + 1e-9, kind


def test_uno_2_positions_the_old_budget_relaxed_are_exact_now() -> None:
    """The old rule: over 32768 batch states, a relaxation. Many are now counted exactly (the
    block count within BLOCK_BUDGET); the rest are estimates, labelled so with their bars."""
    events = match(18, "uno-2", ("greedy", "random"))
    belief = UnoBelief("S", "uno-2")
    newly = 0
    for event in events[:-1]:
        belief.apply(UNO.view(event, "S"))
        if not belief.ledger.ready or event.seq > 84:
            continue
        if state_bound(belief.ledger.position()) > belief.budget:
            snapshot = belief.snapshot_dict()
            if snapshot["status"] == "exact":
                newly += 1
            else:
                assert snapshot["status"] == "estimate" and snapshot["error_95"] > 0, event.seq
    assert newly >= 10


@pytest.mark.parametrize(("seed", "observer", "at"), [(0, "S", 60), (0, SPECTATOR, 20),
                                                      (41, "N", 40)])
def test_the_estimate_is_within_its_bars_of_the_exact_values(seed: int, observer: str,
                                                            at: int) -> None:
    """On positions the exact count still reaches, the estimate (forced, from a proposal
    relaxed to a quarter of its batch states) is within its 95% bars of the exact values
    for at least 90% of the probabilities, and within three bars for all."""
    variant = "uno-2" if seed == 0 else "uno-2-mini"
    bots = ("greedy", "random") if variant == "uno-2" else ("random", "random")
    events = match(seed, variant, bots)
    belief = UnoBelief(observer, variant)
    for event in events[:at + 1]:
        belief.apply(UNO.view(event, observer))
    exact = belief.exact()
    assert exact is not None
    truth = _exact_body(exact[0].expected, exact[0].at_least)["marginals"]
    bound = state_bound(belief.ledger.position())
    guess = belief.importance_estimate(tries=3000, keep=600, proposal_budget=bound // 4,
                                       paths=300)
    assert guess["status"] == "estimate" and guess["samples"] >= 20
    assert "importance-weighted" in guess["estimate"] and guess["ess"] >= 20
    n = guess["samples"]
    inside = total = 0
    for holder, row in truth.items():
        for item, p in row.items():
            q = guess["marginals"][holder].get(item, 0.0)
            bar = guess["marginal_error_95"][holder].get(item, wilson(0.0, n))
            total += 1
            inside += abs(p - q) <= bar
            assert abs(p - q) <= 3 * bar, (holder, item, p, q, bar)
    assert inside >= 0.9 * total


def test_block_rows_pass_every_check_of_the_history() -> None:
    """The block sampler's rows (which free slots of a block each kind takes, uniformly)
    fit the real history: used as the estimate's proposal on the unrelaxed position, every
    draw is kept."""
    import random as _random

    from games.uno.estimate import proposal_sample

    events = match(0, "uno-2", ("greedy", "random"))
    belief = UnoBelief("S", "uno-2")
    for event in events[:61]:
        belief.apply(UNO.view(event, "S"))
    full = belief.ledger.position()
    programme = BlockProgramme(full)
    sizes = [b.size for b in belief.ledger.batches]
    rng = _random.Random(1)
    kept = [proposal_sample(full, full, programme, sizes, rng) for _ in range(30)]
    assert all(k is not None for k in kept)
    for hands, deck in kept:  # type: ignore[misc]
        assert sum(hands["N"].values()) == belief.ledger.state.counts["N"]
        assert sum(deck.values()) == belief.ledger.state.deck_count


def test_the_importance_weights_average_to_the_exact_count() -> None:
    """A path's weight is an unbiased estimate of the real slot count (the guide's backward
    is only a proposal): the mean of many weights is within its 4 standard errors of the
    exact count, on a reduced-deck position whose guide drops checks."""
    import math as _math

    from games.uno.estimate import importance

    events = match(12)
    belief = UnoBelief("N", "uno-2-mini")
    for event in events[:24]:
        belief.apply(UNO.view(event, "N"))
    exact = BlockProgramme(belief.ledger.position())
    sample = importance(belief.ledger, random.Random(5), 2000, guide_budget=10**6)
    assert sample is not None and sample.relaxed_until > 0
    weights = [_math.exp(x) for x in sample.log_weights] + \
        [0.0] * (sample.paths - len(sample.log_weights))
    mean = sum(weights) / len(weights)
    sd = (sum((w - mean) ** 2 for w in weights) / (len(weights) - 1)) ** 0.5
    assert abs(mean - exact.slots) <= 4 * sd / len(weights) ** 0.5 + 1e-9 * exact.slots


def test_the_bench_group_names_long_draw_sequences_and_reshuffles() -> None:
    events = match(13)
    belief = UnoBelief(SPECTATOR, "uno-2-mini")
    seen = []
    for event in events[:-1]:
        belief.apply(UNO.view(event, SPECTATOR))
        seen.append(belief.bench_group())
        if event.type == "deck_reshuffled":
            assert belief.bench_group() == "after a reshuffle"
    assert seen[0] is None and "4+ draws" in seen and "after a reshuffle" in seen
