"""Who gets one of the control socket's connections: no user, and no crowd of idle readers,
can lock the table's owners out.

- At most `max_clients` connections in all (control.max_clients).
- At most `max_per_uid` of them for any one user (control.max_clients_per_uid). Root and the
  daemon's own user (the table's services and its operator) are not counted against it.
- The last `owner_slots` connections (control.owner_slots) are kept for root and the daemon's
  user: whatever other users hold, `tablectl status` and the table's commands get in.

A refused client gets one line saying which rule refused it (controller/control/accepting.py).
"""
from __future__ import annotations

from collections import Counter

from controller.control.peers import Peer, user_name


class Admission:
    def __init__(self, *, max_clients: int, max_per_uid: int, owner_slots: int, owner_uid: int) -> None:
        self.max_clients, self.max_per_uid = max_clients, max_per_uid
        self.owner_slots = min(owner_slots, max_clients)
        self.owner_uid = owner_uid
        self.per_uid: Counter[int] = Counter()  # connections now, by the peer's uid

    def is_owner(self, peer: Peer) -> bool:
        return peer.uid in (0, self.owner_uid)

    def refusal(self, peer: Peer, connected: int) -> tuple[str, str] | None:
        """(the refusals counter it counts under, the line's error) or None: take it."""
        if connected >= self.max_clients:
            return "max_clients", (f"too many clients: the daemon serves at most {self.max_clients} at once "
                                   f"(control.max_clients); try again when one has disconnected")
        if self.is_owner(peer):
            return None
        if self.per_uid[peer.uid] >= self.max_per_uid:
            return "per_uid", (f"too many clients for {peer.text()}: at most {self.max_per_uid} per user at once "
                               f"(control.max_clients_per_uid); close one of yours first")
        if connected >= self.max_clients - self.owner_slots:
            owner = user_name(self.owner_uid) or f"uid {self.owner_uid}"
            return "kept_for_owners", (f"too many clients: the last {self.owner_slots} of the daemon's "
                                       f"{self.max_clients} connections are kept for root and the daemon's user "
                                       f"({owner}) (control.owner_slots); try again when one has disconnected")
        return None

    def taken(self, peer: Peer) -> None:
        self.per_uid[peer.uid] += 1

    def left(self, peer: Peer) -> None:
        self.per_uid[peer.uid] -= 1
        if self.per_uid[peer.uid] <= 0:
            del self.per_uid[peer.uid]

    def to_json(self) -> dict:
        return {"max_clients_per_uid": self.max_per_uid, "owner_slots": self.owner_slots}
