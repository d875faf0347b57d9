//! Rows shaped like sysbench 1.0.20's sbtest table: `id` INT primary key,
//! `k` INT uniform in 1..=table_size, `c` CHAR(120) and `pad` CHAR(60) made of
//! groups of 11 random digits joined by '-' (oltp_common.lua's templates).
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub const C_LEN: usize = 120;
pub const PAD_LEN: usize = 60;

/// sysbench's `sb_rand_str("###########-###...")`: digit groups of 11 joined by '-'.
pub fn digits_string(rng: &mut SmallRng, groups: usize) -> String {
    let mut s = String::with_capacity(groups * 12);
    for g in 0..groups {
        if g > 0 {
            s.push('-');
        }
        for _ in 0..11 {
            s.push((b'0' + rng.gen_range(0..10u8)) as char);
        }
    }
    s
}

/// One sbtest row.
pub struct Row {
    pub id: u32,
    pub k: u32,
    pub c: String,
    pub pad: String,
}

/// The rows 1..=n in id order, deterministic for a seed.
pub fn rows(n: u32, seed: u64) -> impl Iterator<Item = Row> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (1..=n).map(move |id| Row {
        id,
        k: rng.gen_range(1..=n),
        c: digits_string(&mut rng, 10),
        pad: digits_string(&mut rng, 5),
    })
}

/// Primary-tree value of the engine bench: k (4 bytes, big-endian), c, pad.
pub fn primary_value(row: &Row) -> Vec<u8> {
    let mut v = Vec::with_capacity(4 + C_LEN + PAD_LEN);
    v.extend_from_slice(&row.k.to_be_bytes());
    v.extend_from_slice(row.c.as_bytes());
    v.extend_from_slice(row.pad.as_bytes());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_have_sysbench_shapes() {
        let rows: Vec<Row> = rows(1000, 1).collect();
        assert_eq!(rows.len(), 1000);
        for r in &rows {
            assert_eq!(r.c.len(), C_LEN - 1, "10 groups of 11 digits and 9 dashes");
            assert_eq!(r.pad.len(), PAD_LEN - 1);
            assert!((1..=1000).contains(&r.k));
            assert!(r
                .c
                .split('-')
                .all(|g| g.len() == 11 && g.bytes().all(|b| b.is_ascii_digit())));
        }
    }
}
