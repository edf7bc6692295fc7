"""Study analysis (issue 19): who was winning at every decision of a game, and which commands
were better, estimated by seeded Monte Carlo rollouts.

- :mod:`analysis.rollout`: the rollout itself (a fast seeded random source, the policies).
- :mod:`analysis.hidden`: determinization, the unseen cards redealt for what a reader may see.
- :mod:`analysis.engine`: positions of a game, estimates with Wilson intervals, swings, ranked
  commands. Pure and deterministic given its seeds: no clock anywhere here.
- :mod:`analysis.pool`: the worker layer (processes, the time budget, progress, the cache).

Imports ``domain`` only (tests/test_layout.py); the routes are :mod:`api.routes.analysis`.
"""
