//! `scripts/layers.sh` passes on the crate as it is and fails when the structure decays: an
//! import into a higher layer, a new cycle within a layer, a file in no layer. The broken
//! trees are copies of `src/` in a temporary folder, checked with `--src`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (this crate is `crates/xwire`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the check; its exit success and its output (stdout then stderr).
fn layers(args: &[&str]) -> (bool, String) {
    let out = Command::new("bash")
        .arg(root().join("scripts/layers.sh"))
        .args(args)
        .output()
        .expect("run bash scripts/layers.sh (needs bash and python3)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A copy of the crate's `src/`, removed on drop.
struct Copy(PathBuf);

impl Copy {
    fn new(name: &str) -> Copy {
        let dir = std::env::temp_dir().join(format!("xwire-layers-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &dir);
        Copy(dir)
    }

    /// Appends `code` to the file at `rel` (created if missing).
    fn append(&self, rel: &str, code: &str) {
        let path = self.0.join(rel);
        let mut text = fs::read_to_string(&path).unwrap_or_default();
        text.push_str(code);
        fs::write(&path, text).unwrap();
    }

    fn check(&self) -> (bool, String) {
        layers(&["--quiet", "--src", self.0.to_str().unwrap()])
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn the_crate_as_it_is_passes() {
    let (ok, out) = layers(&[]);
    assert!(ok, "scripts/layers.sh fails on the crate:\n{out}");
    assert!(out.contains("layers: ok"), "{out}");
    // The table lists each module with its layer.
    assert!(out.contains("layer 0 base"), "{out}");
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("reader ")),
        "{out}"
    );
}

#[test]
fn an_unchanged_copy_passes() {
    let (ok, out) = Copy::new("same").check();
    assert!(ok, "{out}");
}

#[test]
fn an_upward_import_fails_and_names_the_file() {
    let copy = Copy::new("up");
    copy.append("bytes.rs", "\nuse crate::tree::Document;\n");
    let (ok, out) = copy.check();
    assert!(!ok, "an upward import passed:\n{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("error:") && l.contains("bytes.rs:"))
        .unwrap_or_else(|| panic!("no error names bytes.rs:\n{out}"));
    assert!(line.contains("`crate::tree::Document` points up"), "{line}");
    assert!(
        line.contains("layer 0") && line.contains("layer 7"),
        "{line}"
    );
}

#[test]
fn an_upward_path_in_code_fails() {
    // Not a `use`: a grouped path across lines and a `super::` path written in a function.
    let copy = Copy::new("path");
    copy.append(
        "chars.rs",
        "\nuse crate::{\n    bytes,\n    c14n::C14nOptions,\n};\n",
    );
    copy.append(
        "binary/format.rs",
        "\nfn f() { super::model::Document::new(); }\n",
    );
    let (ok, out) = copy.check();
    assert!(!ok, "{out}");
    assert!(
        out.contains("chars.rs:") && out.contains("`crate::c14n::C14nOptions` points up"),
        "{out}"
    );
    assert!(
        out.contains("format.rs:") && out.contains("`super::model::Document::new`"),
        "{out}"
    );
}

#[test]
fn a_new_cycle_within_a_layer_fails() {
    // bytes and chars are both in the bottom layer: neither import points up, the pair cycles.
    let copy = Copy::new("cycle");
    copy.append("bytes.rs", "\nuse crate::chars::is_whitespace;\n");
    copy.append("chars.rs", "\nuse crate::bytes::same_bytes;\n");
    let (ok, out) = copy.check();
    assert!(!ok, "a new cycle passed:\n{out}");
    assert!(out.contains("error: import cycle bytes <-> chars"), "{out}");
}

#[test]
fn a_file_in_no_layer_fails_and_a_folder_passes_its_layer_on() {
    let copy = Copy::new("unlisted");
    copy.append("fresh.rs", "pub fn f() {}\n");
    // A new file in tree/ is in the tree's layer: importing c14n from it points up.
    copy.append("tree/extra.rs", "use crate::c14n::to_vec;\n");
    let (ok, out) = copy.check();
    assert!(!ok, "{out}");
    assert!(
        out.contains("fresh.rs: module `fresh` is in no layer"),
        "{out}"
    );
    assert!(
        out.contains("extra.rs:1: `crate::c14n::to_vec` points up"),
        "{out}"
    );
}

#[test]
fn test_code_may_import_from_any_layer() {
    let copy = Copy::new("test-code");
    copy.append(
        "bytes.rs",
        "\n#[cfg(test)]\nmod more {\n    use crate::tree::Document;\n}\n",
    );
    let (ok, out) = copy.check();
    assert!(ok, "{out}");
}

#[test]
fn a_shared_writer_part_that_imports_a_writer_fails() {
    // Both writers import every shared part of writer/, so a shared part that imports either
    // writer closes a cycle within the writer layer.
    let copy = Copy::new("writer-parts");
    copy.append("writer/tag.rs", "\nuse super::Writer;\n");
    copy.append("writer/sink.rs", "\nuse crate::binary::BinaryWriter;\n");
    let (ok, out) = copy.check();
    assert!(!ok, "a shared writer part imported a writer:\n{out}");
    assert!(out.contains("error: import cycle"), "{out}");
    assert!(
        out.contains("writer::tag -> writer:") && out.contains("`super::Writer`"),
        "{out}"
    );
    assert!(
        out.contains("writer::sink -> binary::writer:")
            && out.contains("`crate::binary::BinaryWriter`"),
        "{out}"
    );
}
