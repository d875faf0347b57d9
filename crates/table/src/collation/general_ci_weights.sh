#!/bin/sh
# Writes general_ci_weights.rs: every BMP character whose utf8mb4_general_ci
# weight is not its own code point, as MariaDB's WEIGHT_STRING reports it.
# Usage: general_ci_weights.sh [mariadb client options] > general_ci_weights.rs
set -e
{
  echo '//! utf8mb4_general_ci: the BMP characters whose weight is not their own'
  echo '//! code point (case and accent folding), as MariaDB 10.11 weighs them.'
  echo '//! Written by general_ci_weights.sh from WEIGHT_STRING over U+0000..U+FFFF.'
  echo ''
  echo '/// (code point, weight), ascending by code point.'
  mariadb --default-character-set=utf8mb4 -N "$@" -e "
    SELECT CONCAT('(0x', LPAD(HEX(seq), 4, '0'), ', 0x', w, '),') FROM (
      SELECT seq, HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4)
                                    COLLATE utf8mb4_general_ci)) AS w
      FROM seq_0_to_65535) t
    WHERE CONV(w, 16, 10) <> seq AND (seq < 0xD800 OR seq > 0xDFFF) ORDER BY seq" |
  awk 'BEGIN { printf "#[rustfmt::skip]\npub(super) static FOLDS: &[(u16, u16)] = &[\n" }
       { line = line " " $0; n++; if (n == 6) { print "   " line; line = ""; n = 0 } }
       END { if (n) print "   " line; print "];" }'
}
