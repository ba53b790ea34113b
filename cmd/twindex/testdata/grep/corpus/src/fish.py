"""Fish for the pelican."""


def catch(pond):
    # the pelican dives
    return [f for f in pond if f.size < 10]


def count(pond):
    return len(catch(pond))
