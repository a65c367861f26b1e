"""`tablectl pit`: every table's records from the floor's broker, stored and checked, and the
floor live (docs/floor.md).

    pit = Pit(BrokerSettings(url, client_id, ...), "tablectl", "pit.sqlite", emit=print_json)
    pit.run(stop)
    PitStore("pit.sqlite").records("site/table-7")        # what `tablectl pit recall/export` read
    PitStore("postgresql://pit@db.floor/pit")              # the same on a PostgreSQL server
"""
from services.pit.decode import NotOurs, record_from_message
from services.pit.floor import TableView
from services.pit.pit import Pit
from services.pit.store import Alarm, PitStore

__all__ = ["Alarm", "NotOurs", "Pit", "PitStore", "TableView", "record_from_message"]
