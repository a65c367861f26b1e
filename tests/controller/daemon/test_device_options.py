"""The link timings the daemon gives its drivers: a device that keeps to the protocol's 1 s
heartbeat is never taken for silent, however short the host's own heartbeat is configured."""
from controller.config.load import config_from_dict
from controller.daemon.device_options import driver_options


def link_options(heartbeat: float) -> dict:
    config = config_from_dict({"game": "fortune6", "timeouts": {"heartbeat_interval_s": heartbeat}})
    return driver_options(config, "shoe")["link_options"]


def test_silence_is_three_and_a_half_device_heartbeats_at_least():
    assert link_options(0.2) == {"ack_timeout": 0.25, "heartbeat_interval": 0.2, "silence_timeout": 3.5}
    assert link_options(2.0)["silence_timeout"] == 7.0
