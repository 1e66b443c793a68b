"""Beliefs: in-process inference, the worker process's service, remote workers, the message."""
