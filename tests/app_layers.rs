//! The studio's app layer keeps its shape: no import cycle between the modules of `src/app`
//! (plain types at the bottom, views at the top, each importing only what is below it), and
//! no function longer than a screen. Read from the source, as a newcomer would read it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest function allowed in `src/app`, in lines.
const MAX_FUNCTION_LINES: usize = 80;

fn app_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join("app")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without comments (line comments are enough: the app has no block comments
/// around code).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The top-level module a file of `src/app` belongs to (`None`: `src/app/mod.rs`, the app).
fn top_module(app: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(app).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy().into_owned();
    if first == "mod.rs" {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_string())
}

/// The names right after `prefix` in `code` (`crate::app::X`, or `super::{X, Y::z}`).
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices(prefix) {
        if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[i + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(|s| s.trim().split("::").next().unwrap_or("").to_string()));
        } else {
            out.insert(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
        }
    }
    out.retain(|n| !n.is_empty() && n != "self");
    out
}

/// Which top-level modules of `src/app` each one uses.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let app = app_dir();
    let mut files = Vec::new();
    rust_files(&app, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(top) = top_module(&app, &file) else { continue };
        let code = code_of(&file);
        // From src/app/x.rs or src/app/x/mod.rs one `super::` reaches the app; from
        // src/app/x/y.rs it takes two.
        let depth = file.strip_prefix(&app).map(|r| r.components().count()).unwrap_or(1);
        let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
        let supers = if is_mod { depth - 1 } else { depth };
        let mut used = names_after(&code, "crate::app::");
        used.extend(names_after(&code, &"super::".repeat(supers)));
        used.remove(&top);
        graph.entry(top).or_default().extend(used);
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for used in graph.values_mut() {
        used.retain(|m| modules.contains(m));
    }
    graph
}

/// A cycle through `start`, if there is one.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                let mut cycle = path.clone();
                cycle.push(start.to_string());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_module_of_the_app_depends_on_itself_through_others() {
    let graph = module_graph();
    assert!(graph.len() > 10, "the app's modules were not found: {graph:?}");
    assert!(graph["viewer"].contains("board"), "the reader misses imports: {:?}", graph["viewer"]);
    let cycles: Vec<String> = graph.keys().filter_map(|m| cycle_through(&graph, m)).map(|c| c.join(" → ")).collect();
    assert!(cycles.is_empty(), "import cycles in src/app:\n{}", cycles.join("\n"));
    assert!(graph["model"].is_empty(), "model is the leaf of plain types, yet uses {:?}", graph["model"]);
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.entry("a".into()).or_default().insert("b".into());
    graph.entry("b".into()).or_default().insert("c".into());
    graph.entry("c".into()).or_default().insert("a".into());
    assert_eq!(cycle_through(&graph, "a"), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    if let Some(c) = graph.get_mut("c") {
        c.clear();
    }
    assert_eq!(cycle_through(&graph, "a"), None);
}

/// Functions of `code` as (name, first line, lines), found by their braces.
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(at) = trimmed.find("fn ") else { continue };
        let head = &trimmed[..at];
        let is_fn = head.is_empty() || head.split_whitespace().all(|w| w.starts_with("pub") || w == "const");
        if !is_fn || line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = trimmed[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let indent = line.len() - trimmed.len();
        let end = lines[i + 1..]
            .iter()
            .position(|l| l.len() > indent && l.starts_with(&line[..indent]) && l[indent..].starts_with('}'));
        if let Some(end) = end {
            out.push((name, i + 1, end + 2));
        }
    }
    out
}

#[test]
fn no_function_of_the_app_is_longer_than_a_screen() {
    let app = app_dir();
    let mut files = Vec::new();
    rust_files(&app, &mut files);
    let mut long = Vec::new();
    let mut counted = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (name, line, len) in functions(&text) {
            counted += 1;
            if len > MAX_FUNCTION_LINES {
                long.push(format!("{}:{line} {name}: {len} lines", file.display()));
            }
        }
    }
    assert!(counted > 200, "only {counted} functions found in {}", app.display());
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_function_reader_measures_a_function() {
    let code = "impl X {\n    pub fn short(&self) {\n        a();\n    }\n}\nfn top() {\n}\n";
    let found = functions(code);
    assert_eq!(found, vec![("short".to_string(), 2, 3), ("top".to_string(), 6, 2)]);
}
