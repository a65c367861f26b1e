"""The table's key as its config names it: the signer for the daemon, the verifier for readers.

    signer = table_signer(config)       # None: journal.unsigned = true; SigningKeyError: no usable key
    verifier = table_verifier(config)   # the public key beside journal.signing_key (readable by all)

The table's identity is `journal.table`, or `feed.table` when that is empty: the pit checks
the signatures against the table it is fed as.
"""
from __future__ import annotations

import os
from typing import Any

from controller.journal.signing import SigningKeyError, TableSigner, TableVerifier, public_key_path

NO_KEY = ("journal.signing_key is not set: the table signs its journal with its own key "
          "(`tablectl keys table` makes it; docs/journal.md, Signed heads), or set journal.unsigned = true (a lab only)")


def table_identity(config: Any) -> str:
    table = config.journal.table or config.feed.table
    if not table:
        raise SigningKeyError("journal.table is not set (nor feed.table): the table's identity, signed with its journal")
    return str(table)


def table_signer(config: Any) -> TableSigner | None:
    """The daemon's signer; None when the config says unsigned explicitly."""
    journal = config.journal
    if journal.unsigned:
        return None
    if not journal.signing_key:
        raise SigningKeyError(NO_KEY)
    if not os.path.exists(journal.signing_key):
        raise SigningKeyError(f"{journal.signing_key}: no such table key file (journal.signing_key): `tablectl keys table` "
                              "makes the table's key pair (docs/journal.md, Signed heads), or set journal.unsigned = true "
                              "(a lab only)")
    return TableSigner.from_file(journal.signing_key, table_identity(config))


def table_verifier(config: Any) -> TableVerifier | None:
    """For `journal verify`/`check` by anyone who reads the config: the public key; None when unsigned."""
    journal = config.journal
    if journal.unsigned or not journal.signing_key:
        return None  # nothing to check signatures with: the chain alone
    return TableVerifier.from_public_file(public_key_path(journal.signing_key), table_identity(config))
