"""`tablectl feed`: the table's journal to the floor's MQTT broker (docs/floor.md).

    feed = Feed(load_config("/etc/tablectl/tablectl.toml"))   # [feed]: broker, TLS, site, table
    feed.run(stop)                                           # until the threading.Event is set
"""
from services.feed.cursor import Cursor, CursorError, load_cursor, save_cursor
from services.feed.feed import Feed, FeedError, feed_settings

__all__ = ["Cursor", "CursorError", "Feed", "FeedError", "feed_settings", "load_cursor", "save_cursor"]
