"""Game protection: the live edge of every shoe, advantage-play alerts and exact player ratings.

Built beside surveillance and accounting, on the top layer, and fed only by the record: a
follower (``follower``) reads each table's chain after the fact, woken by the tables' notices
and sweeping for those the channel layer dropped (``worker``, ``manage.py protect``); nothing
here runs on a dealer's request. From the cards the record says left the shoe (the first card
shown at the burn, every card dealt, corrected or exposed; the cards burned face down stay in,
since nobody saw them), ``shoe_count`` keeps what is left, and after every round the exact
expectation of every wager the table offers for the next one is computed by the rules engine
(``baccarat.gamemath.analyse``) and stored (``models.Edge``). A wager that turns favourable to
the players marks the table on surveillance's wall (``alerts``, through ``tablegame.marks``).
"""
