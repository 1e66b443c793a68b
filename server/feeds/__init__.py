"""Feeds: the bus (in-process and over MQTT), the MQTT link and topics, and event fan-out."""
