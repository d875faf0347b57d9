#!/usr/bin/env python3
"""Writes unicode_ci_weights.rs: the utf8mb4_unicode_ci weights of the BMP
characters as MariaDB's WEIGHT_STRING reports them, in two lists: runs of
characters of one weight each, each one more than the last, and the
characters of no weight or of several. A character in neither list weighs
UCA's implicit weights (see collation.rs, `implicit_weights`).

Usage: unicode_ci_weights.py [mariadb client options] > unicode_ci_weights.rs
"""
import subprocess
import sys

QUERY = """
SELECT seq, HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4)
                              COLLATE utf8mb4_unicode_ci))
FROM seq_0_to_65535 WHERE seq < 0xD800 OR seq > 0xDFFF"""


def implicit(cp):
    """UCA's weights of a character the table does not list."""
    if 0x4E00 <= cp <= 0x9FA5:
        base = 0xFB40
    elif 0x3400 <= cp <= 0x4DB5:
        base = 0xFB80
    else:
        base = 0xFBC0
    return [base + (cp >> 15), (cp & 0x7FFF) | 0x8000]


def main():
    out = subprocess.run(
        ["mariadb", "--default-character-set=utf8mb4", "-N", *sys.argv[1:], "-e", QUERY],
        check=True, capture_output=True, text=True).stdout
    weights = {}
    for line in out.splitlines():
        cp, hexed = (line.split("\t") + [""])[:2]
        weights[int(cp)] = [int(hexed[i:i + 4], 16) for i in range(0, len(hexed), 4)]
    assert len(weights) == 0x10000 - 0x800, len(weights)
    runs, others = [], []
    for cp in sorted(weights):
        w = weights[cp]
        if w == implicit(cp):
            continue
        if len(w) == 1:
            assert w[0] < 0x8000, (cp, w)
            if runs and runs[-1][0] + runs[-1][1] == cp and runs[-1][2] + runs[-1][1] == w[0]:
                runs[-1][1] += 1
            else:
                runs.append([cp, 1, w[0]])
        else:
            others.append((cp, w))
    assert len(others) < 0x7FFF
    print("//! utf8mb4_unicode_ci (UCA 4.0.0, primary weights): the BMP characters")
    print("//! that do not weigh UCA's implicit weights, as MariaDB 10.11 weighs them.")
    print("//! Written by unicode_ci_weights.py from WEIGHT_STRING over U+0000..U+FFFF.")
    print()
    print("/// Runs of characters of one weight each, each one more than the one")
    print("/// before: (first code point, characters, first weight), ascending.")
    print("#[rustfmt::skip]")
    print("pub(super) static RUNS: &[(u16, u16, u16)] = &[")
    items = [f"(0x{cp:04X}, {n}, 0x{w:04X})," for cp, n, w in runs]
    for i in range(0, len(items), 5):
        print("    " + " ".join(items[i:i + 5]))
    print("];")
    print()
    print("/// Characters of no weight (ignored) or of several (expansions):")
    print("/// (code point, weights), ascending.")
    print("#[rustfmt::skip]")
    print("pub(super) static OTHERS: &[(u16, &[u16])] = &[")
    items = ["(0x%04X, &[%s])," % (cp, ", ".join(f"0x{x:04X}" for x in w)) for cp, w in others]
    for i in range(0, len(items), 3):
        print("    " + " ".join(items[i:i + 3]))
    print("];")


main()
