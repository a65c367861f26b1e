"""The simulated table: the rig (a real daemon process against simulated devices on ptys,
and the dealer that drives them) and `tablectl demo`."""
