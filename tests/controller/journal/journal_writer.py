"""A stand-in for the daemon's journal writing, run as a child process by the crash tests.

    python3 journal_writer.py JOURNAL_PATH MAX_RECORDS [exit|hang]

On start it recovers: rounds are numbered on from the journal, a round left open is voided
(local ruling L4 style, as the daemon would), then it deals rounds as fast as it can. After
each append it prints "seq round kind hash" and flushes, so the parent knows what was
committed before it sends SIGKILL. After MAX_RECORDS it exits, or hangs (for a kill at a
known point).
"""
import sys

from controller.journal import Journal, recover

CARDS = ["As", "Kd", "9h", "8c", "2s", "3h", "4d", "5c", "6s", "7h", "Td", "Jc", "Qs"]


def main(path: str, max_records: int, at_end: str) -> None:
    journal = Journal(path)
    written = 0

    def append(kind, payload, round=None, durable=False):
        nonlocal written
        record = journal.append(kind, payload, round=round, durable=durable)
        print(record.seq, record.round, record.kind, record.hash, flush=True)
        written += 1
        if written >= max_records:
            if at_end == "hang":
                sys.stdin.read()  # until the parent kills us
            journal.close()
            sys.exit(0)

    state = recover(journal)
    append("daemon_started", {"pid_note": "test writer", "last_round": state.last_round})
    if state.interrupted is not None and state.interrupted.status == "open":
        number = state.interrupted.round
        append("recovered", {"round": number, "cards": len(state.interrupted.cards)})
        append("void", {"round": number, "clause": "local ruling L4",
                        "reason": "the controller restarted mid-round", "evidence": {}}, durable=True)
    if state.shoe.number is None:
        append("shoe", {"event": "new", "shoe": 1})
    number, draw = state.next_round, state.shoe.last_draw_counter or 0
    while True:
        append("round_opened", {"round": number, "game": "fortune6", "decks": 8, "shoe": 1})
        append("bets_closed", {"round": number})
        for position in range(4 + number % 3):
            draw += 1
            card = CARDS[draw % len(CARDS)]
            append("card", {"round": number, "card": card, "code": 0x0100 + draw % 13 + 1,
                            "hand": ("player", "banker")[position % 2], "position": position // 2,
                            "draw_counter": draw})
        append("result", {"round": number, "winner": "banker", "hands": {}, "bets": {}, "lamps": {}}, durable=True)
        append("settled", {"round": number})
        number += 1


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "exit")
