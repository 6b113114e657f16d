"""The simulated floor: dealer bots and watching screens against the real server (issue 10).

``manage.py simulate`` (``run.simulate``) sets up a floor of tables in the database (``floor``),
starts the ASGI server as a subprocess (``server``), opens the tablet, display, pit and
surveillance sockets (``screens``), and lets one dealer bot per table play real rounds over the API
(``dealer``); ``report`` turns what they saw into figures. ``make bench`` sweeps it
(``bench/run.py``); the demo can run it against ``make run``'s server (``--url``).
"""
