"""The daemon's configuration as frozen dataclasses: every key, its default and its meaning.

A field's metadata holds its one-line description ("doc") and, optionally, a check that
returns what was expected when a value is wrong. `None` defaults are filled in from the
game (deck count, burn, seats) when the file is loaded. docs/configuration.md lists all.
"""
from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

DEFAULT_CONFIG_PATH = "/etc/tablectl/tablectl.toml"
LOG_FORMATS = ("json", "console")
LOG_LEVELS = ("debug", "info", "warning", "error")
JOURNAL_SYNC = ("results", "always")  # same as controller.journal.SYNC_MODES
UNIX_PATH_MAX = 107  # sun_path holds 108 bytes including the terminating NUL
TOPIC_LEVEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # the feed's site and table in MQTT topics
SCOREBOARD_LANGS = ("en", "zh-Hant")


def key(default, doc: str, check=None, octal_text: bool = False):
    """A config key. octal_text: a string such as "0660" is read as an octal number too."""
    return field(default=default, metadata={"doc": doc, "check": check, "octal_text": octal_text})


def seconds(low: float, high: float):
    """A duration: finite and within [low, high] (inf, nan, negatives and absurd values are
    refused). The range is kept on the check: docs/configuration.md states it (tested)."""
    def check(value) -> str | None:
        return None if math.isfinite(value) and low <= value <= high else f"a number of seconds from {low:g} to {high:g}"
    check.range_text = f"{low:g} to {high:g} s"  # type: ignore[attr-defined]
    return check


def exact_fraction(value) -> Fraction:
    """A number written as people write it, exactly: 0.005, 1e-6, 1/200, 0.5% (text), or a TOML
    integer or float (a float is taken as the decimal it is written as: 1e-6 is exactly 1/10^6).
    ValueError when it is none of these, or not finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not finite")
        return Fraction(repr(value))
    if isinstance(value, str):
        body = value.strip()
        percent = body.endswith("%")
        try:
            return Fraction(body[:-1].strip() if percent else body) / (100 if percent else 1)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{value!r} is not a number (e.g. 0.005, 1e-6, 1/200 or 0.5%)") from None
    return Fraction(value)


def fraction_between(low: Fraction, high: Fraction):
    """An exact number within [low, high]; the range is kept on the check for the docs (tested)."""
    def check(value) -> str | None:
        return None if low <= value <= high else f"a number from {float(low):g} to {float(high):g}"
    check.range_text = f"{float(low):g} to {float(high):g}"  # type: ignore[attr-defined]
    return check


def at_least(low: int):
    return lambda value: None if value >= low else f"an integer of at least {low}"


def between(low: int, high: int):
    return lambda value: None if low <= value <= high else f"an integer from {low} to {high}"


def one_of(*choices: str):
    return lambda value: None if value in choices else "one of " + ", ".join(repr(c) for c in choices)


def file_mode(value) -> str | None:
    return None if 0 <= value <= 0o777 else "a file mode such as 0o660"


def topic_level(value) -> str | None:
    """One MQTT topic level of ours (a site, a table): no wildcards, separators or spaces."""
    return None if TOPIC_LEVEL.fullmatch(value) else "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"


def topic_prefix(value) -> str | None:
    if value and all(TOPIC_LEVEL.fullmatch(level) for level in value.split("/")):
        return None
    return "topic levels of letters, digits, '.', '_' or '-' separated by '/' (no '+', '#', spaces or empty levels)"


def broker_url(value) -> str | None:
    """"" (no feed) or mqtts://host:port / mqtt://host:port."""
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    try:
        port_ok = parts.port is None or 0 < parts.port < 65536
    except ValueError:
        port_ok = False
    if not value or (parts.scheme in ("mqtt", "mqtts") and parts.hostname and port_ok and parts.path in ("", "/")
                     and not (parts.query or parts.fragment or parts.username)):
        return None
    return "mqtts://host:port (TLS) or mqtt://host:port"


def socket_mode(value) -> str | None:
    """Connecting to a Unix socket needs write access to it: o+w would open the table's
    commands to every local user."""
    if (expected := file_mode(value)) is not None:
        return expected
    if value & 0o002:
        return "a mode that gives others no write access (such as 0660): with it any local user could command the table"
    return None


def socket_path(value) -> str | None:
    size = len(value.encode())
    return None if 0 < size <= UNIX_PATH_MAX else f"a Unix socket path of 1-{UNIX_PATH_MAX} bytes (this one is {size})"


def split_listen(text: str) -> tuple[str, int]:
    """"127.0.0.1:8080" or "[::1]:8080" -> (IP address, port); ValueError says what is wrong."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError("an IP address and a port 0-65535, e.g. 127.0.0.1:8080")
    bracketed = host.startswith("[") and host.endswith("]")
    if ":" in host and not bracketed:
        raise ValueError("an IPv6 address goes in brackets, e.g. [::1]:8080")
    host = host[1:-1] if bracketed else host
    ipaddress.ip_address(host)  # a literal address: the systemd unit allows exactly it
    return host, int(port)


def listen_address(value) -> str | None:
    try:
        split_listen(value)
    except ValueError:
        return "an IP address and a port, e.g. \"127.0.0.1:8080\" or \"[::1]:8080\""
    return None


OPTIONAL_DEVICES = ("bets",)  # a table may have none: "" in [devices]


@dataclass(frozen=True)
class DevicesConfig:
    shoe: str = key("serial:///dev/tablectl/shoe", "the smart shoe: serial:///path[?baud=N], a tty path, or usb://VID:PID")
    panel: str = key("serial:///dev/tablectl/panel", "the dealer's button panel (same URL forms)")
    lights: str = key("serial:///dev/tablectl/lights", "the result lamps (same URL forms)")
    bets: str = key("", "the bet sensor (same URL forms; serial:///dev/tablectl/bets with the udev rules), "
                        "\"\" for none: the table then takes wagers by command")


def key_file_path(value) -> str | None:
    return None if value == "" or value.startswith("/") else 'an absolute path to a key file, or "" for none'


@dataclass(frozen=True)
class KeysConfig:
    shoe: str = key("", "the shoe's key file: with one, its link takes only authenticated frames (protocol 1.1; "
                        "`tablectl keys provision shoe`); \"\" for none", key_file_path)
    panel: str = key("", "the panel's key file (as keys.shoe)", key_file_path)
    lights: str = key("", "the lamp board's key file (as keys.shoe)", key_file_path)
    bets: str = key("", "the bet sensor's key file (as keys.shoe)", key_file_path)


@dataclass(frozen=True)
class TimeoutsConfig:
    card_timeout_s: float = key(30.0, "no card within this many seconds while a card is due = a missing card", seconds(1, 600))
    reconnect_min_s: float = key(0.2, "first wait before reopening a lost device; doubles each try", seconds(0.01, 60))
    reconnect_max_s: float = key(5.0, "longest wait between reopen attempts", seconds(0.01, 600))
    ack_timeout_s: float = key(0.25, "a frame not acknowledged within this is sent again", seconds(0.01, 10))
    heartbeat_interval_s: float = key(1.0, "how often each device link is checked with a heartbeat", seconds(0.1, 60))


@dataclass(frozen=True)
class JournalConfig:
    path: str = key("/var/lib/tablectl/journal.sqlite", "the SQLite journal (relative paths: from the config file's directory)")
    sync: str = key("always", "fsync 'always' (every commit, before anything of it is acted on or readable by the "
                              "feed) or 'results' (results, voids and what a device or client is told was taken; a "
                              "power cut may take other records the feed already sent: a lab, a bench)",
                    one_of(*JOURNAL_SYNC))
    signing_key: str = key("/etc/tablectl/keys/table.key",
                           "the table's Ed25519 key (PEM, mode 0600, the daemon's user; `tablectl keys table` makes it, "
                           "its public key beside it as .pub): signs every anchor of the journal")
    table: str = key("", "this table's identity, signed with the journal's heads (empty: feed.table)",
                     lambda v: topic_level(v) if v else None)
    unsigned: bool = key(False, "run without journal.signing_key: nothing vouches for the journal (a lab; status warns)")
    walk_at_start: int = key(100000, "records before the anchor walked (chain and signatures) before dealing; a larger "
                                     "journal is walked in the background and holds the next shoe if it fails", at_least(0))


@dataclass(frozen=True)
class ControlConfig:
    socket: str = key("/run/tablectl/control.sock", "the local control socket (no network listener exists)", socket_path)
    mode: int = key(0o660, "the socket's file mode (0o660 or \"0660\"): owner and group may connect; others never", socket_mode,
                    octal_text=True)
    client_buffer_bytes: int = key(262144, "a client that falls this far behind the event stream is dropped", at_least(4096))
    max_clients: int = key(64, "clients connected at once (services, tablectl commands); more are refused with a line saying so",
                           between(1, 4096))
    reply_timeout_s: float = key(5.0, "a command the daemon has not answered within this gets an error reply", seconds(0.1, 300))
    max_clients_per_uid: int = key(16, "clients one user may have connected at once; root and the daemon's user are not "
                                       "counted against it", between(1, 4096))
    owner_slots: int = key(2, "of max_clients, the connections only root and the daemon's user may take, whatever "
                              "other users hold (at most max_clients)", between(1, 64))
    idle_timeout_s: float = key(300.0, "a connection that sends no request for this long is closed with a line saying so "
                                       "(one following the event stream is never idle)", seconds(1, 86400))


@dataclass(frozen=True)
class ShoeConfig:
    burn: bool | None = key(None, "burn cards at a new shoe (default: on for the baccarat games, off for fubacc and paigow)")
    burn_picture_value: int = key(10, "cards burned when the first card is a ten, a picture or the joker (others: their value)",
                                  between(1, 13))
    cut_card_rounds: int = key(1, "after the round in which the cut card comes out, play this many more", at_least(0))
    deck_per_round: bool | None = key(None, "a fresh deck every round, from a shuffler (default: on for fubacc and paigow)")


@dataclass(frozen=True)
class IntegrityConfig:
    """The shoe integrity checks (docs/integrity.md, local ruling L7)."""
    false_alarm_rate: Fraction = key(
        Fraction(1, 10**6), "how often a fairly shuffled shoe (a deck, dealing a deck per round) may be called, "
        "all checks together: 1e-6, 1/1000000 or \"0.0001%\"", fraction_between(Fraction(1, 10**12), Fraction(1, 100)))
    history_shoes: int = key(1000, "the past shoes (decks, dealing a deck per round) whose openings the replayed check "
                                   "remembers, the most recent: read back at start-up and kept while the daemon runs",
                             between(0, 100000))


@dataclass(frozen=True)
class EdgeConfig:
    """`tablectl edge`, the live house edge for surveillance (docs/integrity.md)."""
    alert_margin: Fraction = key(Fraction(0), "alert when a wager's house edge falls below minus this: 0, 0.005, "
                                              "1/200 or \"0.5%\"", fraction_between(Fraction(0), Fraction(1)))


@dataclass(frozen=True)
class MetersConfig:
    """`tablectl meters` and the pit's meters (docs/meters.md)."""
    alarm_sd: Fraction = key(Fraction(3), "flag a shift whose house net departs from its theoretical win by more than this "
                                          "many standard deviations: 3, 2.5 or \"7/2\"",
                             fraction_between(Fraction(1), Fraction(100)))


@dataclass(frozen=True)
class Fortune7Config:
    player_dealer_seats: tuple[int, ...] = key(
        (1, 2, 3, 4, 5, 6, 7), "the seats whose players take the player-dealer position in turn (every two hands, clockwise)")
    player_dealer_seat: int | None = key(
        None, "the first holder of the player-dealer position (default: the first of them from seat 1)", between(1, 7))
    collection_schedule: int = key(1, "the collection fee schedule option in use (1-26): its limits bound every wager, "
                                      "its fees are taken before the deal", between(1, 26))


ROUNDINGS = ("down", "half_down", "half_up")  # games.money.Rounding


def positive_fraction(value) -> str | None:
    return None if value > 0 else "a positive exact amount such as \"1\", \"0.25\" or \"0.01\""


@dataclass(frozen=True)
class MoneyConfig:
    """The table's money (docs/money.md; local ruling L9)."""
    minor_unit: Fraction = key(Fraction(1), "the smallest amount the table pays: \"1\", \"0.25\" or \"0.01\"",
                               positive_fraction)
    rounding: str = key("down", "how a win short of a whole minor unit is paid: down, half_down or half_up",
                        one_of(*ROUNDINGS))
    chip_unit: Fraction = key(Fraction(1, 100), "the currency one unit of a chip's tag value stands for "
                                                "(\"0.01\": tags carry cents)", positive_fraction)


@dataclass(frozen=True)
class TableConfig:
    spots: tuple[int, ...] = key((1,), "the live spots (fubacc, paigow) until the dealer sets them")


@dataclass(frozen=True)
class LogConfig:
    format: str = key("json", "'json' (one object a line, for journald) or 'console' (for people)", one_of(*LOG_FORMATS))
    level: str = key("info", "the least severe level written", one_of(*LOG_LEVELS))


@dataclass(frozen=True)
class FeedConfig:
    """`tablectl feed`: this table's journal to the floor's MQTT broker (docs/floor.md)."""
    broker: str = key("", "the floor's broker: mqtts://host:port (TLS), or mqtt://host:port with insecure = true", broker_url)
    ca: str = key("/etc/tablectl/feed/ca.pem", "the CA the broker's certificate must chain to (PEM)")
    client_cert: str = key("/etc/tablectl/feed/client.pem", "this table's client certificate (PEM)")
    client_key: str = key("/etc/tablectl/feed/client.key", "its private key (PEM; readable by the feed only)")
    username: str = key("", "a login at the broker, if it asks for one")
    password_file: str = key("", "a file holding that login's password")
    site: str = key("site", "this casino or floor: one topic level", topic_level)
    table: str = key("", "this table's id: one topic level (required by the feed)", lambda v: topic_level(v) if v else None)
    prefix: str = key("tablectl", "the topics' prefix: PREFIX/SITE/TABLE/record ...", topic_prefix)
    insecure: bool = key(False, "allow mqtt:// (clear text, no certificates): a lab only")
    state: str = key("/var/lib/tablectl-feed/cursor.json", "the feed's cursor file (its own StateDirectory)")
    records_per_message: int = key(100, "records sent together in one `record` message while catching up (1: one a message)",
                                   between(1, 1000))


@dataclass(frozen=True)
class ScoreboardConfig:  # `tablectl scoreboard`, the board beside the table (docs/scoreboard.md)
    listen: str = key("127.0.0.1:8080", "where the board is served: an IP address and port (127.0.0.1: this PC only)", listen_address)
    lang: str = key("en", "the board's labels: 'en' or 'zh-Hant' (Traditional Chinese)", one_of(*SCOREBOARD_LANGS))
    table_name: str = key("", "the table's name shown on the board")


SECTIONS = {
    "devices": DevicesConfig, "keys": KeysConfig, "timeouts": TimeoutsConfig, "journal": JournalConfig,
    "control": ControlConfig, "shoe": ShoeConfig, "fortune7": Fortune7Config,
    "table": TableConfig, "log": LogConfig, "feed": FeedConfig, "scoreboard": ScoreboardConfig,
    "integrity": IntegrityConfig, "edge": EdgeConfig, "money": MoneyConfig, "meters": MetersConfig,
}


@dataclass(frozen=True)
class Config:
    game: str
    decks: int
    devices: DevicesConfig = DevicesConfig()
    keys: KeysConfig = KeysConfig()
    timeouts: TimeoutsConfig = TimeoutsConfig()
    journal: JournalConfig = JournalConfig()
    control: ControlConfig = ControlConfig()
    shoe: ShoeConfig = ShoeConfig()
    fortune7: Fortune7Config = Fortune7Config()
    table: TableConfig = TableConfig()
    log: LogConfig = LogConfig()
    feed: FeedConfig = FeedConfig()
    scoreboard: ScoreboardConfig = ScoreboardConfig()
    integrity: IntegrityConfig = IntegrityConfig()
    edge: EdgeConfig = EdgeConfig()
    money: MoneyConfig = MoneyConfig()
    # [limits]: bet -> {"min": "5", "max": "5000"} (decimal strings; either may be left out)
    limits: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    meters: MetersConfig = MetersConfig()
    source: str | None = None  # the file it came from; None for the built-in defaults

    def to_toml_dict(self) -> dict:
        """Every key with its value, as a TOML file would hold it (for `--print-config`)."""
        from dataclasses import asdict

        out = asdict(self)
        out.pop("source")
        out["limits"] = {bet: dict(ends) for bet, ends in self.limits.items()}
        for section, name in (("table", "spots"), ("fortune7", "player_dealer_seats")):
            out[section][name] = list(out[section][name])
        if out["fortune7"]["player_dealer_seat"] is None:  # TOML has no null: absent means unset
            del out["fortune7"]["player_dealer_seat"]
        out["control"]["mode"] = f"{self.control.mode:04o}"  # as written in a file: "0660", not 432
        for keys in (table for table in out.values() if isinstance(table, dict)):
            for name, value in keys.items():  # exact numbers as text a file takes back exactly: "1/1000000"
                if isinstance(value, Fraction):
                    keys[name] = str(value)
        return out
