"""Dominoes as the registry hosts it: the rules' adapter (games/dominoes/adapter.py) with what
dominoes declares it offers (games.interface.Capabilities): its variants and table options,
the bots tables seat, the move advisor, the exact uniform belief and the behaviour model
`behaviour:greedy`, its commit-reveal deals, and its own infer, replay, selfplay and
tournament. The generic layers read this record; they never test the game's name."""

from __future__ import annotations

from games.dominoes.adapter import MODEL, VARIANT_INFOS, Dominoes
from games.dominoes.behaviour.declared import BEHAVIOUR_GREEDY
from games.dominoes.commands import Command
from games.dominoes.dealing import DominoesDealing
from games.dominoes.events import Event
from games.dominoes.inspect import INSPECTOR
from games.dominoes.narrate import narrate
from games.dominoes.revealed import dominoes_moments
from games.dominoes.selfplay import SELF_PLAY
from games.dominoes.state import MatchState
from games.dominoes.strategy.advice import DominoesAdvisor
from games.dominoes.strategy.declared import TOURNAMENT
from games.dominoes.strategy.table_bots import POOLED, table_bots
from games.interface import BeliefInfo, Capabilities, Game, uniform_belief

CAPABILITIES = Capabilities(
    renderer="dominoes",
    variants=VARIANT_INFOS,
    bots=table_bots(),
    stand_in="greedy",
    pooled_bots=POOLED,
    fallback_bot="greedy",
    advisor=DominoesAdvisor(),
    beliefs=(uniform_belief(MODEL),
             BeliefInfo(BEHAVIOUR_GREEDY.name, BEHAVIOUR_GREEDY.label, exact=False)),
    behaviour={BEHAVIOUR_GREEDY.name: BEHAVIOUR_GREEDY},
    fair_dealing=DominoesDealing(),  # each hand's seed: committed in hand_started, revealed
                                     # in hand_ended
    reveal=dominoes_moments,
    inspect=INSPECTOR,
    narrate=narrate,
    self_play=SELF_PLAY,
    tournament=TOURNAMENT,
)

DOMINOES: Game[MatchState, Command, Event] = Dominoes(CAPABILITIES)

__all__ = ["CAPABILITIES", "DOMINOES", "MODEL"]
