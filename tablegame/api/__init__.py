"""The JSON API under ``/api/``: tables by id, one POST endpoint per action.

Views stay thin: a serializer checks the shape of the input, exactly one action makes (or refuses)
the change, and the answer is the whole table state (``tablegame.selectors.table_state``).
``commands.run_command`` holds the one write path: lock, idempotency record, action, answer.
"""
