//! The server's modules import one another without a cycle: read from the
//! outside, each module leans only on modules below it. Every path that
//! names a module of the crate (`crate::…`, `super::…`, `self::…` or a
//! child module's name, in a `use` or in code) is an edge from the file it
//! is written in to the module it names; a name a module only re-exports
//! (`pub use actor::spawn;`) leads on to the module that defines it, and
//! the re-export itself is an edge. The crate root counts too, so the root
//! only declares, re-exports and starts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module's path from the crate root (`[]` is the root).
type Module = Vec<String>;

/// The module a file holds: `lib.rs` the root, `a/mod.rs` and `a.rs` `a`.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).expect("a file of the crate");
    let mut parts: Module = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "mod")) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What each module re-exports: a name, and the absolute path it stands for.
type Reexports = BTreeMap<Module, BTreeMap<String, Vec<String>>>;

/// Collects the modules a file's paths name.
struct Edges<'a> {
    modules: &'a BTreeSet<Module>,
    reexports: &'a Reexports,
    /// The file's module, then the inline modules (`mod tests { … }`) entered.
    at: Module,
    file_depth: usize,
    found: BTreeSet<Module>,
}

impl Edges<'_> {
    /// Notes the module of the crate a path names, if any: the longest
    /// prefix of the path that is a file's module, followed through the
    /// names it re-exports.
    fn note(&mut self, segments: &[String]) {
        let Some(mut path) = absolute(self.modules, &self.at, segments) else {
            return;
        };
        // A re-export of a re-export is followed too (a few at most).
        for _ in 0..8 {
            let (target, n) = longest_module(self.modules, &path);
            let through = path
                .get(n)
                .and_then(|name| self.reexports.get(&target)?.get(name));
            match through {
                Some(to) if target != self.at[..self.file_depth] => {
                    // The re-export is no edge of this file: what it names is.
                    path = [&to[..], &path[n + 1..]].concat();
                }
                _ => break,
            }
        }
        let (target, _) = longest_module(self.modules, &path);
        // Within the file (itself, or its inline modules) is no edge.
        if target != self.at[..self.file_depth] {
            self.found.insert(target);
        }
    }
}

/// `segments` written in module `at`, from the crate root; `None` for a
/// path into another crate or to an item of `at` itself.
fn absolute(modules: &BTreeSet<Module>, at: &Module, segments: &[String]) -> Option<Vec<String>> {
    let mut path = at.clone();
    let rest = match segments.first().map(String::as_str) {
        Some("crate") => {
            path.clear();
            &segments[1..]
        }
        Some("self") => &segments[1..],
        Some("super") => {
            let supers = segments.iter().take_while(|s| *s == "super").count();
            path.truncate(path.len().saturating_sub(supers));
            &segments[supers..]
        }
        // A bare first name is a module of the crate only if it is a
        // child module here (else it is another crate or an item).
        Some(first) => {
            let child = [&at[..], &[first.to_string()]].concat();
            if !modules.contains(&child) {
                return None;
            }
            segments
        }
        None => return None,
    };
    path.extend(rest.iter().cloned());
    Some(path)
}

/// The longest prefix of `path` that is a module, and its length.
fn longest_module(modules: &BTreeSet<Module>, path: &[String]) -> (Module, usize) {
    (0..=path.len())
        .rev()
        .map(|n| (path[..n].to_vec(), n))
        .find(|(m, _)| modules.contains(m))
        .unwrap_or_default()
}

/// The names each file's module re-exports (`pub use …`), as absolute paths.
fn reexports(modules: &BTreeSet<Module>, files: &[(Module, syn::File)]) -> Reexports {
    let mut all = Reexports::new();
    for (module, file) in files {
        for item in &file.items {
            let syn::Item::Use(u) = item else { continue };
            if matches!(u.vis, syn::Visibility::Inherited) {
                continue;
            }
            let mut paths = Vec::new();
            use_paths(&u.tree, &mut Vec::new(), &mut paths);
            for path in paths {
                if let (Some(name), Some(to)) = (path.last(), absolute(modules, module, &path)) {
                    all.entry(module.clone())
                        .or_default()
                        .insert(name.clone(), to);
                }
            }
        }
    }
    all
}

fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push([&prefix[..], &[n.ident.to_string()]].concat()),
        syn::UseTree::Rename(r) => out.push([&prefix[..], &[r.ident.to_string()]].concat()),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Edges<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        use_paths(&item.tree, &mut Vec::new(), &mut paths);
        for path in paths {
            self.note(&path);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            self.note(&segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.content.is_some() {
            self.at.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.at.pop();
        }
    }
}

/// Each module of the crate under `src` and the modules it names.
fn graph(src: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let files: Vec<(Module, syn::File)> = paths
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("a readable file");
            let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (module_of(src, f), parsed)
        })
        .collect();
    let modules: BTreeSet<Module> = files.iter().map(|(m, _)| m.clone()).collect();
    let reexports = reexports(&modules, &files);
    let mut graph = BTreeMap::new();
    for (module, parsed) in &files {
        let mut edges = Edges {
            modules: &modules,
            reexports: &reexports,
            file_depth: module.len(),
            at: module.clone(),
            found: BTreeSet::new(),
        };
        edges.visit_file(parsed);
        graph.insert(module.clone(), edges.found);
    }
    graph
}

/// A cycle of `graph`, if it has one (depth-first search).
fn cycle(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn walk(
        at: &Module,
        graph: &BTreeMap<Module, BTreeSet<Module>>,
        path: &mut Vec<Module>,
        done: &mut BTreeSet<Module>,
    ) -> Option<Vec<Module>> {
        if let Some(i) = path.iter().position(|m| m == at) {
            return Some([&path[i..], std::slice::from_ref(at)].concat());
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.clone());
        for next in graph.get(at).into_iter().flatten() {
            if let Some(found) = walk(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(at.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| walk(m, graph, &mut Vec::new(), &mut done))
}

fn name(module: &Module) -> String {
    match module.is_empty() {
        true => "crate".into(),
        false => module.join("::"),
    }
}

#[test]
fn the_server_s_modules_import_one_another_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph(&src);
    assert!(
        graph.len() > 20,
        "the modules are found: {:?}",
        graph.keys()
    );
    if std::env::var_os("SHOW_MODULES").is_some() {
        for (m, to) in &graph {
            let to: Vec<String> = to.iter().map(name).collect();
            eprintln!("{} -> {}", name(m), to.join(", "));
        }
    }
    if let Some(found) = cycle(&graph) {
        let names: Vec<String> = found.iter().map(name).collect();
        panic!(
            "the modules import one another in a circle: {}",
            names.join(" -> ")
        );
    }
}

#[test]
fn the_check_finds_a_cycle_and_every_kind_of_path() {
    let dir = tempfile::tempdir().expect("a directory");
    let src = dir.path();
    std::fs::create_dir(src.join("live")).unwrap();
    let files = [
        (
            "lib.rs",
            "mod hub; mod live; mod words; pub use live::spawn;",
        ),
        ("hub.rs", "fn f() { crate::live::spawn(); }"),
        ("live/mod.rs", "mod actor; pub use actor::spawn;"),
        (
            "live/actor.rs",
            "use super::super::words::said; pub fn spawn() {}",
        ),
        (
            "words.rs",
            "pub fn said() {} #[cfg(test)] mod tests { use super::*; }",
        ),
    ];
    for (file, text) in files {
        std::fs::write(src.join(file), text).unwrap();
    }
    let g = graph(src);
    let m = |s: &str| -> Module {
        s.split("::")
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect()
    };
    // A name re-exported leads to the module that defines it; the
    // re-export is the facade's own edge.
    assert_eq!(g[&m("")], [m("live::actor")].into());
    assert_eq!(g[&m("hub")], [m("live::actor")].into());
    assert_eq!(g[&m("live")], [m("live::actor")].into());
    assert_eq!(g[&m("live::actor")], [m("words")].into());
    assert!(g[&m("words")].is_empty());
    assert_eq!(cycle(&g), None);
    // The words lean on the hub, which leans on them through the actor.
    std::fs::write(src.join("words.rs"), "pub fn said() { crate::hub::f(); }").unwrap();
    let found = cycle(&graph(src)).expect("a cycle");
    let names: Vec<String> = found.iter().map(name).collect();
    assert_eq!(names, ["live::actor", "words", "hub", "live::actor"]);
}
