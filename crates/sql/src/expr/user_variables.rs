//! User variables assigned inside a statement (`SELECT @n := @n + 1`,
//! `UPDATE t SET a = (@x := @x + 1)`). Such a statement runs with the
//! session's variables moved into this thread for its duration: its `@name`
//! reads and `:=` assignments go to them row by row (the statement runs on
//! one thread), and they return to the session when it ends. Statements
//! without `:=` read variables as constants (as planned).
use lineardb_table::Value;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

thread_local! {
    static ASSIGNING: Cell<bool> = const { Cell::new(false) };
    static VARIABLES: RefCell<HashMap<String, Value>> = RefCell::new(HashMap::new());
}

/// Runs `f` (a statement that assigns user variables) with `variables` as
/// this thread's, returning them afterwards.
pub(crate) fn run_assigning<T>(variables: &mut HashMap<String, Value>, f: impl FnOnce() -> T) -> T {
    VARIABLES.with(|v| std::mem::swap(&mut *v.borrow_mut(), variables));
    ASSIGNING.with(|a| a.set(true));
    let out = f();
    ASSIGNING.with(|a| a.set(false));
    VARIABLES.with(|v| std::mem::swap(&mut *v.borrow_mut(), variables));
    out
}

/// Whether the statement being compiled assigns user variables (then its
/// reads are made at run time).
pub(crate) fn assigning() -> bool {
    ASSIGNING.with(Cell::get)
}

/// `@name` as the statement has it now (NULL when never set).
pub(crate) fn get(name: &str) -> Value {
    VARIABLES.with(|v| v.borrow().get(name).cloned().unwrap_or(Value::Null))
}

/// `@name := value`.
pub(crate) fn set(name: &str, value: Value) {
    VARIABLES.with(|v| v.borrow_mut().insert(name.to_string(), value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_reach_the_session_after_the_statement() {
        let mut session = HashMap::from([("n".to_string(), Value::Int(1))]);
        let seen = run_assigning(&mut session, || {
            assert!(assigning());
            let n = get("n");
            set("n", Value::Int(2));
            (n, get("n"), get("missing"))
        });
        assert!(!assigning());
        assert_eq!(seen, (Value::Int(1), Value::Int(2), Value::Null));
        assert_eq!(session["n"], Value::Int(2));
    }
}
