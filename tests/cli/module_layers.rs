//! The workspace keeps its shape, read from the source as a newcomer would read it: no
//! import cycle between sibling modules anywhere (the studio's `src`, with `src/app`'s plain
//! types at the bottom and views at the top; every module tree of `core`; the Python
//! bindings), and no function of `src/app` longer than a screen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest function allowed in `src/app`, in lines.
const MAX_FUNCTION_LINES: usize = 80;

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn app_dir() -> PathBuf {
    workspace().join("src").join("app")
}

/// The source folders of the workspace's crates.
fn crate_sources() -> [PathBuf; 3] {
    let root = workspace();
    [root.join("src"), root.join("core").join("src"), root.join("bindings").join("python").join("src")]
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

/// The source without comments (line comments are enough: the workspace has no block
/// comments around code).
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The module a file of the crate whose sources are in `src` defines, as its path from the
/// crate's root (`[]`: lib.rs or main.rs; `engine/mod.rs` and `engine.rs`: `[engine]`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let Ok(rel) = file.strip_prefix(src) else { return Vec::new() };
    let mut path: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = path.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    let is_root = path.is_empty() && (stem == "lib" || stem == "main");
    if stem != "mod" && !is_root {
        path.push(stem.to_string());
    }
    path
}

/// The paths a path text names, its groups expanded: `super::{a, b::{c, d}}` names
/// `super::a`, `super::b::c` and `super::b::d`.
fn expand(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut rest = text.trim();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut part = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&std::mem::take(&mut part), &path, out);
                        continue;
                    }
                    _ => {}
                }
                part.push(c);
            }
            expand(&part, &path, out);
            return;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            break;
        }
        rest = rest[name.len()..].trim_start();
        // `use super::{self, x}`: `self` is the module the group is in.
        if name != "self" || path.is_empty() {
            path.push(name);
        }
        match rest.strip_prefix("::") {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
    }
    if !path.is_empty() {
        out.push(path);
    }
}

/// Every path `code` names from `crate::`, `super::` or `self::`, groups expanded.
fn paths_named(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            if code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut depth = 0;
            let end = code[i..]
                .char_indices()
                .find(|&(_, c)| match c {
                    '{' => {
                        depth += 1;
                        false
                    }
                    '}' if depth == 0 => true,
                    '}' => {
                        depth -= 1;
                        false
                    }
                    _ => depth == 0 && !(c.is_alphanumeric() || c == '_' || c == ':'),
                })
                .map_or(code.len(), |(k, _)| i + k);
            expand(&code[i..end], &[], &mut out);
        }
    }
    out
}

/// `path` as named in module `module`, from the crate's root.
fn resolve(module: &[String], path: &[String]) -> Vec<String> {
    let mut base = module.to_vec();
    let mut rest = path;
    if rest.first().is_some_and(|s| s == "crate") {
        return rest[1..].to_vec();
    }
    while let Some((first, after)) = rest.split_first() {
        match first.as_str() {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = after;
    }
    base.extend(rest.iter().cloned());
    base
}

/// Which modules use which, among the children of each folder module of the crate whose
/// sources are in `src`: keyed by the folder module (`src/app`, `core/src/engine`, ...),
/// then by a child, the siblings it names.
type Graphs = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn module_graphs(src: &Path) -> Graphs {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: Vec<(PathBuf, Vec<String>)> = files.into_iter().map(|f| (f.clone(), module_of(src, &f))).collect();
    let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (_, module) in &modules {
        for k in 0..module.len() {
            children.entry(module[..k].to_vec()).or_default().insert(module[k].clone());
        }
    }
    let name_of = |parent: &[String]| {
        let mut dir = src.to_path_buf();
        dir.extend(parent);
        dir.strip_prefix(workspace()).unwrap_or(&dir).display().to_string()
    };
    let mut graphs = Graphs::new();
    for (parent, kids) in &children {
        let graph = graphs.entry(name_of(parent)).or_default();
        for kid in kids {
            graph.entry(kid.clone()).or_default();
        }
    }
    for (file, module) in &modules {
        for named in paths_named(&code_of(file)) {
            let target = resolve(module, &named);
            for k in 0..module.len() {
                let parent = &module[..k];
                let Some(used) = target.get(k).filter(|_| target.starts_with(parent)) else { continue };
                if *used != module[k] && children.get(parent).is_some_and(|c| c.contains(used)) {
                    graphs
                        .entry(name_of(parent))
                        .or_default()
                        .entry(module[k].clone())
                        .or_default()
                        .insert(used.clone());
                }
            }
        }
    }
    graphs
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
fn no_module_depends_on_itself_through_its_siblings() {
    let mut cycles = Vec::new();
    let mut trees = 0;
    for src in crate_sources() {
        for (parent, graph) in module_graphs(&src) {
            trees += 1;
            let found = graph.keys().filter_map(|m| cycle_through(&graph, m)).map(|c| c.join(" → "));
            cycles.extend(found.map(|c| format!("{parent}: {c}")));
        }
    }
    assert!(trees > 15, "only {trees} module trees found");
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_app_is_layered_from_plain_types_up() {
    let graphs = module_graphs(&workspace().join("src"));
    let app = &graphs[&format!("src{}app", std::path::MAIN_SEPARATOR)];
    assert!(app.len() > 10, "the app's modules were not found: {app:?}");
    assert!(app["viewer"].contains("board"), "the reader misses imports: {:?}", app["viewer"]);
    assert!(app["model"].is_empty(), "model is the leaf of plain types, yet uses {:?}", app["model"]);
    let engine = &module_graphs(&workspace().join("core").join("src"))
        [&["core", "src", "engine"].join(std::path::MAIN_SEPARATOR_STR)];
    assert!(engine["tick"].contains("game"), "the reader misses imports: {:?}", engine["tick"]);
}

#[test]
fn the_path_reader_expands_groups_and_resolves_super() {
    let mut found = Vec::new();
    expand("super::{self, a, b::{c, d as e}}", &[], &mut found);
    let names: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["super", "super::a", "super::b::c", "super::b::d"]);
    let module: Vec<String> = ["engine", "tick"].map(String::from).to_vec();
    assert_eq!(resolve(&module, &["super".into(), "game".into()]), ["engine", "game"]);
    assert_eq!(resolve(&module, &["crate".into(), "replay".into()]), ["replay"]);
    let code = "use super::{game::Game, unit::Unit};\nlet x = crate::engine::config::Config::x();";
    let named: Vec<String> = paths_named(code).iter().map(|p| p.join("::")).collect();
    assert_eq!(named, ["crate::engine::config::Config::x", "super::game::Game", "super::unit::Unit"]);
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
