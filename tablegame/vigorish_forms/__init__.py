"""Complimentary Vigorish Forms (002 (c)(3)(ii)-(iv)), from the vigorish settlement marks to
the duplicates accounting receives, in one place.

The chain, and where each step lives:

- ``settlement``: the settlement's hook (``tablegame.actions.rounds.settle_round`` calls it):
  each vigorish the rules' settlement marks becomes a ``VigorishMarker`` at the seat (000
  §12(d)(2)). The dealer then collects it or requests a form
  (``tablegame.actions.markers``, table actions like every other the tablet sends);
- ``models``: the series of pre-numbered forms a pit receives, and each form from preparation
  to accounting (re-exported by ``tablegame.models``, where Django registers them);
- ``actions``: what the clerk, dealer and pit boss do to a form: receive a series, prepare,
  sign, record the patron's part, deposit and witness, void, forward the duplicates; each in
  the pit's chain of events (``tablegame.events``: the ``FormEvent`` kinds);
- ``register``: the pit's register of its series, forms and vigorish waiting for a form, as
  its forms page shows it.

The pages are the apps': the pit's forms page and the printed form (``pit.views_forms``,
``pit.form_pdf``), and accounting's reconciliation of the day's forms with the drop count
(``accounting.forms_check``). Nothing is imported here: ``tablegame.models`` loads ``models``
while Django starts, before the actions may be.
"""
