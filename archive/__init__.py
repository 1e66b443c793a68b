"""What a stored match is: stream names, a table's config and seat claims, loading and
listing matches, and where the store is by default. One place, used by the server, the
replay routes and the command-line tools alike. Knows the event store and the game's event
types; knows no server.
"""
