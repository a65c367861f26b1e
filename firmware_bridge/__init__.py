"""The wire our device firmware speaks: framing, messages, link layer, virtual firmware.

    PROTOCOL.md      the one page for firmware engineers
    frame.py         Frame, encode_frame, decode / scan (pure), FrameDecoder (incremental)
    enums.py         Msg type numbers, DeviceKind, LampPattern, NakReason, ErrorCode
    messages.py      one dataclass per message; pack / unpack
    sender.py        the link's sending half (sequence numbers, window, retransmission)
    link.py          Link: the sans-IO link both ends use; link_events.py: what it reports
    auth.py          protocol 1.1: device key files, session keys, MACs (HMAC-SHA-256)
    link_auth.py     one link end's 1.1 state: nonces, session key, frame counters
    sim/             the simulated shoe, panel and lights (`tablectl sim ...`)

This layer knows bytes and messages, not games: it uses games.cards only for card codes.
"""
