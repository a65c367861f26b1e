"""At start-up the daemon reads the shoe's last journaled cards of its current boot
(controller/daemon/shoe_resends.py), so that a card a 1.2 shoe sends again after a crash is a
repeat. A real SQLite journal, records as the loop writes them (the device sessions'
`device` records: controller/daemon/sessions.py)."""
from controller.daemon.sessions import DeviceSessions
from controller.daemon.shoe_resends import cards_heard_last
from controller.journal import Journal
from controller.table import Table
from drivers import events as ev
from drivers.shoe import REPEAT_WINDOW
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import CardRead, Hello


def journal_of(tmp_path, events) -> Journal:
    journal = Journal(tmp_path / "journal.sqlite")
    sessions = DeviceSessions("fortune6", Table("fortune6"))
    for event in events:
        out = sessions.translate(event)
        for step in [*out.prior, out]:
            if step.journaled:
                journal.append(step.kind, step.record)
    return journal


def hello(boot_id: int) -> Hello:
    return Hello(DeviceKind.SHOE, boot_id=boot_id, serial="SHOE-1")


def card(counter: int, device_ms: int, device: str = "shoe") -> ev.CardDrawn:
    misread = counter == 3  # a misread card is remembered too: code 0 with the flag
    return ev.CardDrawn(device=device, at=0.0, code=0 if misread else 0x0101 + counter % 13, draw_counter=counter,
                        device_time=device_ms, double_draw=False, misread=misread)


def test_the_cards_of_the_current_boot_oldest_first(tmp_path):
    journal = journal_of(tmp_path, [
        ev.SessionUp(device="shoe", at=0.0, hello=hello(1)), card(1, 10), card(2, 20),
        ev.SessionUp(device="shoe", at=0.0, hello=hello(2)), card(3, 5), card(4, 15),  # a reboot
        ev.ButtonPressed(device="panel", at=0.0, button=3), ev.LinkDown(device="shoe", at=0.0, reason="hang-up"),
        ev.SessionUp(device="shoe", at=0.0, hello=hello(2)), card(5, 25)])  # restored, the same boot
    names = [row[0] for row in journal.connection.execute(
        "SELECT json_extract(payload, '$.event') FROM records WHERE json_extract(payload, '$.device') = 'shoe' "
        "AND json_extract(payload, '$.hello') IS NOT NULL ORDER BY seq")]
    assert names == ["DeviceConnected", "DeviceRebooted", "LinkRestored"]
    boot, cards = cards_heard_last(journal)
    assert boot == 2
    assert cards == [CardRead(0, 3, 5, misread=True), CardRead(0x0101 + 4, 4, 15), CardRead(0x0101 + 5, 5, 25)]
    journal.close()


def test_at_most_the_repeat_window_and_nothing_for_a_journal_without_a_shoe(tmp_path):
    many = [ev.SessionUp(device="shoe", at=0.0, hello=hello(9))] + [card(n, n) for n in range(1, 50)]
    journal = journal_of(tmp_path, many)
    boot, cards = cards_heard_last(journal)
    assert boot == 9 and [c.draw_counter for c in cards] == list(range(50 - REPEAT_WINDOW, 50))
    journal.close()
    (tmp_path / "other").mkdir()
    empty = journal_of(tmp_path / "other", [ev.ButtonPressed(device="panel", at=0.0, button=3)])
    assert cards_heard_last(empty) == (None, [])
    empty.close()
