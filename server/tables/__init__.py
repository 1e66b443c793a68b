"""Tables: the table interface; local, remote and archived tables; seats, bots, advice, registry."""
