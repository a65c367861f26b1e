"""The wire our device firmware speaks: framing, messages, link layer, virtual firmware."""
