#!/usr/bin/env python3
"""Writes latin1_weights.rs: per latin1 byte, the character it is (MariaDB's
latin1 is Windows-1252, its five unassigned bytes the C1 controls of the
same number) and its weight under latin1_swedish_ci and latin1_general_ci,
as MariaDB's CONVERT and WEIGHT_STRING report them (every weight is one
byte; latin1_bin weighs a byte as itself).

Usage: latin1_weights.py [mariadb client options] > latin1_weights.rs
"""
import subprocess
import sys

QUERY = """
SELECT seq, HEX(CONVERT(CHAR(seq USING latin1) USING utf32)),
       HEX(WEIGHT_STRING(CHAR(seq USING latin1) COLLATE latin1_swedish_ci)),
       HEX(WEIGHT_STRING(CHAR(seq USING latin1) COLLATE latin1_general_ci))
FROM seq_0_to_255"""


def table(name, doc, kind, values):
    rows = []
    for i in range(0, 256, 16):
        rows.append("    " + ", ".join(values[i:i + 16]) + ",")
    return f"/// {doc}\npub(super) static {name}: [{kind}; 256] = [\n" + "\n".join(rows) + "\n];\n"


def main():
    out = subprocess.run(["mysql", "-N", "-B", *sys.argv[1:], "-e", QUERY],
                         check=True, capture_output=True, text=True).stdout
    chars, swedish, general = [], [], []
    for line in out.splitlines():
        _, utf32, sw, gen = line.split("\t")
        chars.append(f"0x{int(utf32, 16):04X}")
        swedish.append(f"0x{sw}")
        general.append(f"0x{gen}")
    print("//! Written by latin1_weights.py from MariaDB; do not edit.")
    print()
    print(table("CHARS", "The character each latin1 byte is.", "u16", chars))
    print(table("SWEDISH_CI", "Each latin1 byte's weight under latin1_swedish_ci.", "u8", swedish))
    print(table("GENERAL_CI", "Each latin1 byte's weight under latin1_general_ci.", "u8", general), end="")


if __name__ == "__main__":
    main()
