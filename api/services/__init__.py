"""The application services: each loads what it needs, runs one decision of :mod:`domain`,
saves the events and returns plain data (:mod:`api.wire`). No HTTP here: the routes
(:mod:`api.routes`) and the CLI call these, and :mod:`api.bootstrap` wires them together."""
