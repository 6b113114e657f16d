"""The progressives (004 §13(i)-(j)): a table's Royal 9 meters (Star, Spade, Heart) and the
must-hit meters of a pit, fed by the Royal 9 wagers as rounds settle. Everything about them is
here, at the layer settlement needs them; the pit's progressive page (``pit.progressives``) and
accounting's reports only read and command through these modules.

- ``models``: the records: ``ProgressiveMeter``, ``MustHitProgressive``, ``MustHitLink``,
  ``MustHitWin`` and the controller's ledger ``ProgressiveEntry`` (the app is ``tablegame``;
  ``tablegame.models`` exports them).
- ``settlement``: the settlement's hooks: ``contribute`` (each Royal 9 wager feeds the meters; a
  must-hit meter may hit) and ``reseed_won`` (a Royal 9 meter won starts again from its reseed;
  a must-hit meter hit from its reset, in ``_reset_must_hit``). A change of the reseed or reset
  waiting for a win is applied there.
- ``draw``: the must-hit's hidden hit value, its commitment and the winning seat (one random
  source, ``RANDOM``), and the configurations of Table 1.
- ``actions``: the floor's commands: the Star option (its reseed), must-hit meters, their
  configuration and links, and paying must-hit wins in order.
- ``screens``: the meters as screens show them (never a hit value), the wins to pay, and a
  table's strip; ``views``: the strip as JSON for the table's display and tablet
  (``templates/progressives/_strip.html``, ``static/js/progressive_strip.js``).
- ``ledger``: what accounting reads: the liability now, contributions and must-hit days over a
  period.

This module imports nothing: ``tablegame.models`` imports ``models`` while Django loads the app.
"""
