"""Everything that talks to the product from outside: CLI, Python client, bots, web page."""
