"""The day's tallies: each gaming day's play summed as rounds are settled, for accounting.

- ``figures``: what a settled or voided round adds, plain figures, no database (the day's
  verification, ``tablegame.verification``, adds up the record with the very same functions);
- ``writes``: the statements that add those figures to the day's rows inside the settling
  action's transaction (``tablegame.actions.rounds``), and that write a day's tallies from its
  rounds and wagers;
- ``models``: the rows, per wager group and per shoe (re-exported by ``tablegame.models``, where
  Django registers them); accounting's reports read them (``accounting.reports``).

Nothing is imported here: ``tablegame.models`` loads ``models`` while Django starts, before
``writes`` may be.
"""
