"""Tournaments: an event-sourced aggregate whose standings follow from the game records.

:mod:`.events` the hash-chained record, :mod:`.model` the aggregate, :mod:`.pairing` the pure
pairing of each format, :mod:`.standings` points, tie-breaks and the crosstable. Every
interpretation the issue left open is written down in ``NOTES.md``.
"""
