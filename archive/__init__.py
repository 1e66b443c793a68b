"""What a stored match is: stream names, a table's config and seat claims, loading and
listing matches (of any registered game: `match_started.game` names it), reading a JSONL
log, and where the store is by default. One place, used by the server, the replay routes
and the command-line tools alike. Knows the event store and the games' registry; knows no
server.
"""
