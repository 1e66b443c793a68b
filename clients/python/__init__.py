"""The async Python client of the Domino Oracle protocol (tests, bots-as-clients, loadtest)."""

from clients.python.client import DominoClient, ServerError
from clients.python.player import play_until_finished
from clients.python.seat_view import SeatView

__all__ = ["DominoClient", "SeatView", "ServerError", "play_until_finished"]
