//! Statement families, each executed by `impl Session` methods over the session's state.
mod accounts;
