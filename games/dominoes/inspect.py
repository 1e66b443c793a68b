"""Dominoes' own `infer` (games.interface.Inspector): the belief itself rather than its
interface wrapper, so the seed's reference samplers can run beside the exact method, and a
person sees each holder's chances laid out as the domino triangle (games.dominoes.render).

Two players (block-2, draw-2): the draw-batch belief, exact only. A log in which the
observer's own tiles are redacted (it was not written for that observer) is refused.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from games.dominoes.belief_partnership import Belief, ObserverError
from games.dominoes.belief_two import TwoPlayerBelief, two_player
from games.dominoes.render import render
from games.dominoes.snapshot import METHODS
from games.dominoes.variants import VARIANTS
from inference.errors import InconsistentLog
from inference.references import BudgetExceeded, SamplerGaveUp


class DominoesInspector:
    """`infer` for dominoes: `exact` and the reference samplers of games.dominoes.snapshot."""

    methods: tuple[str, ...] = tuple(METHODS)

    def inspect(self, view: Sequence[Any], observer: str, variant: str, method: str,
                samples: int, seed: int, as_json: bool) -> str:
        belief: Belief | TwoPlayerBelief
        if variant in VARIANTS and two_player(variant):
            if method != "exact":
                raise ValueError(f"--method {method}: {variant} has the exact method only")
            belief = TwoPlayerBelief(observer, variant)
        else:
            belief = Belief(observer)
        try:
            for event in view:
                belief.apply(event)
            snapshot = (belief.snapshot() if isinstance(belief, TwoPlayerBelief) else
                        belief.snapshot(method, samples=samples, rng=random.Random(seed)))
        except ObserverError as error:
            raise ValueError(str(error)) from error
        except InconsistentLog as error:
            raise ValueError(f"inconsistent log at {error}") from error
        except (BudgetExceeded, SamplerGaveUp) as error:
            raise ValueError(f"method {method}: {error}") from error
        if as_json:
            return json.dumps(snapshot.to_json_dict(), ensure_ascii=False) + "\n"
        return render(snapshot, belief.variant.max_pip)


INSPECTOR = DominoesInspector()
