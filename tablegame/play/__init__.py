"""A command on a table: its state in play as a value, the command a function of it, one writer.

- ``rows``: the rows a command reads and writes, as frozen values (a model's columns, by name);
- ``state``: ``InPlay``, the table's state in play, and what the rules ask of it;
- ``reading``: ``InPlay`` read in one statement after the table's lock, the same on PostgreSQL
  and SQLite;
- ``changes``: ``Changes``, what a command changes (its events, the rows it inserts, updates and
  deletes, the figures it adds to tallies), and the state in play they leave;
- ``writing``: the one writer, every change of a command and its record in one statement;
- ``parts``: the table state's parts (what screens draw) made from an ``InPlay``;
- the commands themselves, each ``(InPlay, Command) -> Changes``: ``rounds``...

``tablegame.commands`` runs them: the one path of every caller.
"""
