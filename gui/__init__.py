"""Sverka's desktop window (PySide6). Imports :mod:`sverka.core.api` and its dataclasses only."""
