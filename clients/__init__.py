"""Everything that talks to the product from outside: the CLI, the Python client, bots, the web page."""
