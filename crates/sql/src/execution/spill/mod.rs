//! Spilling to temporary files: what a query holds past its memory budget
//! (`lineardb_query_memory`) goes to files that live only as long as the
//! query, and comes back in order.
mod codec;
pub(crate) mod file;
pub(crate) mod partition;
pub(crate) mod sort;
