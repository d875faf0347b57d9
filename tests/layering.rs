//! The layering the architecture promises, checked on the sources:
//! arrows between crates only point down (`Cargo.toml`), `sql` reaches the
//! storage only through `table` (and `txn`'s handles), `table` carries no
//! benchmark dependency, and within a crate no two source files import each
//! other (through `crate::`/`super::` paths, `use crate::{…}` groups, or
//! crate-root names that `lib.rs` re-exports from a module), outside
//! `#[cfg(test)]` code.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers bottom-up; a crate may depend only on crates listed before it.
const LAYERS: &[&str] = &[
    "sync", "buffer", "btree", "wal", "txn", "table", "load", "sql", "server", "bench",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `lineardb-*` crates named in a `[dependencies]` section.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps {
            if let Some(name) = line.strip_prefix("lineardb-") {
                out.push(name.split([' ', '=']).next().unwrap().to_string());
            }
        }
    }
    out
}

#[test]
fn crates_depend_only_on_layers_below() {
    for (i, layer) in LAYERS.iter().enumerate() {
        let manifest =
            std::fs::read_to_string(root().join("crates").join(layer).join("Cargo.toml")).unwrap();
        for dep in dependencies(&manifest) {
            let at = LAYERS.iter().position(|l| *l == dep);
            assert!(
                at.is_some_and(|d| d < i),
                "{layer} depends on {dep}, which is not below it"
            );
        }
    }
    let sql = std::fs::read_to_string(root().join("crates/sql/Cargo.toml")).unwrap();
    for lower in ["btree", "buffer", "wal"] {
        assert!(
            !dependencies(&sql).iter().any(|d| d == lower),
            "sql depends on {lower}"
        );
    }
    let table = std::fs::read_to_string(root().join("crates/table/Cargo.toml")).unwrap();
    assert!(
        !table.contains("tpchgen"),
        "table carries a benchmark dependency"
    );
    let lib = std::fs::read_to_string(root().join("crates/table/src/lib.rs")).unwrap();
    for line in lib.lines().filter(|l| l.starts_with("pub use")) {
        assert!(
            !line.contains("lineardb_"),
            "table re-exports a lower layer's type: {line}"
        );
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's code without its `#[cfg(test)]` tail and line comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths that follow each `prefix` (`a::b::c`), and the items of
/// `prefix{…}` groups (their first segments).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let first = item.trim().split("::").next().unwrap().trim();
                if !first.is_empty() {
                    out.push(vec![first.to_string()]);
                }
            }
            continue;
        }
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        out.push(
            path.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        );
    }
    out
}

/// Pairs of files of the crate whose sources are in `src` that import each other.
fn mutual_imports(src: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let module = |p: &Path| -> String {
        let rel = p.strip_prefix(src).unwrap().with_extension("");
        let m = rel.to_string_lossy().replace('/', "::");
        let m = m.strip_suffix("::mod").unwrap_or(&m).to_string();
        if m == "lib" || m == "main" {
            String::new()
        } else {
            m
        }
    };
    let sources: BTreeMap<String, String> = files
        .iter()
        .map(|p| (module(p), code(&std::fs::read_to_string(p).unwrap())))
        .collect();
    // Crate-root names re-exported from a module: `pub use m::{A, B}`.
    let mut root_names: BTreeMap<String, String> = BTreeMap::new();
    for line in sources.get("").map_or("", String::as_str).lines() {
        let line = line.trim();
        let Some(rest) = line
            .strip_prefix("pub use ")
            .or_else(|| line.strip_prefix("pub(crate) use "))
        else {
            continue;
        };
        let Some((m, names)) = rest.split_once("::") else {
            continue;
        };
        if sources.contains_key(m) {
            for n in names.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !n.is_empty() {
                    root_names.insert(n.to_string(), m.to_string());
                }
            }
        }
    }
    let resolve = |base: &[String], path: &[String]| -> Option<String> {
        (1..=path.len()).rev().find_map(|n| {
            let mut parts = base.to_vec();
            parts.extend_from_slice(&path[..n]);
            let m = parts.join("::");
            sources.contains_key(&m).then_some(m)
        })
    };
    let mut imports: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in &sources {
        let mut set = BTreeSet::new();
        for path in paths_after(text, "crate::") {
            let found = resolve(&[], &path)
                .or_else(|| path.first().and_then(|n| root_names.get(n).cloned()));
            set.extend(found);
        }
        let parent: Vec<String> = match m.rsplit_once("::") {
            Some((p, _)) => p.split("::").map(str::to_string).collect(),
            None => Vec::new(),
        };
        for path in paths_after(text, "super::") {
            set.extend(resolve(&parent, &path));
        }
        set.remove(m);
        set.remove("");
        imports.insert(m, set);
    }
    let mut pairs = Vec::new();
    for (a, set) in &imports {
        for b in set {
            if a < &b.as_str() && imports.get(b.as_str()).is_some_and(|s| s.contains(*a)) {
                pairs.push((a.to_string(), b.clone()));
            }
        }
    }
    pairs
}

#[test]
fn no_two_files_import_each_other() {
    let mut found = Vec::new();
    let mut dirs: Vec<(String, PathBuf)> = LAYERS
        .iter()
        .map(|l| (l.to_string(), root().join("crates").join(l).join("src")))
        .collect();
    dirs.push(("lineardb".into(), root().join("src")));
    for (name, src) in dirs {
        for (a, b) in mutual_imports(&src) {
            found.push(format!("{name}: {a} <-> {b}"));
        }
    }
    assert!(found.is_empty(), "files that import each other: {found:#?}");
}

#[test]
fn the_check_finds_a_pair_that_imports_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\npub use b::Thing;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::Thing;\npub fn f() {}\n").unwrap();
    std::fs::write(
        src.join("b.rs"),
        "pub struct Thing;\nfn g() { crate::a::f() }\n",
    )
    .unwrap();
    assert_eq!(
        mutual_imports(src),
        vec![("a".to_string(), "b".to_string())]
    );
    std::fs::write(
        src.join("b.rs"),
        "pub struct Thing;\n#[cfg(test)]\nfn g() { crate::a::f() }\n",
    )
    .unwrap();
    assert!(mutual_imports(src).is_empty(), "test code does not count");
}
