"""Marks: something a watcher must look at on a table, raised by a follower of the record.

A mark is not an event of the table's chain: the dealer did nothing. It is raised, restated and
cleared by a process that reads the record after the fact (game protection, ``protection/``)
and shown on surveillance's wall and the pit's screens until it is cleared. The wall and the pit
know marks, never who raises them: the layers stay one way (``protection`` sits beside
``surveillance`` and ``pit``, all three above this package).

``models.TableMark`` is the row (its history is the alerts' log), ``raising`` writes them and
tells the screens after commit, ``reading`` gives the open marks of tables in one query.
"""
