"""The simulated table: the rig (a real daemon process against simulated devices on ptys,
and the dealer that drives them), `tablectl demo`, and table_dealer (whole shoes dealt
through a Table in-process, for benches and tests)."""
