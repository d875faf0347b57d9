//! Privileges in MariaDB's model: the bits and their levels, what one
//! account holds, and the checks statements make.
pub(crate) mod bits;
mod checks;
pub(crate) mod columns;
pub(crate) mod grants;
