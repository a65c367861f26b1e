"""Transports (serial, USB, URL factory) and one driver per device kind."""
