"""A real Mosquitto broker for tests and benchmarks: Debian's `mosquitto` started on an
ephemeral 127.0.0.1 port with a generated config, in a directory of its own, stopped by its PID.

    with Mosquitto(directory, tls=True, passwords={"pit": "secret"}) as broker:
        broker.url                       # mqtts://localhost:PORT (or mqtt://127.0.0.1:PORT)
        broker.pki.client("table-1")     # (cert, key) signed by the test CA, CN table-1
        broker.kill(); broker.start()    # SIGKILL and restart on the same port

With tls=True the broker requires a client certificate signed by the CA it generated
(`broker.pki`, made with the `cryptography` package). Queues and in-flight windows are
unbounded: a slow subscriber must not make the broker drop QoS 1 messages.
"""
from __future__ import annotations

import datetime
import ipaddress
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from simulation.rig.processes import Child, RigError

MOSQUITTO = "/usr/sbin/mosquitto"
START_WAIT_S = 10.0
needs_mosquitto_reason = "mosquitto is not installed (.ci/setup installs it)"  # for the tests' skip marks


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick; Mosquitto binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def mosquitto_path() -> str | None:
    return shutil.which("mosquitto") or (MOSQUITTO if Path(MOSQUITTO).exists() else None)


@dataclass
class TestPki:
    """A CA, a server certificate for localhost/127.0.0.1 and client certificates on demand."""

    directory: Path
    ca: Path = field(init=False)
    _ca_key: object = field(init=False, repr=False)
    _ca_cert: object = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._ca_key, self._ca_cert = self._make("tablectl test CA", None, ca=True)
        self.ca = self._write("ca.pem", self._ca_cert, None)[0]
        self.server = self.issue("localhost", server=True)

    def client(self, name: str) -> tuple[Path, Path]:
        """A client certificate (CN = name) signed by this CA: (cert path, key path)."""
        return self.issue(name)

    def stranger(self, name: str) -> tuple[Path, Path]:
        """A client certificate signed by another CA: a broker of this PKI refuses it."""
        other = TestPki(self.directory / "other-ca")
        cert, key = other.issue(name)
        return cert, key

    def issue(self, name: str, server: bool = False) -> tuple[Path, Path]:
        key, cert = self._make(name, (self._ca_key, self._ca_cert), server=server)
        return self._write(f"{name}.pem", cert, key)

    def _make(self, name: str, issuer, ca: bool = False, server: bool = False):
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        issuer_key, issuer_cert = issuer if issuer else (key, None)
        now = datetime.datetime.now(datetime.UTC)
        builder = (x509.CertificateBuilder().subject_name(subject)
                   .issuer_name(issuer_cert.subject if issuer_cert else subject)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if server:
            names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
            builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        elif not ca:
            builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        return key, builder.sign(issuer_key, hashes.SHA256())

    def _write(self, name: str, cert, key) -> tuple[Path, Path]:
        from cryptography.hazmat.primitives import serialization

        cert_path = self.directory / name
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path = self.directory / (name.removesuffix(".pem") + ".key")
        if key is not None:
            key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
            key_path.chmod(0o600)
        return cert_path, key_path


class Mosquitto:
    def __init__(self, directory: Path, *, tls: bool = False, passwords: dict[str, str] | None = None,
                 port: int | None = None) -> None:
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.tls = tls
        self.passwords = passwords or {}
        self.port = port or free_port()
        self.pki = TestPki(self.dir / "pki") if tls else None
        self.child: Child | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"mqtts://localhost:{self.port}" if self.tls else f"mqtt://127.0.0.1:{self.port}"

    def config_text(self) -> str:
        lines = [f"listener {self.port} 127.0.0.1",
                 f"user {pwd.getpwuid(os.getuid()).pw_name}",  # as root it would switch to `mosquitto`, who cannot read our files
                 "persistence false",
                 "log_dest stderr", "log_type error", "log_type warning", "log_type notice",
                 "max_queued_messages 0",  # unbounded: never drop a QoS 1 message for a slow pit
                 "max_inflight_messages 0",
                 "max_keepalive 65535"]
        if self.passwords:
            lines += [f"password_file {self._password_file()}", "allow_anonymous false"]
        else:
            lines.append("allow_anonymous true")
        if self.pki is not None:
            cert, key = self.pki.server
            lines += [f"cafile {self.pki.ca}", f"certfile {cert}", f"keyfile {key}",
                      "require_certificate true", "tls_version tlsv1.2"]
            if not self.passwords:
                lines.append("use_identity_as_username true")
        return "\n".join(lines) + "\n"

    def _password_file(self) -> Path:
        path = self.dir / "passwords"
        path.write_text("".join(f"{user}:{password}\n" for user, password in self.passwords.items()))
        path.chmod(0o600)
        subprocess.run(["mosquitto_passwd", "-U", str(path)], check=True, capture_output=True)
        return path

    def start(self) -> Mosquitto:
        program = mosquitto_path()
        if program is None:
            raise RigError("mosquitto is not installed (apt-get install mosquitto)")
        config = self.dir / "mosquitto.conf"
        config.write_text(self.config_text())
        self.starts += 1
        self.child = Child(f"mosquitto-{self.starts}", [program, "-c", str(config)], self.dir)
        deadline = time.monotonic() + START_WAIT_S
        while time.monotonic() < deadline:
            if not self.child.running:
                raise RigError(f"mosquitto exited at start:\n{self.child.output()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RigError(f"mosquitto did not listen on 127.0.0.1:{self.port} within {START_WAIT_S:g} s:\n{self.child.output()}")

    def kill(self) -> None:
        """SIGKILL: the broker dies with whatever it had in memory."""
        if self.child is not None:
            self.child.signal(signal.SIGKILL)
            self.child.proc.wait()

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()

    def output(self) -> str:
        return self.child.output() if self.child else ""

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
