"""The JSON API under ``/api/``: tables by id, one POST endpoint per action.

Views stay thin: a serializer checks the shape of the input, and the command runs the one way
(``tablegame.commands.run``: lock, state in play, the command's function, the one writer, its
record); the answer is its events and the parts of the table state they changed
(``tablegame.play.parts``). ``commands.run_command`` answers its refusals as the API does.
"""
