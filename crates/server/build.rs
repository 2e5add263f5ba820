//! Rebuilds the server when a file is added to `web/` or removed from it:
//! the embedded assets (rust-embed) otherwise notice only the files that
//! were there at the last build.
fn main() {
    println!("cargo:rerun-if-changed=../../web");
}
