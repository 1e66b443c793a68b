"""The game server: WebSocket tables over the event store, with live per-seat beliefs.

Start it with `domino-oracle serve` or `server.app.run_server(ServerConfig(...))`.
"""
