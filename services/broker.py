"""The MQTT connection the feed and the pit share (paho-mqtt 2.x, MQTT 5).

`BrokerSettings` says where and how (a `mqtts://` or `mqtt://` URL, CA, client certificate,
login); `BrokerLink` owns one paho client and a network thread of its own that connects,
runs paho's loop, and on any failure logs why in words (the broker refused our certificate,
we do not trust the broker's, a wrong password, nothing listening) and tries again with a
growing wait. Messages paho holds unacknowledged are sent again on the next connection.

Sessions are persistent (clean_start false, a session expiry): a subscriber's queued QoS 1
messages wait at the broker while it is away, and our own unacknowledged ones are resent.
"""
from __future__ import annotations

import os
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
KEEPALIVE_S = 30
RETRY_MIN_S, RETRY_MAX_S = 0.25, 10.0
SESSION_EXPIRY_S = 7 * 24 * 3600  # the broker keeps a session (and its queue) this long while away
LOOP_TIMEOUT_S = 0.05
MQTT_MAX_PACKET_BYTES = 268_435_455  # the protocol's largest packet, unless the broker says less


class BrokerError(ValueError):
    """Settings that cannot work (a bad URL, a missing certificate): fix the configuration."""


def parse_broker_url(url: str) -> tuple[bool, str, int]:
    """`mqtts://host:port` -> (tls, host, port); BrokerError naming what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS:
        raise BrokerError(f"broker {url!r}: expected mqtts://host:port (TLS) or mqtt://host:port")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise BrokerError(f"broker {url!r}: the port is not a number from 1 to 65535") from None
    if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise BrokerError(f"broker {url!r}: expected only a scheme, a host and a port (mqtts://host:port)")
    return parts.scheme == "mqtts", parts.hostname, port


@dataclass(frozen=True)
class BrokerSettings:
    url: str
    client_id: str
    ca: str = ""  # CA file the broker's certificate must chain to ("" = the system's CAs)
    cert: str = ""  # our client certificate and key (PEM)
    key: str = ""
    username: str = ""
    password_file: str = ""  # a file holding the password (kept out of the config, which many may read)
    insecure: bool = False  # allow mqtt:// (clear text): a lab only

    def check(self) -> tuple[bool, str, int]:
        """The parsed URL after checking the settings fit together and the files are readable."""
        tls, host, port = parse_broker_url(self.url)
        if not tls and not self.insecure:
            raise BrokerError(f"broker {self.url!r}: mqtt:// sends everything in clear text; use mqtts:// "
                              "or allow it explicitly with insecure = true (a lab only)")
        if tls and bool(self.cert) != bool(self.key):
            raise BrokerError("a client certificate needs its key, and a key its certificate (cert and key)")
        if tls and not self.cert and not self.username:
            raise BrokerError("mqtts:// needs a client certificate (cert, key) or a login (username, password_file)")
        for what, path in (("ca", self.ca), ("cert", self.cert), ("key", self.key), ("password_file", self.password_file)):
            if path and tls | (what == "password_file"):
                try:
                    with open(path, "rb"):
                        pass
                except OSError as error:
                    raise BrokerError(f"{what} {path}: cannot read it ({error.strerror})") from None
        if self.password_file and not self.username:
            raise BrokerError("password_file is given but no username")
        return tls, host, port

    def password(self) -> str | None:
        if not self.password_file:
            return None
        with open(self.password_file, encoding="utf-8") as file:
            return file.read().strip()


def tls_failure_words(error: BaseException | str) -> str:
    """What a TLS failure means for the operator."""
    text = error if isinstance(error, str) else str(error)
    if isinstance(error, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in text:
        return f"we do not trust the broker's certificate ({getattr(error, 'verify_message', None) or text}): check ca"
    if any(word in text.lower() for word in ("unknown ca", "bad certificate", "certificate required",
                                             "certificate unknown", "decrypt error", "access denied")):
        return f"the broker refused our client certificate ({text}): is it signed by a CA the broker trusts?"
    return f"TLS with the broker failed: {text}"


def connect_failure_words(reason: ReasonCode) -> str:
    name = str(reason)
    if name in ("Bad user name or password", "Not authorized"):
        return f"the broker refused our login: {name.lower()} (check username and password_file)"
    if name == "Client identifier not valid":
        return f"the broker refused our client id: {name.lower()}"
    return f"the broker refused the connection: {name}"


def succeeded(reason: ReasonCode | int) -> bool:
    """MQTT 5 reason codes below 0x80 are successes ("No matching subscribers" is one)."""
    value = reason.value if isinstance(reason, ReasonCode) else int(reason)
    return value < 0x80


LogFn = Callable[..., None]  # log(event, **fields): a structlog bound logger's method


class BrokerLink:
    """One MQTT client and its network thread.

    on_up(session_present) and on_down(reason) are called on the network thread; so are
    paho's own callbacks set on `client` (on_publish, on_message). `publish`/`subscribe`/`ack`
    may be called from any thread (paho locks its queues)."""

    def __init__(self, settings: BrokerSettings, *, info: LogFn, warn: LogFn,
                 on_up: Callable[[bool], None] | None = None, on_down: Callable[[str], None] | None = None,
                 will: tuple[str, bytes] | None = None, subscriptions: Sequence[str] = (),
                 manual_ack: bool = False, max_inflight: int = 1000, receive_maximum: int = 65535,
                 receive_packet_bytes: int | None = None) -> None:
        self.settings = settings
        self.tls, self.host, self.port = settings.check()
        self.info, self.warn = info, warn
        self.on_up, self.on_down = on_up, on_down
        self.subscriptions = tuple(subscriptions)
        self.connected = threading.Event()
        self.stop_event = threading.Event()
        self._refusal: str | None = None  # the broker's CONNACK said no
        self._closed: str | None = None  # the broker's DISCONNECT gave this reason
        self._paho_error: str | None = None  # what paho logged when the socket failed (a TLS alert)
        self.problem: str | None = None  # why the link is down, in words, for a view; None while up
        self.receive_maximum = receive_maximum  # QoS 1 messages the broker may send us unacknowledged
        self.receive_packet_bytes = receive_packet_bytes  # our Maximum Packet Size: the broker sends nothing larger
        self.generation = 0  # connections made so far: a message id means something only within one
        self.max_packet_bytes = MQTT_MAX_PACKET_BYTES  # the broker's Maximum Packet Size (its CONNACK), if smaller
        self._thread: threading.Thread | None = None
        self.client = self._client(will, manual_ack, max_inflight)

    def _client(self, will: tuple[str, bytes] | None, manual_ack: bool, max_inflight: int) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.settings.client_id,
                             protocol=MQTTProtocolVersion.MQTTv5, reconnect_on_failure=False, manual_ack=manual_ack)
        client.max_inflight_messages_set(max_inflight)
        client.max_queued_messages_set(0)
        if self.tls:
            context = ssl.create_default_context(cafile=self.settings.ca or None)
            if self.settings.cert:
                context.load_cert_chain(self.settings.cert, self.settings.key)
            client.tls_set_context(context)
        if self.settings.username:
            client.username_pw_set(self.settings.username, self.settings.password())
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_log = self._logged
        return client

    # ------------------------------------------------------------------ the network thread
    def start(self) -> BrokerLink:
        self._thread = threading.Thread(target=self._run, name=f"mqtt-{self.settings.client_id}", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        # paho writes a publish from the caller's thread unless it believes its own loop thread
        # runs; this thread is that loop, so other threads' publishes only wake it (sockpair).
        self.client._thread = threading.current_thread()
        wait, first = RETRY_MIN_S, True
        while not self.stop_event.is_set():
            self._refusal = self._closed = self._paho_error = None
            problem = self._connect(first)
            first = False
            if problem is None:
                while not self.stop_event.is_set():
                    try:
                        rc = self.client.loop(LOOP_TIMEOUT_S)
                    except (ssl.SSLError, OSError) as error:  # a TLS alert read after the handshake
                        problem = tls_failure_words(error) if isinstance(error, ssl.SSLError) else str(error)
                        break
                    if rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
                        problem = self._refusal or self._socket_error() or self._closed or f"connection lost ({mqtt.error_string(rc)})"
                        break
                if self.connected.is_set():
                    wait = RETRY_MIN_S  # it was up: the next try comes quickly
            if self.stop_event.is_set():
                break
            self._lost(problem or "disconnected")
            self.stop_event.wait(wait)
            wait = min(wait * 2, RETRY_MAX_S)

    def _connect(self, first: bool) -> str | None:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        properties.ReceiveMaximum = self.receive_maximum
        if self.receive_packet_bytes is not None:
            properties.MaximumPacketSize = self.receive_packet_bytes
        try:
            if first:
                self.client.connect(self.host, self.port, KEEPALIVE_S, clean_start=False, properties=properties)
            else:
                self.client.reconnect()
        except ssl.SSLError as error:
            return tls_failure_words(error)
        except OSError as error:
            return f"cannot reach the broker at {self.host}:{self.port}: {error.strerror or error}"
        return None

    def _lost(self, problem: str) -> None:
        was_up = self.connected.is_set()
        self.connected.clear()
        self.problem = problem
        if self.on_down is not None:
            self.on_down(problem)
        elif was_up:
            self.warn("broker_lost", broker=self.settings.url, reason=problem)
        else:
            self.warn("broker_unreachable", broker=self.settings.url, reason=problem)

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any) -> None:
        if not succeeded(reason):
            self._refusal = connect_failure_words(reason)
            return
        self.max_packet_bytes = getattr(properties, "MaximumPacketSize", None) or MQTT_MAX_PACKET_BYTES
        for topic in self.subscriptions:
            client.subscribe(topic, qos=1)
        self.generation += 1
        self.problem = None
        self.connected.set()
        if self.on_up is not None:
            self.on_up(bool(flags.session_present))

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: ReasonCode, properties: Any) -> None:
        if reason is not None and not succeeded(reason):
            self._closed = f"the broker closed the connection: {reason}"

    def _logged(self, client: mqtt.Client, userdata: Any, level: int, text: str) -> None:
        if level == mqtt.MQTT_LOG_ERR:
            self._paho_error = text

    def _socket_error(self) -> str | None:
        """A socket failure paho logged (it returns only "connection lost"), in words."""
        text = self._paho_error
        if text is None:
            return None
        if any(word in text.lower() for word in ("ssl", "tls", "certificate")):
            return tls_failure_words(text)
        return text

    # ------------------------------------------------------------------ from any thread
    def publish(self, topic: str, payload: bytes, retain: bool = False) -> mqtt.MQTTMessageInfo:
        return self.client.publish(topic, payload, qos=1, retain=retain)

    def stop(self, final: tuple[str, bytes] | None = None, timeout: float = 5.0) -> None:
        """Publish `final` (retained) if connected and wait for its ack, disconnect, end the thread."""
        if final is not None and self.connected.is_set():
            info = self.publish(final[0], final[1], retain=True)
            deadline = time.monotonic() + timeout
            while not info.is_published() and time.monotonic() < deadline and self.connected.is_set():
                time.sleep(0.01)
        self.stop_event.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.client._thread = None  # the loop is over: disconnect() writes from here
        try:
            self.client.disconnect()  # a normal DISCONNECT: the broker does not send the last will
        except OSError:
            pass
        self.connected.clear()


def client_id(prefix: str, name: str) -> str:
    """A client id that names the process: `tablectl-feed-site1-t07` (MQTT allows 23+ chars
    on every broker we know; Mosquitto takes up to 65535)."""
    return f"{prefix}-{name}" if name else f"{prefix}-{os.uname().nodename}"
