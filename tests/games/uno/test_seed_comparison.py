"""Seed 004's approximate update beside the exact belief on the same positions: after a draw
with nothing to play it says the opponent holds no card that was legal before the draw,
but the drawn card may well be one; and it forgets that draw once the opponent plays."""

from __future__ import annotations

from games.uno.belief import UnoBelief
from games.uno.cards import legal_kinds
from games.uno.game import UNO
from games.uno.seed_belief import SeedBelief
from games.uno.state import evolve
from tests.games.uno.helpers import match


def _side_by_side(events, observer: str):
    """(seq, event, exact snapshot, seed marginals, the state before) at every event."""
    exact, seed = UnoBelief(observer, "uno-2"), SeedBelief(observer)
    state = None
    for event in events[:-1]:
        seen = UNO.view(event, observer)
        before = state
        state = evolve(state, seen)
        exact.apply(seen)
        seed.apply(seen)
        if exact.ledger.ready:
            yield event, exact.snapshot_dict(), seed.marginals(), before


def test_after_a_draw_the_seed_rules_out_what_the_drawn_card_may_be() -> None:
    events = match(1, "uno-2", ("greedy", "random"))
    found = 0
    for event, exact, seed, before in _side_by_side(events, "S"):
        if event.type != "cards_drawn" or event.seat != "N" or event.penalty:
            continue
        if exact["status"] != "exact":
            continue
        legal = legal_kinds(before.variant.deck.kinds(), before.top, before.colour)
        unseen_legal = [k for k in legal if exact["marginals"]["N"].get(k, 0) > 0]
        assert unseen_legal, "the drawn card can be any unseen kind"
        for kind in unseen_legal:
            assert seed["at_least_one"][kind] == 0.0  # the seed: impossible
        # exactly: the one drawn card is legal with this probability
        p_legal = sum(exact["expected"]["N"].get(k, 0) for k in legal)
        assert 0 < p_legal < 1
        found += 1
    assert found >= 1


def test_the_seed_is_off_by_a_measured_amount_on_the_same_positions() -> None:
    events = match(0, "uno-2", ("greedy", "random"))
    worst = 0.0
    for _event, exact, seed, _before in _side_by_side(events, "S"):
        if exact["status"] != "exact":
            continue
        for kind, p in seed["at_least_one"].items():
            worst = max(worst, abs(exact["marginals"]["N"].get(kind, 0.0) - p))
    assert worst > 0.2  # far off somewhere (docs/games/uno.md gives the figures)


def test_a_seats_snapshot_carries_the_seeds_update_beside_the_exact_one() -> None:
    """Issue 28: the seed's approximate update is shown beside the exact belief, with the
    gap: the largest difference over kinds of P(the opponent holds at least one)."""
    events = match(0, "uno-2", ("greedy", "random"))
    shown = 0
    for _event, exact, seed, _before in _side_by_side(events, "S"):
        beside = exact.get("seed_update")
        assert beside is not None and beside["holder"] == "N"
        assert beside["model"].startswith("seed 004")
        if exact["status"] != "exact":
            continue
        gaps = {kind: abs(p - exact["marginals"]["N"].get(kind, 0.0))
                for kind, p in seed["at_least_one"].items()}
        assert beside["largest_gap"] == round(max(gaps.values()), 4)
        assert gaps[beside["largest_gap_kind"]] == max(gaps.values())
        assert beside["at_least_one"] == {k: round(p, 4) for k, p in seed["at_least_one"].items()
                                          if p}
        shown += 1
    assert shown >= 10
    spectator = UnoBelief("spectator", "uno-2")
    for event in events[:5]:
        spectator.apply(UNO.view(event, "spectator"))
    assert "seed_update" not in spectator.snapshot_dict()  # the seed models one opponent
