"""The bet sensor through the real daemon (`tablectl sim bets` on a pty, protocol 1.3): its
layout and every change of chips on a space (placed, added, removed, swapped) reach the
journal as `device` records and the event stream; its session shows in `tablectl status`;
lost and back, and rebooted, the spaces are read whole again and nothing changed meanwhile is
lost; a sensor configured but absent holds READY; a layout that does not fit the game is a
clear error in status. (What the table makes of the chips is the table's: not asserted here.)"""
import pytest

pytestmark = pytest.mark.hil
WAIT = 20.0
GAME = "paigow"  # two spaces a spot, six spots: 12 spaces


def chips_records(rig, space, after=0):
    return [r.payload for r in rig.records(after) if r.kind == "device" and r.payload.get("device") == "bets"
            and r.payload["event"] == "SpaceChips" and r.payload["space"] == space]


def last_seq(rig):
    records = rig.records()
    return records[-1].seq if records else 0


def test_chips_placed_added_removed_and_swapped_reach_the_journal(start_rig):
    rig = start_rig(GAME, seed=41, bets=True)
    bets = rig.status()["daemon"]["devices"]["bets"]
    assert bets["link"] == "ok" and bets["reason"] is None and bets["frames"]["frames"] > 0
    # READY came with the session; its whole state (the layout, then every space, empty ones
    # included) follows: each once
    def heard() -> list[int]:
        return sorted(p["space"] for p in (r.payload for r in rig.records()) if p.get("event") == "SpaceChips")

    rig.wait_until(lambda: len(heard()) >= 12, WAIT, "every space's first list")
    assert heard() == list(range(12))
    layouts = [r.payload for r in rig.records() if r.kind == "device" and r.payload["event"] == "BetLayout"]
    assert len(layouts) == 1 and len(layouts[0]["spaces"]) == 12
    assert layouts[0]["spaces"][:2] == [[0, 1, "standard"], [1, 1, "fortune_bonus"]]

    mark = rig.events.mark()
    placed = rig.bets.command("place", space="1:standard", values="2500,500")
    uids = [chip["uid"] for chip in placed["chips"]]
    rig.events.wait_for("device", after=mark, device="bets", space=0, total=3000)
    added = rig.bets.command("add", space="1:standard", values="100")["chips"][-1]["uid"]
    rig.events.wait_for("device", after=mark, device="bets", space=0, total=3100)
    swapped = rig.bets.command("swap", space="1:standard", value=1000, uid=uids[1])
    rig.events.wait_for("device", after=mark, device="bets", space=0, total=3600)
    rig.bets.command("remove", space="1:standard", n=1)
    event = rig.events.wait_for("device", after=mark, device="bets", space=0, total=3500)
    assert event["seat"] == 1 and event["bet"] == "standard" and event["chips"] == 2

    lists = [r["chips"] for r in chips_records(rig, 0) if r["change"] > 0]
    assert [sum(value for _, value in chips) for chips in lists] == [3000, 3100, 3600, 3500]
    new_uid = swapped["chips"][1]["uid"]
    assert lists[2] == [[uids[0], 2500], [new_uid, 1000], [added, 100]]  # the one chip exchanged, in place
    assert lists[-1] == [[uids[0], 2500], [new_uid, 1000]]  # the top chip taken off; bottom first, whole
    assert [r["change"] for r in chips_records(rig, 0) if r["change"] > 0] == [1, 2, 3, 4]
    assert rig.verify().ok


def test_the_sensor_lost_and_back_and_rebooted_loses_no_change(start_rig):
    rig = start_rig(GAME, seed=42, bets=True)
    mark = rig.events.mark()
    rig.bets.command("fault", kind="unplug")
    rig.events.wait_for("device", after=mark, device="bets", link="lost")
    rig.notify.wait_for(lambda m: "bets lost" in m.fields.get("STATUS", ""), WAIT)
    assert rig.status()["daemon"]["devices"]["bets"]["link"] == "lost"
    rig.bets.command("place", space="2:fortune_bonus", values="500")  # while nobody hears the sensor
    seq = last_seq(rig)
    rig.bets.command("fault", kind="replug")
    rig.events.wait_for("device", after=mark, device="bets", link="restored")
    rig.events.wait_for("device", after=mark, device="bets", space=3, total=500)
    assert [r["chips"][0][1] for r in chips_records(rig, 3, seq)] == [500]  # once, though sent again at the session
    assert rig.status()["daemon"]["devices"]["bets"]["link"] == "ok"

    mark, seq = rig.events.mark(), last_seq(rig)
    rig.bets.command("fault", kind="reboot")  # the chips stay where they lie; the counts start again
    rig.events.wait_for("device", after=mark, device="bets", link="rebooted")
    rig.events.wait_for("device", after=mark, device="bets", space=3, total=500)
    after = [r.payload for r in rig.records(seq) if r.kind == "device" and r.payload.get("device") == "bets"]
    assert [p["event"] for p in after[:2]] == ["DeviceRebooted", "BetLayout"]  # a new boot: the layout again
    assert chips_records(rig, 3, seq)[-1]["change"] == 0 and chips_records(rig, 3, seq)[-1]["chips"][0][1] == 500
    assert rig.verify().ok


def test_a_configured_sensor_that_is_absent_holds_ready(start_rig):
    rig = start_rig(GAME, seed=43, bets=True, absent=("bets",))
    waiting = rig.notify.wait_for(lambda m: "waiting for the bets (cannot open" in m.text, WAIT)
    assert not any("READY" in m.fields for m in waiting)
    assert rig.status()["daemon"]["devices"]["bets"]["link"] == "absent"
    rig.start_sim("bets")
    ready = rig.notify.wait_for(lambda m: "READY" in m.fields, WAIT)[-1]
    assert ready.fields["STATUS"].endswith("shoe ok · panel ok · lights ok · bets ok")


def test_a_layout_that_does_not_fit_the_game_is_a_clear_error_in_status(start_rig):
    # a sensor set up for a baccarat table, at a Pai Gow table
    rig = start_rig(GAME, seed=44, bets=True, sim_args={"bets": ["--game", "fortune6"]})
    rig.wait_until(lambda: rig.status()["daemon"]["devices"]["bets"]["link"] == "mismatch", WAIT, "the mismatch")
    reason = rig.status()["daemon"]["devices"]["bets"]["reason"]
    assert reason.startswith("layout does not fit paigow: space 0 (spot 1) is 'player', not a wager of paigow "
                             "(standard, fortune_bonus); ")
    assert reason.endswith("more)")
    rig.notify.wait_for(lambda m: "bets mismatch" in m.fields.get("STATUS", ""), WAIT)
    mark = rig.events.mark()
    rig.bets.command("place", space="1:banker", values="500")  # journaled, never a wager
    rig.events.wait_for("device", after=mark, device="bets", space=1, total=500)
    assert chips_records(rig, 1)[-1]["chips"][0][1] == 500
