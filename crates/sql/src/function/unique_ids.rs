//! Values made unique at each call: UUID().
use super::kinds::text;
use super::Builtin;
use crate::error::Result;
use lineardb_table::Value;

pub(super) const FUNCTIONS: &[Builtin] = &[Builtin::new(&["UUID"], (0, 0), text, uuid).volatile()];

/// UUID(): a version 1 UUID as MariaDB makes one: the time in 100 ns
/// steps since 1582-10-15, a clock sequence and a node. The node here is
/// random with its multicast bit set (RFC 4122's choice for a host
/// without a MAC address it may use), so no two servers share one.
fn uuid(_: &[Value]) -> Result<Value> {
    const GREGORIAN_TO_UNIX_100NS: u64 = 0x01B2_1DD2_1381_4000;
    let now = crate::expr::clock::now_utc().max(0) as u64;
    let t = now * 10 + GREGORIAN_TO_UNIX_100NS + u64::from(rand::random::<u8>() % 10);
    let clock_seq: u16 = rand::random::<u16>() & 0x3fff | 0x8000;
    let node: u64 = rand::random::<u64>() & 0xffff_ffff_ffff | 0x0100_0000_0000;
    Ok(Value::str(&format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        t & 0xffff_ffff,
        (t >> 32) & 0xffff,
        (t >> 48) & 0x0fff | 0x1000,
        clock_seq,
        node
    )))
}
